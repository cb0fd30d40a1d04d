"""League and rating queries (migration 002). Every SQL statement of the league feature lives in
this module's parts.

``LeagueStore(storage)`` is a repository over the Storage's backend (its connections, lock and
transactions). Rules (who may check in, how to seat, how to score) live in ``bot.league``; the
store only reads and writes, and enforces with the database what must never happen twice: a
night's status moves by compare-and-set (``transition``), a check-in and a result are keyed rows,
a game is rated once.

It is put together from one module per job, each over ``league_base`` (the shared connection
helpers): ``league_rosters`` (leagues, members, teams), ``league_nights`` (nights, check-ins),
``league_rounds`` (rounds, league tables, results), ``league_ratings``, ``league_audit``; the rows
and errors are in ``league_rows`` and re-exported here.
"""

from __future__ import annotations

from .league_audit import AuditMixin
from .league_nights import NightsMixin
from .league_ratings import RatingsMixin
from .league_rosters import BOOKKEEPING_KEYS, RostersMixin
from .league_rounds import RoundsMixin
from .league_rows import (
    LEAGUE_STATUSES,
    OPEN_NIGHT_STATUSES,
    AlreadyCheckedIn,
    AlreadyMember,
    AuditEntry,
    CheckinClosed,
    GameRater,
    InviteError,
    LeagueError,
    LeagueNameTaken,
    LeagueRow,
    LeagueSlotTaken,
    LeagueTable,
    Member,
    NightRow,
    NotMember,
    RatingRow,
    RemovedByAdmin,
    Result,
    ResultExists,
    SeatRow,
    StaleLeague,
    StoredRating,
    Team,
)

__all__ = [
    "BOOKKEEPING_KEYS",
    "LEAGUE_STATUSES",
    "OPEN_NIGHT_STATUSES",
    "AlreadyCheckedIn",
    "AlreadyMember",
    "AuditEntry",
    "CheckinClosed",
    "GameRater",
    "InviteError",
    "LeagueError",
    "LeagueNameTaken",
    "LeagueRow",
    "LeagueSlotTaken",
    "LeagueStore",
    "LeagueTable",
    "Member",
    "NightRow",
    "NotMember",
    "RatingRow",
    "RemovedByAdmin",
    "Result",
    "ResultExists",
    "SeatRow",
    "StaleLeague",
    "StoredRating",
    "Team",
]


class LeagueStore(RostersMixin, NightsMixin, RoundsMixin, RatingsMixin, AuditMixin):
    """League and rating persistence over an open :class:`Storage`."""
