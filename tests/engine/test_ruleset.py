import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import PRESETS, Ruleset, RulesetError
from engine.bots.knowledge import beats, card_tables
from engine.cards import COPY_OFFSET, parse_card
from engine.ruleset import tables, winning_play


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
    assert d == {"preset": "standard", "target_score": 300, "blind_nil_min_deficit": 100, "lose_score": -200}
    assert Ruleset.from_dict(json.loads(json.dumps(d))) == rs
    assert "mercy at −200" in rs.describe()


@pytest.mark.parametrize(
    ("name", "seats", "hand", "deck"),
    [
        ("standard", 4, 13, 52),
        ("cutthroat", 3, 17, 51),
        ("five-player", 5, 10, 50),
        ("six-player", 6, 17, 102),
        ("jokers-high", 4, 13, 52),
        ("two-player", 2, 13, 52),
    ],
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
    [
        ({"blind_bids": True}, "blind bids can't apply"),
        ({"num_seats": 7}, "2 to 6 players"),
        ({"nil_allowed": False}, "Blind nil needs nil"),
        ({"mirrors": True, "whiz": False}, "blind nil can't apply"),
        ({"suicide": True, "board": 4, "whiz": False}, "Suicide and a board"),
        ({"bogus": 1}, '"bogus" is not a ruleset option'),
        ({"target_score": "500"}, "must be a whole number"),
        ({"jokers": 1}, "must be true or false"),
    ],
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


# -- who takes a trick ------------------------------------------------------------------------


def _winner(rs: Ruleset, plays: list[tuple[int, str]]) -> tuple[int, int]:
    t = tables(rs)
    return winning_play([(s, parse_card(c)) for s, c in plays], t.suit, t.power, not rs.six_player_first_wins)


def test_winning_play_highest_of_the_led_suit_unless_a_spade_is_played() -> None:
    rs = Ruleset()
    assert _winner(rs, [(1, "5H"), (2, "AC"), (3, "3H"), (0, "4H")]) == (1, parse_card("5H"))
    assert _winner(rs, [(1, "5H"), (2, "KH"), (3, "AD"), (0, "9H")]) == (2, parse_card("KH"))
    assert _winner(rs, [(1, "5H"), (2, "2S"), (3, "AH"), (0, "3S")]) == (0, parse_card("3S"))
    assert _winner(rs, [(3, "QS"), (0, "AH")]) == (3, parse_card("QS"))


def test_winning_play_counts_jokers_and_high_deuces_as_top_spades() -> None:
    jokers = Ruleset.preset("jokers-high")
    assert _winner(jokers, [(0, "AS"), (1, "BJ"), (2, "LJ"), (3, "KS")]) == (1, parse_card("BJ"))
    assert _winner(jokers, [(0, "AH"), (1, "2H"), (2, "3H"), (3, "4H")]) == (0, parse_card("AH"))


def test_winning_play_identical_cards_first_or_last_as_the_ruleset_says() -> None:
    ace, twin = parse_card("AH"), parse_card("AH") + COPY_OFFSET
    first = Ruleset.preset("six-player")
    last = Ruleset.preset("six-player", six_player_first_wins=False)
    trick = [(0, "KH"), (1, "AH"), (2, "2H")]
    t = tables(first)
    plays = [(s, parse_card(c)) for s, c in trick] + [(3, twin)]
    assert winning_play(plays, t.suit, t.power, False) == (1, ace)
    assert winning_play(plays, t.suit, t.power, True) == (3, twin)
    assert _winner(first, trick) == _winner(last, trick) == (1, ace)


@pytest.mark.parametrize("name", ["standard", "jokers-high", "six-player", "five-player"])
@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_winning_play_agrees_with_the_bots_beats(name: str, data: st.DataObject) -> None:
    """The bots' pairwise ``beats``, folded over a trick, names the same winner."""
    for first_wins in (True, False):
        rs = Ruleset.preset(name, six_player_first_wins=first_wins)
        t = tables(rs)
        ct = card_tables(rs)
        cards = data.draw(st.lists(st.sampled_from(t.deck), min_size=1, max_size=rs.num_seats, unique=True))
        trick = [(s, c) for s, c in enumerate(cards)]
        best = trick[0]
        for play in trick[1:]:
            if beats(ct, play[1], best[1]):
                best = play
        assert winning_play(trick, t.suit, t.power, not first_wins) == best


def test_overrides_are_worked_out_once_and_handed_out_as_a_fresh_dict() -> None:
    import dataclasses

    rs = dataclasses.replace(PRESETS["standard"], bag_limit=5)
    first = rs.overrides()
    first["bag_limit"] = 99  # a caller's change never reaches the ruleset
    assert rs.overrides() == {"bag_limit": 5}
    assert rs.to_dict() == {"preset": "standard", "bag_limit": 5}
    # a ruleset derived from it works its own out
    assert dataclasses.replace(rs, bag_limit=10).overrides() == {}
    assert rs == dataclasses.replace(PRESETS["standard"], bag_limit=5)  # (the cache is no field)
