"""Persistence of the bot: live tables, finished hands and games, stats, settings (SQLite, WAL).

The contract is docs/BOT_STORAGE.md; every SQL statement of the bot lives in this package.
"""

from .db import Storage
from .history import (
    FORMER_PLAYER,
    ForgetReport,
    GamePlayer,
    GameSummary,
    HistoryPage,
    PlayerSeated,
    StoredHand,
)
from .migrations import MigrationError
from .models import (
    LIVE_STATUSES,
    ChannelBusy,
    FinishedGame,
    HandPlayerRow,
    HandResult,
    PlayerStats,
    SetAside,
    StaleTable,
    StorageClosed,
    StorageError,
    StorageUnavailable,
    TableDamaged,
    TableRow,
)
from .settings import DEFAULT_GUILD_SETTINGS
from .shards import Claim, Lease, NotOwner, ShardCountMismatch, gone_here, new_owner, shard_of
from .stats import SORTS

__all__ = [
    "DEFAULT_GUILD_SETTINGS",
    "FORMER_PLAYER",
    "LIVE_STATUSES",
    "SORTS",
    "ChannelBusy",
    "Claim",
    "FinishedGame",
    "ForgetReport",
    "GamePlayer",
    "GameSummary",
    "HandPlayerRow",
    "HandResult",
    "HistoryPage",
    "Lease",
    "MigrationError",
    "NotOwner",
    "PlayerSeated",
    "PlayerStats",
    "SetAside",
    "ShardCountMismatch",
    "StaleTable",
    "Storage",
    "StorageClosed",
    "StorageError",
    "StorageUnavailable",
    "StoredHand",
    "TableDamaged",
    "TableRow",
    "gone_here",
    "new_owner",
    "shard_of",
]
