"""Stand-ins for the bot's unit tests: Discord's interaction (only Discord is faked)."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any


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
