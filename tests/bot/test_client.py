"""SpadesBot: intents, hash-based command sync (Discord's HTTP faked), the global error handler."""

from __future__ import annotations

import io
import logging
from typing import Any

import discord
import pytest
from discord import app_commands

from bot.client import EXTENSIONS, NotBuilt, SpadesBot, SpadesTree
from bot.config import Config
from bot.errors import GENERIC_APOLOGY, user_error_message
from bot.logs import RedactingFormatter, format_exception_redacted, setup_logging
from bot.storage import Storage

APP_ID = 4242


class FakeCommandsAPI:
    """Stands in for Discord's bulk-overwrite endpoints: records every sync."""

    def __init__(self) -> None:
        self.calls: list[tuple[int | None, list[dict[str, Any]]]] = []
        self.fail_with: Exception | None = None

    def _answer(self, guild_id: int | None, payload: list[dict[str, Any]]) -> list[dict[str, Any]]:
        if self.fail_with is not None:
            raise self.fail_with
        self.calls.append((guild_id, payload))
        return [
            {**cmd, "id": str(1000 + i), "application_id": str(APP_ID), "version": "1"}
            | ({"guild_id": str(guild_id)} if guild_id else {})
            for i, cmd in enumerate(payload)
        ]

    async def bulk_upsert_global_commands(self, app_id: int, payload: list[dict[str, Any]]) -> Any:
        return self._answer(None, payload)

    async def bulk_upsert_guild_commands(
        self, app_id: int, guild_id: int, payload: list[dict[str, Any]]
    ) -> Any:
        return self._answer(guild_id, payload)


def make_bot(storage: Storage, api: FakeCommandsAPI, *, dev_guild: int | None = None) -> SpadesBot:
    bot = SpadesBot(
        Config(token="t", dev_guild_id=dev_guild), storage=storage, extensions=(), application_id=APP_ID
    )
    bot.http.bulk_upsert_global_commands = api.bulk_upsert_global_commands  # type: ignore[method-assign]
    bot.http.bulk_upsert_guild_commands = api.bulk_upsert_guild_commands  # type: ignore[method-assign]
    return bot


def add_ping(bot: SpadesBot, description: str = "Ping") -> None:
    @app_commands.command(name="ping", description=description)
    async def ping(interaction: discord.Interaction) -> None:  # pragma: no cover - never invoked
        await interaction.response.send_message("pong")

    bot.tree.add_command(ping, override=True)


def test_only_the_guilds_intent() -> None:
    bot = SpadesBot(Config(token="t"), extensions=())
    assert bot.intents.value == discord.Intents(guilds=True).value
    assert not bot.intents.members and not bot.intents.message_content and not bot.intents.presences
    assert isinstance(bot.tree, SpadesTree)
    assert EXTENSIONS == ("cogs.tables", "cogs.stats", "cogs.history", "cogs.league")
    with pytest.raises(RuntimeError, match="storage is not open"):
        _ = bot.storage


async def test_the_services_are_built_once_with_the_storage_and_refused_before(storage: Storage) -> None:
    """The composition root builds every service on the bot's storage and clock; asked for before,
    each says so (not an AttributeError from somewhere inside a click)."""
    bot = SpadesBot(Config(token="t"), storage=storage, extensions=())
    for name in ("settings", "tables", "leagues"):
        with pytest.raises(NotBuilt, match="not built yet"):
            getattr(bot, name)
    assert bot.table_service is None and bot.league_service is None
    bot.build_services()
    tables = bot.tables
    bot.build_services()  # (once)
    assert bot.tables is tables and bot.table_service is tables and bot.league_service is bot.leagues
    assert tables.storage is storage and tables.settings is bot.settings and tables.time is bot.clock
    assert tables.clock.thinker.nice == 10  # the search workers' priority: the default
    await bot.close()
    calm = SpadesBot(Config(token="t", search_nice=0), storage=storage, extensions=())
    calm.build_services()
    assert calm.tables.clock.thinker.nice == 0  # SEARCH_NICE=0: the bot's own priority
    await calm.close()


