"""League and rating queries (migration 002). Every SQL statement of the league feature lives in
this module's parts.

``LeagueStore(storage)`` holds one repository per job over the Storage's backend (its
connections, lock and transactions). Rules (who may check in, how to seat, how to score) live in
``bot.league``; the store only reads and writes, and enforces with the database what must never
happen twice: a night's status moves by compare-and-set (``nights.transition``), a check-in and a
result are keyed rows, a game is rated once.

The repositories, one module each over ``league_base`` (the shared connection helpers):
``store.rosters`` (``league_rosters``: leagues, members, teams), ``store.nights``
(``league_nights``: nights, check-ins), ``store.rounds`` (``league_rounds``: rounds, league
tables, results), ``store.ratings`` (``league_ratings``), ``store.audit`` (``league_audit``),
``store.attendance`` (``league_attendance``: no-shows, check-outs, standbys, substitutes); the
rows and errors are in ``league_rows`` and re-exported here.
"""

from __future__ import annotations

from .db import Storage
from .league_attendance import Absence, AttendanceRows, SubRow
from .league_audit import AuditRows
from .league_nights import NightRows
from .league_ratings import RatingRows
from .league_rosters import BOOKKEEPING_KEYS, RosterRows
from .league_rounds import RoundRows
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
    "Absence",
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
    "SubRow",
    "Team",
]


class LeagueStore:
    """League and rating persistence over an open :class:`Storage`: one repository per job, each
    over the Storage's backend."""

    def __init__(self, storage: Storage) -> None:
        self.rosters = RosterRows(storage)  # leagues, members, teams
        self.nights = NightRows(storage)  # nights, their status, check-ins
        self.rounds = RoundRows(storage)  # rounds, league tables, byes, substitutes, results
        self.ratings = RatingRows(storage)  # stored ratings, rating finished games
        self.audit = AuditRows(storage)  # the audit log
        self.attendance = AttendanceRows(storage)  # absences, standbys, substitutes (007)
