"""Provably fair deals: commitment before the hand, reveal in the record, verification by anyone."""

from __future__ import annotations

import copy
import hashlib
import json
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from engine import Game, Phase, Ruleset
from engine.bots import get_bot
from engine.cards import card_str
from engine.fair import DealKey, commitment, deal_order, derived_key, new_key, short
from engine.ruleset import tables
from engine.verify import verify

ROOT = Path(__file__).resolve().parents[2]


def play_hands(g: Game, hands: int, seed: int = 1) -> Game:
    bot = get_bot("random", seed=seed)
    while not g.over and len(g.hand_records) < hands:
        g.apply(bot.act(g.view(g.seats_to_act()[0])))
    return g


def roundtrip(record: dict[str, Any]) -> dict[str, Any]:
    return json.loads(json.dumps(record))


# -- an independent reading of the scheme as docs/ENGINE_API.md states it ----------------------


def doc_commitment(seed: str, salt: str) -> str:
    return hashlib.sha256(("spades-deal/1\n" + seed + "\n" + salt).encode("ascii")).hexdigest()


def doc_shuffle(seed: str, deck: list[int], label: str) -> list[int]:
    stream: list[int] = []
    block = 0

    def word() -> int:
        nonlocal block
        if not stream:
            digest = hashlib.sha256(f"{seed}|{label}|{block}".encode("ascii")).digest()
            block += 1
            stream.extend(int.from_bytes(digest[i : i + 4], "big") for i in range(0, 32, 4))
        return stream.pop(0)

    deck = list(deck)
    for i in range(len(deck) - 1, 0, -1):
        n = i + 1
        while True:
            w = word()
            if w < 2**32 - (2**32 % n):
                break
        j = w % n
        deck[i], deck[j] = deck[j], deck[i]
    return deck


@pytest.mark.parametrize("preset", ["standard", "six-player", "jokers-high", "cutthroat"])
def test_the_live_deal_is_the_documented_one(preset: str) -> None:
    g = Game.new(preset, fair=True)
    key = g.deal_key
    assert key is not None
    assert g.commitment == doc_commitment(key.seed, key.salt)
    deck = doc_shuffle(key.seed, sorted(tables(g.rs).deck), "deal|0")
    k = tables(g.rs).hand_size
    for s in range(g.n):
        assert g.hand(s) == sum(1 << c for c in deck[s * k : (s + 1) * k])


def test_keys_are_random_and_secret_until_the_hand_is_over() -> None:
    g = Game.new("standard", fair=True)
    first = g.commitment
    assert first is not None and len(first) == 64
    assert len({new_key().seed for _ in range(50)}) == 50
    # nothing a player or spectator can see carries the key
    for view in [g.public_view(), *(g.view(s) for s in range(4))]:
        text = json.dumps(view.to_dict())
        assert g.deal_key is not None
        assert g.deal_key.seed not in text and g.deal_key.salt not in text
    seed_now = g.deal_key.seed if g.deal_key else ""
    play_hands(g, 1)
    rec = g.hand_records[0]
    assert rec["fair"] == {
        "scheme": "sha256-v1",
        "commitment": first,
        "seed": seed_now,
        "salt": rec["fair"]["salt"],
        "redeal": 0,
    }
    # the next hand has a new key, not derivable from the revealed one
    assert g.commitment not in (None, first)
    assert g.deal_key is not None and g.deal_key.seed != seed_now


def test_unfair_games_are_unchanged() -> None:
    g = Game.new("standard", seed=5)
    assert g.deal_key is None and g.commitment is None
    play_hands(g, 1)
    assert "fair" not in g.hand_records[0]
    assert Game.new("standard", seed=5).hands == Game.new("standard", seed=5).hands


