"""Duplicate rounds of a league (the ``duplicate`` setting, ``/league-season rules``).

Every full table of a round (the league's own number of seats) opens with the round's shared deal
seed (``engine.duplicate.round_seed`` of the night's committed seating seed and the round number),
so hand ``n`` is dealt the same cards, from the same dealer, at every such table. A table of three
(cutthroat) or a bye is not dealt from it and is not compared.

Matchpoints are worked out from the stored hand records of the round's tables
(``engine.duplicate.matchpoints``): tables are compared when they played the same deals, which the
records show (the same committed key for their first hand) and which only the round's full tables
do. Each entrant of a side gets the side's matchpoints; the standings of a duplicate league rank by
their season's sum.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from typing import Any

from bot.storage.leagues import LeagueRow, LeagueStore, LeagueTable, NightRow
from engine import duplicate as dup
from engine.ruleset import Ruleset

from . import seating_proof
from .core import ruleset_of
from .settings import LeagueSettings

#: ``(league table id, side)`` -> matchpoints
Matchpoints = dict[tuple[int, int], float]


def table_settings(
    settings: LeagueSettings, night: NightRow, round_no: int, league_rules: Ruleset, table_rules: Ruleset
) -> dict[str, Any]:
    """What a league table is opened with in a duplicate round: the round's deal seed and salt
    (``{}`` when the league plays no duplicate rounds, or for a table of another size)."""
    if not settings.duplicate or table_rules.num_seats != league_rules.num_seats:
        return {}
    key = seating_proof.key_of(night)
    night_seed = key.seed if key is not None else f"night-{night.id}"
    return {"duplicate": {"seed": dup.round_seed(night_seed, round_no), "salt": dup.round_salt(round_no)}}


def first_deal(records: Sequence[dict[str, Any]]) -> str | None:
    """What identifies a table's deals: its first hand's committed key (None without fair deals)."""
    first = min(records, key=lambda r: int(r["hand_no"]), default=None)
    if first is None:
        return None
    fair = first.get("fair") or {}
    return str(fair["commitment"]) if fair.get("commitment") else None


def round_matchpoints(
    tables: Sequence[tuple[LeagueTable, Sequence[dict[str, Any]]]], num_sides: int
) -> Matchpoints:
    """Matchpoints of every side of the given tables (one night's or season's): the tables of one
    round with ``num_sides`` sides that were dealt the same deals are compared hand by hand; any
    other table's sides get 0."""
    groups: dict[tuple[int, int, str], dict[int, list[list[int]]]] = defaultdict(dict)
    out: Matchpoints = {}
    for lt, records in tables:
        for s in range(len(lt.sides)):
            out[(lt.id, s)] = 0.0
        deal = first_deal(records)
        if len(lt.sides) != num_sides or deal is None:
            continue
        groups[(lt.night_id, lt.round_no, deal)][lt.id] = dup.hand_scores(records)
    for group in groups.values():
        out.update(dup.matchpoints(group))
    return out


class Duplicate:
    """Matchpoints of a duplicate league's nights, from storage."""

    def __init__(self, store: LeagueStore) -> None:
        self.store = store

    async def matchpoints(
        self, league: LeagueRow, season: int | None = None, night_id: int | None = None
    ) -> Matchpoints:
        tables = await self.store.rounds.hand_records(league.id, season or league.season, night_id)
        return round_matchpoints(tables, ruleset_of(league).num_sides)
