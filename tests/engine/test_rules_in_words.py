"""Issue 8, engine side: every numeric option has a range (item 4), numbers read well (item 11),
blind nil's score condition means what it says (item 13), every preset and house rule is
explained in plain words (item 14), and an unlooked seat's bids never show its cards (item 15)."""

from __future__ import annotations

import re

import pytest

from engine import PRESETS, Bid, BidNotAllowed, Phase, Ruleset, RulesetError
from engine.rules_text import explain
from engine.ruleset import RANGES, fmt_int
from tests.engine.helpers import DEAL, game_from

# -- item 4: ranges ------------------------------------------------------------------------------

HUGE = 9223372036854775808  # one past SQLite's INTEGER: the value that stopped a game for good


@pytest.mark.parametrize("option", sorted(RANGES))
def test_every_ranged_option_refuses_a_huge_value_naming_the_option_and_range(option: str) -> None:
    lo, hi, _ = RANGES[option]
    for value in (HUGE, -HUGE, hi + 1, lo - 1):
        with pytest.raises(RulesetError) as info:
            Ruleset.preset("standard", **{option: value})
        msg = str(info.value)
        assert option in msg, msg
        assert len(msg) < 200 and "9223372036854775808" not in msg  # a readable answer


@pytest.mark.parametrize(
    ("option", "value", "message"),
    [
        ("bag_value", HUGE, "bag_value (the points per bag) must be from −100 to 100, not 9,223,372…"),
        ("nil_value", -100, "nil_value (the points for nil) must be from 0 to 1,000, not −100"),
        ("target_score", 10, "target_score (the score that wins) must be from 50 to 10,000, not 10"),
        ("bag_limit", 0, "bag_limit (the bags that cost a penalty) must be from 1 to 100 (or off), not 0"),
        ("lose_score", 500, "lose_score (the mercy score, 500) must be below the target (500)"),
        ("max_hands", 0, "max_hands (the number of hands) must be from 1 to 1,000 (or off), not 0"),
    ],
)
def test_range_messages_are_specific(option: str, value: int, message: str) -> None:
    with pytest.raises(RulesetError) as info:
        Ruleset.preset("standard", **{option: value})
    assert str(info.value) == message


def test_the_ends_of_every_range_are_accepted() -> None:
    """Each end of each range is accepted and kept as given (not clamped, not replaced by a default)."""
    for option, (lo, hi, _) in RANGES.items():
        for value in (lo, hi):
            kw: dict[str, object] = {option: value}
            if option == "lose_score":
                kw["target_score"] = 10_000
                if value == hi:
                    continue  # must stay below the target: checked by the message test
            if option in ("board", "blind_bid_max"):
                kw.update(num_seats=6, decks=2, partnerships=False, blind_nil_pass=0)
                value = min(value, 17)
                kw[option] = value
            if option in ("blind_nil_pass", "nil_pass"):
                kw[option] = min(value, 12)
            rs = Ruleset.preset("standard", **kw)
            assert getattr(rs, option) == kw[option], (option, kw[option])  # taken as given


def test_every_preset_is_inside_the_ranges() -> None:
    for rs in PRESETS.values():
        for option, (lo, hi, _) in RANGES.items():
            value = getattr(rs, option)
            assert value is None or lo <= value <= hi, (rs.name, option)


def test_a_stored_ruleset_with_a_huge_value_is_refused_on_load() -> None:
    """A stored server default or record is checked again when it is used."""
    with pytest.raises(RulesetError, match="bag_value"):
        Ruleset.from_dict({"preset": "standard", "bag_value": HUGE, "bag_limit": None})


# -- item 11: numbers read well -------------------------------------------------------------------


def test_fmt_int_uses_a_real_minus_and_never_a_double_sign() -> None:
    assert fmt_int(-200) == "−200"
    assert fmt_int(1000) == "1,000"
    assert fmt_int(0) == "0"
    assert fmt_int(-HUGE).startswith("−") and len(fmt_int(-HUGE)) < 15


@pytest.mark.parametrize(
    "overrides",
    [
        {"lose_score": -200},
        {"bag_value": -10},
        {"bag_value": 0},
        {"bag_penalty": 0},
        {"nil_value": 0, "blind_nil_value": 0},
        {"blind_nil_min_deficit": 100},
    ],
)
def test_describe_and_explain_never_stack_signs(overrides: dict[str, int]) -> None:
    rs = Ruleset.preset("standard", **overrides)
    text = rs.describe() + "\n" + "\n".join(explain(rs))
    for bad in ("±-", "±−", "−-", "--", "−−", "+-", "+−", "-−"):
        assert bad not in text, (bad, text)


