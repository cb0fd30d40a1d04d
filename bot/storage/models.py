"""Data shapes exchanged between storage and the rest of the bot (see docs/BOT_STORAGE.md)."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, TypedDict

LIVE_STATUSES: tuple[str, ...] = ("open", "playing")
STATUSES: tuple[str, ...] = ("open", "playing", "finished", "abandoned")

Timestamp = int | float | datetime


class StorageError(Exception):
    """Base class of the errors storage raises on purpose."""


class StorageUnavailable(StorageError):
    """The database cannot be used at all (not a database, damaged, read-only, unreachable).

    The message is one line naming the file (or server) and the cause; nothing was written."""


class TableDamaged(StorageError):
    """A stored table cannot be read back (invalid JSON, a damaged database page)."""

    def __init__(self, table_id: int, reason: str, channel_id: int | None = None) -> None:
        self.table_id = table_id
        self.reason = reason
        self.channel_id = channel_id
        super().__init__(f"table {table_id} cannot be read back: {reason}")


class StorageClosed(StorageError):
    """An operation after ``close()`` (e.g. a timer that fired during shutdown)."""


class ChannelBusy(StorageError):
    """The channel already has a live (open or playing) table."""

    def __init__(self, channel_id: int, table_id: int | None = None) -> None:
        self.channel_id = channel_id
        self.table_id = table_id
        where = f" (table {table_id})" if table_id is not None else ""
        super().__init__(f"channel {channel_id} already has a live table{where}")


class StaleTable(StorageError):
    """The row's version is no longer the stored one: someone saved the table in between."""

    def __init__(self, table_id: int, version: int, current: int | None) -> None:
        self.table_id = table_id
        self.version = version
        self.current = current
        now = "it no longer exists" if current is None else f"it is now at version {current}"
        super().__init__(f"table {table_id} was saved at version {version} but {now}")


@dataclass(frozen=True)
class SetAside:
    """A stored table that could not be restored: left out, marked, and its channel freed.

    ``marked`` is False when even marking it failed (a damaged database page): then it is left out
    by this process only, and its channel stays blocked in the database until the file is repaired.
    ``guild_id``/``channel_id`` are None when they could not be read either."""

    table_id: int
    guild_id: int | None
    channel_id: int | None
    reason: str
    marked: bool


@dataclass
class TableRow:
    """A live or past table. ``data`` is the table service's own JSON blob."""

    id: int
    guild_id: int
    channel_id: int
    host_id: int
    status: str
    data: dict[str, Any]
    version: int
    created_at: int  # unix seconds, UTC
    updated_at: int  # unix seconds, UTC

    @property
    def live(self) -> bool:
        return self.status in LIVE_STATUSES


class HandPlayerRow(TypedDict):
    """One seat's numbers of a finished hand (a ``hand_players`` row), attributed by the table
    layer from the engine's ``HandScored`` (``bot.hand_stats``); storage only writes them."""

    seat: int
    side: int | None
    user_id: int | None
    is_bot: bool
    with_bots: bool
    tricks: int
    contract_bid: bool
    contract_made: bool
    nil_attempted: bool
    nil_made: bool
    blind_nil: bool
    bags: int
    points: int


@dataclass
class HandResult:
    """A finished hand, saved with the table in the same transaction: its record, the engine's
    result and one stats row per seat, all computed where the hand was scored."""

    table_id: int
    game_no: int
    hand_no: int
    record: dict[str, Any]  # HAND_RECORD.md record
    rows: list[HandPlayerRow]  # the stats rows (none: the hand is kept without stats)
    result: dict[str, Any] | None = None  # the engine's result of the hand (the record's "result")


@dataclass
class FinishedGame:
    """A finished game with its players, saved with the table in the same transaction."""

    table_id: int
    guild_id: int
    channel_id: int
    game_no: int
    ruleset: dict[str, Any] | str
    hands: int
    winner_side: int | None
    started_at: Timestamp
    finished_at: Timestamp
    sides: list[dict[str, Any]]  # {"seats": [...], "score": int, "bags": int}
    players: list[dict[str, Any]]  # {"seat", "side", "user_id": int | None, "is_bot": bool, "name": str}


@dataclass(frozen=True)
class PlayerStats:
    """One human's numbers in one server. Ratios are 0.0 when their denominator is 0."""

    user_id: int
    games: int = 0
    wins: int = 0
    not_counted: int = 0
    hands: int = 0
    contracts_made: int = 0
    contracts_bid: int = 0
    nils_made: int = 0
    nils_attempted: int = 0
    bags: int = 0
    rank: int | None = field(default=None, compare=False)
    rated_games: int = 0  # OpenSkill rating (bot.league.ratings): None until a rated game
    rating_mu: float | None = None
    rating_sigma: float | None = None

    @property
    def rating(self) -> float | None:
        """The conservative rating the leaderboard sorts by (mu - 3 sigma)."""
        if self.rating_mu is None or self.rating_sigma is None:
            return None
        return self.rating_mu - 3 * self.rating_sigma

    @property
    def win_pct(self) -> float:
        return 100.0 * self.wins / self.games if self.games else 0.0

    @property
    def bid_accuracy(self) -> float:
        return 100.0 * self.contracts_made / self.contracts_bid if self.contracts_bid else 0.0

    @property
    def bags_per_hand(self) -> float:
        return self.bags / self.hands if self.hands else 0.0

    @property
    def losses(self) -> int:
        return self.games - self.wins
