"""Interaction helpers that tolerate expired or already-answered interactions, answer in time,
and keep private panels private.

Discord gives an interaction one initial response within 3 s and a follow-up webhook for 15 min.
A double click, a slow event loop or a restart can make any of those calls fail; none of those
failures may crash a command or leave a table half-updated, so every call here logs and returns a
boolean instead of raising.

**In time.** ``watch(interaction)`` (the client calls it for every interaction) acknowledges an
interaction still unanswered after ``DEFER_AFTER`` seconds, however slow the storage, so the
answer can follow. Its deferral keeps the answer where it was going: an ephemeral "thinking"
message for a command or a button on a public message, an in-place update for a component on an
ephemeral message (a hand panel) or on a message the handler said it updates (``answer_as``).
One lock per interaction orders the initial response, so the watchdog and a handler never both
answer.

**Private.** A hand panel is only ever written to a message known to be ephemeral: its own
follow-up (by message id), or an ``@original`` this module made ephemeral. After a component
deferral ``@original`` is the message the component sits on, which may be the *public* table
message; ``send_private`` is the one function that writes a panel, and ``PrivateMessage`` (what
it returns, and what the publisher keeps to refresh panels) can only edit such a message.

**Public.** The other way round, ``acknowledge_public`` answers a click on a *public* message (a
table's live message) with a deferred update (type 6): the click's token then edits that public
message for 15 min through the interaction route, which Discord's global rate limit does not count.
What it returns is a ``PublicMessage``, a separate type the publisher only ever draws the table
into; ``send_private`` and ``PrivateMessage`` never take one, so a panel cannot go there.
"""

from __future__ import annotations

import asyncio
import logging
import re
import time
from abc import ABC, abstractmethod
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, TypeVar

import aiohttp
import discord
from discord.utils import MISSING
from discord.webhook.async_ import (
    AsyncWebhookAdapter,
    async_context,
    handle_message_parameters,
    interaction_message_response_params,
)

from bot.i18n import (
    LANGUAGES,
    CommandMentions,
    Lazy,
    _,
    buttons_in,
    names_buttons,
    render,
    resolve,
    user_language,
)

log = logging.getLogger(__name__)

MAX_CONTENT = 2000
UPDATE_MESSAGE = discord.InteractionResponseType.message_update
NEW_MESSAGE = discord.InteractionResponseType.channel_message
T = TypeVar("T")

#: An interaction still unanswered this long after it reached the bot is acknowledged, so slow work
#: (a busy database) can answer later: Discord drops an interaction not answered within 3 s, and a
#: loaded machine needs the margin.
DEFER_AFTER = 1.0

# kept in ``interaction.extras``
_LOCK = "spades.response_lock"  # (bot.errors takes the same lock for its apologies)
_EDIT_LOCK = "spades.edit_lock"
_ORIGINAL = "spades.original"  # what @original is: PRIVATE, PENDING (ephemeral "thinking"), PUBLIC
_INTENT = "spades.answer"  # how the handler answers: EPHEMERAL, PUBLIC or UPDATE (in place)
_SINCE = "spades.since"
PRIVATE, PENDING, PUBLIC = "private", "pending", "public"
THINKING_PUBLIC = "thinking-public"  # a public "thinking": the first follow-up fills it, publicly
GONE = "gone"  # @original deleted: every follow-up is a message of its own
EPHEMERAL, UPDATE = "ephemeral", "update"


def _extras(interaction: Any) -> dict[str, Any]:
    extras = getattr(interaction, "extras", None)
    if isinstance(extras, dict):
        return extras
    try:  # (stand-in interactions of unit tests)
        interaction.extras = extras = {}
    except AttributeError:
        return {}
    return extras


def _lock(interaction: Any) -> asyncio.Lock:
    """The interaction's one lock around its initial response."""
    extras = _extras(interaction)
    lock = extras.get(_LOCK)
    if lock is None:
        lock = extras[_LOCK] = asyncio.Lock()
    return lock


def on_ephemeral_message(interaction: Any) -> bool:
    """Whether the component that was used sits on an ephemeral message (a hand panel)."""
    message = getattr(interaction, "message", None)
    flags = getattr(message, "flags", None)
    return bool(getattr(flags, "ephemeral", False))


