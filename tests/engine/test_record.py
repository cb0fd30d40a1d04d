"""Hand records: export, replay, refusals naming the first bad action, and the command line."""

import copy
import itertools
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from engine import PRESETS, Game, Phase, RecordError, Ruleset
from engine.record import load_game, replay
from tests.engine.helpers import DEAL, ROOT, bid_all, game_from, suits_record


def test_hand_written_record_scores_as_the_rules_say() -> None:
    result = replay(suits_record())
    assert result["tricks"] == [13, 0, 0, 0]
    # side 0: contract 13 made +130, nil made +100; side 1: bid 3, took 0: -30
    assert result["scores"] == [120 + 230, 86 - 30]
    assert result["bags"] == [3, 7]
    assert result["winner"] is None
    assert result["trick_winners"] == [0] * 13
    b0, b1 = result["breakdown"]
    assert b0["seats"] == [0, 2] and b0["bid"] == 13 and b0["made"] is True and b0["points"] == 230
    assert b0["nils"] == [{"seat": 2, "kind": "nil", "made": True, "tricks": 0, "points": 100}]
    assert b1["made"] is False and b1["bags"] == 0


def test_exported_records_replay_to_the_game_score() -> None:
    import random

    rng = random.Random(11)
    g = Game.new("standard", seed=11)
    while len(g.hand_records) < 4:
        seat = rng.choice(g.seats_to_act())
        acts = g.legal_actions(seat)
        g.apply(acts[rng.randrange(len(acts))])
    for rec in g.hand_records:
        assert json.loads(json.dumps(rec)) == rec
        assert rec["format"] == "spades-hand/1" and rec["ruleset"] == "standard"
        assert replay(rec) == rec["result"]
    recs = g.hand_records
    for prev, nxt in itertools.pairwise(recs):
        assert nxt["before"] == {"scores": prev["result"]["scores"], "bags": prev["result"]["bags"]}
    assert [b["score_after"] for b in recs[-1]["result"]["breakdown"]] == recs[-1]["result"]["scores"]


def _refused(record: dict[str, Any]) -> str:
    with pytest.raises(RecordError) as info:
        replay(record)
    return str(info.value)


def test_card_not_held() -> None:
    rec = suits_record()
    rec["plays"][1] = "9S"
    assert _refused(rec) == "plays[1]: 9S is not held by seat 1"


def test_revoke_is_refused() -> None:
    g = game_from(DEAL, "classic-online", dealer=0)
    bid_all(g, [3, 3, 3, 3])
    rec = {
        "ruleset": "classic-online",
        "dealer": 0,
        "deal": [h.split() for h in DEAL],
        "bids": [[1, 3], [2, 3], [3, 3], [0, 3]],
        "plays": ["AH", "2H", "9C", "2C"],
    }
    assert _refused(rec) == "plays[3]: seat 0 must follow hearts"


def test_spades_led_before_broken() -> None:
    rec = {
        "ruleset": "classic-online",
        "dealer": 3,
        "deal": [h.split() for h in DEAL],
        "bids": [[0, 3], [1, 3], [2, 3], [3, 3]],
        "plays": ["AS"],
    }
    assert _refused(rec) == "plays[0]: seat 0 led a spade before spades were broken"


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        (lambda r: r["bids"].__setitem__(0, [0, 14]), "bids[0]: seat 0 may not bid 14: bids go up to 13"),
        (lambda r: r["bids"].__setitem__(0, [1, 3]), "bids[0]: it is seat 0's turn to bid, not seat 1's"),
        (
            lambda r: r["bids"].__setitem__(1, [1, "blind_nil"]),
            "bids[1]: seat 1 may not bid blind_nil: blind nil is not allowed",
        ),
        (lambda r: r["bids"].pop(), "bids: only 3 of 4 seats bid"),
        (lambda r: r["deal"][0].pop(), "deal[0]: seat 0 holds 12 cards, not 13"),
        (lambda r: r["deal"][0].__setitem__(0, "AH"), "deal[1][0]: AH is dealt twice"),
        (
            lambda r: r["deal"][0].__setitem__(0, "11S"),
            'deal[0][0]: "11S" is not a card; ranks are 2-10, J, Q, K, A and suits S, H, D, C (or ♠ ♥ ♦ ♣)',
        ),
        (lambda r: r["plays"].pop(), "plays: the record ends after 51 of 52 cards"),
        (lambda r: r["plays"].append("AS"), "plays[52]: the hand is already over"),
        (
            lambda r: r.__setitem__("ruleset", "bridge"),
            'ruleset: "bridge" is not a ruleset; choose one of ' + ", ".join(PRESETS),
        ),
        (lambda r: r.__setitem__("dealer", 4), "dealer: there is no seat 4 in a 4-seat game"),
        (lambda r: r["plays"].__setitem__(5, "KS"), "plays[5]: KS is not held by seat 1"),
    ],
)
def test_refusals_name_the_first_bad_action(change: Any, expected: str) -> None:
    rec = copy.deepcopy(suits_record())
    change(rec)
    assert _refused(rec) == expected


