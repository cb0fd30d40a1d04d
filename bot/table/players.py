"""Players' own settings as the tables use them (``/spades me``): kept in memory, so a table never
waits on storage to honour them, and read again once older than ``PLAYER_SETTINGS_TTL`` (another
process of a sharded bot may have changed them: docs/SHARDING.md).

- ``no_blind_nil``: the player's cards are shown as soon as a hand is dealt (``auto_look``, run in
  the store's commit before every save, so a new deal is saved already looked at);
- ``turn_ping``: the turn clock pings the player when their turn starts.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable

import engine
from bot.cache import TTLCache
from bot.model import Table
from bot.storage import Storage
from bot.storage.players import DEFAULT, PlayerSettings

log = logging.getLogger(__name__)

#: seconds a player's settings are used as read before they are read again (at the next change of
#: a table they sit at, or their next ``/spades me``): a change made through another process of a
#: sharded bot is honoured here within this long
PLAYER_SETTINGS_TTL = 30.0


class Players:
    """The settings of the players this process has seen."""

    def __init__(
        self,
        storage: Storage,
        *,
        ttl: float = PLAYER_SETTINGS_TTL,
        timer: Callable[[], float] = time.monotonic,
    ) -> None:
        self.storage = storage
        self.known: TTLCache[int, PlayerSettings] = TTLCache(ttl, timer=timer)

    def get(self, user_id: int) -> PlayerSettings:
        """The settings last read (the defaults for a player never read)."""
        return self.known.get(user_id, DEFAULT)

    def unknown(self, user_ids: list[int]) -> list[int]:
        """The players whose settings were never read, or were read more than the TTL ago."""
        return self.known.due(user_ids)

    async def load(self, user_ids: list[int]) -> bool:
        """Read the settings of players not read yet (or read too long ago); True if any was read."""
        missing = self.unknown(user_ids)
        if not missing:
            return False
        self.known.update(await self.storage.players.get(missing))
        return True

    async def set(
        self, user_id: int, *, no_blind_nil: bool | None = None, turn_ping: bool | None = None
    ) -> PlayerSettings:
        new = await self.storage.players.set(user_id, no_blind_nil=no_blind_nil, turn_ping=turn_ping)
        self.known.put(user_id, new)
        return new

    def auto_look(self, old: Table, new: Table) -> list[int]:
        """Turn the cards of players who never bid blind nil face up (on the working copy ``new``);
        the seats it changed."""
        g = new.game
        if g is None or new.status != "playing":
            return []
        looked = []
        for seat, s in enumerate(new.seats):
            if s is None or s.bot or s.user_id is None or not self.get(s.user_id).no_blind_nil:
                continue
            if g.has_looked(seat):
                continue
            try:
                g.look(seat)
            except (engine.IllegalAction, ValueError):
                continue
            looked.append(seat)
        return looked
