"""Malformed hand records and impossible rulesets (issue 16): every refusal names what is wrong,
in one line, and nothing half-built comes out."""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from engine import Game, RecordError, Ruleset, RulesetError
from engine.record import load_game, replay, replay_file
from tests.engine.helpers import ROOT, suits_record

# -- records: shapes ------------------------------------------------------------------------------


def _refused(record: Any) -> str:
    with pytest.raises(RecordError) as info:
        replay(record)
    return str(info.value)


Change = Callable[[dict[str, Any]], Any]


def _set(key: str, value: Any) -> Change:
    return lambda r: r.__setitem__(key, value)


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        (_set("format", "spades-hand/2"), 'format: unknown format "spades-hand/2"; expected spades-hand/1'),
        (_set("ruleset", 7), 'ruleset: A ruleset is a preset name or an object with a "preset" key'),
        (_set("ruleset", {"preset": "standard", "name": ""}), 'ruleset: A ruleset "name" must be a text'),
        (
            _set("ruleset", {"preset": "standard", "bag_value": 10**20}),
            "ruleset: bag_value (the points per bag) must be from −100 to 100, not 100,000,0…",
        ),
        (_set("dealer", "3"), 'dealer: the dealer must be a whole number, not "3"'),
        (_set("dealer", True), "dealer: the dealer must be a whole number, not true"),
        (_set("hand_no", 1.5), "hand_no: the hand number must be a whole number, not 1.5"),
        (_set("deal", "AS KS"), "deal: the deal must list the cards of all 4 seats"),
        (lambda r: r["deal"].pop(), "deal: the deal must list the cards of all 4 seats"),
        (lambda r: r["deal"].__setitem__(2, "AC KC"), "deal[2]: a seat's cards must be a list"),
        (lambda r: r["deal"][1].__setitem__(3, 12), "deal[1][3]: 12 is not a card"),
        (lambda r: r["deal"][3].__setitem__(0, "BJ"), "deal[3][0]: BJ is not in the classic-online deck"),
        (_set("before", [0, 0]), "before: before must be an object with scores and bags"),
        (_set("before", {"scores": [1, 2, 3], "bags": [0, 0]}), "before.scores: scores must list 2 sides"),
        (
            _set("before", {"scores": [1, "2"], "bags": [0, 0]}),
            'before.scores[1]: scores must be a whole number, not "2"',
        ),
        (
            _set("before", {"scores": [0, 0], "bags": [10, 0]}),
            "before.bags[0]: 10 bags can't be carried: the bag limit is 10",
        ),
        (_set("bids", {"0": 13}), "bids: bids must be a list of [seat, bid]"),
        (lambda r: r["bids"].__setitem__(0, 13), "bids[0]: a bid is written [seat, bid]"),
        (lambda r: r["bids"].__setitem__(0, [0, 13, 1]), "bids[0]: a bid is written [seat, bid]"),
        (lambda r: r["bids"].__setitem__(0, [9, 13]), "bids[0]: there is no seat 9"),
        (lambda r: r["bids"].__setitem__(0, ["0", 13]), 'bids[0]: the seat must be a whole number, not "0"'),
        (
            lambda r: r["bids"].__setitem__(0, [0, "lots"]),
            'bids[0]: "lots" is not a bid; bid a number of tricks (like 4), nil, blind nil or a blind number '
            "(like blind 6)",
        ),
        (
            lambda r: r["bids"].__setitem__(0, [0, -1]),
            "bids[0]: -1 is not a bid; bids are 0 or more tricks, nil or blind nil",
        ),
        (lambda r: r["bids"].append([0, 2]), "bids[4]: bidding is already over"),
        (_set("passes", {"0": []}), "passes: passes must be a list of [seat, cards]"),
        (_set("passes", [[0, ["2S", "3S", "4S"]]]), "passes[0]: no cards are passed in this hand"),
        (_set("plays", "AS 2H"), "plays: plays must be a list of cards"),
        (lambda r: r["plays"].__setitem__(0, None), "plays[0]: null is not a card"),
    ],
)
def test_malformed_records_are_refused_naming_the_part(change: Change, expected: str) -> None:
    rec = copy.deepcopy(suits_record())
    change(rec)
    assert _refused(rec) == expected


@pytest.mark.parametrize("record", [[], "standard", 5, None])
def test_a_record_that_is_not_an_object(record: Any) -> None:
    assert _refused(record) == "a hand record is a JSON object"