NOT_ON_MESSAGE = _("That button is not on this message, so it does nothing here. Nothing was changed.")


MAX_ID = 2**63 - 1  # ids are 64-bit database integers


def fits(*numbers: int, top: int = MAX_ID) -> bool:
    """Every number a custom_id carries is one the database can hold (ids are 64-bit integers):
    a made-up ``2**63`` or ``10**30`` is refused before anything is read."""
    return all(0 <= n <= top for n in numbers)


def custom_id_of(interaction: Any) -> str:
    data = interaction.data if isinstance(interaction.data, dict) else {}
    return str(data.get("custom_id", ""))


def on_its_message(interaction: Any) -> bool:
    """The clicked component (its custom_id and type) is on the message the click came from (always
    so for a real click; a made-up custom_id sent with another message's id is not): only then may
    a handler edit that message in place."""
    message = getattr(interaction, "message", None)
    if message is None:
        return False
    wanted = custom_id_of(interaction)
    data = interaction.data if isinstance(interaction.data, dict) else {}
    kind = data.get("component_type")

    def walk(components: Any) -> bool:
        for c in components or ():
            same_kind = kind is None or getattr(getattr(c, "type", None), "value", kind) == kind
            if getattr(c, "custom_id", None) == wanted and same_kind:
                return True
            if walk(getattr(c, "children", None)):
                return True
        return False

    return walk(getattr(message, "components", None))


def _is_component(interaction: Any) -> bool:
    return getattr(interaction, "type", None) in (
        discord.InteractionType.component,
        discord.InteractionType.modal_submit,
    )


def answer_as(interaction: Any, how: str) -> None:
    """Declare how the handler answers (``PUBLIC`` for a message the channel sees, ``UPDATE`` for an
    edit of the component's message), so a deferral in the meantime keeps that answer possible.
    The default is an ephemeral message (or, on an ephemeral message, an update in place)."""
    _extras(interaction)[_INTENT] = how


def _record_initial(interaction: Any, kind: str, *, ephemeral: bool) -> None:
    """Remember what ``@original`` became with the initial response."""
    if kind in ("update", "defer_update"):
        private = on_ephemeral_message(interaction)
        _extras(interaction)[_ORIGINAL] = PRIVATE if private else PUBLIC
    elif kind == "thinking":
        _extras(interaction)[_ORIGINAL] = PENDING if ephemeral else THINKING_PUBLIC
    else:
        _extras(interaction)[_ORIGINAL] = PRIVATE if ephemeral else PUBLIC


def _filled(interaction: Any) -> None:
    state = _extras(interaction).get(_ORIGINAL)
    if state in (PENDING, THINKING_PUBLIC):
        _extras(interaction)[_ORIGINAL] = PRIVATE if state == PENDING else PUBLIC


async def _drop_public_thinking(interaction: Any) -> None:
    """Before an ephemeral follow-up: a public "thinking" message (a deferral for a public answer)
    would be filled by it, publicly, whatever its flags say (Discord keeps the deferral's
    visibility). It is deleted first, so the follow-up is a message of its own, for the user alone
    (a refusal of a command that answers publicly, under a slow database)."""
    if _extras(interaction).get(_ORIGINAL) != THINKING_PUBLIC:
        return
    try:
        await interaction.delete_original_response()
    except _TOLERATED as exc:
        log.debug("deleting the thinking message of interaction %s failed: %s", interaction.id, exc)
    _extras(interaction)[_ORIGINAL] = GONE


async def _defer_locked(interaction: Any, *, ephemeral: bool, thinking: bool) -> bool:
    if interaction.response.is_done():
        return False
    try:
        await interaction.response.defer(ephemeral=ephemeral, thinking=thinking)
    except _TOLERATED as exc:
        log.debug("defer failed for interaction %s: %s", interaction.id, exc)
        return False
    kind = "thinking" if thinking or not _is_component(interaction) else "defer_update"
    _record_initial(interaction, kind, ephemeral=ephemeral)
    return True


