"""Each table's channel posts, sent one after another in the order they were queued."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

log = logging.getLogger(__name__)

Job = Callable[[], Awaitable[None]]


class Outbox:
    """Per table, a queue of jobs (a post, a delete, a repost of the live message) and the one task
    that runs them in order; a job that fails is logged and the next one runs."""

    def __init__(self) -> None:
        self.queues: dict[int, asyncio.Queue[Job]] = {}
        self.tasks: dict[int, asyncio.Task[None]] = {}

    def put(self, table_id: int, job: Job) -> None:
        q = self.queues.setdefault(table_id, asyncio.Queue())
        q.put_nowait(job)
        task = self.tasks.get(table_id)
        if task is None or task.done():
            self.tasks[table_id] = asyncio.create_task(self._drain(table_id), name=f"outbox-{table_id}")

    async def _drain(self, table_id: int) -> None:
        q = self.queues[table_id]
        while not q.empty():
            job = q.get_nowait()
            try:
                await job()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("a post for table %s failed", table_id)

    def queued(self) -> int:
        """Jobs waiting, all tables."""
        return sum(q.qsize() for q in self.queues.values())

    def holds(self, table_id: int) -> bool:
        return table_id in self.tasks or table_id in self.queues

    def drop(self, table_id: int) -> None:
        self.queues.pop(table_id, None)
        self.tasks.pop(table_id, None)
