"""Per-server settings (the default preset and options of new tables): one JSON object per server
over ``DEFAULT_GUILD_SETTINGS``. A player's own settings are ``players.py``."""

from __future__ import annotations

import json
from typing import Any

from .base import Repository, _dumps, _now

DEFAULT_GUILD_SETTINGS: dict[str, Any] = {"default_preset": "standard", "options": {}}


class Settings(Repository):
    """``storage.settings``: the per-server settings."""

    async def guild(self, guild_id: int) -> dict[str, Any]:
        """The server's settings over the defaults (a fresh dict the caller may change)."""
        row = await self._fetchone("SELECT data FROM guild_settings WHERE guild_id = ?", (guild_id,))
        settings = json.loads(_dumps(DEFAULT_GUILD_SETTINGS))
        if row:
            settings.update(json.loads(row[0]))
        return settings

    async def set_guild(self, guild_id: int, **changes: Any) -> dict[str, Any]:
        """Merge top-level keys into the server's settings; returns the settings now stored."""
        async with self._transaction() as tx:
            row = await tx.fetchone("SELECT data FROM guild_settings WHERE guild_id = ?", (guild_id,))
            settings = json.loads(_dumps(DEFAULT_GUILD_SETTINGS))
            if row:
                settings.update(json.loads(row[0]))
            settings.update(changes)
            await tx.execute(
                "INSERT INTO guild_settings (guild_id, data, updated_at) VALUES (?, ?, ?)"
                " ON CONFLICT (guild_id) DO UPDATE SET data = excluded.data,"
                " updated_at = excluded.updated_at",
                (guild_id, _dumps(settings), _now()),
            )
        return settings