async def defer_in_time(interaction: Any) -> bool:
    """Acknowledge an unanswered interaction the way its answer needs (see the module doc)."""
    if getattr(interaction, "type", None) == discord.InteractionType.autocomplete:
        return False  # cannot be deferred: autocomplete answers from memory, in time
    intent = _extras(interaction).get(_INTENT, EPHEMERAL)
    async with _lock(interaction):
        if interaction.response.is_done():
            return False
        if _is_component(interaction) and (intent == UPDATE or on_ephemeral_message(interaction)):
            return await _defer_locked(interaction, ephemeral=True, thinking=False)
        return await _defer_locked(interaction, ephemeral=intent != PUBLIC, thinking=True)


def watch(interaction: Any, after: float | None = None) -> None:
    """Make sure ``interaction`` is acknowledged within ``after`` (default ``DEFER_AFTER``) seconds
    of now, whatever its handler waits for. Idempotent."""
    extras = _extras(interaction)
    if _SINCE in extras:
        return
    extras[_SINCE] = time.monotonic()
    delay = DEFER_AFTER if after is None else after

    async def watchdog() -> None:
        await asyncio.sleep(delay)
        if not interaction.response.is_done():
            await defer_in_time(interaction)

    task = asyncio.ensure_future(watchdog())
    _watchdogs.add(task)
    task.add_done_callback(_watchdogs.discard)


_watchdogs: set[asyncio.Future[None]] = set()


async def within(seconds: float, work: Awaitable[T]) -> T | None:
    """``work``'s result, or None if it takes longer than ``seconds`` (it is then cancelled): for
    answers that cannot be deferred (autocomplete)."""
    try:
        return await asyncio.wait_for(work, seconds)
    except TimeoutError:
        return None


# a mention, a channel, a role, a custom emoji or a timestamp: cut in half it shows as raw text
_TOKEN = re.compile(r"<[\w:@#!&-]*$")  # (an unclosed "<" at the cut: dropped whole)


def clip_text(text: str, limit: int = MAX_CONTENT) -> str:
    """``text`` cut to ``limit`` characters with "…", never in the middle of a ``<@id>`` mention
    (or a channel, role, emoji or timestamp): such a token is dropped whole."""
    if len(text) <= limit:
        return text
    cut = text[: limit - 1]
    start = cut.rfind("<")
    if start != -1 and ">" not in cut[start:] and _TOKEN.match(cut[start:]):
        cut = cut[:start]
    return cut + "…"


def _clip(content: str | None) -> str | None:
    """Discord refuses content over 2,000 characters: an answer that long is cut, never lost."""
    return None if content is None else clip_text(content)


# seconds a public answer waits for its language (the server's settings, read once per server)
PUBLIC_LANGUAGE_WAIT = 1.0


class PublicLanguages(ABC):
    """A client that knows the language of a channel's public messages (``bot.client.SpadesBot``)."""

    @abstractmethod
    async def public_language(self, interaction: discord.Interaction) -> str:
        """The channel's table's language, else the server's (``/spades config language``)."""


class NamesCommands(ABC):
    """A client that knows its synced commands' ids (``bot.client.SpadesBot``): the commands an
    answer names become clickable mentions."""

    @property
    @abstractmethod
    def command_mentions(self) -> CommandMentions:
        """The ids learnt at the last sync (empty until then)."""


async def public_language(interaction: discord.Interaction) -> str:
    """The language of the public messages where ``interaction`` happened: what the bot's
    ``public_language(interaction)`` says (the channel's table's, else the server's: ``/spades
    config language``), else, without one or when it is slow, the server's locale as Discord
    reports it."""
    client = interaction.client
    if isinstance(client, PublicLanguages):
        try:
            lang = await within(PUBLIC_LANGUAGE_WAIT, client.public_language(interaction))
        except Exception:
            log.exception("the public language of interaction %s could not be read", interaction.id)
            lang = None
        if lang in LANGUAGES:
            return str(lang)
    return resolve(getattr(interaction, "guild_locale", None))


