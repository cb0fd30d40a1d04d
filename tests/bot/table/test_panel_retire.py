"""A hand panel replaced by one in another message is told where the hand went and loses its
buttons (``HandPanels.remember``); a panel redrawn where it is, or one its own click already
retired, is left as it is."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace
from typing import Any

from bot import safe
from bot.clock import SystemClock
from bot.table.panels import MOVED, HandPanels
from bot.table.staleness import Staleness

edits: list[tuple[int, Any, Any]] = []


class Panel(safe.PrivateMessage):
    """A private message whose edits are recorded (message, content, view)."""

    async def edit(self, content: Any, *, view: Any, text_only: bool = False, fence: Any = None) -> bool:
        if fence is not None and not await fence():
            return False
        edits.append((id(self), content, view))
        return True


def interaction(message: int | None, *, ephemeral: bool) -> Any:
    """A click on message ``message`` (None: a slash command) that reached the bot now."""
    on = None if message is None else SimpleNamespace(id=message, flags=SimpleNamespace(ephemeral=ephemeral))
    return SimpleNamespace(id=message or 0, message=on, extras={})


def panels() -> HandPanels:
    edits.clear()
    return HandPanels(SimpleNamespace(get=lambda _tid: None), Staleness(), clock=SystemClock())  # type: ignore[arg-type]


async def settled() -> None:
    for _ in range(5):
        await asyncio.sleep(0)


async def test_my_hand_again_retires_the_older_panel() -> None:
    p = panels()
    first = Panel(interaction(100, ephemeral=False), 501)  # My hand on the live table: a follow-up
    p.remember(1, 7, first)
    second = Panel(interaction(100, ephemeral=False), 502)  # My hand again
    p.remember(1, 7, second)
    await settled()
    assert edits == [(id(first), MOVED, None)]


async def test_a_slash_command_panel_retires_the_older_one() -> None:
    p = panels()
    first = Panel(interaction(100, ephemeral=False), 501)
    p.remember(1, 7, first)
    p.remember(1, 7, Panel(interaction(None, ephemeral=False), None))  # /spades hand
    await settled()
    assert edits == [(id(first), MOVED, None)]


async def test_a_panel_redrawn_in_place_or_already_retired_is_left_alone() -> None:
    p = panels()
    first = Panel(interaction(100, ephemeral=False), 501)
    p.remember(1, 7, first)
    p.remember(1, 7, Panel(interaction(501, ephemeral=True), None))  # a click on it: in place
    older = Panel(interaction(100, ephemeral=False), 601)
    p.remember(1, 7, older)  # (retires the one at 501)
    await settled()
    edits.clear()
    p.remember(1, 7, Panel(interaction(601, ephemeral=True), 602))  # its click moved it itself
    p.remember(1, 7, Panel(interaction(400, ephemeral=True), None))  # an older panel clicked
    await settled()
    assert edits == []


async def test_a_panel_is_not_retired_on_another_shard() -> None:
    p = panels()

    async def closed(_tid: int) -> bool:
        return False

    p.fence = closed
    p.remember(1, 7, Panel(interaction(100, ephemeral=False), 501))
    p.remember(1, 7, Panel(interaction(100, ephemeral=False), 502))
    await settled()
    assert edits == []
