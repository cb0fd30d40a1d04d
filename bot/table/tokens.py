"""Per table, a few fresh interaction tokens that can edit its PUBLIC live message.

A click on a button of the live message (My hand, Start, I'm back) is acknowledged with a deferred
update, so its token's ``@original`` is that public message for 15 minutes, and an edit through it
does not count towards the bot token's global rate limit (``bot.safe.PublicMessage``). The publisher
redraws the live message through one of these when it has one, and through the budgeted bot token
otherwise.

Only ``PublicMessage`` objects are kept here (a separate type from ``bot.safe.PrivateMessage``, the
hand panels): the pool can never hand a panel's token to the publisher, nor a panel this one.
"""

from __future__ import annotations

import collections
import time

from bot.safe import PublicMessage

# Token ages and per-token buckets are Discord's time, not the game's: they stay on time.monotonic
# (bot.clock's Clock, which a sandbox or a test speeds up, would expire a token Discord still honours).
#: Discord's interaction tokens live 15 minutes; stop using one a minute before.
TOKEN_TTL = 14 * 60.0
#: Discord's bucket for editing through one token (the fake's: 5 per 2 s): keep one edit in hand.
PER_TOKEN = 4
PER_TOKEN_WINDOW = 2.0
#: tokens kept per table (the newest): one is enough at the publisher's pace, more spread the load
POOL_SIZE = 3


class PublicTokens:
    """The freshest public-message tokens of every table, and how often each was used lately."""

    def __init__(self, size: int = POOL_SIZE) -> None:
        self.size = size
        self._pool: dict[int, collections.deque[PublicMessage]] = {}
        self._uses: dict[int, collections.deque[float]] = {}  # id(token) -> its recent edits
        self.edits = 0  # edits made through a token (the health line, the benchmark)
        self.refused = 0  # edits Discord refused through a token (then made with the bot token)

    def add(self, table_id: int, public: PublicMessage) -> None:
        if not isinstance(public, PublicMessage):
            raise TypeError("only a public message (bot.safe.acknowledge_public) can hold a table's token")
        pool = self._pool.setdefault(table_id, collections.deque())
        pool.append(public)
        while len(pool) > self.size:
            self._uses.pop(id(pool.popleft()), None)

    def pick(self, table_id: int, message_id: int | None) -> PublicMessage | None:
        """A token that edits ``message_id`` now without meeting its rate limit (the one used least
        lately), counted as used; None if the table has none (expired, another message, all busy)."""
        pool = self._pool.get(table_id)
        if not pool or message_id is None:
            return None
        now = time.monotonic()
        best: PublicMessage | None = None
        best_uses: collections.deque[float] | None = None
        for public in list(pool):
            if now - public.since > TOKEN_TTL or public.message_id != message_id:
                self.discard(table_id, public)  # expired, or the live message was posted again
                continue
            uses = self._uses.setdefault(id(public), collections.deque())
            while uses and uses[0] <= now - PER_TOKEN_WINDOW:
                uses.popleft()
            if len(uses) < PER_TOKEN and (best_uses is None or len(uses) < len(best_uses)):
                best, best_uses = public, uses
        if best is None or best_uses is None:
            return None
        best_uses.append(now)
        return best

    def has(self, table_id: int, message_id: int | None) -> bool:
        """Whether the table holds an unexpired token for ``message_id`` (busy or not)."""
        now = time.monotonic()
        return any(
            p.message_id == message_id and now - p.since <= TOKEN_TTL for p in self._pool.get(table_id, ())
        )

    def discard(self, table_id: int, public: PublicMessage) -> None:
        pool = self._pool.get(table_id)
        if pool is not None and public in pool:
            pool.remove(public)
            if not pool:
                del self._pool[table_id]
        self._uses.pop(id(public), None)

    def drop(self, table_id: int) -> None:
        for public in self._pool.pop(table_id, ()):
            self._uses.pop(id(public), None)

    def holds(self, table_id: int) -> bool:
        return table_id in self._pool

    def tables(self) -> int:
        return len(self._pool)
