import json

import pytest

from engine import PRESETS, Ruleset, RulesetError
from engine.ruleset import tables


def test_standard_defaults() -> None:
    rs = Ruleset.preset("standard")
    assert rs == Ruleset()
    assert rs.num_seats == 4 and rs.target_score == 500 and rs.bag_limit == 10
    assert rs.sides == ((0, 2), (1, 3))
    assert rs.partner_of(1) == 3 and rs.side_of(3) == 1
    assert rs.describe().startswith("standard: to 500 · nil ±100 · blind nil ±200")
    assert rs.to_json() == "standard"


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_presets_round_trip_through_json(name: str) -> None:
    rs = PRESETS[name]
    assert Ruleset.from_dict(json.loads(json.dumps(rs.to_dict()))) == rs
    assert Ruleset.from_dict(rs.to_json()) == rs
    t = tables(rs)
    assert len(t.deck) >= rs.num_seats * rs.hand_size
    assert len(set(t.deck)) == len(t.deck)
    assert rs.describe().startswith(name + ":")


def test_overrides_round_trip() -> None:
    rs = Ruleset.preset("standard", target_score=300, blind_nil_min_deficit=100, lose_score=-200)
    d = rs.to_dict()
    assert d == {"preset": "standard", "target_score": 300, "blind_nil_min_deficit": 100,
                 "lose_score": -200}
    assert Ruleset.from_dict(json.loads(json.dumps(d))) == rs
    assert "mercy at -200" in rs.describe()


@pytest.mark.parametrize(
    ("name", "seats", "hand", "deck"),
    [("standard", 4, 13, 52), ("cutthroat", 3, 17, 51), ("five-player", 5, 10, 50),
     ("six-player", 6, 17, 102), ("jokers-high", 4, 13, 52), ("two-player", 2, 13, 52)],
)
def test_table_sizes(name: str, seats: int, hand: int, deck: int) -> None:
    rs = Ruleset.preset(name)
    assert (rs.num_seats, rs.hand_size, len(rs.deck)) == (seats, hand, deck)


def test_six_player_teams() -> None:
    assert Ruleset.preset("six-player").sides == ((0, 3), (1, 4), (2, 5))
    assert Ruleset.preset("six-player-threes").sides == ((0, 2, 4), (1, 3, 5))
    assert Ruleset.preset("six-player-solo").num_sides == 6


@pytest.mark.parametrize(
    ("overrides", "message"),
    [({"blind_bids": True}, "blind bids can't apply"),
     ({"num_seats": 7}, "2 to 6 players"),
     ({"nil_allowed": False}, "Blind nil needs nil"),
     ({"mirrors": True, "whiz": False}, "blind nil can't apply"),
     ({"suicide": True, "board": 4, "whiz": False}, "Suicide and a board"),
     ({"bogus": 1}, '"bogus" is not a ruleset option'),
     ({"target_score": "500"}, "must be a whole number"),
     ({"jokers": 1}, "must be true or false")],
)
def test_impossible_combinations(overrides: dict, message: str) -> None:
    base = "whiz" if "blind_bids" in overrides else "standard"
    with pytest.raises(RulesetError, match=message):
        Ruleset.preset(base, **overrides)


def test_unknown_preset() -> None:
    with pytest.raises(RulesetError, match="is not a ruleset"):
        Ruleset.preset("bridge")


def test_custom_named_rulesets_round_trip() -> None:
    rs = Ruleset(name="league", num_seats=3, partnerships=False, blind_nil_pass=0, target_score=300)
    assert rs.to_dict()["name"] == "league"
    assert Ruleset.from_dict(json.loads(json.dumps(rs.to_dict()))) == rs
    assert Ruleset.from_dict(rs.to_json()) == rs
    assert rs.describe().startswith("league: to 300 · 3 players solo")


def test_two_player_has_blind_nil_and_it_can_be_turned_off() -> None:
    rs = Ruleset.preset("two-player")  # RULES.md section 3: blind nil with a 3-card exchange
    assert rs.two_player_draw and rs.blind_nil_allowed and rs.blind_nil_pass == 3
    assert "swap up to 3" in rs.describe()
    assert Ruleset.preset("two-player-blind") == rs  # the earlier preset's name still loads
    assert Ruleset.from_dict({"preset": "two-player-blind"}) == rs
    off = Ruleset.preset("two-player", blind_nil_allowed=False)
    assert not off.blind_possible and off.to_dict() == {"preset": "two-player", "blind_nil_allowed": False}
    assert Ruleset.from_dict(off.to_dict()) == off
    with pytest.raises(RulesetError, match="Blind bids with the two-player draw"):
        Ruleset.preset("two-player", blind_bids=True)
