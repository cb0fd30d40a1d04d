"""Verifiable league seating: a night's seating record and its check (``python -m engine
verify-seating NIGHT.json``).

A league night draws a secret **seed** and **salt** (``engine.fair.new_key``) when check-in opens;
its check-in post shows the commitment ``engine.fair.commitment(seed, salt)`` (the short form, the
first 16 hex digits). Each round is seated by ``engine.seating.seat_round`` with that seed and the
round number, every draw a ``engine.fair.shuffle`` (label ``seating|<round>|<draw>``). The night's
record lists, for each round, everything else the seating used: the sorted entrants, their
ratings, the history it avoids repeating (partners, opponents, byes, tables of three), the format,
table and team size and the leftover rule, and the tables it posted. After the night the seed and
salt are revealed; ``verify_night`` checks that they hash to the commitment and that every round
recomputes to exactly the posted tables.

The record is JSON::

    {"scheme": "sha256-v1", "commitment": HEX64, "seed": HEX64, "salt": HEX32,
     "rounds": [{"round": 1, "format": "rotating", "leftover": "bot", "table_size": 4,
                 "team_size": 2, "players": [ids], "teams": [[ids]], "ratings": {"id": x},
                 "history": {"partners_season": [[a, b, n]], ..., "byes_season": [[id, n]]},
                 "tables": [[[a, b], [c, null]]], "byes": [ids]}]}

(``null`` is a bot seat; ``seed``/``salt`` are absent until the night is over.)
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .fair import SCHEME, SHORT_LEN, commitment, short
from .seating import History, Seating, SeatingError, TablePlan, pair, seat_round

_HEX64 = re.compile(r"[0-9a-f]{64}")
_HEX32 = re.compile(r"[0-9a-f]{32}")
_PAIR_COUNTERS = ("partners_season", "partners_tonight", "met_tonight", "opponents_season")
_PLAYER_COUNTERS = ("byes_season", "byes_tonight", "threes_season", "threes_tonight")
MIN_PREFIX = 8  # the shortest commitment prefix ``verify_night`` accepts


@dataclass(frozen=True)
class SeatingVerdict:
    """``ok``, one line saying what was (or was not) shown, and the recomputed tables in words."""

    ok: bool
    message: str
    lines: tuple[str, ...] = ()

    def __bool__(self) -> bool:
        return self.ok


def history_json(history: History) -> dict[str, list[list[int]]]:
    """A History as JSON lists, sorted (pairs ``[a, b, n]`` with ``a < b``, players ``[id, n]``)."""
    out: dict[str, list[list[int]]] = {}
    for name in _PAIR_COUNTERS:
        counter: Counter[frozenset[int]] = getattr(history, name)
        out[name] = sorted([*sorted(k), n] for k, n in counter.items() if n and len(k) == 2)
    for name in _PLAYER_COUNTERS:
        players: Counter[int] = getattr(history, name)
        out[name] = sorted([p, n] for p, n in players.items() if n)
    return out


def history_of(data: Any) -> History:
    """The History a record's ``history`` object describes (``SeatingError`` if malformed)."""
    if not isinstance(data, dict):
        raise SeatingError("the round's history must be an object")
    h = History()
    try:
        for name in _PAIR_COUNTERS:
            counter: Counter[frozenset[int]] = getattr(h, name)
            for a, b, n in data.get(name, []):
                counter[pair(int(a), int(b))] += int(n)
        for name in _PLAYER_COUNTERS:
            players: Counter[int] = getattr(h, name)
            for p, n in data.get(name, []):
                players[int(p)] += int(n)
    except (TypeError, ValueError) as e:
        raise SeatingError(f"the round's history is malformed ({e})") from None
    return h


def tables_json(seating: Seating) -> list[list[list[int | None]]]:
    return [[list(side) for side in t.sides] for t in seating.tables]


def round_record(
    round_no: int,
    *,
    players: Sequence[int],
    teams: Sequence[Sequence[int]],
    ratings: dict[int, float],
    table_size: int,
    team_size: int,
    fmt: str,
    leftover: str,
    history: History,
    seating: Seating,
) -> dict[str, Any]:
    """One round's entry of a night's record: the seating's inputs (entrants sorted) and its tables."""
    return {
        "round": round_no,
        "format": fmt,
        "leftover": leftover,
        "table_size": table_size,
        "team_size": team_size,
        "players": sorted(players),
        "teams": sorted((list(t) for t in teams), key=lambda t: (sorted(t), t)),
        "ratings": {str(p): float(r) for p, r in sorted(ratings.items())},
        "history": history_json(history),
        "tables": tables_json(seating),
        "byes": list(seating.byes),
    }


def reseat(entry: Any, seed: str) -> Seating:
    """The seating a round's record entry gives with ``seed`` (``SeatingError`` if malformed)."""
    if not isinstance(entry, dict):
        raise SeatingError("a round is a JSON object")
    try:
        return seat_round(
            players=[int(p) for p in entry.get("players", [])],
            teams=[[int(p) for p in t] for t in entry.get("teams", [])],
            ratings={int(p): float(r) for p, r in dict(entry.get("ratings", {})).items()},
            table_size=int(entry["table_size"]),
            team_size=int(entry["team_size"]),
            fmt=str(entry["format"]),
            leftover=str(entry.get("leftover", "bot")),
            history=history_of(entry.get("history", {})),
            seed=seed,
            round_no=int(entry["round"]),
        )
    except (KeyError, TypeError, ValueError) as e:
        if isinstance(e, SeatingError):
            raise
        raise SeatingError(f"the round is malformed ({e!r})") from None