def test_blind_nil_forbidden_by_deficit() -> None:
    rec = suits_record()
    rec["ruleset"] = {"preset": "standard", "blind_nil_min_deficit": 100}
    rec["bids"][2] = [2, "blind_nil"]
    assert _refused(rec) == (
        "bids[2]: seat 2 may not bid blind_nil: blind nil is only for a side "
        "behind by 100 or more (it leads by 34)"
    )


def test_passes_are_replayed_and_checked() -> None:
    g = game_from(DEAL, "standard")
    bid_all(g, ["blind_nil", 4, 5, 4])
    g.pass_cards(2, g.legal_actions(2)[0].cards)
    g.pass_cards(0, g.legal_actions(0)[5].cards)
    while g.phase is Phase.PLAY:
        g.play(g.to_act, g.legal_cards(g.to_act)[-1])
    rec = g.hand_records[0]
    assert replay(rec) == rec["result"]
    missing = copy.deepcopy(rec)
    missing["passes"] = missing["passes"][:1]
    assert _refused(missing).startswith("passes: seat ")
    wrong = copy.deepcopy(rec)
    wrong["passes"][0][1] = wrong["passes"][0][1][:2]
    assert "must pass exactly 3 cards, not 2" in _refused(wrong)


def test_load_game_gives_the_start_of_the_hand() -> None:
    g = load_game(suits_record())
    assert g.phase is Phase.BID and g.to_act == 0 and g.scores == [120, 86]
    assert isinstance(g.rs, Ruleset) and g.rs.name == "classic-online"


def _cli(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "engine", *args],
        cwd=ROOT,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_cli_replay_prints_the_result(tmp_path: Path) -> None:
    path = tmp_path / "hand.json"
    path.write_text(json.dumps(suits_record()))
    proc = _cli("replay", str(path))
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert out["tricks"] == [13, 0, 0, 0] and out["scores"] == [350, 56] and out["winner"] is None
    assert out["bags"] == [3, 7]


def test_cli_refuses_a_bad_record_with_one_line(tmp_path: Path) -> None:
    rec = suits_record()
    rec["plays"][17] = "9C"
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(rec))
    proc = _cli("replay", str(path))
    assert proc.returncode == 1
    assert proc.stdout == ""
    assert proc.stderr.strip().splitlines() == ["plays[17]: 9C is not held by seat 1"]


def test_cli_bad_json_and_missing_file(tmp_path: Path) -> None:
    path = tmp_path / "x.json"
    path.write_text("{not json")
    proc = _cli("replay", str(path))
    assert proc.returncode == 1 and proc.stdout == "" and "is not JSON" in proc.stderr
    proc = _cli("replay", str(tmp_path / "nope.json"))
    assert proc.returncode == 1 and "cannot read" in proc.stderr
    proc = _cli("replay", "-", stdin=json.dumps(suits_record()))
    assert proc.returncode == 0 and json.loads(proc.stdout)["tricks"] == [13, 0, 0, 0]
    assert _cli("frobnicate").returncode == 2