async def test_sync_only_when_the_definition_changes(storage: Storage) -> None:
    api = FakeCommandsAPI()
    bot = make_bot(storage, api)
    add_ping(bot)
    assert await bot.sync_commands() is True
    assert [(g, [c["name"] for c in p]) for g, p in api.calls] == [(None, ["ping"])]

    assert await bot.sync_commands() is False  # unchanged: no request
    assert len(api.calls) == 1

    # a new process with the same commands and the same database: still nothing to do
    again = make_bot(storage, api)
    add_ping(again)
    assert await again.sync_commands() is False
    assert len(api.calls) == 1

    add_ping(again, description="Ping the bot")  # the definition changed
    assert await again.sync_commands() is True
    assert len(api.calls) == 2 and api.calls[-1][1][0]["description"] == "Ping the bot"


async def test_forced_sync_always_syncs(storage: Storage) -> None:
    api = FakeCommandsAPI()
    bot = make_bot(storage, api)
    add_ping(bot)
    await bot.sync_commands()
    assert await bot.sync_commands(force=True) is True
    assert len(api.calls) == 2


async def test_dev_guild_scope_syncs_there_with_its_own_hash(storage: Storage) -> None:
    api = FakeCommandsAPI()
    global_bot = make_bot(storage, api)
    add_ping(global_bot)
    await global_bot.sync_commands()

    dev = make_bot(storage, api, dev_guild=777)
    add_ping(dev)
    assert await dev.sync_commands() is True  # the guild scope was never synced
    assert api.calls[-1][0] == 777 and [c["name"] for c in api.calls[-1][1]] == ["ping"]
    assert await dev.sync_commands() is False
    assert await storage.get_meta(f"command_hash:{APP_ID}:guild:777") == await dev.command_hash()
    assert await storage.get_meta(f"command_hash:{APP_ID}:global") == await global_bot.command_hash()


async def test_failed_sync_keeps_the_old_hash_and_retries(storage: Storage) -> None:
    api = FakeCommandsAPI()
    bot = make_bot(storage, api)
    add_ping(bot)
    response = type("R", (), {"status": 500, "reason": "boom"})()
    api.fail_with = discord.HTTPException(response, "boom")  # type: ignore[arg-type]
    assert await bot.sync_commands() is False
    assert await storage.get_meta(bot.command_hash_key()) is None
    with pytest.raises(discord.HTTPException):
        await bot.sync_commands(force=True)  # the owner asked: tell them it failed
    api.fail_with = None
    assert await bot.sync_commands() is True


async def test_close_closes_storage(storage: Storage) -> None:
    bot = make_bot(storage, FakeCommandsAPI())
    await bot.close()
    assert storage.closed
    await storage.close()  # idempotent


# --- the global error handler ----------------------------------------------------------------


class FakeResponse:
    def __init__(self, done: bool) -> None:
        self.done = done
        self.sent: list[tuple[str, bool]] = []

    def is_done(self) -> bool:
        return self.done

    async def send_message(self, content: str, *, ephemeral: bool = False) -> None:
        self.sent.append((content, ephemeral))
        self.done = True


class FakeFollowup:
    def __init__(self) -> None:
        self.sent: list[tuple[str, bool]] = []

    async def send(self, content: str, *, ephemeral: bool = False) -> None:
        self.sent.append((content, ephemeral))


class FakeInteraction:
    """Only what on_error touches."""

    def __init__(self, *, done: bool = False) -> None:
        self.id = 1
        self.guild_id = 2
        self.channel_id = 3
        self.user = discord.Object(id=4)
        self.command = type("C", (), {"name": "new", "qualified_name": "spades new"})()
        self.response = FakeResponse(done)
        self.followup = FakeFollowup()


class EngineLikeError(Exception):
    """Pretends to come from the engine: its message names held cards."""

    code = "must_follow"


EngineLikeError.__module__ = "engine.errors"
# built at run time so that no traceback source line contains them
HELD = ("7" + chr(0x2665), "Q" + chr(0x2665))


@pytest.fixture
def captured() -> Any:
    stream = io.StringIO()
    root = logging.getLogger()
    level, http_level = root.level, logging.getLogger("discord.http").level
    handler = setup_logging("INFO", stream=stream)
    yield stream
    root.removeHandler(handler)
    root.setLevel(level)
    logging.getLogger("discord.http").setLevel(http_level)