def describe(round_no: int, seating: Seating) -> list[str]:
    """The seating in words: one line a table (sides joined by ``vs``, ``bot`` for a bot seat)."""
    lines = []
    for i, t in enumerate(seating.tables, 1):
        sides = " vs ".join(" + ".join("bot" if p is None else str(p) for p in side) for side in t.sides)
        lines.append(f"round {round_no} table {i}: {sides}")
    if seating.byes:
        lines.append(f"round {round_no} byes: {', '.join(str(p) for p in seating.byes)}")
    return lines


def _posted(entry: dict[str, Any]) -> Seating | None:
    tables = entry.get("tables")
    if tables is None:
        return None
    try:
        plans = tuple(
            TablePlan(tuple(tuple(None if p is None else int(p) for p in side) for side in t)) for t in tables
        )
        return Seating(plans, tuple(int(p) for p in entry.get("byes", [])))
    except (TypeError, ValueError):
        return None


def verify_night(
    record: Any,
    *,
    seed: str | None = None,
    salt: str | None = None,
    commitment_seen: str | None = None,
    round_no: int | None = None,
) -> SeatingVerdict:
    """Check a night's seating record against a revealed seed and salt.

    ``seed``/``salt`` default to the record's (the reveal); ``commitment_seen`` (the full
    commitment or its first 8+ hex digits, e.g. the short form on the check-in post) defaults to
    the record's. Checks that the seed and salt hash to the commitment, then recomputes every round
    (or only ``round_no``) and compares it with the tables the record says were posted.
    """
    if not isinstance(record, dict):
        return SeatingVerdict(False, "FAIL: a seating record is a JSON object")
    if record.get("scheme", SCHEME) != SCHEME:
        return SeatingVerdict(False, f"FAIL: unknown scheme {record.get('scheme')!r} (this is {SCHEME})")
    seed = (seed if seed is not None else record.get("seed")) or ""
    salt = (salt if salt is not None else record.get("salt")) or ""
    if not isinstance(seed, str) or not _HEX64.fullmatch(seed.lower()):
        return SeatingVerdict(False, "FAIL: the seed must be 64 hex digits (is the night over?)")
    if not isinstance(salt, str) or not _HEX32.fullmatch(salt.lower()):
        return SeatingVerdict(False, "FAIL: the salt must be 32 hex digits")
    seed, salt = seed.lower(), salt.lower()
    seen = commitment_seen if commitment_seen is not None else record.get("commitment")
    if not isinstance(seen, str) or len(seen) < MIN_PREFIX or not re.fullmatch(r"[0-9a-f]+", seen.lower()):
        return SeatingVerdict(False, f"FAIL: the commitment must be at least {MIN_PREFIX} hex digits")
    full = commitment(seed, salt)
    if not full.startswith(seen.lower()):
        return SeatingVerdict(
            False, f"FAIL: the seed and salt hash to {short(full)}, not to the commitment {seen[:SHORT_LEN]}"
        )
    rounds = record.get("rounds")
    if not isinstance(rounds, list) or not rounds:
        return SeatingVerdict(False, "FAIL: the record has no rounds")
    lines: list[str] = []
    checked = 0
    for entry in rounds:
        if not isinstance(entry, dict):
            return SeatingVerdict(False, "FAIL: a round is a JSON object")
        no = entry.get("round")
        if round_no is not None and no != round_no:
            continue
        try:
            got = reseat(entry, seed)
        except SeatingError as e:
            return SeatingVerdict(False, f"FAIL: round {no}: {e}", tuple(lines))
        lines.extend(describe(int(no or 0), got))
        posted = _posted(entry)
        if posted is not None and posted != got:
            return SeatingVerdict(
                False, f"FAIL: round {no}'s posted tables are not the ones the seed seats", tuple(lines)
            )
        checked += 1
    if not checked:
        return SeatingVerdict(False, f"FAIL: the record has no round {round_no}")
    return SeatingVerdict(
        True,
        f"OK: the seed matches the commitment {short(full)} and seats the posted tables of "
        f"{checked} round{'s' if checked != 1 else ''}",
        tuple(lines),
    )


def dumps(record: dict[str, Any]) -> str:
    """The record as the JSON text players download (stable key order, one round a line)."""
    head = {k: v for k, v in record.items() if k != "rounds"}
    body = ",\n  ".join(json.dumps(r, sort_keys=True) for r in record.get("rounds", []))
    text = json.dumps(head, sort_keys=True)[:-1]
    return f'{text}{", " if head else ""}"rounds": [\n  {body}\n]}}\n'


__all__ = [
    "SeatingVerdict",
    "describe",
    "dumps",
    "history_json",
    "history_of",
    "reseat",
    "round_record",
    "tables_json",
    "verify_night",
]