def test_a_seeded_fair_game_is_reproducible_and_survives_a_save() -> None:
    a, b = Game.new("standard", seed=9, fair=True), Game.new("standard", seed=9, fair=True)
    assert a.hands == b.hands and a.commitment == b.commitment
    assert a.deal_key == derived_key(9, "", 1)
    play_hands(a, 2)
    restored = Game.from_dict(json.loads(json.dumps(a.to_dict())))
    assert restored == a and restored.deal_key == a.deal_key
    assert a.clone().deal_key == a.deal_key
    # a state saved before fair deals existed loads as an unfair game
    old = a.to_dict()
    del old["deal_key"]
    assert Game.from_dict(old).deal_key is None


@pytest.mark.parametrize("preset", ["standard", "two-player", "six-player", "house", "jokers-high"])
def test_every_fair_record_verifies(preset: str) -> None:
    g = play_hands(Game.new(preset, fair=True), 3, seed=3)
    for rec in g.hand_records:
        verdict = verify(roundtrip(rec))
        assert verdict.ok, verdict.message
        assert verdict.message.startswith(f"OK: hand {rec['hand_no']}")


def tampered_messages(rec: dict[str, Any]) -> dict[str, str]:
    out = {}
    r = copy.deepcopy(rec)
    r["fair"]["seed"] = ("0" if r["fair"]["seed"][0] != "0" else "1") + r["fair"]["seed"][1:]
    out["seed"] = verify(r).message
    r = copy.deepcopy(rec)
    a, b = r["deal"][0][0], r["deal"][1][0]
    r["deal"][0][0], r["deal"][1][0] = b, a
    out["deal"] = verify(r).message
    out["commitment"] = verify(rec, commitment_seen="0123456789abcdef").message
    out["short prefix"] = verify(rec, commitment_seen="abc").message
    r = copy.deepcopy(rec)
    r["result"]["scores"] = [s + 10 for s in r["result"]["scores"]]
    out["result"] = verify(r).message
    r = copy.deepcopy(rec)
    del r["fair"]
    out["no reveal"] = verify(r).message
    return out


def test_tampering_is_caught_with_one_clear_line() -> None:
    rec = roundtrip(play_hands(Game.new("standard", fair=True), 1).hand_records[0])
    seen = short(rec["fair"]["commitment"])
    assert verify(rec, commitment_seen=seen).ok  # the short form a player saw is enough
    assert verify(rec, commitment_seen=seen.upper()).ok
    msgs = tampered_messages(rec)
    assert "hash to" in msgs["seed"] and "record's commitment" in msgs["seed"]
    assert msgs["deal"] == "FAIL: seat 0's cards are not the ones the seed deals"
    assert "not to the commitment 0123456789abcdef" in msgs["commitment"]
    assert "8 to 64 hex digits" in msgs["short prefix"]
    assert "states scores" in msgs["result"]
    assert "reveals none" in msgs["no reveal"]
    for m in msgs.values():
        assert m.startswith("FAIL: ") and "\n" not in m
    # a reveal given by hand, against a record that carries none
    bare = copy.deepcopy(rec)
    fair = bare.pop("fair")
    assert verify(bare, seed=fair["seed"], salt=fair["salt"], commitment_seen=fair["commitment"]).ok
    assert not verify(bare, seed=fair["seed"], salt="0" * 32, commitment_seen=fair["commitment"]).ok


def test_a_redeal_after_a_misdeal_stays_under_the_same_commitment() -> None:
    rs = Ruleset.preset("standard", misdeal_no_spades=True)
    for seed in range(400):
        g = Game.new(rs, seed=seed, fair=True)
        caller = next((s for s in range(4) if g._misdeal_ok(s)), None)
        if caller is not None:
            break
    else:
        pytest.skip("no misdeal among the seeds tried")
    before, first_deal = g.commitment, list(g.hands)
    g.misdeal(caller)
    assert g.commitment == before and g.hands != first_deal and g.redeals == 1
    play_hands(g, 1)
    rec = roundtrip(g.hand_records[0])
    assert rec["fair"]["redeal"] == 1
    assert verify(rec).ok
    rec["fair"]["redeal"] = 0  # the first (misdealt) deal is not the one played
    assert verify(rec).message == "FAIL: seat 0's cards are not the ones the seed deals"


