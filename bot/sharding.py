"""This process's shards: take their leases, keep them, give them up, and take over the lost ones.

The leases themselves live in storage (``bot/storage/shards.py``); this is the process side:

* ``ShardKeeper.acquire()`` at start-up waits until every configured shard is this process's (a
  rolling restart waits for the old process to stop or its lease to run out) and fences storage
  with this process's claim, so every table write checks the lease in the database;
* ``ShardKeeper.run()`` renews the leases every third of the lease time; a shard that is lost
  (another process took it after this one stalled) is reported to ``on_lost`` (the table service
  drops its tables), a shard taken (back) is reported to ``on_gained`` (the service restores its
  tables from the database);
* ``ShardKeeper.close()`` releases every lease, so another process may take over at once.

See docs/SHARDING.md.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable

from bot.storage import Claim, ShardCountMismatch, Storage, gone_here, new_owner, shard_of

log = logging.getLogger(__name__)

ShardsListener = Callable[[set[int]], Awaitable[None]]


class ShardKeeper:
    """The leases of ``shard_ids`` (of ``count``) for this process."""

    def __init__(
        self,
        storage: Storage,
        *,
        count: int,
        shard_ids: tuple[int, ...],
        lease_seconds: float,
        owner: str | None = None,
    ) -> None:
        self.storage = storage
        self.count = count
        self.shard_ids = tuple(shard_ids)
        self.lease_seconds = lease_seconds
        self.owner = owner or new_owner()
        self.held: set[int] = set()
        self.on_gained: list[ShardsListener] = []
        self.on_lost: list[ShardsListener] = []
        self._task: asyncio.Task[None] | None = None
        self._closed = False
        self._renewed_at = time.monotonic()  # the last renewal (or acquisition) that held our shards
        self._lock = asyncio.Lock()  # one renewal at a time (the timer's, or a sender's ``confirmed``)
        self._confirming: asyncio.Task[None] | None = None

    @property
    def every(self) -> float:
        """How often leases are renewed (a third of their length: two renewals may fail in a row)."""
        return self.lease_seconds / 3

    def owns_guild(self, guild_id: int | None) -> bool:
        """Whether this process runs the guild's tables now (DMs: yes, they have no table)."""
        return guild_id is None or shard_of(guild_id, self.count) in self.held

    def fresh(self) -> bool:
        """Whether the leases were renewed less than a lease ago (by this machine's monotonic
        clock, which runs on while the process is stopped): if not, another process may run our
        shards by now, and nothing may be sent for their tables until a renewal says."""
        return time.monotonic() - self._renewed_at < self.lease_seconds

    async def confirmed(self) -> bool:
        """Whether this process may act for its shards now: at once while the leases are fresh;
        after a stall past the lease, once a renewal (one, shared by every sender waiting) has
        said which shards are still ours (the lost ones are dropped by ``on_lost`` meanwhile).
        False when the renewal fails (the database is unreachable): nothing is sent then."""
        if self.fresh() or self._closed:
            return self.fresh()
        if self._confirming is None or self._confirming.done():
            self._confirming = asyncio.create_task(self._renew_if_stale(), name="shard-leases-confirm")
        try:
            await asyncio.shield(self._confirming)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("renewing the shard leases after a stall failed")
            return False
        return self.fresh()

    async def _renew_if_stale(self) -> None:
        async with self._lock:
            if not self.fresh():
                await self.tick()

    def describe(self) -> str:
        held = ",".join(str(s) for s in sorted(self.held)) or "none"
        return f"shards {held} of {self.count}"

    async def acquire(self, *, patience: float | None = None) -> set[int]:
        """Take every configured shard, waiting (and saying who holds it) while another process
        has it; then fence storage with this process's claim. ``patience`` caps the wait (None:
        wait as long as it takes, e.g. for a killed process's lease to run out)."""
        self.storage.shards.claim = Claim(self.owner, self.count)
        started = time.monotonic()
        said = 0.0
        while True:
            try:
                self.held = await self.storage.shards.acquire(
                    self.owner, self.count, self.shard_ids, self.lease_seconds, dead=await self._dead()
                )
            except ShardCountMismatch as exc:
                if time.monotonic() - said > 30:
                    log.warning("waiting to take shards: %s", exc)
                    said = time.monotonic()
                self.held = set()
            missing = set(self.shard_ids) - self.held
            self._renewed_at = time.monotonic()
            if not missing:
                log.info("holding %s as %s", self.describe(), self.owner)
                return set(self.held)
            if patience is not None and time.monotonic() - started >= patience:
                log.warning("started with %s; still waiting for %s", self.describe(), sorted(missing))
                return set(self.held)
            if time.monotonic() - said > 30:
                holders = {
                    lease.shard_id: lease.owner
                    for lease in await self.storage.shards.leases()
                    if lease.shard_id in missing
                }
                log.info(
                    "waiting for shard(s) %s held by %s (taken over when released or after %.0f s)",
                    ",".join(str(s) for s in sorted(missing)),
                    ", ".join(sorted(set(holders.values()))) or "another process",
                    self.lease_seconds,
                )
                said = time.monotonic()
            await asyncio.sleep(min(self.every, 1.0))

    async def _dead(self) -> tuple[str, ...]:
        """Holders of our shards that were processes on this machine and are gone (a crash and a
        restart on the same machine take over at once, not a lease later)."""
        leases = await self.storage.shards.leases()
        mine = [lease for lease in leases if lease.shard_id in self.shard_ids and lease.owner != self.owner]
        dead = tuple(sorted({lease.owner for lease in mine if gone_here(lease.owner)}))
        if dead:
            log.info("the process(es) %s on this machine are gone: taking their shards over", ", ".join(dead))
        return dead

    def start(self) -> None:
        """Renew (and take over) in the background until ``close()``."""
        if self._task is None:
            self._task = asyncio.create_task(self.run(), name="shard-leases")

    async def run(self) -> None:
        while not self._closed:
            await asyncio.sleep(self.every)
            try:
                async with self._lock:
                    await self.tick()
            except asyncio.CancelledError:
                raise
            except Exception:
                # the database is unreachable: keep trying; the fence stops our writes if the lease
                # runs out meanwhile and another process takes the shard
                log.exception("renewing the shard leases failed")

    async def tick(self) -> None:
        """One renewal: keep what is ours, notice what was lost, take what is free again."""
        lapsed = time.monotonic() - self._renewed_at >= self.lease_seconds
        still = await self.storage.shards.renew(self.owner, self.lease_seconds)
        self._renewed_at = time.monotonic()
        lost = self.held - still
        self.held = still & set(self.shard_ids)
        if lost:
            log.warning("lost shard(s) %s to another process: dropping their tables", sorted(lost))
            await self._tell(self.on_lost, lost)
        if lapsed and self.held:
            # this process stalled past its lease and nobody took the shards meanwhile (the fence
            # let our saves through: the lease rows still name us); any table let go in that
            # window comes back (the ones still here are skipped)
            log.warning("the lease of %s ran out during a stall and is renewed: restoring", self.describe())
            await self._tell(self.on_gained, set(self.held))
        missing = set(self.shard_ids) - self.held
        if missing:
            try:
                got = await self.storage.shards.acquire(
                    self.owner, self.count, tuple(missing), self.lease_seconds, dead=await self._dead()
                )
            except ShardCountMismatch as exc:
                log.warning("cannot take shards back: %s", exc)
                got = set()
            if got:
                self.held |= got
                log.info("took over shard(s) %s: restoring their tables", sorted(got))
                await self._tell(self.on_gained, got)

    @staticmethod
    async def _tell(listeners: list[ShardsListener], shards: set[int]) -> None:
        for listener in listeners:
            try:
                await listener(set(shards))
            except Exception:
                log.exception("a shard listener failed")

    async def close(self) -> None:
        """Stop renewing and release every lease (idempotent)."""
        if self._closed:
            return
        self._closed = True
        for task in (self._task, self._confirming):
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task
        if not self.storage.closed:
            try:
                await self.storage.shards.release(self.owner)
                log.info("released %s", self.describe())
            except Exception:
                log.exception("releasing the shard leases failed (they run out by themselves)")
        self.held = set()