async def _text(interaction: discord.Interaction, content: Any, *, ephemeral: bool) -> str | None:
    """A lazy message (``bot.i18n``) in the reader's language: the clicking user's for an
    ephemeral answer, the public messages' (:func:`public_language`) for a public one."""
    if content is None or not isinstance(content, Lazy):
        return _clip(_mentions(interaction, content))
    if not ephemeral:
        return _clip(_mentions(interaction, render(content, await public_language(interaction))))
    lang = user_language(interaction)
    if names_buttons(content):
        # a private answer naming a public button names it as the public message labels it
        with buttons_in(await public_language(interaction)):
            return _clip(_mentions(interaction, render(content, lang)))
    return _clip(_mentions(interaction, render(content, lang)))


def _mentions(interaction: discord.Interaction, content: Any) -> Any:
    """Commands named in an answer (```/spades new```) as clickable mentions, once the client
    knows their ids (:class:`NamesCommands`)."""
    client = getattr(interaction, "client", None)
    if isinstance(content, str) and isinstance(client, NamesCommands):
        return client.command_mentions.mention(content)
    return content


class RetryingWebhookAdapter(AsyncWebhookAdapter):
    """discord.py's interaction and webhook transport, which also resends once when a pooled
    connection turned out to be closed before the request was written.

    discord.py retries a reset connection only for the errno values macOS and Windows use (54,
    10054); aiohttp raises ``ClientConnectionResetError`` ("Cannot write to closing transport",
    no errno) when the peer closed a kept-alive connection, and nothing was sent, so sending again
    on a fresh connection is safe. ``install_webhook_adapter`` puts it in place."""

    async def request(self, route: Any, session: aiohttp.ClientSession, **kwargs: Any) -> Any:
        try:
            return await super().request(route, session, **kwargs)
        except aiohttp.ClientConnectionResetError:
            log.debug(
                "%s %s: connection closed before the request was written; resending", route.method, route.path
            )
            for file in kwargs.get("files") or ():
                file.reset(seek=True)
            return await super().request(route, session, **kwargs)


def install_webhook_adapter() -> None:
    """Make every interaction response and follow-up sent from the current task (and the tasks it
    starts from now on: the gateway's event handlers) use :class:`RetryingWebhookAdapter`."""
    if not isinstance(async_context.get(), RetryingWebhookAdapter):
        async_context.set(RetryingWebhookAdapter())


#: failures of an interaction call that are logged, not raised (a connection that failed twice
#: included: the interaction is lost, the command and the table are not)
_TOLERATED = (
    discord.NotFound,
    discord.HTTPException,
    discord.InteractionResponded,
    aiohttp.ClientConnectionError,
)


async def safe_defer(
    interaction: discord.Interaction, *, ephemeral: bool = True, thinking: bool = False
) -> bool:
    """Acknowledge now, answer later (for work that may take more than a moment)."""
    async with _lock(interaction):
        return await _defer_locked(interaction, ephemeral=ephemeral, thinking=thinking)


async def safe_send(
    interaction: discord.Interaction, content: Any = None, *, ephemeral: bool = True, **kwargs: Any
) -> bool:
    """Answer the interaction: the initial response if still open, else a follow-up. A lazy
    message is rendered in the user's language (ephemeral) or the server's (public)."""
    kwargs.setdefault("allowed_mentions", discord.AllowedMentions.none())
    if kwargs.get("view") is None:
        kwargs.pop("view", None)
    content = await _text(interaction, content, ephemeral=ephemeral)
    async with _lock(interaction):
        try:
            if not interaction.response.is_done():
                await interaction.response.send_message(content, ephemeral=ephemeral, **kwargs)
                _record_initial(interaction, "message", ephemeral=ephemeral)
            else:
                if ephemeral:
                    await _drop_public_thinking(interaction)
                await interaction.followup.send(content or "", ephemeral=ephemeral, **kwargs)
                _filled(interaction)
        except _TOLERATED as exc:
            log.debug("send failed for interaction %s: %s", interaction.id, exc)
            return False
    return True


async def safe_edit(interaction: discord.Interaction, content: Any = None, **kwargs: Any) -> bool:
    """Update the message a component sits on (in place), or, once the interaction was answered,
    its ``@original`` (the component's message after an update or an in-place deferral). A lazy
    message is shown in the user's language."""
    kwargs.setdefault("allowed_mentions", discord.AllowedMentions.none())
    content = await _text(interaction, content, ephemeral=True)
    async with _lock(interaction):
        try:
            if not interaction.response.is_done():
                await interaction.response.edit_message(content=content, **kwargs)
                _record_initial(interaction, "update", ephemeral=False)
            else:
                await interaction.edit_original_response(content=content, **kwargs)
                _filled(interaction)
        except _TOLERATED as exc:
            log.debug("edit failed for interaction %s: %s", interaction.id, exc)
            return False
    return True


