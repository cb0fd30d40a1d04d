"""Saving a table (``storage.tables.save``): the one writer task per process that writes every
queued save in one transaction (group commit), with the table's finished hand or game."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Any

from .backends import Backend, Session
from .base import Repository, _dumps, _now
from .games import Games
from .models import (
    LIVE_STATUSES,
    STATUSES,
    ChannelBusy,
    FinishedGame,
    HandResult,
    StaleTable,
    StorageError,
    TableRow,
)
from .shards import NotOwner, Shards, shard_of

_UPDATE_TABLE = (
    "UPDATE tables SET status = ?, host_id = ?, data = ?, version = version + 1, updated_at = ?"
    " WHERE id = ? AND version = ?"
)


class _Fallback(Exception):
    """The batch's fast path met a stale or refused row: write the saves one by one."""


@dataclass(eq=False)
class _Save:
    """One queued ``save`` call and the future its caller waits on."""

    row: TableRow
    blob: str
    now: int
    hand: HandResult | None
    game: FinishedGame | None
    done: asyncio.Future[TableRow]

    def params(self, owner: str | None) -> tuple[Any, ...]:
        r = self.row
        base = (r.status, r.host_id, self.blob, self.now, r.id, r.version)
        return base if owner is None else (*base, owner)


def live_channel_conflict(backend: Backend, exc: BaseException) -> bool:
    """Whether ``exc`` is the one-live-table-per-channel index refusing a write."""
    return backend.is_unique_violation(exc, "tables_one_live_per_channel", "tables.channel_id")


