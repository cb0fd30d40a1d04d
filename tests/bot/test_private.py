"""bot.safe: a private panel is only ever written to a message known to be ephemeral, whatever
answered the interaction first (issue 8, item 1), and the watchdog's deferral keeps it so."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace
from typing import Any

import discord
import pytest

from bot import safe
from bot.table.panels import HandPanels
from bot.table.publisher import TablePublisher
from bot.table.tokens import PublicTokens
from fakediscord import Stopwatch

T = discord.InteractionResponseType


class Response:
    def __init__(self) -> None:
        self.type: T | None = None
        self.calls: list[tuple[str, dict[str, Any]]] = []

    def is_done(self) -> bool:
        return self.type is not None

    async def defer(self, *, ephemeral: bool = False, thinking: bool = False) -> None:
        self.calls.append(("defer", {"ephemeral": ephemeral, "thinking": thinking}))
        self.type = T.deferred_channel_message if thinking else T.deferred_message_update

    async def send_message(self, content: str, **kw: Any) -> None:
        self.calls.append(("send", {"content": content, **kw}))
        self.type = T.channel_message

    async def edit_message(self, **kw: Any) -> None:
        self.calls.append(("update", kw))
        self.type = T.message_update


class Followup:
    def __init__(self, log: list[tuple[str, Any]]) -> None:
        self.log = log

    async def send(self, content: str, **kw: Any) -> Any:
        self.log.append(("followup", kw.get("ephemeral")))
        return SimpleNamespace(id=555, flags=SimpleNamespace(ephemeral=bool(kw.get("ephemeral"))))

    async def edit_message(self, message_id: int, **kw: Any) -> None:
        self.log.append(("edit", message_id))


def interaction(*, on_ephemeral: bool, component: bool = True) -> Any:
    log: list[tuple[str, Any]] = []

    async def edit_original_response(**kw: Any) -> None:
        log.append(("edit", "@original"))

    message = SimpleNamespace(id=42, flags=SimpleNamespace(ephemeral=on_ephemeral))
    return SimpleNamespace(
        id=1,
        type=discord.InteractionType.component if component else discord.InteractionType.application_command,
        message=message if component else None,
        response=Response(),
        followup=Followup(log),
        edit_original_response=edit_original_response,
        extras={},
        log=log,
    )


async def test_after_a_deferral_on_the_public_message_the_panel_goes_to_its_own_followup() -> None:
    """The leak of issue 8: a component deferral makes @original the public table message."""
    i = interaction(on_ephemeral=False)
    await i.response.defer()  # someone deferred the public button's click as an update
    safe._record_initial(i, "defer_update", ephemeral=False)
    panel = await safe.send_private(i, "your cards")
    assert panel is not None and panel.message_id == 555
    assert i.log == [("followup", True)]
    await panel.edit("your cards, later", view=None)  # a refresh when the turn comes
    assert i.log[-1] == ("edit", 555)  # its own ephemeral message, never @original
    assert ("edit", "@original") not in i.log


async def test_the_watchdog_defers_a_public_button_into_an_ephemeral_thinking_message() -> None:
    i = interaction(on_ephemeral=False)
    await safe.defer_in_time(i)
    assert i.response.calls == [("defer", {"ephemeral": True, "thinking": True})]
    panel = await safe.send_private(i, "your cards")  # fills the thinking message
    assert panel is not None and panel.message_id is None and i.log == [("edit", "@original")]
    again = await safe.send_private(i, "another")  # the thinking message is used: a new one
    assert again is not None and again.message_id == 555


async def test_a_panel_click_is_deferred_and_redrawn_in_place() -> None:
    i = interaction(on_ephemeral=True)
    await safe.defer_in_time(i)
    assert i.response.calls == [("defer", {"ephemeral": True, "thinking": False})]
    panel = await safe.send_private(i, "your cards", in_place=True)
    assert panel is not None and panel.message_id is None and i.log == [("edit", "@original")]


async def test_in_place_is_never_the_public_message() -> None:
    i = interaction(on_ephemeral=False)
    panel = await safe.send_private(i, "your cards", in_place=True)
    assert panel is not None
    assert [c[0] for c in i.response.calls] == ["send"] and i.response.calls[0][1]["ephemeral"] is True


async def test_a_declared_update_or_public_answer_is_deferred_that_way() -> None:
    i = interaction(on_ephemeral=False)
    safe.answer_as(i, safe.UPDATE)
    await safe.defer_in_time(i)
    assert i.response.calls == [("defer", {"ephemeral": True, "thinking": False})]
    c = interaction(on_ephemeral=False, component=False)
    safe.answer_as(c, safe.PUBLIC)
    await safe.defer_in_time(c)
    assert c.response.calls == [("defer", {"ephemeral": False, "thinking": True})]


async def test_the_watchdog_acknowledges_only_what_is_still_unanswered() -> None:
    slow, quick = interaction(on_ephemeral=False), interaction(on_ephemeral=False)
    safe.watch(slow, after=0.01)
    safe.watch(quick, after=0.01)
    await safe.safe_send(quick, "at once")
    # the slow one's watchdog acknowledges it; the quick one's (due at the same time) then had its
    # chance too: waited for, not a fixed sleep
    watch = Stopwatch()
    while not slow.response.calls:
        assert not watch.past(5.0), "the watchdog never acknowledged the slow interaction"
        await asyncio.sleep(0.005)
    await asyncio.sleep(0)
    assert [c[0] for c in slow.response.calls] == ["defer"]
    assert [c[0] for c in quick.response.calls] == ["send"]


def test_only_a_private_message_can_hold_a_panel() -> None:
    posts = TablePublisher.__new__(TablePublisher)
    posts.panels = HandPanels.__new__(HandPanels)
    posts.tokens = PublicTokens()
    with pytest.raises(TypeError):
        posts.remember_panel(1, 2, interaction(on_ephemeral=False))  # type: ignore[arg-type]
    with pytest.raises(TypeError):  # nor a public-message token a panel, nor a panel a token
        posts.remember_public(1, safe.PrivateMessage(interaction(on_ephemeral=True), None))  # type: ignore[arg-type]


async def test_a_panel_with_no_card_left_loses_its_old_buttons() -> None:
    """An in-place redraw without components must remove the old ones (the card just played)."""
    i = interaction(on_ephemeral=True)
    await safe.send_private(i, "no cards left", view=None, in_place=True)
    [(kind, kwargs)] = i.response.calls
    assert kind == "update" and "view" in kwargs and kwargs["view"] is None


async def test_a_click_on_the_public_message_gives_a_public_token_and_the_panel_a_followup() -> None:
    """``acknowledge_public``: a deferred update, so @original is the public message; the panel
    that follows goes to an ephemeral follow-up, and the token edits only the public message."""
    i = interaction(on_ephemeral=False)
    public = await safe.acknowledge_public(i)
    assert isinstance(public, safe.PublicMessage) and public.message_id == 42
    assert i.response.calls == [("defer", {"ephemeral": False, "thinking": False})]
    panel = await safe.send_private(i, "your cards")
    assert panel is not None and panel.message_id == 555
    assert i.log == [("followup", True)]
    assert await public.edit("the table", view=None)
    assert i.log[-1] == ("edit", "@original")
    # answered already, or a panel (an ephemeral message): no public token
    assert await safe.acknowledge_public(i) is None
    assert await safe.acknowledge_public(interaction(on_ephemeral=True)) is None
    assert await safe.acknowledge_public(interaction(on_ephemeral=False, component=False)) is None
