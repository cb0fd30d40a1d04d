"""Shard ownership: one lease per shard in the database, so two processes never run one table.

A process (``owner``: host, pid and a random part, new at every start) takes the leases of its
shards, renews them every third of the lease time while it lives, and deletes them when it stops.
A lease that was not renewed in time (the process was killed, or lost the database) may be taken
by another process, which then restores that shard's tables from the database. Times come from the
database's clock, so machines with skewed clocks agree on when a lease ran out.

Every table write is *fenced*: with ``storage.shards.claim = Claim(owner, count)`` set,
``storage.tables.save`` and ``storage.tables.create`` only write while this process holds the
lease of the table's shard (checked in the same statement / transaction); otherwise they raise
``NotOwner`` and write nothing. A process that was paused past its lease and woke up after a
takeover therefore cannot overwrite the new owner's moves.

A guild's shard is Discord's: ``(guild_id >> 22) % shard_count``. One process running every shard
is (count 1, shard 0). All processes sharing a database must use the same ``SHARD_COUNT``: a lease
with another count that has not run out blocks taking any shard.
"""

from __future__ import annotations

import logging
import os
import secrets
import socket
from dataclasses import dataclass

from .backends import Backend
from .base import Repository
from .models import StorageError

log = logging.getLogger(__name__)


def shard_of(guild_id: int, shard_count: int) -> int:
    """Discord's shard of a guild."""
    return (int(guild_id) >> 22) % shard_count


def _quote(text: str) -> str:
    return text.replace("'", "''")


def gone_here(owner: str) -> bool:
    """Whether a lease holder named by ``new_owner`` was a process on this machine that is gone:
    its pid no longer runs, or is this very process (a restart that got the same pid, as PID 1 in
    a container does). Holders elsewhere are never judged: their leases run out instead."""
    host, _, rest = owner.partition(":")
    pid_text, _, _ = rest.partition(":")
    if host != socket.gethostname()[:40] or not pid_text.isdigit():
        return False
    pid = int(pid_text)
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    except OSError:
        return False  # alive, someone else's
    return False


def new_owner() -> str:
    """A name for this process's leases: readable in the table, unique across restarts."""
    return f"{socket.gethostname()[:40]}:{os.getpid()}:{secrets.token_hex(3)}"


class NotOwner(StorageError):
    """This process does not hold the lease of the table's shard (any more): nothing was written."""

    def __init__(self, table_id: int | None, shard_id: int) -> None:
        self.table_id = table_id
        self.shard_id = shard_id
        what = f"table {table_id}" if table_id is not None else "a new table"
        super().__init__(f"{what} is on shard {shard_id}, which this process does not hold")


class ShardCountMismatch(StorageError):
    """Another process holds a lease under a different SHARD_COUNT."""


@dataclass(frozen=True)
class Lease:
    shard_id: int
    shard_count: int
    owner: str
    acquired_at: int  # ms, database clock
    expires_at: int  # ms, database clock


@dataclass(frozen=True)
class Claim:
    """The fence: this process's owner name and the shard count it runs under."""

    owner: str
    count: int