def test_a_record_without_format_or_before_is_a_new_game() -> None:
    rec = suits_record()
    del rec["format"], rec["before"]
    out = replay(rec)
    # seat 0 bid 13 and took them (130), seat 2's nil made (+100); seats 1+3 bid 3, took none
    assert out["scores"] == [230, -30] and out["bags"] == [0, 0]


def test_an_unknown_option_in_a_record_lists_the_options() -> None:
    rec = {**suits_record(), "ruleset": {"preset": "standard", "colour": "red"}}
    msg = _refused(rec)
    assert msg.startswith('ruleset: "colour" is not a ruleset option; options are bag_limit, ')
    assert "\n" not in msg


def _nil_record() -> dict[str, Any]:
    """A standard hand with a blind nil, as the engine writes it."""
    g = Game.new("standard", seed="malformed", dealer=3)
    for seat, bid in ((0, "blind nil"), (1, 3), (2, 3), (3, 3)):
        g.bid(seat, bid)
    while not g.hand_records:
        seat = g.seats_to_act()[0]
        g.apply(g.legal_actions(seat)[0])
    rec = g.hand_records[0]
    assert rec["passes"] and replay(rec) == rec["result"]
    return copy.deepcopy(rec)


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        (lambda r: r["passes"].__setitem__(0, ["0", ["2S"]]), "passes[0]: the seat must be a whole number"),
        (lambda r: r["passes"].__setitem__(0, [0]), "passes[0]: a pass is written [seat, [cards]]"),
        (lambda r: r["passes"].__setitem__(0, [7, []]), "passes[0]: there is no seat 7"),
        (
            lambda r: r["passes"].__setitem__(0, [r["passes"][0][0], ["ZZ", "2S", "3S"]]),
            'passes[0][0]: "ZZ" is not a card',
        ),
        (lambda r: r["passes"].append(r["passes"][0]), "passes[2]: no cards are passed now"),
    ],
)
def test_malformed_passes(change: Change, expected: str) -> None:
    rec = _nil_record()
    change(rec)
    assert _refused(rec).startswith(expected)


def _two_player_record() -> dict[str, Any]:
    g = Game.new("two-player", seed="malformed-2p", dealer=0)
    g.bid(1, "blind nil")
    while not g.hand_records:
        seat = g.seats_to_act()[0]
        acts = g.legal_actions(seat)
        g.apply(acts[-1] if g.phase.name == "PASS" else acts[0])
    rec = g.hand_records[0]
    assert rec.get("replacements") and replay(rec) == rec["result"]
    return copy.deepcopy(rec)


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        (_set("replacements", {"1": []}), "replacements: replacements must be a list of [seat, cards]"),
        (_set("replacements", [[1]]), "replacements[0]: replacements are written [seat, [cards]]"),
        (_set("replacements", [[0, []]]), "passes[0]: the record has no replacement cards for seat 1"),
        (lambda r: r["bids"].insert(0, [1, "blind_nil"]), "bids[1]:"),
    ],
)
def test_malformed_two_player_exchanges(change: Change, expected: str) -> None:
    rec = _two_player_record()
    change(rec)
    assert _refused(rec).startswith(expected)


def test_load_game_refuses_before_any_bid() -> None:
    with pytest.raises(RecordError, match=r"^dealer: there is no seat -1 in a 4-seat game$"):
        load_game({**suits_record(), "dealer": -1})


def test_replay_file_reads_a_file_and_names_what_it_cannot_read(tmp_path: Path) -> None:
    good = tmp_path / "hand.json"
    good.write_text(json.dumps(suits_record()), encoding="utf-8")
    assert replay_file(str(good))["tricks"] == [13, 0, 0, 0]
    with pytest.raises(RecordError, match="cannot read"):
        replay_file(str(tmp_path))  # a directory
    bad = tmp_path / "bad.json"
    bad.write_text('{"dealer": ', encoding="utf-8")
    with pytest.raises(RecordError, match=r"is not JSON: Expecting value at line 1 column 12"):
        replay_file(str(bad))


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "engine", *args], cwd=ROOT, capture_output=True, text=True, timeout=60
    )


def test_cli_usage() -> None:
    assert _cli().returncode == 2
    helped = _cli("--help")
    assert helped.returncode == 0 and "replay HAND.json" in helped.stdout
    wrong = _cli("replay")
    assert wrong.returncode == 2 and "usage: python -m engine replay" in wrong.stderr
    assert _cli("replay", "-h").returncode == 0


# -- rulesets: every impossible combination is refused with its reason -----------------------------