def test_describe_writes_negative_values_with_a_minus() -> None:
    rs = Ruleset.preset("standard", lose_score=-200, bag_value=-10)
    assert "mercy at −200" in rs.describe()
    assert "bags −10 each" in rs.describe()
    assert "10 bags = −100" in rs.describe()


# -- item 13: blind nil's score condition -----------------------------------------------------------


def test_min_deficit_0_lets_a_side_that_leads_bid_blind_nil() -> None:
    g = game_from(DEAL, "standard", scores=[370, 100])  # seat 0's side leads by 270
    assert not g.has_looked(0)
    assert Bid.BLIND_NIL in g.legal_bids(0)
    g.bid(0, "blind nil")
    assert g.bids[0] == Bid.BLIND_NIL


def test_min_deficit_0_applies_to_blind_bids_too() -> None:
    rs = Ruleset.preset("house", blind_bid_min_deficit=0, blind_nil_min_deficit=0)
    g = game_from(DEAL, rs, scores=[300, 0])
    assert Bid.of("blind", 5) in g.legal_bids(0)
    assert Bid.BLIND_NIL in g.legal_bids(0)


@pytest.mark.parametrize(
    ("scores", "allowed"),
    [([0, 100], True), ([0, 99], False), ([0, 250], True), ([100, 100], False), ([300, 0], False)],
)
def test_min_deficit_100_means_behind_by_100_or_more(scores: list[int], allowed: bool) -> None:
    g = game_from(DEAL, Ruleset.preset("standard", blind_nil_min_deficit=100), scores=scores)
    assert (Bid.BLIND_NIL in g.legal_bids(0)) is allowed
    assert g.has_looked(0) is not allowed


def test_blind_nil_refusal_is_in_plain_words() -> None:
    g = game_from(DEAL, Ruleset.preset("standard", blind_nil_min_deficit=100), scores=[370, 100])
    with pytest.raises(BidNotAllowed) as info:
        g.bid(0, "blind nil")
    assert str(info.value) == (
        "Blind nil is only allowed when your team trails by 100 or more (you lead by 270)."
    )
    assert info.value.rule.endswith("blind nil is only for a side behind by 100 or more (it leads by 270)")
    assert "deficit" not in str(info.value) + info.value.rule


def test_the_rules_text_states_the_condition_that_applies() -> None:
    line = next(x for x in explain(Ruleset.preset("house")) if x.startswith("Blind nil"))
    assert "behind by 100 points or more" in line
    line = next(x for x in explain(Ruleset.preset("standard")) if x.startswith("Blind nil"))
    assert "whatever the score" in line and "behind" not in line


# -- item 14: every preset and house rule in plain words --------------------------------------------


def _text(rs: Ruleset) -> str:
    return "\n".join(explain(rs))


def test_two_player_blind_nil_exchanges_with_the_discards_not_a_partner() -> None:
    text = _text(Ruleset.preset("two-player"))
    line = next(x for x in text.splitlines() if x.startswith("Blind nil"))
    assert "before you draw your first card" in line
    assert "up to 3 cards" in line and "at random from the discards" in line
    assert "partner" not in text
    assert "No deal" in text and "26" in text
    without = _text(Ruleset.preset("two-player", blind_nil_allowed=False))
    assert "Blind nil" not in without and "discards" not in without


@pytest.mark.parametrize(
    ("preset", "needles"),
    [
        (
            "standard",
            [
                "seats 1 + 3 against seats 2 + 4",
                "+100 if you take none",
                "−100 if you take any",
                "+200 / −200",
                "pass 3 cards",
                "every 10 bags cost 100 points",
                "first side to 500",
            ],
        ),
        ("classic-online", ["+100 if you take none"]),
        (
            "jokers-high",
            ["big joker and then the little joker are the two highest spades", "the 2♣ and 2♦ taken out"],
        ),
        ("deuces-high", ["2♠ and then the 2♦ rank above the ace of spades", "2♦ counts as a spade"]),
        ("whiz", ["bid exactly the number of spades you hold, or nil"]),
        ("mirrors", ["bid exactly the number of spades you hold; with no spade you bid nil"]),
        ("suicide", ["exactly one partner bids nil and the other bids a number"]),
        ("cutthroat", ["3 players, every player for themselves", "the 2♣ taken out, 17 cards each"]),
        ("solo", ["4 players, every player for themselves"]),
        ("five-player", ["the 2♦ and 2♥ taken out, 10 cards each"]),
        (
            "six-player",
            [
                "three teams of two",
                "seats 1 + 4 against seats 2 + 5 against seats 3 + 6",
                "both 2♣ taken out, 17 cards each",
                "the first one played wins",
            ],
        ),
        ("six-player-threes", ["two teams of three", "seats 1 + 3 + 5 against seats 2 + 4 + 6"]),
        ("six-player-solo", ["6 players, every player for themselves"]),
        ("short", ["first side to 250", "every 5 bags cost 50 points"]),
        (
            "house",
            [
                "Blind bids: a side behind by 100 points or more may bid 1 to 7 tricks",
                "20 per blind trick",
                "10 for 200: a side that bids 10 or more tricks scores +200",
                "−200 if not",
                "Boston: a side that bids all 13 tricks and takes them all wins the game",
                "Mercy: a side at −200 points or below",
            ],
        ),
        ("two-player", ["2 players, every player for themselves"]),
    ],
)
def test_each_preset_is_explained(preset: str, needles: list[str]) -> None:
    text = _text(Ruleset.preset(preset))
    for needle in needles:
        assert needle in text, (needle, text)


