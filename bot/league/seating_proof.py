"""Verifiable seating of a league night (the scheme is ``engine.seating_record``).

When check-in opens the night draws a secret seed and salt (``engine.fair.new_key``), stored in
the night's data in the same step that opens it; the check-in post shows the commitment's short
form. Each round is seated with that seed and the round number, and the round's inputs and tables
(``engine.seating_record.round_record``) are stored in the night's data before the tables are.
Once the night is over the results post reveals the seed and salt, and ``/league-season seating``
hands anyone the night's record (the seed in it only then) for ``python -m engine verify-seating``.
Nights opened before this existed have no key and keep the old integer seed.
"""

from __future__ import annotations

from typing import Any

from bot.i18n import Text
from bot.render import seating_proof as proof_text
from bot.storage.leagues import LeagueRow, LeagueStore, NightRow
from engine import fair
from engine.seating_record import dumps

from .gateway import LeagueRefusal

KEY = "seating_key"
_ROUND = "seating_round_"
#: a night in these states seats no more rounds: its seed may be shown
OVER = ("finished", "cancelled", "missed", "skipped")


def new_key_data() -> dict[str, Any]:
    """The night-data entry of a fresh secret (merged into the night as check-in opens)."""
    key = fair.new_key()
    return {KEY: {"seed": key.seed, "salt": key.salt}}


def key_of(night: NightRow) -> fair.DealKey | None:
    raw = night.data.get(KEY)
    if (
        not isinstance(raw, dict)
        or not isinstance(raw.get("seed"), str)
        or not isinstance(raw.get("salt"), str)
    ):
        return None
    return fair.DealKey(raw["seed"], raw["salt"])


def short_commitment(night: NightRow) -> str | None:
    key = key_of(night)
    return fair.short(key.commitment) if key is not None else None


def revealed(night: NightRow) -> fair.DealKey | None:
    """The night's key once the night is over (None before, or for a night without one)."""
    return key_of(night) if night.status in OVER else None


def seed_for(night: NightRow, round_no: int) -> int | str:
    """The seating's seed: the night's secret, else (older nights) the old integer seed."""
    key = key_of(night)
    return key.seed if key is not None else night.id * 100 + round_no


async def keep_round(store: LeagueStore, night: NightRow, entry: dict[str, Any]) -> None:
    """Store one round's seating record in the night (one key a round: no read-modify-write)."""
    if key_of(night) is None:
        return
    await store.nights.update_night_data(night.id, **{f"{_ROUND}{entry['round']}": entry})


def record(night: NightRow) -> dict[str, Any] | None:
    """The night's seating record (``engine.seating_record``): the seed and salt only once the
    night is over; None for a night without a committed seed."""
    key = key_of(night)
    if key is None:
        return None
    rounds = sorted(
        (v for k, v in night.data.items() if k.startswith(_ROUND) and isinstance(v, dict)),
        key=lambda e: int(e.get("round", 0)),
    )
    out: dict[str, Any] = {"scheme": fair.SCHEME, "night": night.number, "commitment": key.commitment}
    if night.status in OVER:
        out.update(seed=key.seed, salt=key.salt)
    out["rounds"] = rounds
    return out


def record_file(league_name: str, season: int, night: NightRow) -> tuple[str, str] | None:
    """``(file name, JSON text)`` of the night's record, or None without one."""
    rec = record(night)
    if rec is None:
        return None
    slug = "".join(c if c.isalnum() else "-" for c in league_name.lower()).strip("-") or "league"
    return f"seating-{slug}-s{season}-n{night.number}.json", dumps(rec)


class SeatingProofs:
    """``/league-season seating``: a night's seating record, to check with the revealed seed."""

    def __init__(self, store: LeagueStore) -> None:
        self.store = store

    async def night_file(
        self, league: LeagueRow, night_number: int | None, season: int | None = None
    ) -> tuple[Text, tuple[str, str]]:
        """The answer and ``(file name, JSON)`` of night ``night_number`` of ``season`` (default:
        the current season's latest night with a seating commitment). Refused (``no_seating_record``)
        when that night has none."""
        season = season or league.season
        nights = await self.store.nights.nights(league.id, season)
        with_key = [n for n in nights if key_of(n) is not None]
        if night_number is None:
            chosen = max(with_key, key=lambda n: n.number, default=None)
        else:
            chosen = next((n for n in nights if n.number == night_number), None)
        made = record_file(league.name, season, chosen) if chosen is not None else None
        if chosen is None or made is None:
            raise LeagueRefusal(
                proof_text.no_record(league.name, night_number),
                "no_seating_record",
                {"league": league.name, "season": season, "night": night_number},
            )
        return proof_text.record_attached(league.name, chosen.number, chosen.status in OVER), made
