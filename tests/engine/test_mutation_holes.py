"""Holes the mutation run over engine/scoring.py and engine/ruleset.py found (docs/TESTING.md).

Each test names the edit that used to pass the whole suite."""

from __future__ import annotations

import pytest

from engine import PRESETS, Bid, Ruleset, RulesetError
from engine.ruleset import fmt_int
from engine.scoring import game_winner, hand_totals, score_hand

STD = Ruleset.preset("standard")


def _bids(*values: int | str) -> list[Bid]:
    return [Bid.parse(v) if v not in (0,) else Bid.NIL for v in values]


# -- scoring ------------------------------------------------------------------------------------


def test_reaching_the_target_exactly_wins() -> None:
    """``>=`` -> ``>``: a side on exactly 500 has reached 500."""
    sides = score_hand(STD, _bids(3, 3, 3, 3), [3, 3, 4, 3], [0, 0], [0, 0])
    assert game_winner(STD, [500, 430], sides, 7) == (0, "target")
    assert game_winner(STD, [499, 430], sides, 7) == (None, None)


def test_the_breakdown_names_10_for_200_and_boston_and_carries_the_bags_before() -> None:
    rs = Ruleset.preset("standard", ten_for_200=True, boston=True)
    made, other = score_hand(rs, _bids(7, 0, 6, 0), [7, 0, 6, 0], [120, 80], [4, 9])
    assert made.notes == ("10 for 200", "Boston") and made.boston
    assert other.notes == () and not other.boston
    assert (made.bags_before, other.bags_before) == (4, 9)
    assert (made.score_before, made.score_after) == (120, 320)
    big, _ = score_hand(rs, _bids(6, 1, 4, 1), [6, 1, 5, 1], [0, 0], [0, 0])
    assert big.notes == ("10 for 200",)


def test_a_missing_bid_is_named() -> None:
    with pytest.raises(ValueError, match=r"^seat 2 has not bid$"):
        score_hand(STD, [Bid.tricks(3), Bid.tricks(3), None, Bid.tricks(3)], [3, 3, 4, 3], [0, 0], [0, 0])
    with pytest.raises(ValueError, match=r"^seat 1 has not bid$"):
        hand_totals(STD, [Bid.tricks(3), None, Bid.tricks(3), Bid.tricks(3)], [3, 3, 4, 3], [0, 0], [0, 0])


def test_hand_totals_of_a_side_of_nils_only() -> None:
    """No contract at all: only the nils and their bags score (the fast path agrees)."""
    bids = [Bid.tricks(5), Bid.NIL, Bid.tricks(4), Bid.BLIND_NIL]
    tricks = [6, 1, 6, 0]
    slow = score_hand(STD, bids, tricks, [0, 0], [0, 0])
    assert slow[1].made is None and slow[1].total == -100 + 200 + 1
    assert hand_totals(STD, bids, tricks, [0, 0], [0, 0]) == (
        [s.score_after for s in slow],
        [s.bags_after for s in slow],
    )


# -- ruleset: score conditions and numbers ----------------------------------------------------------


def test_blind_bids_open_at_exactly_the_margin() -> None:
    rs = Ruleset.preset("house")
    assert rs.blind_bids_open(100) and rs.blind_nil_open(100)
    assert not rs.blind_bids_open(99) and not rs.blind_nil_open(99)
    assert not Ruleset.preset("standard").blind_bids_open(500)  # no blind bids at all


def test_fmt_int_cuts_only_numbers_too_long_to_read() -> None:
    assert fmt_int(9_999_999_999) == "9,999,999,999"  # 13 characters: shown whole
    assert fmt_int(99_999_999_999) == "99,999,99…"  # 14: cut
    assert fmt_int(-99_999_999_999) == "−99,999,99…"


@pytest.mark.parametrize(
    ("option", "value"), [("lose_score", -20_000), ("max_hands", 5000), ("bag_limit", 101)]
)
def test_options_that_can_be_off_say_so(option: str, value: int) -> None:
    with pytest.raises(RulesetError) as info:
        Ruleset.preset("standard", **{option: value})
    assert "(or off)" in str(info.value)
    with pytest.raises(RulesetError) as info:
        Ruleset.preset("standard", nil_value=5000)
    assert "(or off)" not in str(info.value)


# -- ruleset: names, overrides and JSON ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("classic_online", "classic-online"),
        ("Classic Online", "classic-online"),
        (" SIX_PLAYER ", "six-player"),
        ("six player threes", "six-player-threes"),
    ],
)
def test_preset_names_as_people_type_them(name: str, expected: str) -> None:
    assert Ruleset.preset(name).name == expected


def test_with_options_changes_only_what_it_names() -> None:
    rs = Ruleset.preset("house").with_options(target_score=300)
    assert rs.target_score == 300 and rs.boston and rs.name == "house"
    assert rs.overrides() == {"target_score": 300}
    with pytest.raises(RulesetError, match='"colour" is not a ruleset option'):
        Ruleset.preset("house").with_options(colour="red")


def test_a_custom_name_round_trips_and_is_not_an_override() -> None:
    rs = Ruleset.preset("standard").with_options(name="friday night", bag_limit=5)
    assert rs.overrides() == {"bag_limit": 5}
    assert rs.to_dict() == {"preset": "standard", "name": "friday night", "bag_limit": 5}
    assert rs.to_json() == rs.to_dict()
    assert Ruleset.from_dict(rs.to_dict()) == rs


