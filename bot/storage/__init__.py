"""Persistence of the bot: live tables, finished hands and games, stats, settings (SQLite, WAL).

The contract is docs/BOT_STORAGE.md; every SQL statement of the bot lives in this package.
"""

from .db import DEFAULT_GUILD_SETTINGS, Storage
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
    HandResult,
    PlayerStats,
    StaleTable,
    StorageClosed,
    StorageError,
    TableRow,
)
from .stats import SORT_LABELS, SORTS

__all__ = [
    "DEFAULT_GUILD_SETTINGS",
    "FORMER_PLAYER",
    "LIVE_STATUSES",
    "SORTS",
    "SORT_LABELS",
    "ChannelBusy",
    "FinishedGame",
    "ForgetReport",
    "GamePlayer",
    "GameSummary",
    "HandResult",
    "HistoryPage",
    "MigrationError",
    "PlayerSeated",
    "PlayerStats",
    "StaleTable",
    "Storage",
    "StorageClosed",
    "StorageError",
    "StoredHand",
    "TableRow",
]