async def test_on_error_logs_and_apologises_ephemerally(captured: io.StringIO) -> None:
    bot = SpadesBot(Config(token="t"), extensions=())
    interaction = FakeInteraction()
    try:
        raise EngineLikeError(f"You must follow hearts: you hold {HELD[0]} and {HELD[1]}.")
    except EngineLikeError as exc:
        error = app_commands.CommandInvokeError(interaction.command, exc)  # type: ignore[arg-type]
    await bot.tree.on_error(interaction, error)  # type: ignore[arg-type]
    assert interaction.response.sent == [(GENERIC_APOLOGY, True)]
    log = captured.getvalue()
    assert "command /spades new failed" in log and "EngineLikeError" in log and "Traceback" in log
    assert HELD[0] not in log and HELD[1] not in log and "must_follow" in log


async def test_on_error_follows_up_when_already_deferred(captured: io.StringIO) -> None:
    bot = SpadesBot(Config(token="t"), extensions=())
    interaction = FakeInteraction(done=True)
    error = app_commands.CommandInvokeError(interaction.command, KeyError("x"))  # type: ignore[arg-type]
    await bot.tree.on_error(interaction, error)  # type: ignore[arg-type]
    assert interaction.response.sent == []
    assert interaction.followup.sent == [(GENERIC_APOLOGY, True)]
    assert "KeyError: 'x'" in captured.getvalue()  # ordinary bugs keep their message


async def test_user_errors_get_a_specific_line_and_no_traceback(captured: io.StringIO) -> None:
    bot = SpadesBot(Config(token="t"), extensions=())
    interaction = FakeInteraction()
    await bot.tree.on_error(interaction, app_commands.MissingPermissions(["manage_guild"]))  # type: ignore[arg-type]
    assert interaction.response.sent == [("You need the Manage Server permission to use /spades new.", True)]
    assert "ERROR" not in captured.getvalue() and "Traceback" not in captured.getvalue()


def test_user_error_messages() -> None:
    assert user_error_message(app_commands.NoPrivateMessage(), "join") == (
        "/join only works in a server channel, not in direct messages."
    )
    cooldown = app_commands.CommandOnCooldown(app_commands.Cooldown(1, 10), 4.2)
    assert user_error_message(cooldown, "play") == "Slow down: you can use /play again in 4 s."
    assert user_error_message(app_commands.CheckFailure(), "bid") == "You can't use /bid here."
    assert user_error_message(app_commands.AppCommandError(), "bid") is None


def test_a_permission_discord_names_twice_reads_as_one() -> None:
    """``read_messages`` is Discord's older name of ``view_channel``: one permission, said once."""
    both = app_commands.BotMissingPermissions(["view_channel", "read_messages"])
    assert user_error_message(both, "spades") == (
        "I need the View Channel permission in this channel for /spades."
    )
    two = app_commands.MissingPermissions(["manage_guild", "manage_channels"])
    assert user_error_message(two, "league") == (
        "You need the Manage Server and Manage Channels permissions to use /league."
    )


def test_redacted_traceback_keeps_chain_and_frames() -> None:
    try:
        try:
            raise EngineLikeError(f"you hold {HELD[0]}")
        except EngineLikeError as inner:
            raise RuntimeError("wrapper") from inner
    except RuntimeError as exc:
        caught = exc
    text = format_exception_redacted(caught)
    assert HELD[0] not in text
    assert "engine.errors.EngineLikeError (message withheld" in text
    assert "direct cause" in text and "RuntimeError: wrapper" in text
    assert text.index("EngineLikeError") < text.index("RuntimeError")
    record = logging.LogRecord(
        "x", logging.ERROR, __file__, 1, "failed", None, (RuntimeError, caught, caught.__traceback__)
    )
    assert HELD[0] not in RedactingFormatter().format(record)


def test_discord_wrappers_of_engine_errors_are_redacted_too() -> None:
    """CommandInvokeError repeats the original message in its own: it must be withheld as well."""
    command = FakeInteraction().command
    try:
        raise EngineLikeError(f"you hold {HELD[1]}")
    except EngineLikeError as exc:
        wrapped = app_commands.CommandInvokeError(command, exc)  # type: ignore[arg-type]
    assert HELD[1] in str(wrapped)
    assert HELD[1] not in format_exception_redacted(wrapped)