def test_to_json_is_the_bare_name_only_without_overrides() -> None:
    assert STD.to_json() == "standard"
    assert Ruleset.preset("short", bag_limit=6).to_json() == {"preset": "short", "bag_limit": 6}
    assert Ruleset.from_dict({"target_score": 300}) == Ruleset.preset("standard", target_score=300)


# -- ruleset: the one-line description ------------------------------------------------------------

DESCRIBED = {
    "standard": "standard: to 500 · nil ±100 · blind nil ±200 (pass 3) · 10 bags = −100",
    "classic-online": "classic-online: to 500 · nil ±100 · 10 bags = −100",
    "two-player": "two-player: to 500 · 2 players solo · draw to 13 · nil ±100 · "
    "blind nil ±200 (swap up to 3) · 10 bags = −100",
    "cutthroat": "cutthroat: to 500 · 3 players solo · nil ±100 · blind nil ±200 · 10 bags = −100",
    "solo": "solo: to 500 · 4 players solo · nil ±100 · blind nil ±200 · 10 bags = −100",
    "five-player": "five-player: to 500 · 5 players solo · nil ±100 · blind nil ±200 · 10 bags = −100",
    "six-player": "six-player: to 500 · 6 players, teams of 2 · two decks · nil ±100 · "
    "blind nil ±200 (pass 3) · 10 bags = −100",
    "six-player-threes": "six-player-threes: to 500 · 6 players, teams of 3 · two decks · nil ±100 · "
    "blind nil ±200 · 10 bags = −100",
    "six-player-solo": "six-player-solo: to 500 · 6 players solo · two decks · nil ±100 · blind nil ±200 · "
    "10 bags = −100",
    "jokers-high": "jokers-high: to 500 · jokers high · nil ±100 · blind nil ±200 (pass 3) · 10 bags = −100",
    "deuces-high": "deuces-high: to 500 · deuces high · nil ±100 · blind nil ±200 (pass 3) · 10 bags = −100",
    "jokers-deuces": "jokers-deuces: to 500 · jokers high · deuces high · nil ±100 · "
    "blind nil ±200 (pass 3) · 10 bags = −100",
    "whiz": "whiz: to 500 · nil ±100 · 10 bags = −100 · whiz",
    "mirrors": "mirrors: to 500 · nil ±100 · 10 bags = −100 · mirrors",
    "suicide": "suicide: to 500 · nil ±100 · 10 bags = −100 · suicide",
    "short": "short: to 250 · nil ±100 · blind nil ±200 (pass 3) · 5 bags = −50",
    "house": "house: to 500 · nil ±100 · blind nil ±200 (pass 3, down 100+) · blind bids to 7 (down 100+) · "
    "10 bags = −100 · 10 for 200 · Boston wins · mercy at −200",
}


def test_every_preset_is_described() -> None:
    assert set(DESCRIBED) == set(PRESETS)
    for name, line in DESCRIBED.items():
        assert PRESETS[name].describe() == line
        assert str(PRESETS[name]) == line


@pytest.mark.parametrize(
    ("overrides", "line"),
    [
        (
            {
                "deuces_high": True,
                "deuces_high_all": True,
                "first_trick_two_clubs": True,
                "misdeal_no_spades": True,
                "spades_must_be_broken": False,
                "board": 4,
                "max_hands": 12,
                "bag_value": 2,
                "nil_pass": 1,
            },
            "standard: to 500 · deuces high (all four) · nil ±100 (pass 1) · blind nil ±200 (pass 3) · "
            "10 bags = −100 · bags +2 each · 2♣ leads · misdeal on no spades · spades lead any time · "
            "board 4 · "
            "12 hands max",
        ),
        (
            {
                "nil_allowed": False,
                "blind_nil_allowed": False,
                "blind_nil_pass": 0,
                "bag_value": 0,
                "bag_limit": None,
            },
            "standard: to 500 · no nil · bags worth 0",
        ),
        (
            {"blind_bids": True, "blind_bid_min_deficit": 0, "bag_value": -10},
            "standard: to 500 · nil ±100 · blind nil ±200 (pass 3) · blind bids to 7 · 10 bags = −100 · "
            "bags −10 each",
        ),
        (
            {
                "jokers": True,
                "whiz": True,
                "blind_nil_allowed": False,
                "blind_nil_pass": 0,
                "ten_for_200": True,
            },
            "standard: to 500 · jokers high · nil ±100 · 10 bags = −100 · whiz · 10 for 200",
        ),
        (
            {"suicide": True, "blind_nil_allowed": False, "blind_nil_pass": 0, "boston": True},
            "standard: to 500 · nil ±100 · 10 bags = −100 · suicide · Boston wins",
        ),
    ],
)
def test_house_rules_are_described(overrides: dict[str, object], line: str) -> None:
    assert Ruleset.preset("standard", **overrides).describe() == line


def test_two_player_describes_its_swap_and_condition() -> None:
    assert Ruleset.preset("two-player", blind_nil_min_deficit=100).describe() == (
        "two-player: to 500 · 2 players solo · draw to 13 · nil ±100 · "
        "blind nil ±200 (swap up to 3, down 100+) · 10 bags = −100"
    )
    assert Ruleset.preset("mirrors", deuces_high=True).describe() == (
        "mirrors: to 500 · deuces high · nil ±100 · 10 bags = −100 · mirrors"
    )


def test_two_player_without_the_exchange_describes_no_swap() -> None:
    assert Ruleset.preset("two-player", blind_nil_pass=0).describe() == (
        "two-player: to 500 · 2 players solo · draw to 13 · nil ±100 · blind nil ±200 · 10 bags = −100"
    )


def test_the_default_preset_is_standard() -> None:
    assert Ruleset.preset() is PRESETS["standard"] == STD
