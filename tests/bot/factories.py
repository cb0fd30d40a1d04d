"""Factories for the bot's unit tests: an open table of a ruleset, and stand-ins for Discord's
interaction (only Discord is faked)."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import engine
from bot.model import Table


class FakeResponse:
    def __init__(self, done: bool, fail: BaseException | None) -> None:
        self.done, self.fail, self.calls = done, fail, []  # type: ignore[var-annotated]

    def is_done(self) -> bool:
        return self.done

    async def _call(self, name: str, *args: Any, **kwargs: Any) -> None:
        self.calls.append((name, args, kwargs))
        if self.fail is not None:
            raise self.fail
        self.done = True

    async def defer(self, **kw: Any) -> None:
        await self._call("defer", **kw)

    async def send_message(self, *a: Any, **kw: Any) -> None:
        await self._call("send_message", *a, **kw)

    async def edit_message(self, **kw: Any) -> None:
        await self._call("edit_message", **kw)

    async def send_modal(self, modal: Any) -> None:
        await self._call("send_modal", modal)

    async def autocomplete(self, choices: Any) -> None:
        await self._call("autocomplete", choices)


class FakeInteraction:
    def __init__(self, *, done: bool = False, fail: BaseException | None = None) -> None:
        self.id = 4242
        self.response = FakeResponse(done, fail)
        self.calls = self.response.calls
        self.followup = SimpleNamespace(send=self._followup)

    async def _followup(self, *a: Any, **kw: Any) -> None:
        await self.response._call("followup", *a, **kw)

    async def edit_original_response(self, **kw: Any) -> None:
        await self.response._call("edit_original", **kw)


def open_table(rs: engine.Ruleset, table_id: int = 7) -> Table:
    """An open table of ``rs`` with every seat empty, as a lobby is before anyone joins."""
    return Table(
        id=table_id,
        guild_id=1,
        channel_id=10**18,
        host_id=10**17,
        status="open",
        ruleset=rs,
        preset=rs.name,
        seats=[None] * rs.num_seats,
        settings={},
    )
