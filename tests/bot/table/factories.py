"""Factories for the table tests: a table service on a real SQLite file with a recording publisher
(the channel), the players and channel they use, and a wait that yields to the service."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import discord

from bot.config import Faults
from bot.faults import SaveErrors
from bot.guild_settings import GuildSettings
from bot.model import Table
from bot.storage import Storage
from bot.table.service import TableService
from fakediscord import Stopwatch
from tests.clock import TestClock

GUILD, CHANNEL = 1000, 2000


ALICE, BOB, CAROL, DAVE, ERIN = 11, 12, 13, 14, 15


@dataclass
class Post:
    channel_id: int
    content: str
    view: discord.ui.View | None
    mention: int | None = None
    edits: list[str] = field(default_factory=list)
    files: list[tuple[str, bytes]] = field(default_factory=list)
    edited_at: list[float] = field(default_factory=list)


class RecordingPublisher:
    """Stands in for the channel: records every post and edit."""

    def __init__(self) -> None:
        self.posts: dict[int, Post] = {}
        self.order: list[int] = []
        self.deleted: list[int] = []
        self._next = 1

    async def send(
        self,
        channel_id: int,
        content: str,
        *,
        view: discord.ui.View | None = None,
        mention: int | None = None,
        files: Sequence[tuple[str, bytes]] = (),
    ) -> int | None:
        mid = self._next
        self._next += 1
        self.posts[mid] = Post(channel_id, content, view, mention, files=list(files))
        self.order.append(mid)
        return mid

    async def edit(
        self, channel_id: int, message_id: int, content: str, *, view: discord.ui.View | None = None
    ) -> bool:
        post = self.posts.get(message_id)
        if post is None or message_id in self.deleted:
            return False
        post.edits.append(content)
        post.edited_at.append(time.monotonic())
        post.content, post.view = content, view
        return True

    async def delete(self, channel_id: int, message_id: int) -> bool:
        self.deleted.append(message_id)
        return True

    def texts(self) -> list[str]:
        out = []
        for mid in self.order:
            p = self.posts[mid]
            out.extend([*p.edits, p.content])
        return out


def make_service(
    storage: Storage, *, speed: float = 100.0, seed: int | None = 7, faults: Faults | None = None
) -> TableService:
    """A table service on ``storage`` with a recording publisher and a clock ``speed`` times
    faster than real time (``tests/clock.py``); ``faults``: the save-error seam installed."""
    return TableService(
        storage,
        publisher=RecordingPublisher(),
        clock=TestClock(speed),
        settings=GuildSettings(storage),
        deal_seed=seed,
        save_fault=SaveErrors(faults) if faults is not None else None,
    )


async def open_table(svc: TableService, **kw: Any) -> Table:
    res = await svc.lifecycle.create(
        guild_id=GUILD, channel_id=CHANNEL, host_id=ALICE, host_name="alice", **kw
    )
    assert res.ok, res.message
    assert res.table is not None
    return res.table


async def wait_until(pred: Any, what: str, timeout: float = 20.0) -> None:
    watch = Stopwatch()  # (the time this process had a CPU: a busy machine does not fail it)
    while not pred():
        assert not watch.past(timeout), f"timed out waiting for {what}"
        await asyncio.sleep(0.005)
