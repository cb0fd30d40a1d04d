"""The night's seating seed as the league keeps it (bot.league.seating_proof): drawn fresh,
withheld until the night is over, older nights without one keep the old seed."""

from __future__ import annotations

import json

from bot.league import seating_proof
from bot.storage.leagues import NightRow
from engine import fair
from engine.seating_record import verify_night


def night(status: str, data: dict) -> NightRow:
    return NightRow(
        id=7, league_id=1, season=1, number=3, night_date="2027-01-07", starts_at=0, checkin_at=0,
        status=status, round_no=1, data=data, updated_at=0,
    )  # fmt: skip


def test_each_night_draws_its_own_secret() -> None:
    a, b = seating_proof.new_key_data(), seating_proof.new_key_data()
    assert a != b
    key = a["seating_key"]
    assert len(key["seed"]) == 64 and len(key["salt"]) == 32
    n = night("checkin", a)
    assert seating_proof.seed_for(n, 2) == key["seed"]
    assert seating_proof.short_commitment(n) == fair.short(fair.commitment(key["seed"], key["salt"]))


def test_a_night_without_a_key_keeps_the_old_seed_and_has_no_record() -> None:
    n = night("finished", {})
    assert seating_proof.seed_for(n, 2) == 7 * 100 + 2
    assert seating_proof.short_commitment(n) is None
    assert seating_proof.record(n) is None and seating_proof.record_file("X", 1, n) is None


def test_the_seed_is_withheld_until_the_night_is_over() -> None:
    data = seating_proof.new_key_data()
    for status in ("checkin", "playing"):
        rec = seating_proof.record(night(status, data))
        assert rec is not None and "seed" not in rec and "salt" not in rec
        assert seating_proof.revealed(night(status, data)) is None
    for status in seating_proof.OVER:
        rec = seating_proof.record(night(status, data))
        assert rec is not None and rec["seed"] == data["seating_key"]["seed"]
        assert seating_proof.revealed(night(status, data)) is not None


def test_the_record_file_lists_the_rounds_in_order() -> None:
    from engine.seating import ROTATING, History, seat_round
    from engine.seating_record import round_record

    data = seating_proof.new_key_data()
    seed = data["seating_key"]["seed"]
    h = History()
    for rnd in (2, 1):  # stored in any order
        s = seat_round(
            players=[1, 2, 3, 4, 5], table_size=4, team_size=2, fmt=ROTATING, seed=seed, round_no=rnd
        )
        data[f"seating_round_{rnd}"] = round_record(
            rnd, players=[1, 2, 3, 4, 5], teams=[], ratings={}, table_size=4, team_size=2, fmt=ROTATING,
            leftover="bot", history=h, seating=s,
        )  # fmt: skip
    made = seating_proof.record_file("Spades Thursday!", 2, night("finished", data))
    assert made is not None
    name, body = made
    assert name == "seating-spades-thursday-s2-n3.json"
    rec = json.loads(body)
    assert [r["round"] for r in rec["rounds"]] == [1, 2]
    assert verify_night(rec).ok
