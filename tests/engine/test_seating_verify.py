"""Verifiable league seating (engine.seating with a hex seed, engine.seating_record, the
``verify-seating`` command)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from engine import fair
from engine.__main__ import main
from engine.seating import BYE, FIXED, ROTATING, THREES, History, partner_repeats, seat_round
from engine.seating_record import dumps, history_json, history_of, round_record, verify_night

SEED = "ab" * 32
SALT = "cd" * 16
PLAYERS = list(range(101, 113))  # 12 players: three tables of four
RATINGS = {p: 10.0 + (p % 7) * 1.5 for p in PLAYERS}


def _night(seed: str, *, rounds: int = 3, players: list[int] = PLAYERS, leftover: str = "bot") -> dict:
    """A night's record as the bot writes it: each round seated with the night's seed, the history
    growing round by round."""
    history = History()
    entries = []
    for rnd in range(1, rounds + 1):
        s = seat_round(
            players=players,
            ratings=RATINGS,
            table_size=4,
            team_size=2,
            fmt=ROTATING,
            leftover=leftover,
            history=history,
            seed=seed,
            round_no=rnd,
        )
        entries.append(
            round_record(
                rnd,
                players=players,
                teams=[],
                ratings=RATINGS,
                table_size=4,
                team_size=2,
                fmt=ROTATING,
                leftover=leftover,
                history=history,
                seating=s,
            )
        )
        history.record(s)
    key = fair.DealKey(seed, SALT)
    return {
        "scheme": fair.SCHEME,
        "commitment": key.commitment,
        "seed": seed,
        "salt": SALT,
        "rounds": entries,
    }


def test_the_same_inputs_give_the_same_seating_whatever_the_entrants_order() -> None:
    kw = dict(ratings=RATINGS, table_size=4, team_size=2, fmt=ROTATING, seed=SEED, round_no=2)
    a = seat_round(players=PLAYERS, **kw)  # type: ignore[arg-type]
    b = seat_round(players=list(reversed(PLAYERS)), **kw)  # type: ignore[arg-type]
    assert a == b
    assert sorted(a.seated) == PLAYERS


def test_a_different_seed_or_round_changes_the_seating() -> None:
    # unrated players: only the seed's draws decide who sits with whom
    kw = dict(table_size=4, team_size=2, fmt=ROTATING, leftover=BYE)
    base = seat_round(players=list(range(1, 14)), seed=SEED, round_no=1, **kw)  # type: ignore[arg-type]
    others = [
        seat_round(players=list(range(1, 14)), seed=f"{i:064x}", round_no=1, **kw)  # type: ignore[arg-type]
        for i in range(1, 6)
    ]
    assert any(o != base for o in others)
    rounds = [
        seat_round(players=list(range(1, 14)), seed=SEED, round_no=r, **kw)  # type: ignore[arg-type]
        for r in range(2, 6)
    ]
    assert any(r != base for r in rounds)
    # the bye goes where the seed's draw says: more than one player sits out across seeds
    assert len({o.byes for o in [base, *others]}) > 1


def test_a_hex_seed_keeps_the_seating_as_good_as_an_integer_seed() -> None:
    # a night of rotating partners: nobody partners twice while another arrangement exists
    record = _night(SEED, rounds=3)
    seatings = [verify_night(record, round_no=r) for r in (1, 2, 3)]
    assert all(seatings)
    from engine.seating_record import reseat

    s = [reseat(e, SEED) for e in record["rounds"]]
    assert partner_repeats(s) == 0
    assert all(t.bots == 0 for x in s for t in x.tables)


def test_the_commitment_matches_the_revealed_seed_and_the_tables_recompute() -> None:
    record = _night(SEED)
    verdict = verify_night(record)
    assert verdict.ok, verdict.message
    assert verdict.message.startswith(
        f"OK: the seed matches the commitment {fair.short(record['commitment'])}"
    )
    assert len([line for line in verdict.lines if "table" in line]) == 9  # 3 rounds x 3 tables
    # the short form a player saw on the check-in post is enough
    assert verify_night(record, commitment_seen=fair.short(record["commitment"])).ok


def test_a_wrong_seed_salt_or_commitment_fails() -> None:
    record = _night(SEED)
    other = "12" * 32
    bad = verify_night(record, seed=other)
    assert not bad and "hash to" in bad.message
    assert not verify_night(record, salt="00" * 16)
    assert not verify_night(record, commitment_seen="0123456789abcdef")
    # a seed that matches a commitment but did not seat the posted tables
    forged = dict(record, commitment=fair.commitment(other, SALT), seed=other)
    verdict = verify_night(forged)
    assert not verdict and "posted tables are not the ones the seed seats" in verdict.message


def test_tampered_tables_fail() -> None:
    record = _night(SEED)
    tables = record["rounds"][1]["tables"]
    tables[0][0][0], tables[1][0][0] = tables[1][0][0], tables[0][0][0]
    verdict = verify_night(record)
    assert not verdict and "round 2" in verdict.message


def test_no_seed_before_the_night_is_over() -> None:
    record = _night(SEED)
    del record["seed"], record["salt"]
    assert not verify_night(record)


@pytest.mark.parametrize("leftover", [BYE, THREES, "bot"])
def test_leftover_rules_and_fixed_teams_round_trip(leftover: str) -> None:
    assert verify_night(_night(SEED, players=list(range(1, 12)), leftover=leftover)).ok
    teams = [[1, 2], [3, 4], [5, 6], [7, 8], [9, 10]]
    s = seat_round(teams=teams, table_size=4, team_size=2, fmt=FIXED, seed=SEED, round_no=1)
    entry = round_record(
        1, players=list(range(1, 11)), teams=teams, ratings={}, table_size=4, team_size=2, fmt=FIXED,
        leftover=BYE, history=History(), seating=s,
    )  # fmt: skip
    record = {"commitment": fair.commitment(SEED, SALT), "seed": SEED, "salt": SALT, "rounds": [entry]}
    assert verify_night(json.loads(dumps(record))).ok


def test_history_round_trips_through_json() -> None:
    h = History()
    h.partners_season[frozenset((1, 2))] = 2
    h.byes_tonight[5] = 1
    h.opponents_season[frozenset((3, 9))] = 1
    back = history_of(json.loads(json.dumps(history_json(h))))
    assert back == h


def test_the_command_line_prints_the_tables(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    record = _night(SEED, rounds=2)
    path = tmp_path / "night.json"
    path.write_text(dumps(record))
    assert main(["verify-seating", str(path), "--round", "2"]) == 0
    out = capsys.readouterr().out
    first = record["rounds"][1]["tables"][0]
    assert f"round 2 table 1: {first[0][0]} + {first[0][1]} vs {first[1][0]} + {first[1][1]}" in out
    assert "round 1" not in out and out.strip().endswith("1 round")
    assert main(["verify-seating", str(path), "--seed", "12" * 32]) == 1


def test_python_m_engine_verify_seating_runs(tmp_path: Path) -> None:
    path = tmp_path / "night.json"
    path.write_text(dumps(_night(SEED, rounds=1)))
    done = subprocess.run(
        [sys.executable, "-m", "engine", "verify-seating", str(path)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-1].startswith("OK:")