@pytest.mark.parametrize(
    ("base", "overrides", "message"),
    [
        ("standard", {"decks": 3}, "Play with one deck or two"),
        ("standard", {"team_size": 3}, "4 players can't be split into teams of 3"),
        ("two-player", {"num_seats": 3}, "The draw-and-discard deal is for two players"),
        ("two-player", {"decks": 2}, "The draw-and-discard deal uses one deck"),
        ("two-player", {"nil_pass": 1}, "Two-player Spades passes no cards for nil; set nil_pass to 0"),
        (
            "two-player",
            {"blind_bids": True},
            "Blind bids with the two-player draw aren't supported; set blind_bids to false",
        ),
        (
            "cutthroat",
            {"blind_nil_pass": 3},
            "Cards are passed between two partners: set blind_nil_pass and "
            "nil_pass to 0 for solo play and teams of three",
        ),
        ("standard", {"num_seats": 7}, "Spades is played by 2 to 6 players"),
        (
            "standard",
            {"nil_allowed": False},
            "Blind nil needs nil: set nil_allowed to true or blind_nil_allowed to false",
        ),
        ("whiz", {"blind_bids": True}, "Whiz bids are the number of spades held, so blind bids can't apply"),
        (
            "mirrors",
            {"blind_bids": True},
            "Mirrors bids are the number of spades held, so blind bids can't apply",
        ),
        (
            "mirrors",
            {"blind_nil_allowed": True},
            "Mirrors bids are the number of spades held, so blind nil can't apply",
        ),
        (
            "suicide",
            {"board": 4},
            "Suicide and a board can't both apply (the nil partner's team could not reach the board)",
        ),
        ("standard", {"deuces_high_all": True}, "deuces_high_all needs deuces_high"),
        ("whiz", {"mirrors": True}, "Whiz and mirrors are two different bidding rules; choose one"),
        ("mirrors", {"nil_allowed": False}, "Mirrors needs nil for a hand without spades"),
        ("suicide", {"partnerships": False, "blind_nil_pass": 0}, "Suicide is for partnerships of two"),
        ("suicide", {"nil_allowed": False}, "Suicide needs nil"),
        ("suicide", {"whiz": True}, "Suicide can't be combined with whiz or mirrors"),
        ("whiz", {"board": 4}, "A board can't apply when bids are fixed by whiz or mirrors"),
        ("standard", {"board": 14}, "The board can't be above 13 tricks"),
        ("standard", {"blind_bids": True, "blind_bid_max": 14}, "blind_bid_max can't be above 13"),
        ("five-player", {"partnerships": True, "team_size": 2}, "5 players can't be split into teams of 2"),
        ("six-player", {"num_seats": 2, "team_size": 2}, "2 players can't be split into teams of 2"),
        ("standard", {"lose_score": 600}, "lose_score (the mercy score, 600) must be below the target (500)"),
    ],
)
def test_impossible_rulesets_say_why(base: str, overrides: dict[str, Any], message: str) -> None:
    with pytest.raises(RulesetError) as info:
        Ruleset.preset(base, **overrides)
    assert str(info.value) == message


def test_the_largest_pass_still_leaves_cards_in_every_hand() -> None:
    """Passing needs partners of two (13 or 17 cards each) or the two-player draw (13): the
    range's top, 12, always leaves a card."""
    assert Ruleset.preset("standard", nil_pass=12, blind_nil_pass=12).hand_size == 13
    assert Ruleset.preset("six-player", nil_pass=12, blind_nil_pass=12).hand_size == 17
    assert Ruleset.preset("two-player", blind_nil_pass=12).hand_size == 13
    with pytest.raises(RulesetError, match=r"blind_nil_pass \(the cards passed after blind nil\) must be"):
        Ruleset.preset("standard", blind_nil_pass=13)


@pytest.mark.parametrize(
    ("value", "message"),
    [
        (None, 'A ruleset is a preset name or an object with a "preset" key'),
        ({"preset": "standard", "name": 5}, 'A ruleset "name" must be a text'),
        ({"preset": "nope"}, '"nope" is not a ruleset'),
    ],
)
def test_from_dict_refuses_what_is_not_a_ruleset(value: Any, message: str) -> None:
    with pytest.raises(RulesetError, match=message):
        Ruleset.from_dict(value)


def test_option_types_are_checked_by_name() -> None:
    with pytest.raises(RulesetError, match='Option "lose_score" must be a whole number or null, not'):
        Ruleset.preset("standard", lose_score="low")
    with pytest.raises(RulesetError, match='Option "name" must be a text'):
        Ruleset.preset("standard").with_options(name=3)
    with pytest.raises(RulesetError, match='Option "bag_value" must be a whole number, not True'):
        Ruleset.preset("standard", bag_value=True)