async def safe_modal(interaction: discord.Interaction, modal: discord.ui.Modal) -> bool:
    """Open a modal if the interaction is still unanswered."""
    async with _lock(interaction):
        if interaction.response.is_done():
            return False
        try:
            await interaction.response.send_modal(modal)
        except _TOLERATED as exc:
            log.debug("modal failed for interaction %s: %s", interaction.id, exc)
            return False
    return True


async def safe_autocomplete(
    interaction: discord.Interaction, choices: list[discord.app_commands.Choice[str]]
) -> bool:
    """Answer an autocomplete request (at most 25 choices)."""
    if interaction.response.is_done():
        return False
    try:
        await interaction.response.autocomplete(choices[:25])
    except _TOLERATED as exc:
        log.debug("autocomplete failed for interaction %s: %s", interaction.id, exc)
        return False
    return True


# ---- private panels ---------------------------------------------------------------------------


#: whether a write may still go out (a table's shard still this process's): checked once the write
#: holds its token's edit lock, the last wait before the request
Fence = Callable[[], Awaitable[bool]]


class Fenced(Exception):
    """A token edit held back: its fence said no once the edit's turn came."""


def _edit_lock(interaction: Any) -> asyncio.Lock:
    """One edit at a time through an interaction's token. discord.py queues requests of one
    webhook token behind a lock of its own, and a request waiting there would go out whatever
    happened meanwhile (the process stalled past its shard's lease, say); queued here instead, the
    fence is checked when its turn comes."""
    extras = _extras(interaction)
    lock = extras.get(_EDIT_LOCK)
    if lock is None:
        lock = extras[_EDIT_LOCK] = asyncio.Lock()
    return lock


async def _edit_by_token(
    interaction: Any, message_id: int | None, *, fence: Fence | None = None, **kwargs: Any
) -> None:
    if fence is None:
        await _edit_by_token_now(interaction, message_id, **kwargs)
        return
    async with _edit_lock(interaction):
        if not await fence():
            raise Fenced
        await _edit_by_token_now(interaction, message_id, **kwargs)


async def _edit_by_token_now(interaction: Any, message_id: int | None, **kwargs: Any) -> None:
    """Edit the interaction's ``@original`` (``message_id`` None) or one of its follow-ups, as
    ``edit_original_response`` / ``followup.edit_message`` do, without reading Discord's answer
    back into a discord.py ``Message``: parsing every button of a hand panel cost more than drawing
    it, on every refresh. (The components are ``DynamicItem``s, dispatched by their custom_id, so
    no view needs storing per message.)"""
    if not isinstance(interaction, discord.Interaction):  # (stand-ins of unit tests)
        if message_id is None:
            await interaction.edit_original_response(**kwargs)
        else:
            await interaction.followup.edit_message(message_id, **kwargs)
        return
    state = interaction._state
    view = kwargs.get("view", MISSING)
    with handle_message_parameters(
        content=kwargs.get("content", MISSING),
        view=view,
        allowed_mentions=kwargs.get("allowed_mentions"),
        previous_allowed_mentions=state.allowed_mentions,
    ) as params:
        adapter = async_context.get()
        http = state.http
        common: dict[str, Any] = {
            "session": interaction._session,
            "proxy": http.proxy,
            "proxy_auth": http.proxy_auth,
            "payload": params.payload,
            "multipart": params.multipart,
            "files": params.files,
        }
        with_components = bool(view)
        if isinstance(view, discord.ui.View):
            release(view)  # in the payload now, and kept by nobody
        if message_id is None:
            await adapter.edit_original_interaction_response(
                interaction.application_id, interaction.token, **common
            )
        else:
            common["with_components"] = with_components
            await adapter.edit_webhook_message(
                interaction.application_id, interaction.token, message_id, **common
            )


