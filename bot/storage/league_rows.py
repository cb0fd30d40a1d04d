"""The league feature's stored rows and errors (migration 002), and how a database row becomes one.

No SQL runs here: the queries live in the ``league_*`` modules, put together by
``bot.storage.leagues.LeagueStore``.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .models import StorageError

LEAGUE_STATUSES = ("active", "paused", "ended", "archived")
OPEN_NIGHT_STATUSES = ("scheduled", "checkin", "playing")


class LeagueError(StorageError):
    """A league write refused by the data. ``code`` says which refusal (``team_name_taken``, …)
    and ``fields`` its values (user ids, names, counts), so the bot words it in the reader's
    language (``bot.league.gateway.storage_message``); ``str()`` is the same refusal in English,
    for logs and tests."""

    def __init__(self, message: str, code: str = "league_error", **fields: Any) -> None:
        super().__init__(message)
        self.code = code
        self.fields = fields


class LeagueNameTaken(LeagueError):
    pass


class LeagueSlotTaken(LeagueError):
    pass


class AlreadyMember(LeagueError):
    pass


class NotMember(LeagueError):
    pass


class RemovedByAdmin(LeagueError):
    pass


class InviteError(LeagueError):
    pass


class CheckinClosed(LeagueError):
    pass


class AlreadyCheckedIn(LeagueError):
    pass


class StaleLeague(LeagueError):
    pass


class ResultExists(LeagueError):
    pass


@dataclass
class LeagueRow:
    id: int
    guild_id: int
    channel_id: int
    name: str
    status: str
    format: str
    ruleset: dict[str, Any]
    settings: dict[str, Any]
    schedule: dict[str, Any]
    slot_key: str
    season: int
    version: int
    created_by: int
    created_at: int
    updated_at: int


_LEAGUE_COLUMNS = (
    "id, guild_id, channel_id, name, status, format, ruleset, settings, schedule, slot_key, season,"
    " version, created_by, created_at, updated_at"
)


def _league(row: Any) -> LeagueRow:
    return LeagueRow(
        id=row[0],
        guild_id=row[1],
        channel_id=row[2],
        name=row[3],
        status=row[4],
        format=row[5],
        ruleset=json.loads(row[6]),
        settings=json.loads(row[7]),
        schedule=json.loads(row[8]),
        slot_key=row[9],
        season=row[10],
        version=row[11],
        created_by=row[12],
        created_at=row[13],
        updated_at=row[14],
    )


@dataclass
class Member:
    user_id: int
    team_id: int | None
    status: str
    joined_at: int


@dataclass
class Team:
    id: int
    league_id: int
    name: str
    status: str
    captain_id: int
    members: list[int]  # the captain first
    invited: list[int] = field(default_factory=list)  # members who have not accepted yet
    created_at: int = 0


@dataclass
class NightRow:
    id: int
    league_id: int
    season: int
    number: int
    night_date: str
    starts_at: int
    checkin_at: int
    status: str
    round_no: int
    data: dict[str, Any]
    updated_at: int


_NIGHT_COLUMNS = (
    "id, league_id, season, number, night_date, starts_at, checkin_at, status, round_no, data, updated_at"
)


def _night(row: Any) -> NightRow:
    return NightRow(
        id=row[0],
        league_id=row[1],
        season=row[2],
        number=row[3],
        night_date=row[4],
        starts_at=row[5],
        checkin_at=row[6],
        status=row[7],
        round_no=row[8],
        data=json.loads(row[9]),
        updated_at=row[10],
    )


@dataclass
class LeagueTable:
    id: int
    night_id: int
    round_no: int
    table_no: int
    sides: list[list[int | None]]
    channel_id: int | None
    table_id: int | None
    status: str

    @property
    def players(self) -> list[int]:
        return [p for side in self.sides for p in side if p is not None]


_LT_COLUMNS = "id, night_id, round_no, table_no, sides, channel_id, table_id, status"


def _lt(row: Any) -> LeagueTable:
    return LeagueTable(row[0], row[1], row[2], row[3], json.loads(row[4]), row[5], row[6], row[7])


@dataclass
class Result:
    league_table_id: int
    night_id: int
    night_number: int
    round_no: int
    table_no: int
    sides: list[list[int | None]]
    scores: list[int]
    bags: list[int]
    winner_side: int | None
    complete: bool
    corrected: bool
    game_id: int | None
    started_at: int = 0  # when its round started (unix seconds)
    # {user: (the seat's actions, of those the bot's)} at the end (migration 007; {} before)
    seats: dict[int, tuple[int, int]] = field(default_factory=dict)
    forfeit_side: int | None = None  # the side that forfeited the table (migration 010)


@dataclass
class AuditEntry:
    id: int
    league_id: int
    night_id: int | None
    actor_id: int | None
    action: str
    detail: dict[str, Any]
    reason: str | None
    at: int


@dataclass(frozen=True)
class StoredRating:
    """A player's OpenSkill numbers as stored (the rules live in ``bot.league.ratings``)."""

    mu: float
    sigma: float
    games: int


@dataclass(frozen=True)
class RatingRow:
    user_id: int
    rating: StoredRating
    rank: int = 0


@dataclass(frozen=True)
class SeatRow:
    """One seat of a stored game, as the rater sees it."""

    side: int
    user_id: int | None
    is_bot: bool
    bot_share: float


#: rates one stored game: (seats, side scores, winning side, current ratings of its humans) -> the
#: new ratings of the players it rates ({} when it is not a rated game)
GameRater = Callable[
    [list[SeatRow], list[int], "int | None", dict[int, StoredRating]], dict[int, StoredRating]
]