class Writer(Repository):
    """The save path of ``storage.tables``: version-checked, fenced, batched."""

    def __init__(self, backend: Backend, shards: Shards, games: Games) -> None:
        super().__init__(backend)
        self.shards = shards  # (the claim and its fence)
        self.games = games  # (a save's finished hand and game)
        self._queue: list[_Save] = []  # saves waiting for the writer
        self._task: asyncio.Task[None] | None = None  # the writer task, while it runs

    @property
    def queued(self) -> int:
        """Table saves waiting for the writer (the health line)."""
        return len(self._queue)

    async def save(
        self,
        row: TableRow,
        *,
        hand: HandResult | None = None,
        game: FinishedGame | None = None,
    ) -> TableRow:
        """Write the row's status/host/data and, when given, a finished hand and/or game, atomically.

        Raises StaleTable when ``row.version`` is not the stored version (nothing is written).
        On success the same row object is updated in place (new ``version``, ``updated_at``) and
        returned, so a caller may keep using it. Returns only once the write is committed.

        Group commit: saves queued while another batch is being written go out together in the next
        transaction (see ``_write_batch``); each caller still gets its own outcome.
        """
        if row.status not in STATUSES:
            raise ValueError(f"bad table status {row.status!r}; expected one of {', '.join(STATUSES)}")
        blob = _dumps(row.data)
        self._check_open()
        save = _Save(row, blob, _now(), hand, game, asyncio.get_running_loop().create_future())
        self._queue.append(save)
        if self._task is None or self._task.done():
            self._task = asyncio.create_task(self._write_queued(), name="storage-writer")
        # A caller cancelled here may still see its save committed (its row object is then one
        # version behind, and its next save is refused as stale); one not yet written is skipped.
        return await save.done

    async def _write_queued(self) -> None:
        """The writer: while saves are queued, write all of them in one go."""
        while self._queue:
            batch, self._queue = [s for s in self._queue if not s.done.done()], []
            if not batch:
                continue
            try:
                self._check_open()
                await self._write_batch(batch)
            except BaseException as exc:  # every waiter gets an answer, whatever happened
                for s in batch:
                    if not s.done.done():
                        failure = exc if isinstance(exc, Exception) else StorageError(repr(exc))
                        s.done.set_exception(failure)
                if not isinstance(exc, Exception):
                    raise

    async def _write_batch(self, batch: list[_Save]) -> None:
        """One transaction for the whole batch. Fast path: one ``executemany`` UPDATE (version-checked)
        for every row; if any row is stale or refused, roll back and write them one by one, so that a
        stale table fails only its own save."""
        if len(batch) == 1 and batch[0].hand is None and batch[0].game is None:
            await self._write_alone(batch[0])
            return
        if len(batch) > 1:
            try:
                async with self._transaction() as tx:
                    batch = [s for s in batch if not s.done.done()]  # skip callers cancelled meanwhile
                    owner = self._owner()
                    changed = await tx.executemany(
                        _UPDATE_TABLE + self.shards.fence_sql(), [s.params(owner) for s in batch]
                    )
                    if changed != len(batch):
                        raise _Fallback
                    for s in batch:
                        await self._insert_results(tx, s)
            except Exception:
                pass  # stale, refused or failed: write them one by one below
            else:
                self._settle(batch)
                return
        written: list[_Save] = []
        async with self._transaction() as tx:
            for s in batch:
                if s.done.done():
                    continue
                outcome = await self._write_one(tx, s)
                if outcome is None:
                    written.append(s)
                elif not s.done.done():  # (its caller may have gone while it was written)
                    s.done.set_exception(outcome)
        self._settle(written)

    async def _write_alone(self, s: _Save) -> None:
        """The most common batch: one move of one table, no hand or game to insert. Its UPDATE
        alone commits by itself: one trip to the database, not five (BEGIN, SAVEPOINT, UPDATE,
        RELEASE, COMMIT), each of which waited for a turn of the busy event loop."""
        owner = self._owner()
        try:
            changed = await self.backend.write_one(_UPDATE_TABLE + self.shards.fence_sql(), s.params(owner))
            if changed != 1:
                # (read apart from the write: a table changed in between reads as stale, and the
                # caller's reload then meets the fence if the shard has moved)
                found = await self._fetchone("SELECT version FROM tables WHERE id = ?", (s.row.id,))
                raise self._refused(s, None if found is None else found[0])
        except Exception as exc:
            if not s.done.done():
                s.done.set_exception(self._failure(s, exc))
            return
        self._settle([s])

    def _refused(self, s: _Save, found: Any) -> Exception:
        """Why a save's version-checked, fenced UPDATE changed nothing (``found``: the stored
        version, None if the table is gone): the shard is another process's, or the table changed."""
        claim = self.shards.claim
        if claim is not None and found is not None and int(found) == s.row.version:
            return NotOwner(s.row.id, shard_of(s.row.guild_id, claim.count))
        return StaleTable(s.row.id, s.row.version, None if found is None else int(found))

    def _failure(self, s: _Save, exc: Exception) -> Exception:
        """What the caller of a failed save is told: another live table holds the channel, or ``exc``."""
        if s.row.status in LIVE_STATUSES and live_channel_conflict(self.backend, exc):
            busy = ChannelBusy(s.row.channel_id)
            busy.__cause__ = exc
            return busy
        return exc

    async def _write_one(self, tx: Session, s: _Save) -> Exception | None:
        """One save inside the batch's transaction (in a savepoint: PostgreSQL aborts a whole
        transaction on a failed statement); returns its failure, nothing of it written."""
        try:
            async with tx.savepoint("save"):
                owner = self._owner()
                changed = await tx.execute(_UPDATE_TABLE + self.shards.fence_sql(), s.params(owner))
                if changed != 1:
                    found = await tx.fetchval("SELECT version FROM tables WHERE id = ?", (s.row.id,))
                    raise self._refused(s, found)
                await self._insert_results(tx, s)
        except Exception as exc:
            return self._failure(s, exc)
        return None

    async def _insert_results(self, tx: Session, s: _Save) -> None:
        if s.hand is not None:
            await self.games.insert_hand(tx, s.row, s.hand, s.now)
        if s.game is not None:
            await self.games.insert_game(tx, s.game)

    def _owner(self) -> str | None:
        """The fence's parameter: this process's lease owner (None without a claim)."""
        claim = self.shards.claim
        return claim.owner if claim else None

    @staticmethod
    def _settle(saves: list[_Save]) -> None:
        """Committed: bump each row in place and wake its caller."""
        for s in saves:
            s.row.version += 1
            s.row.updated_at = s.now
            if not s.done.done():
                s.done.set_result(s.row)
