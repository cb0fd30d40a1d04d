"""bot/safe.py: every wrapper answers when it can, and an expired, already-answered or refused
interaction is logged and reported as False, never raised. The interaction is a stand-in for
Discord's (only Discord is faked); each branch is driven by what Discord would do."""

from __future__ import annotations

import io
import logging
from types import SimpleNamespace
from typing import Any, ClassVar

import aiohttp
import discord
import pytest
from discord.webhook.async_ import Route, async_context

from bot.safe import (
    MAX_CONTENT,
    RetryingWebhookAdapter,
    install_webhook_adapter,
    safe_autocomplete,
    safe_defer,
    safe_edit,
    safe_modal,
    safe_send,
)
from tests.bot.factories import FakeInteraction


def _http(cls: type[discord.HTTPException], status: int) -> discord.HTTPException:
    return cls(SimpleNamespace(status=status, reason="x"), {"code": 10062, "message": "Unknown interaction"})


FAILURES = [
    _http(discord.NotFound, 404),  # expired (more than 3 s, or 15 min for follow-ups)
    _http(discord.HTTPException, 400),  # refused
    discord.InteractionResponded(None),  # type: ignore[arg-type]  # a double answer
    aiohttp.ClientConnectionResetError("Cannot write to closing transport"),  # failed twice
]


def _i(**kw: Any) -> Any:
    return FakeInteraction(**kw)


async def test_defer_once_and_only_when_unanswered() -> None:
    i = _i()
    assert await safe_defer(i, ephemeral=False, thinking=True) is True
    assert i.calls == [("defer", (), {"ephemeral": False, "thinking": True})]
    assert await safe_defer(i) is False  # answered now: nothing more is sent
    assert len(i.calls) == 1


async def test_send_answers_first_then_follows_up_without_pinging() -> None:
    i = _i()
    assert await safe_send(i, "hello", view=None) is True
    name, args, kw = i.calls[0]
    assert name == "send_message" and args == ("hello",) and kw["ephemeral"] is True
    assert "view" not in kw  # discord.py refuses view=None on a first answer
    assert kw["allowed_mentions"].users is False and kw["allowed_mentions"].everyone is False
    assert await safe_send(i, None, ephemeral=False) is True
    name, args, kw = i.calls[1]
    assert name == "followup" and args == ("",) and kw["ephemeral"] is False


async def test_long_answers_are_cut_to_discords_limit_never_dropped() -> None:
    i = _i()
    assert await safe_send(i, "x" * (MAX_CONTENT + 50)) is True
    sent = i.calls[0][1][0]
    assert len(sent) == MAX_CONTENT and sent.endswith("…")
    i2 = _i()
    assert await safe_edit(i2, "y" * MAX_CONTENT) is True
    assert i2.calls[0][2]["content"] == "y" * MAX_CONTENT  # exactly at the limit: untouched


async def test_edit_updates_in_place_then_the_original() -> None:
    i = _i()
    assert await safe_edit(i, "one") is True
    assert i.calls[0][0] == "edit_message" and i.calls[0][2]["content"] == "one"
    assert await safe_edit(i, "two") is True
    assert i.calls[1][0] == "edit_original" and i.calls[1][2]["content"] == "two"


async def test_modal_and_autocomplete_only_when_unanswered() -> None:
    modal = discord.ui.Modal(title="t")
    i = _i()
    assert await safe_modal(i, modal) is True and i.calls[0] == ("send_modal", (modal,), {})
    assert await safe_modal(i, modal) is False and len(i.calls) == 1
    choices = [discord.app_commands.Choice(name=str(n), value=str(n)) for n in range(30)]
    a = _i()
    assert await safe_autocomplete(a, choices) is True
    assert a.calls[0][1][0] == choices[:25]  # Discord takes at most 25
    assert await safe_autocomplete(_i(done=True), choices) is False


@pytest.mark.parametrize(
    "failure", FAILURES, ids=["expired", "refused", "already-answered", "connection-lost"]
)
async def test_every_wrapper_tolerates_what_discord_refuses(
    failure: BaseException, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG, logger="bot.safe")
    modal = discord.ui.Modal(title="t")
    choice = [discord.app_commands.Choice(name="a", value="a")]
    calls = [
        ("defer", lambda i: safe_defer(i)),
        ("send", lambda i: safe_send(i, "hi")),
        ("edit", lambda i: safe_edit(i, "hi")),
        ("modal", lambda i: safe_modal(i, modal)),
        ("autocomplete", lambda i: safe_autocomplete(i, choice)),
    ]
    for what, call in calls:
        i = _i(fail=failure)
        assert await call(i) is False, what
        assert len(i.calls) == 1, what  # it tried once
        assert f"{what} failed for interaction 4242" in caplog.text, what
    # a follow-up and an edit of the original fail the same way once the first answer is gone
    for call in (lambda i: safe_send(i, "late"), lambda i: safe_edit(i, "late")):
        i = _i(done=True, fail=failure)
        assert await call(i) is False
        assert i.calls[0][0] in ("followup", "edit_original")


class _Response:
    status = 204
    headers: ClassVar[dict[str, str]] = {}

    async def text(self, encoding: str = "utf-8") -> str:
        return ""


class _Session:
    """aiohttp's session as Discord's edge behaves on a kept-alive connection it has closed: the
    first ``resets`` writes fail before anything is sent; later ones reach Discord."""

    def __init__(self, resets: int) -> None:
        self.resets = resets
        self.sent: list[tuple[str, str, Any]] = []

    def request(self, method: str, url: str, **kwargs: Any) -> Any:
        session = self

        class _Call:
            async def __aenter__(self) -> _Response:
                if session.resets:
                    session.resets -= 1
                    raise aiohttp.ClientConnectionResetError("Cannot write to closing transport")
                session.sent.append((method, url, kwargs.get("data")))
                return _Response()

            async def __aexit__(self, *exc: object) -> None:
                return None

        return _Call()


def _followup() -> Route:
    return Route("POST", "/webhooks/{webhook_id}/{webhook_token}", webhook_id=1, webhook_token="t")


async def test_a_connection_closed_before_the_write_is_sent_again_once() -> None:
    session: Any = _Session(resets=1)
    adapter = RetryingWebhookAdapter()
    await adapter.request(_followup(), session, payload={"content": "hi"})
    assert session.sent == [("POST", _followup().url, '{"content":"hi"}')]  # sent once, not twice


async def test_a_file_is_rewound_before_it_is_sent_again() -> None:
    session: Any = _Session(resets=1)
    picture = discord.File(io.BytesIO(b"png"), filename="table.png")
    picture.fp.read()  # the failed attempt had read it
    await RetryingWebhookAdapter().request(
        _followup(), session, multipart=[{"name": "files[0]", "value": picture.fp}], files=[picture]
    )
    assert picture.fp.tell() == 0 and len(session.sent) == 1


async def test_a_connection_that_fails_twice_is_raised_to_the_safe_wrappers() -> None:
    session: Any = _Session(resets=2)
    with pytest.raises(aiohttp.ClientConnectionResetError):
        await RetryingWebhookAdapter().request(_followup(), session, payload={})
    assert session.sent == []


async def test_installing_makes_interactions_use_the_retrying_adapter() -> None:
    before = async_context.get()
    try:
        install_webhook_adapter()
        installed = async_context.get()
        assert isinstance(installed, RetryingWebhookAdapter)
        install_webhook_adapter()  # twice is harmless: the same adapter (its rate-limit locks) stays
        assert async_context.get() is installed
    finally:
        async_context.set(before)
