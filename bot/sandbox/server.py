"""The sandbox: the real bot against the fake Discord, and a web page on 127.0.0.1 to play through it.

The bot is built by the caller (``python -m bot`` passes ``SpadesBot``), so nothing here imports the
client back. The page is one static file (``page.html``); it talks to this server over a small JSON
API and a server-sent-events stream that pushes the messages the chosen user can see:

* ``GET /api/state``: the server, channels, users, synced commands and the problems seen so far;
* ``GET /api/events?user=&channel=``: ``messages`` events (everything ``user`` sees in ``channel``,
  sent again whenever it changes) and ``status`` events (violations, bot errors);
* ``POST /api/slash``, ``/api/autocomplete``, ``/api/click``, ``/api/select``, ``/api/modal``,
  ``/api/say``: what a Discord user can do, through the fake's driver (so the Discord client's own
  checks apply: a missing option, someone else's ephemeral message, a disabled button...).

The fake validates every request the bot makes against Discord's spec, as in the tests; what Discord
would reject is shown on the page and logged.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import socket
import time
from collections.abc import Awaitable, Callable
from importlib import resources
from pathlib import Path
from typing import Any

from aiohttp import web
from discord import Permissions
from discord.ext import commands

from fakediscord import Channel, FakeDiscord, FakeDiscordUsageError, InteractionResult, Message, User
from fakediscord.rest.ratelimits import GLOBAL_LIMIT

from . import history as saved
from .world import BOT_ID, GUILD_ID, LOCALES, build_world, command_name, message_json

log = logging.getLogger("bot.sandbox")

Json = dict[str, Any]
HOST = "127.0.0.1"
DEFAULT_PORT = 8765
#: How often an open page's stream looks for changes (seconds).
POLL = 0.05
#: A sandbox may run for hours: the fake's records are trimmed to this many requests and versions.
KEEP_REQUESTS = 2000
KEEP_VERSIONS = 5
#: How often the history file is written when something changed (seconds), and at the stop.
SAVE_EVERY = 5.0

FAVICON = (
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><text y="14" font-size="14">♠</text></svg>'
)


class BadRequest(Exception):
    """What the page asked for is not possible; the message is shown to the user."""


class Sandbox:
    """The fake Discord with its world, the bot running against it, and the web page's server."""

    def __init__(
        self,
        make_bot: Callable[[], commands.Bot],
        *,
        port: int = DEFAULT_PORT,
        history: int = 100,
        database: str = "",
        history_file: str | Path | None = None,
    ) -> None:
        """``history_file``: where the fake's channels, threads and messages are kept between runs
        (``history.py``; None: nothing is kept)."""
        self.make_bot = make_bot
        self.database = database
        self.requested_port = port
        self.history = history
        # Discord's global limit is on (50 bot-token requests/s), as the bot meets it on Discord
        self.fake = FakeDiscord(bot_name="Spades", bot_id=BOT_ID, global_limit=GLOBAL_LIMIT)
        self.world = build_world(self.fake)
        self.history_file = Path(history_file) if history_file is not None else None
        #: the slash command each restored message answered (their interactions are gone)
        self._commands: dict[int, str] = {}
        self._saved_gate: tuple[int, ...] = ()
        self.port = 0
        self.bot: commands.Bot | None = None
        self._bot_cm: contextlib.AbstractAsyncContextManager[commands.Bot] | None = None
        self._runner: web.AppRunner | None = None
        self._results: dict[int, InteractionResult] = {}
        self._closing = asyncio.Event()
        self._trimmer: asyncio.Task[None] | None = None
        self._page = resources.files(__package__).joinpath("page.html").read_text(encoding="utf-8")

    @property
    def url(self) -> str:
        return f"http://{HOST}:{self.port}/"

    # ------------------------------------------------------------------ lifecycle

    async def start(self) -> None:
        """Start the fake (with the history of the last run), the bot (ready, commands synced) and
        the web server. The page's port is taken first: a port in use fails at once, not after the
        bot has started."""
        listening = socket.create_server((HOST, self.requested_port))
        self._restore()
        try:
            await self.fake.start()
            self._bot_cm = self.fake.run_bot(self.make_bot(), token="sandbox", sync_commands=True, timeout=30)
            self.bot = await self._bot_cm.__aenter__()
            app = web.Application(middlewares=[self._guard])
            app.add_routes(
                [
                    web.get("/", self._index),
                    web.get("/favicon.ico", self._favicon),
                    web.get("/{tail:(?:emojis|attachments)/.*}", self._cdn),
                    web.get("/api/state", self._state),
                    web.get("/api/messages", self._messages),
                    web.get("/api/events", self._events),
                    web.post("/api/slash", self._slash),
                    web.post("/api/autocomplete", self._autocomplete),
                    web.post("/api/click", self._click),
                    web.post("/api/select", self._select),
                    web.post("/api/modal", self._modal),
                    web.post("/api/say", self._say),
                    web.post("/api/locale", self._locale),
                    web.post("/api/guild-locale", self._guild_locale),
                ]
            )
            self._runner = web.AppRunner(app, shutdown_timeout=1.0, access_log=None)
            await self._runner.setup()
            site = web.SockSite(self._runner, listening)
            await site.start()
            self.port = listening.getsockname()[1]
            self._trimmer = asyncio.create_task(self._trim_forever(), name="sandbox-trim")
        except BaseException:
            listening.close()
            await self.stop()
            raise

    async def stop(self) -> None:
        """Close the page's streams, the web server, the bot (and its storage) and the fake."""
        self._closing.set()
        if self._trimmer is not None:
            self._trimmer.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._trimmer
            self._trimmer = None
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None
        if self._bot_cm is not None:
            cm, self._bot_cm = self._bot_cm, None
            try:
                await cm.__aexit__(None, None, None)
            finally:
                self.bot = None
        self.save()  # (after the bot: its last edits are in)
        await self.fake.close()

    def trim(self) -> None:
        """Forget old requests and old versions of edited messages (the tests keep them all)."""
        fake = self.fake
        del fake.requests[: max(len(fake.requests) - KEEP_REQUESTS, 0)]
        for message in fake.messages.values():
            del message.history[: max(len(message.history) - KEEP_VERSIONS, 0)]

    async def _trim_forever(self) -> None:
        ticks = 0
        while True:
            await asyncio.sleep(SAVE_EVERY)
            self.save()
            ticks += 1
            if ticks * SAVE_EVERY >= 60:
                self.trim()
                ticks = 0

    def _restore(self) -> None:
        if self.history_file is None:
            return
        data = saved.load(self.history_file)
        if data is None:
            return
        try:
            self._commands = saved.restore(self.fake, GUILD_ID, data)
        except (KeyError, TypeError, ValueError) as exc:
            log.warning(
                "sandbox history %s could not be restored (%s); starting without it", self.history_file, exc
            )

    def save(self) -> None:
        """Write the history file when anything changed since the last time."""
        fake = self.fake
        gate = (id(fake.requests[-1]) if fake.requests else 0, len(fake.messages), len(fake.requests))
        if self.history_file is None or gate == self._saved_gate:
            return
        for m in fake.messages.values():
            meta = m.interaction_metadata or {}
            record = fake.interactions.get(int(meta.get("id", 0) or 0)) if meta.get("type") == 2 else None
            if record is not None:
                self._commands[m.id] = command_name(record.payload.get("data") or {})
        try:
            saved.save(self.history_file, saved.snapshot(fake, GUILD_ID, self._commands))
        except OSError as exc:
            log.warning("sandbox history %s cannot be written (%s)", self.history_file, exc.strerror)
            return
        self._saved_gate = gate

    # ------------------------------------------------------------------ helpers

    @web.middleware
    async def _guard(
        self, request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
    ) -> web.StreamResponse:
        """Loopback names only (no DNS rebinding); JSON-only POSTs (no cross-site form posts)."""
        host = request.headers.get("Host", "").rsplit(":", 1)[0]
        if host not in ("127.0.0.1", "localhost", "[::1]"):
            return web.json_response({"error": "the sandbox answers on 127.0.0.1 only"}, status=403)
        if request.method == "POST" and request.content_type != "application/json":
            return web.json_response({"error": "send JSON"}, status=415)
        try:
            return await handler(request)
        except BadRequest as exc:
            return web.json_response({"error": str(exc)}, status=400)
        except (FakeDiscordUsageError, LookupError) as exc:
            # what Discord's own client would not let a user do
            return web.json_response({"error": str(exc)}, status=400)

    def _user(self, value: Any) -> User:
        try:
            user = self.fake.users[int(value)]
        except (KeyError, TypeError, ValueError):
            raise BadRequest(f"unknown user {value!r}") from None
        if user.bot:
            raise BadRequest("the bot cannot be played from the page")
        return user

    def channels(self) -> list[Channel]:
        """The server's text channels, each followed by its threads (oldest first), as the
        Discord client lists them: threads the bot creates appear under their channel."""
        guild = self.fake.guilds[GUILD_ID]
        out: list[Channel] = []
        for channel in guild.text_channels:
            out.append(channel)
            out += [t for t in guild.threads if t.parent is channel]
        return out

    def channels_json(self) -> list[Json]:
        return [
            {
                "id": str(c.id),
                "name": c.name,
                "topic": c.topic,
                "parent": str(c.parent.id) if c.parent is not None else None,
                "thread": c.is_thread,
            }
            for c in self.channels()
        ]

    def _channel(self, value: Any) -> Channel:
        channel = self.fake.guilds[GUILD_ID].channels.get(int(value)) if str(value).isdigit() else None
        if channel is None:
            raise BadRequest(f"unknown channel {value!r}")
        return channel

    def _message(self, value: Any) -> Message:
        try:
            return self.fake.messages[int(value)]
        except (KeyError, TypeError, ValueError):
            raise BadRequest(f"unknown message {value!r}") from None

    async def _body(self, request: web.Request) -> Json:
        try:
            body = await request.json()
        except ValueError:
            raise BadRequest("the request body is not JSON") from None
        if not isinstance(body, dict):
            raise BadRequest("the request body must be a JSON object")
        return body

    def commands(self) -> list[Json]:
        """The synced slash commands (global and this server's), as Discord's client gets them."""
        found: dict[str, Json] = {}
        for scope in (None, GUILD_ID):
            for name, cmd in self.fake.commands.get(scope, {}).items():
                if cmd.get("type", 1) == 1:
                    found[name] = cmd
        return [found[n] for n in sorted(found)]

    def _definition(self, command: str) -> list[Json]:
        """The options of ``command`` ("spades new") as synced, for typing the page's values."""
        parts = command.split()
        if not parts:
            raise BadRequest("type a command after /")
        defs = {c["name"]: c for c in self.commands()}
        if parts[0] not in defs:
            raise BadRequest(f"/{parts[0]} is not a command of this bot")
        options: list[Json] = defs[parts[0]].get("options") or []
        for part in parts[1:]:
            sub = next((o for o in options if o["name"] == part and o["type"] in (1, 2)), None)
            if sub is None:
                raise BadRequest(f"/{command} is not a command of this bot")
            options = sub.get("options") or []
        return options

    def _typed(self, command: str, raw: Any) -> Json:
        """The page's option values (text) as the types the command declares."""
        kinds = {o["name"]: o["type"] for o in self._definition(command)}
        if raw is None:
            return {}
        if not isinstance(raw, dict):
            raise BadRequest("options must be an object")
        out: Json = {}
        for name, value in raw.items():
            kind = kinds.get(name)
            if value is None or value == "":
                continue
            try:
                if kind == 4:
                    out[name] = int(str(value).strip())
                elif kind == 10:
                    out[name] = float(str(value).strip())
                elif kind == 5:
                    text = str(value).strip().lower()
                    if text not in ("true", "false"):
                        raise BadRequest(f"{name} must be True or False")
                    out[name] = text == "true"
                elif kind in (6, 9):
                    out[name] = self._user(str(value).strip("<@!>"))
                elif kind == 7:
                    out[name] = self._channel(str(value).strip("<#>"))
                else:
                    out[name] = value if isinstance(value, str) else str(value)
            except ValueError:
                what = "whole number" if kind == 4 else "number"
                raise BadRequest(f"{name}: {value!r} is not a {what}") from None
        return out

    def _result(self, r: InteractionResult) -> Json:
        self._results[r.id] = r
        while len(self._results) > 200:
            self._results.pop(next(iter(self._results)))
        return {
            "interaction": str(r.id),
            "type": r.type,
            "ephemeral": r.ephemeral,
            "error": r.error,
            "modal": r.modal,
        }

    def visible(self, user: User, channel: Channel) -> list[Json]:
        seen = self.fake.visible_messages(user, channel)[-self.history :]
        return [message_json(m, self.fake, self._commands) for m in seen]

    def status(self) -> Json:
        return {
            "violations": [str(v) for v in self.fake.violations[-20:]],
            "violation_count": len(self.fake.violations),
            "bot_errors": [r.getMessage() for r in self.fake.bot_errors[-20:]],
            "bot_error_count": len(self.fake.bot_errors),
        }

    # ------------------------------------------------------------------ routes

    async def _index(self, request: web.Request) -> web.Response:
        return web.Response(text=self._page, content_type="text/html", headers={"Cache-Control": "no-store"})

    async def _favicon(self, request: web.Request) -> web.Response:
        return web.Response(text=FAVICON, content_type="image/svg+xml")

    async def _cdn(self, request: web.Request) -> web.Response:
        """Discord's CDN as the fake answers it: the application's emojis, uploaded attachments."""
        found = self.fake.cdn_file(request.match_info["tail"])
        if found is None:
            return web.Response(status=404, text="not found")
        data, content_type = found
        headers = {"Content-Type": content_type, "Cache-Control": "max-age=3600"}
        if not content_type.startswith("image/"):
            headers["Content-Disposition"] = "attachment"
        return web.Response(body=data, headers=headers)

    async def _state(self, request: web.Request) -> web.Response:
        bot = self.fake.bot_user
        return web.json_response(
            {
                "guild": self.world.guild_name,
                "database": self.database,
                "bot": {"id": str(bot.id), "name": bot.display_name},
                "channels": self.channels_json(),
                "users": [
                    {
                        "id": str(u.id),
                        "name": u.display_name,
                        "username": u.username,
                        "locale": u.locale,
                        "manager": self._manager(u),
                    }
                    for u in self.world.users
                ],
                "guild_locale": self.fake.guilds[GUILD_ID].preferred_locale,
                "roles": {
                    str(r.id): r.name for r in self.fake.guilds[GUILD_ID].roles.values() if r.id != GUILD_ID
                },
                "locales": LOCALES,
                "commands": self.commands(),
                "status": self.status(),
            }
        )

    async def _messages(self, request: web.Request) -> web.Response:
        user = self._user(request.query.get("user"))
        channel = self._channel(request.query.get("channel"))
        return web.json_response(self.visible(user, channel))

    async def _events(self, request: web.Request) -> web.StreamResponse:
        """Server-sent events: what ``user`` sees in ``channel``, again each time it changes."""
        user = self._user(request.query.get("user"))
        channel = self._channel(request.query.get("channel"))
        response = web.StreamResponse(
            headers={"Content-Type": "text/event-stream", "Cache-Control": "no-store"}
        )
        await response.prepare(request)
        last_messages = last_status = last_channels = ""
        last_gate: tuple[int, ...] = ()
        last_write = time.monotonic()
        try:
            while not self._closing.is_set():
                fake = self.fake
                last = id(fake.requests[-1]) if fake.requests else 0  # (the list is trimmed)
                gate = (last, len(fake.interactions), len(fake.messages), len(fake.violations))
                now = time.monotonic()
                if gate != last_gate or now - last_write > 1.0:
                    last_gate = gate
                    messages = json.dumps(self.visible(user, channel))
                    status = json.dumps(self.status())
                    channels = json.dumps(self.channels_json())
                    if messages != last_messages:
                        await response.write(f"event: messages\ndata: {messages}\n\n".encode())
                        last_messages, last_write = messages, now
                    if status != last_status:
                        await response.write(f"event: status\ndata: {status}\n\n".encode())
                        last_status, last_write = status, now
                    if channels != last_channels:  # a thread was created (or renamed)
                        await response.write(f"event: channels\ndata: {channels}\n\n".encode())
                        last_channels, last_write = channels, now
                    if now - last_write > 15:
                        await response.write(b": keep-alive\n\n")
                        last_write = now
                with contextlib.suppress(asyncio.TimeoutError):
                    await asyncio.wait_for(self._closing.wait(), POLL)
        except (ConnectionResetError, asyncio.CancelledError):
            pass
        return response

    async def _slash(self, request: web.Request) -> web.Response:
        body = await self._body(request)
        user, channel = self._user(body.get("user")), self._channel(body.get("channel"))
        command = " ".join(str(body.get("command", "")).split())
        options = self._typed(command, body.get("options"))
        r = await self.fake.slash(user, channel, command, options=options)
        return web.json_response(self._result(r))

    async def _autocomplete(self, request: web.Request) -> web.Response:
        body = await self._body(request)
        user, channel = self._user(body.get("user")), self._channel(body.get("channel"))
        command = " ".join(str(body.get("command", "")).split())
        option = str(body.get("option", ""))
        others = {k: v for k, v in (body.get("options") or {}).items() if k != option}
        try:
            typed = self._typed(command, others)
        except BadRequest:
            typed = {}  # a half-typed other option must not stop the suggestions
        value = str(body.get("value", ""))
        choices = await self.fake.autocomplete(user, channel, command, option, value, **typed)
        return web.json_response({"choices": choices})

    async def _click(self, request: web.Request) -> web.Response:
        body = await self._body(request)
        user, message = self._user(body.get("user")), self._message(body.get("message"))
        r = await self.fake.click(user, message, custom_id=str(body.get("custom_id", "")))
        return web.json_response(self._result(r))

    async def _select(self, request: web.Request) -> web.Response:
        body = await self._body(request)
        user, message = self._user(body.get("user")), self._message(body.get("message"))
        values = body.get("values")
        if not isinstance(values, list):
            raise BadRequest("values must be a list")
        r = await self.fake.select(
            user, message, custom_id=str(body.get("custom_id", "")), values=[str(v) for v in values]
        )
        return web.json_response(self._result(r))

    async def _modal(self, request: web.Request) -> web.Response:
        body = await self._body(request)
        user = self._user(body.get("user"))
        try:
            result = self._results[int(body.get("interaction", 0))]
        except (KeyError, TypeError, ValueError):
            raise BadRequest("that form is no longer open") from None
        values = body.get("values")
        if not isinstance(values, dict):
            raise BadRequest("values must be an object")
        r = await self.fake.submit_modal(user, result, values)
        return web.json_response(self._result(r))

    def _manager(self, user: User) -> bool:
        member = self.fake.guilds[GUILD_ID].member(user)
        return bool(member.base_permissions & Permissions(manage_guild=True).value)

    def _locale_of(self, body: Json) -> str:
        locale = str(body.get("locale", ""))
        if locale not in LOCALES:
            raise BadRequest(f"{locale!r} is not one of Discord's languages")
        return locale

    async def _locale(self, request: web.Request) -> web.Response:
        """The user's Discord language (sent with each of their interactions as ``locale``)."""
        body = await self._body(request)
        user = self._user(body.get("user"))
        user.locale = self._locale_of(body)
        return web.json_response({"locale": user.locale})

    async def _guild_locale(self, request: web.Request) -> web.Response:
        """The server's preferred language (Server Settings, by someone with Manage Server)."""
        body = await self._body(request)
        user = self._user(body.get("user"))
        guild = self.fake.guilds[GUILD_ID]
        if not self._manager(user):
            raise BadRequest("only members with Manage Server can change the server's language")
        guild.preferred_locale = self._locale_of(body)
        self.fake.dispatch("GUILD_UPDATE", guild.payload(full=False))
        return web.json_response({"locale": guild.preferred_locale})

    async def _say(self, request: web.Request) -> web.Response:
        body = await self._body(request)
        user, channel = self._user(body.get("user")), self._channel(body.get("channel"))
        text = str(body.get("text", "")).strip()
        if not text:
            raise BadRequest("type a message first")
        if len(text) > 2000:
            raise BadRequest("a message is at most 2000 characters")
        msg = await self.fake.say(user, channel, text)
        return web.json_response({"message": str(msg.id)})


async def serve(
    make_bot: Callable[[], commands.Bot],
    *,
    port: int = DEFAULT_PORT,
    database: str = "",
    announce: Callable[[str], None] = print,
    stop: asyncio.Event | None = None,
) -> None:
    """Run the sandbox until ``stop`` is set (``python -m bot`` sets it on Ctrl-C or SIGTERM)."""
    history_file = saved.history_path(database) if database else None
    sandbox = Sandbox(make_bot, port=port, database=database, history_file=history_file)
    await sandbox.start()
    try:
        announce(sandbox.url)
        await (stop or asyncio.Event()).wait()
    finally:
        await sandbox.stop()
