"""What the league service needs from Discord and the tables, and the small types it shares.

:class:`LeagueGateway` is the seam the bot wires (``bot.league.discord_io``); :class:`LeagueRefusal`
is the user-facing refusal the cog answers ephemerally.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Protocol

from bot.storage.leagues import LeagueRow, NightRow
from engine.ruleset import Ruleset

from . import schedule as sch

TICK_SECONDS = 30.0


class LeagueRefusal(Exception):
    """A user-facing refusal: the message is answered ephemerally as is."""


@dataclass(frozen=True)
class TableOutcome:
    """How a league table's game ended (or stood when time was called)."""

    scores: list[int]
    bags: list[int]
    winner_side: int | None
    complete: bool
    game_id: int | None = None


class LeagueGateway(Protocol):
    """What the service needs from Discord and the table machinery (wired by the bot)."""

    async def post(self, channel_id: int, content: str, *, role_id: int | None = None) -> int | None:
        """Post a message; returns its id (None when it could not be posted)."""

    async def post_checkin(
        self, channel_id: int, night_id: int, content: str, *, role_id: int | None
    ) -> int | None:
        """Post the check-in message with its Check in / Can't make it buttons."""

    async def edit_checkin(
        self, channel_id: int, message_id: int, night_id: int, content: str, *, closed: bool
    ) -> None:
        """Update the check-in message (the list of players; buttons removed once closed)."""

    async def open_table(
        self,
        *,
        guild_id: int,
        channel_id: int,
        title: str,
        seats: list[int | None],
        ruleset: Ruleset,
        league_table_id: int,
    ) -> tuple[int, int] | None:
        """Open a live table for these seats (None = a bot) in a new thread of ``channel_id`` (or the
        channel itself); returns (thread or channel id, table id), None when it could not."""

    async def table_outcome(self, table_id: int) -> TableOutcome | None:
        """The result of a table whose game is over; None while it is still being played."""

    async def call_time(self, table_id: int) -> TableOutcome | None:
        """Stop a table (time is up) and return its scores as they stand."""

    async def substitute(self, table_id: int, out_id: int, in_id: int, *, guild_id: int) -> bool:
        """Give a player's seat at a live table to another player; False if it could not."""

    async def sync_event(
        self,
        league: LeagueRow,
        night: sch.Night | None,
        *,
        recurrence: dict[str, Any] | None,
        event_id: int | None,
    ) -> int | None:
        """Create or update the Discord scheduled event for ``night`` (cancel it when None);
        returns the event id to keep."""

    async def tell_admins(self, league: LeagueRow, content: str) -> None:
        """Tell the league's admins something went wrong (a missed night, a table that failed)."""


@dataclass
class NightView:
    """A night of a league with its schedule entry (for posts and commands)."""

    league: LeagueRow
    night: NightRow


def _utc(seconds: int | float) -> datetime:
    return datetime.fromtimestamp(seconds, UTC)


def _unix(dt: datetime) -> int:
    return int(dt.timestamp())


def seating_label(fmt: str) -> str:
    return {"fixed": "Fixed partners", "rotating": "Rotating partners", "solo": "Solo"}.get(fmt, fmt)


def _audit_detail(detail: dict[str, Any]) -> str:
    if not detail:
        return ""
    if "after" in detail:
        return (
            f" (round {detail.get('round')}, table {detail.get('table')}: now"
            f" {detail['after'].get('scores')})"
        )
    if "out" in detail:
        return f" (<@{detail['out']}> → <@{detail['in']}>)"
    if "date" in detail:
        return f" ({detail['date']})"
    if "user" in detail:
        return f" (<@{detail['user']}>)"
    return ""
