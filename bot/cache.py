"""The one cache type of the bot: values kept in memory for ``ttl`` seconds.

A value is *fresh* for ``ttl`` seconds after it was put, then *due*: still there (``get`` returns
it, so a table never waits on storage to honour a setting) until it is put again or removed, but
``fresh`` is False and ``due`` names it, so the owner reads it again. That is how a setting
changed through another process (docs/SHARDING.md) is seen here: within ``ttl`` seconds and the
next read.

``timer`` is the clock the ages are measured with (``time.monotonic``; a test passes its own).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Iterator
from typing import Generic, TypeVar, overload

K = TypeVar("K")
V = TypeVar("V")
D = TypeVar("D")


class TTLCache(Generic[K, V]):
    """Values by key, each fresh for ``ttl`` seconds after it was put."""

    def __init__(self, ttl: float, *, timer: Callable[[], float] = time.monotonic) -> None:
        self.ttl = ttl
        self.timer = timer
        self._items: dict[K, tuple[V, float]] = {}  # key -> (value, when it was put)

    def put(self, key: K, value: V) -> None:
        self._items[key] = (value, self.timer())

    def update(self, values: dict[K, V]) -> None:
        now = self.timer()
        for key, value in values.items():
            self._items[key] = (value, now)

    @overload
    def get(self, key: K) -> V | None: ...
    @overload
    def get(self, key: K, default: D) -> V | D: ...
    def get(self, key: K, default: object = None) -> object:
        """The value last put (fresh or due), or ``default``."""
        item = self._items.get(key)
        return default if item is None else item[0]

    def fresh(self, key: K) -> bool:
        """Whether ``key`` was put less than ``ttl`` seconds ago."""
        item = self._items.get(key)
        return item is not None and self.timer() - item[1] <= self.ttl

    def due(self, keys: Iterable[K]) -> list[K]:
        """The keys (in order, once each) that were never put or are older than ``ttl``."""
        seen: set[K] = set()
        out: list[K] = []
        for key in keys:
            if key not in seen and not self.fresh(key):
                seen.add(key)
                out.append(key)
        return out

    def pop(self, key: K) -> V | None:
        item = self._items.pop(key, None)
        return None if item is None else item[0]

    def __contains__(self, key: object) -> bool:
        """Whether ``key`` holds a value (fresh or due)."""
        return key in self._items

    def __iter__(self) -> Iterator[K]:
        return iter(list(self._items))

    def __len__(self) -> int:
        return len(self._items)