async def _respond_now(
    interaction: Any,
    kind: discord.InteractionResponseType,
    content: str,
    *,
    view: discord.ui.View | None = MISSING,
    allowed_mentions: discord.AllowedMentions | None = None,
    ephemeral: bool = False,
) -> None:
    """The initial response (an update in place, or a message), as ``interaction.response``'s
    ``edit_message`` / ``send_message`` make it, without reading Discord's answer back into a
    discord.py ``InteractionMessage`` (a hand panel's every button parsed, on every click) and
    without storing the view (its items are ``DynamicItem``s, dispatched by their custom_id)."""
    if not isinstance(interaction, discord.Interaction):  # (stand-ins of unit tests)
        kwargs: dict[str, Any] = {"allowed_mentions": allowed_mentions}
        if view is not MISSING:
            kwargs["view"] = view
        if kind == discord.InteractionResponseType.message_update:
            await interaction.response.edit_message(content=content, **kwargs)
        else:
            await interaction.response.send_message(content, ephemeral=ephemeral, **kwargs)
        return
    response = interaction.response
    if response.is_done():
        raise discord.InteractionResponded(interaction)
    flags: Any = MISSING
    if ephemeral:
        flags = discord.MessageFlags._from_value(0)
        flags.ephemeral = True
    state = interaction._state
    params = interaction_message_response_params(
        type=kind.value,
        content=content,
        view=view,
        allowed_mentions=allowed_mentions,
        previous_allowed_mentions=state.allowed_mentions,
        flags=flags,
    )
    with params:
        http = state.http
        await async_context.get().create_interaction_response(
            interaction.id,
            interaction.token,
            session=interaction._session,
            proxy=http.proxy,
            proxy_auth=http.proxy_auth,
            params=params,
        )
    response._response_type = kind
    if isinstance(view, discord.ui.View):
        release(view)  # in the payload now, and kept by nobody


def release(view: discord.ui.View) -> None:
    """Empty a view that was sent and that nobody keeps, so it is freed at once. A discord.py view
    and its items point at each other (a reference cycle): left as it is, each panel redraw's view
    (a dozen buttons, ~70 objects) waited for the cyclic garbage collector, and at hundreds of
    tables those made most of what its full collections, long pauses of the loop, had to sweep."""
    view.clear_items()


@dataclass(frozen=True)
class PrivateMessage:
    """An ephemeral message this bot wrote for one user, and how to edit it again (for 15 min).

    Made only by ``send_private``: ``message_id`` is the ephemeral follow-up's own id, or None
    for an ``@original`` known to be ephemeral. Never the message a component sits on unless that
    message is itself ephemeral."""

    interaction: discord.Interaction
    message_id: int | None

    async def edit(
        self,
        content: Any,
        *,
        view: discord.ui.View | None,
        text_only: bool = False,
        fence: Fence | None = None,
    ) -> bool:
        """Rewrite the message; ``text_only`` keeps its components as they are (cheaper to send);
        ``fence`` is asked right before the request (False: nothing sent)."""
        kwargs: dict[str, Any] = {
            "content": await _text(self.interaction, content, ephemeral=True),
            "allowed_mentions": discord.AllowedMentions.none(),
        }
        if not text_only:
            kwargs["view"] = view
        try:
            await _edit_by_token(self.interaction, self.message_id, fence=fence, **kwargs)
        except Fenced:
            return False
        except _TOLERATED as exc:
            log.debug("editing a private message of interaction %s failed: %s", self.interaction.id, exc)
            return False
        return True


def message_of(panel: PrivateMessage) -> int | None:
    """The id of the ephemeral message ``panel`` edits, when known: its follow-up's, or for
    ``@original`` the ephemeral message the component used sits on (None: a new initial answer)."""
    if panel.message_id is not None:
        return panel.message_id
    message = getattr(panel.interaction, "message", None)
    if message is not None and on_ephemeral_message(panel.interaction):
        return int(message.id)
    return None


def token_since(interaction: Any) -> float:
    """When ``interaction`` reached the bot (``time.monotonic``, as ``watch`` noted it; now when it
    was not watched): its token lives 15 minutes from then."""
    since = _extras(interaction).get(_SINCE)
    return float(since) if isinstance(since, (int, float)) else time.monotonic()