def test_two_player_replacements_come_from_the_seed() -> None:
    found = None
    for seed in range(200):
        g = Game.new("two-player", seed=seed, fair=True)
        g.bid(g.dealer, "blind nil")
        play_hands(g, 1, seed=seed)
        rec = roundtrip(g.hand_records[0])
        if rec.get("replacements") and rec["replacements"][0][1]:
            found = rec
            break
    assert found is not None
    assert verify(found).ok
    deck = sorted(tables(Ruleset.preset("two-player")).deck)
    stock = [card_str(c) for c in deal_order(found["fair"]["seed"], deck)]
    assert found["draw"]["stock"] == stock
    bad = copy.deepcopy(found)
    pool = set(stock) - {c for hand in bad["deal"] for c in hand} - set(bad["replacements"][0][1])
    pool -= set(bad["passes"][0][1])
    bad["replacements"][0][1][0] = sorted(pool)[0]
    assert not verify(bad).ok


def test_the_shuffle_is_uniform_enough() -> None:
    """Where the ace of spades lands over 5,200 deals: every position about equally often."""
    deck = list(range(52))
    counts = Counter(deal_order(f"{i:064x}", deck).index(51) for i in range(5200))
    expected = 100
    chi2 = sum((counts.get(p, 0) - expected) ** 2 / expected for p in range(52))
    assert chi2 < 100  # 51 degrees of freedom: p < 1e-4 above ~95


def test_key_helpers() -> None:
    key = DealKey("ab" * 32, "cd" * 16)
    assert key.commitment == commitment(key.seed, key.salt) == doc_commitment(key.seed, key.salt)
    assert short(key.commitment) == key.commitment[:16]


def test_a_keys_commitment_is_hashed_once_and_changes_nothing_else(monkeypatch: Any) -> None:
    """The live message shows the commitment on every redraw: each key hashes it once."""
    import engine.fair as fair

    calls: list[tuple[str, str]] = []

    def counted(seed: str, salt: str) -> str:
        calls.append((seed, salt))
        return commitment(seed, salt)

    monkeypatch.setattr(fair, "commitment", counted)
    key = DealKey("ab" * 32, "cd" * 16)
    assert key.commitment == key.commitment == doc_commitment(key.seed, key.salt)
    assert len(calls) == 1
    # still an immutable value: equal to (and hashed like) a key that never computed it
    same = DealKey("ab" * 32, "cd" * 16)
    assert key == same and hash(key) == hash(same) and {key: 1}[same] == 1
    assert DealKey("ab" * 32, "ce" * 16).commitment != key.commitment and len(calls) == 2


def write(tmp_path: Path, rec: dict[str, Any]) -> str:
    p = tmp_path / "hand.json"
    p.write_text(json.dumps(rec))
    return str(p)


def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "engine", "verify", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_command_line(tmp_path: Path) -> None:
    g = play_hands(Game.new("standard", fair=True), 1)
    assert g.phase in (Phase.BID, Phase.PLAY, Phase.GAME_OVER)
    rec = g.hand_records[0]
    path = write(tmp_path, rec)
    ok = run_cli(path, "--commitment", short(rec["fair"]["commitment"]))
    assert ok.returncode == 0, ok.stderr
    assert ok.stdout.startswith("OK: hand 1") and ok.stdout.count("\n") == 1 and not ok.stderr
    bad = run_cli(path, "--salt", "0" * 32)
    assert bad.returncode == 1 and not bad.stdout
    assert bad.stderr.startswith("FAIL: the seed and salt hash to") and bad.stderr.count("\n") == 1
    missing = run_cli(str(tmp_path / "nope.json"))
    assert missing.returncode == 1 and missing.stderr.startswith("FAIL: cannot read")
