"""A player's own settings (migration 004): the same in every server, two switches, both off by
default (``storage.players``); queries written once for both backends."""

from __future__ import annotations

from dataclasses import dataclass

from .base import Repository, _now


@dataclass(frozen=True)
class PlayerSettings:
    """``no_blind_nil``: show the cards as soon as a hand is dealt; ``turn_ping``: ping when the
    player's turn starts."""

    no_blind_nil: bool = False
    turn_ping: bool = False


DEFAULT = PlayerSettings()


class Players(Repository):
    """``storage.players``: players' own settings."""

    async def get(self, user_ids: list[int]) -> dict[int, PlayerSettings]:
        """The settings of each user (the defaults for anyone who never set them)."""
        out = dict.fromkeys(user_ids, DEFAULT)
        for uid in sorted(set(user_ids)):  # (a handful per table: one indexed read each)
            row = await self._fetchone(
                "SELECT no_blind_nil, turn_ping FROM player_settings WHERE user_id = ?", (uid,)
            )
            if row is not None:
                out[uid] = PlayerSettings(bool(row[0]), bool(row[1]))
        return out

    async def set(
        self, user_id: int, *, no_blind_nil: bool | None = None, turn_ping: bool | None = None
    ) -> PlayerSettings:
        """Change one or both switches; the settings now stored."""
        async with self._transaction() as tx:
            row = await tx.fetchone(
                "SELECT no_blind_nil, turn_ping FROM player_settings WHERE user_id = ?", (user_id,)
            )
            current = PlayerSettings(bool(row[0]), bool(row[1])) if row is not None else DEFAULT
            new = PlayerSettings(
                current.no_blind_nil if no_blind_nil is None else bool(no_blind_nil),
                current.turn_ping if turn_ping is None else bool(turn_ping),
            )
            await tx.execute(
                "INSERT INTO player_settings (user_id, no_blind_nil, turn_ping, updated_at)"
                " VALUES (?, ?, ?, ?) ON CONFLICT (user_id) DO UPDATE SET"
                " no_blind_nil = excluded.no_blind_nil, turn_ping = excluded.turn_ping,"
                " updated_at = excluded.updated_at",
                (user_id, int(new.no_blind_nil), int(new.turn_ping), _now()),
            )
        return new