async def send_private(
    interaction: discord.Interaction,
    content: Any,
    *,
    view: discord.ui.View | None = None,
    in_place: bool = False,
) -> PrivateMessage | None:
    """Show ``content`` to the interaction's user only: in place when the component used sits on an
    ephemeral message and ``in_place``, else in the ephemeral answer (a "thinking" message
    deferred for it included), else in a new ephemeral follow-up. The one way a hand panel is
    written. None if Discord refused (the interaction expired, say)."""
    content = await _text(interaction, content, ephemeral=True) or "…"
    # an edit without components removes the old ones (a panel with no card left); a new message
    # simply has none
    edit: dict[str, Any] = {"allowed_mentions": discord.AllowedMentions.none(), "view": view}
    new = {k: v for k, v in edit.items() if v is not None}
    here = in_place and on_ephemeral_message(interaction)
    async with _lock(interaction):
        try:
            if not interaction.response.is_done():
                if here:
                    await _respond_now(interaction, UPDATE_MESSAGE, content, **edit)
                    _record_initial(interaction, "update", ephemeral=True)
                else:
                    await _respond_now(interaction, NEW_MESSAGE, content, ephemeral=True, **new)
                    _record_initial(interaction, "message", ephemeral=True)
                return PrivateMessage(interaction, None)
            state = _extras(interaction).get(_ORIGINAL)
            if state == PENDING or (here and state == PRIVATE):
                await _edit_by_token_now(interaction, None, content=content, **edit)
                _filled(interaction)
                return PrivateMessage(interaction, None)
            await _drop_public_thinking(interaction)
            msg = await interaction.followup.send(content, ephemeral=True, wait=True, **new)
        except _TOLERATED as exc:
            log.debug("private answer to interaction %s failed: %s", interaction.id, exc)
            return None
    if not msg.flags.ephemeral:  # (Discord would have to ignore the flag): never keep it
        log.error("a private answer to interaction %s was not ephemeral", interaction.id)
        return None
    return PrivateMessage(interaction, msg.id)


# ---- public messages edited through an interaction token ------------------------------------------


@dataclass(frozen=True, eq=False)
class PublicMessage:
    """A public message (a table's live message) that a click on it lets this bot edit through the
    click's interaction token (``@original`` after a deferred update) until the token expires: an
    edit that does not count towards the bot token's global rate limit.

    Made only by ``acknowledge_public``. Never written with a hand: only the table's public view goes
    here (the publisher's live message); panels go through ``send_private``."""

    interaction: discord.Interaction
    message_id: int
    since: float  # time.monotonic() when the click was acknowledged (the token lives 15 min)

    async def edit(
        self,
        content: str,
        *,
        view: discord.ui.View | None,
        text_only: bool = False,
        fence: Fence | None = None,
    ) -> bool | None:
        """Rewrite the public message (``text_only``: its buttons stay as they are); False if Discord
        refused (the token expired, the message is gone, rate limited past discord.py's retries):
        the caller then edits it another way. None when ``fence``, asked right before the request,
        said no: nothing was sent, and nothing else should be."""
        kwargs: dict[str, Any] = {"content": _clip(content)}
        kwargs["allowed_mentions"] = discord.AllowedMentions.none()
        if not text_only:
            kwargs["view"] = view
        try:
            await _edit_by_token(self.interaction, None, fence=fence, **kwargs)
        except Fenced:
            return None
        except _TOLERATED as exc:
            log.debug("editing public message %s through a token failed: %s", self.message_id, exc)
            return False
        return True


async def acknowledge_public(interaction: discord.Interaction) -> PublicMessage | None:
    """Acknowledge a click on a public message with a deferred update (type 6; the message is not
    changed), so ``@original`` is that public message; the answer then goes in an ephemeral
    follow-up (``safe_send``, ``send_private``). None if the interaction was answered already, is not
    a click on a public message, or Discord refused."""
    message = getattr(interaction, "message", None)
    if message is None or on_ephemeral_message(interaction) or not _is_component(interaction):
        return None
    async with _lock(interaction):
        if not await _defer_locked(interaction, ephemeral=False, thinking=False):
            return None
    return PublicMessage(interaction, int(message.id), time.monotonic())
