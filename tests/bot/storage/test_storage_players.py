"""Player settings (migration 004) on both backends."""

from __future__ import annotations

from bot.storage import Storage
from bot.storage.players import DEFAULT, PlayerSettings


async def test_player_settings_default_off_and_change_one_at_a_time(db: Storage) -> None:
    assert await db.players.get([5, 6]) == {5: DEFAULT, 6: DEFAULT}
    assert await db.players.set(5, no_blind_nil=True) == PlayerSettings(True, False)
    assert await db.players.set(5, turn_ping=True) == PlayerSettings(True, True)
    assert await db.players.set(5, no_blind_nil=False) == PlayerSettings(False, True)
    big = 2**63 - 1  # Discord ids are 64-bit
    await db.players.set(big, turn_ping=True)
    got = await db.players.get([5, 6, big])
    assert got == {5: PlayerSettings(False, True), 6: DEFAULT, big: PlayerSettings(False, True)}