class Shards(Repository):
    """``storage.shards``: the shard leases, and the fence every table write of a claim carries."""

    def __init__(self, backend: Backend) -> None:
        super().__init__(backend)
        self.claim: Claim | None = None  # set: every table write is fenced by this process's leases

    def _now_ms(self) -> str:
        return str(self.backend.now_ms_sql)

    async def acquire(
        self,
        owner: str,
        count: int,
        shard_ids: tuple[int, ...] | set[int],
        ttl: float,
        *,
        dead: tuple[str, ...] = (),
    ) -> set[int]:
        """Take every free (or run-out, or already ours) lease among ``shard_ids``; the ones held now.
        ``dead`` names holders known to be gone (a crashed process on this machine): their leases
        are taken at once instead of after they run out.

        Raises ShardCountMismatch while a live lease exists under another shard count."""
        now = self._now_ms()
        ttl_ms = int(ttl * 1000)
        held: set[int] = set()
        async with self.backend.transaction() as tx:
            gone = "".join(f" AND owner <> '{_quote(d)}'" for d in dead)
            other = await tx.fetchone(
                f"SELECT shard_count, owner FROM shard_leases WHERE shard_count <> ? AND expires_at > {now}"
                f"{gone} LIMIT 1",
                (count,),
            )
            if other is not None:
                raise ShardCountMismatch(
                    f"process {other[1]} runs with SHARD_COUNT={other[0]}, this one with {count}: all "
                    "processes sharing a database must use the same SHARD_COUNT (stop the others first)"
                )
            taken = "".join(f" OR owner = '{_quote(d)}'" for d in dead)
            await tx.execute(
                f"DELETE FROM shard_leases WHERE shard_count <> ? AND (expires_at <= {now}{taken})", (count,)
            )
            for shard in shard_ids:
                await tx.execute(
                    "INSERT INTO shard_leases (shard_id, shard_count, owner, acquired_at, expires_at)"
                    f" VALUES (:shard, :count, :owner, {now}, {now} + :ttl)"
                    " ON CONFLICT (shard_id) DO UPDATE SET shard_count = excluded.shard_count,"
                    " owner = excluded.owner, expires_at = excluded.expires_at,"
                    " acquired_at = CASE WHEN shard_leases.owner = excluded.owner"
                    " THEN shard_leases.acquired_at ELSE excluded.acquired_at END"
                    f" WHERE shard_leases.owner = excluded.owner OR shard_leases.expires_at <= {now}"
                    + "".join(f" OR shard_leases.owner = '{_quote(d)}'" for d in dead),
                    {"shard": shard, "count": count, "owner": owner, "ttl": ttl_ms},
                )
                holder = await tx.fetchval("SELECT owner FROM shard_leases WHERE shard_id = ?", (shard,))
                if holder == owner:
                    held.add(shard)
        return held

    async def renew(self, owner: str, ttl: float) -> set[int]:
        """Push back the expiry of every lease this process still holds; the shards still held.

        A lease that ran out but was not taken is still ours (nobody ran its tables meanwhile)."""
        now = self._now_ms()
        async with self.backend.transaction() as tx:
            await tx.execute(
                f"UPDATE shard_leases SET expires_at = {now} + ? WHERE owner = ?", (int(ttl * 1000), owner)
            )
            rows = await tx.fetchall("SELECT shard_id FROM shard_leases WHERE owner = ?", (owner,))
        return {int(r[0]) for r in rows}

    async def release(self, owner: str) -> None:
        """Give every lease of this process up at once (a clean stop: another may take over now)."""
        async with self.backend.transaction() as tx:
            await tx.execute("DELETE FROM shard_leases WHERE owner = ?", (owner,))

    async def leases(self) -> list[Lease]:
        rows = await self._fetchall(
            "SELECT shard_id, shard_count, owner, acquired_at, expires_at FROM shard_leases ORDER BY shard_id"
        )
        return [Lease(int(r[0]), int(r[1]), str(r[2]), int(r[3]), int(r[4])) for r in rows]

    def fence_sql(self) -> str:
        """The condition a fenced write adds (empty without a claim): the lease of the table's shard
        is this process's.

        Whether the lease has run out does not matter here: another process takes a shard only by
        writing itself into its lease row, and the fence reads that row in the write's own
        transaction. A lease that ran out unclaimed (this process stalled past it) is still ours,
        as ``renew`` says, and refusing its writes would only let tables go that nobody
        else runs."""
        if self.claim is None:
            return ""
        return (
            " AND EXISTS (SELECT 1 FROM shard_leases WHERE shard_leases.shard_id = "
            f"((tables.guild_id / 4194304) % {int(self.claim.count)}) AND shard_leases.owner = ?)"
        )