def test_every_preset_has_an_explanation_of_what_makes_it_differ() -> None:
    """A flag that is on always has its own line (named by the words players use)."""
    words = {
        "jokers": "Jokers high",
        "deuces_high": "Deuces high",
        "whiz": "Whiz:",
        "mirrors": "Mirrors:",
        "suicide": "Suicide:",
        "blind_bids": "Blind bids:",
        "ten_for_200": "10 for 200:",
        "boston": "Boston:",
        "misdeal_no_spades": "Misdeal:",
        "first_trick_two_clubs": "First trick:",
        "two_player_draw": "No deal:",
    }
    for rs in PRESETS.values():
        text = _text(rs)
        for flag, word in words.items():
            assert (word in text) is bool(getattr(rs, flag)), (rs.name, flag)


def test_house_rules_change_the_numbers_in_the_text() -> None:
    rs = Ruleset.preset(
        "standard",
        target_score=300,
        nil_value=50,
        bag_limit=5,
        bag_penalty=50,
        board=4,
        max_hands=8,
        first_trick_two_clubs=True,
        misdeal_no_spades=True,
        spades_must_be_broken=False,
        bag_value=0,
    )
    text = _text(rs)
    for needle in (
        "first side to 300",
        "+50 if you take none",
        "every 5 bags cost 50 points",
        "at least 4 tricks",
        "after 8 hands",
        "whoever holds the 2♣ leads it",
        "no spade may show their hand",
        "Spades may be led at any time",
        "scores no points",
    ):
        assert needle in text, needle
    assert "Bags never cost a penalty." in _text(Ruleset.preset("standard", bag_limit=None))


def test_deuces_high_all_and_two_decks_last_wins() -> None:
    assert "2♠, 2♦, 2♣, 2♥" in _text(Ruleset.preset("deuces-high", deuces_high_all=True))
    assert "the later one played wins" in _text(Ruleset.preset("six-player", six_player_first_wins=False))


def test_no_nil_says_what_a_zero_bid_is() -> None:
    text = _text(Ruleset.preset("classic-online", nil_allowed=False))
    assert "No nil: a bid of 0 is a contract to take no trick" in text
    assert not re.search(r"^Nil:", text, re.M)


# -- item 15: an unlooked seat's bids never show its cards ---------------------------------------------


def _spades(g: object, seat: int) -> int:
    from engine.cards import SPADES, suit_of

    return sum(1 for c in g.hand_cards(seat) if suit_of(c) == SPADES)  # type: ignore[attr-defined]


@pytest.mark.parametrize("preset", ["whiz"])
def test_whiz_with_blind_nil_hides_the_spade_count_until_the_seat_looks(preset: str) -> None:
    rs = Ruleset.preset(preset, blind_nil_allowed=True)
    g = game_from(DEAL, rs)
    assert g.phase is Phase.BID and g.to_act == 0 and not g.has_looked(0)
    shown = g.legal_bids(0)
    assert shown == [Bid.BLIND_NIL]  # nothing that depends on the cards
    assert all(getattr(a, "bid", Bid.BLIND_NIL).is_blind for a in g.legal_actions(0))
    with pytest.raises(BidNotAllowed) as info:
        g.bid(0, 7)
    assert "look at your cards first" in str(info.value) and "7" not in str(info.value)
    assert not g.has_looked(0)
    g.look(0)
    assert g.legal_bids(0) == [Bid.tricks(7), Bid.NIL]  # seat 0 holds seven spades


def test_a_seat_that_may_not_go_blind_sees_its_whiz_bid_at_once() -> None:
    g = game_from(DEAL, "whiz")  # the whiz preset has no blind nil: every seat looked
    assert g.has_looked(0) and g.legal_bids(0) == [Bid.tricks(7), Bid.NIL]
