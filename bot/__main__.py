"""``python -m bot``: read the configuration, set up logging, run the bot until stopped.

Without a ``DISCORD_TOKEN`` (or with ``--sandbox``) the bot runs in the local sandbox instead: the
same bot against a stand-in for Discord, played from a web page on 127.0.0.1 (``bot/sandbox``; it
needs the ``sandbox`` extra).
Every start-up failure ends with one line on stderr and a non-zero exit, never a traceback.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import dataclasses
import logging
import signal
import sqlite3
import sys
from pathlib import Path

import aiohttp
import discord

from .config import MISSING_TOKEN_MESSAGE, Config, ConfigError
from .storage import MigrationError, Storage, StorageUnavailable

log = logging.getLogger("bot")

EXIT_OK = 0
EXIT_FAILURE = 1
EXIT_CONFIG = 2

SANDBOX_DB = "sandbox.db"

#: Gateway close codes a start-up can end with, and what to do about them.
CLOSE_CODES = {
    4004: "Discord refused DISCORD_TOKEN when connecting: copy the bot token again from the Developer "
    "Portal (Bot → Reset Token) into .env.",
    4013: "Discord refused the gateway intents the bot asked for (invalid intents).",
    4014: "Discord refused a privileged intent this application has not enabled: turn it on in the "
    "Developer Portal (Bot → Privileged Gateway Intents).",
}


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m bot",
        description="Run the Spades bot on Discord (settings come from the environment and .env), or, "
        "without DISCORD_TOKEN, in a local sandbox played from a web page.",
    )
    parser.add_argument(
        "command",
        nargs="?",
        default="run",
        choices=("run", "migrate"),
        help="run (default): start the bot; migrate: apply database migrations and exit",
    )
    parser.add_argument(
        "--sandbox",
        action="store_true",
        help="run the local sandbox even when DISCORD_TOKEN is set (Discord is never contacted)",
    )
    parser.add_argument(
        "--no-sandbox",
        action="store_true",
        help="without DISCORD_TOKEN, stop with an error instead of starting the sandbox (for hosts)",
    )
    parser.add_argument(
        "--port",
        type=int,
        default=None,
        help="the sandbox page's port on 127.0.0.1 (default 8765; 0 picks a free one)",
    )
    parser.add_argument(
        "--db",
        default=SANDBOX_DB,
        help=f"the sandbox's own SQLite file (default {SANDBOX_DB}; the real database is never used)",
    )
    return parser.parse_args(argv)


def startup_failure(exc: BaseException, config: Config | None = None) -> str:
    """The one line a person can act on, for whatever stopped the bot."""
    if isinstance(exc, StorageUnavailable):
        return str(exc)
    if isinstance(exc, MigrationError):
        where = config.database_display if config is not None else "the database"
        return f"database {where}: {exc}"
    if isinstance(exc, discord.LoginFailure):
        return (
            "Discord refused DISCORD_TOKEN: copy the bot token again from the Developer Portal "
            "(Bot → Reset Token) into .env."
        )
    if isinstance(exc, discord.PrivilegedIntentsRequired):
        return CLOSE_CODES[4014]
    if isinstance(exc, discord.ConnectionClosed) and exc.code in CLOSE_CODES:
        return CLOSE_CODES[exc.code]
    if isinstance(exc, discord.ConnectionClosed):
        return f"Discord closed the gateway connection (code {exc.code}): try again in a minute."
    if isinstance(exc, discord.GatewayNotFound):
        return "Discord's gateway cannot be found right now: try again in a few minutes."
    if isinstance(exc, discord.DiscordServerError):
        return f"Discord answered with a server error ({exc.status}) at start-up: try again in a few minutes."
    if isinstance(exc, discord.HTTPException):
        text = f": {exc.text}" if exc.text else ""
        return f"Discord refused a start-up request ({exc.status}{text})."
    if isinstance(exc, aiohttp.ClientConnectorError):
        return (
            f"cannot reach Discord ({exc.host}): {exc.os_error.strerror or exc.os_error}. Check this "
            "machine's network connection (and any proxy or firewall), then start the bot again."
        )
    if isinstance(exc, aiohttp.ClientError | asyncio.TimeoutError | TimeoutError | ConnectionError):
        reason = str(exc) or type(exc).__name__
        return (
            f"lost the connection to Discord at start-up ({reason}). Check this machine's network "
            "connection, then start the bot again."
        )
    database = Path(config.database_path).resolve() if config is not None else None
    on_database = (
        isinstance(exc, OSError)
        and database is not None
        and exc.filename is not None
        and database.is_relative_to(Path(str(exc.filename)).resolve())
    )
    if isinstance(exc, sqlite3.Error) or on_database:
        where = config.database_path if config is not None else "the database"
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        return f"cannot use the database {where}: {reason}. Check DATABASE_PATH and that it is writable."
    if isinstance(exc, OSError):
        return f"{exc.strerror or exc} ({exc.filename or type(exc).__name__})."
    return f"the bot stopped: {type(exc).__name__}: {exc} (LOG_LEVEL=DEBUG logs the details)."


def _stop_on_signals(stop: asyncio.Event) -> None:
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError, RuntimeError):  # no signal handlers on Windows
            loop.add_signal_handler(sig, stop.set)


async def run(config: Config) -> None:
    from .client import make_bot

    # the database first: a file or server the bot cannot use is reported before logging in
    # the fault seams only when a FAULT_* setting asks for them (drills): production runs without
    faults = config.faults if config.faults.configured else None
    storage = await Storage.open(config.database_path, faults=faults, lock_wait=config.database_lock_wait)
    bot = make_bot(config, storage=storage)
    loop = asyncio.get_running_loop()
    with contextlib.suppress(NotImplementedError):  # no signal handlers on Windows
        # hosts (Procfile workers, systemd, docker) stop with SIGTERM: close cleanly, storage included
        loop.add_signal_handler(signal.SIGTERM, lambda: asyncio.ensure_future(bot.close()))
    async with bot:
        await bot.start(config.token)


async def migrate(config: Config) -> str:
    """``python -m bot migrate``: apply pending migrations and say where the schema is."""
    storage = await Storage.open(config.database_path, lock_wait=config.database_lock_wait)
    try:
        version = await storage.schema_version()
    finally:
        await storage.close()
    if storage.migrated:
        done = ", ".join(f"{v:03d}" for v in storage.migrated)
        return f"database {config.database_display}: applied {done}; schema version {version}"
    return f"database {config.database_display}: up to date (schema version {version})"


async def run_sandbox(config: Config, port: int) -> None:
    from .client import SpadesBot
    from .sandbox.server import serve

    stop = asyncio.Event()
    _stop_on_signals(stop)

    def announce(url: str) -> None:
        print(f"Sandbox ready: open {url} in a browser (Ctrl-C stops it).", flush=True)

    await serve(
        lambda: SpadesBot(config), port=port, database=config.database_path, announce=announce, stop=stop
    )


#: What ``pip install -e '.[sandbox]'`` adds (pyproject's ``sandbox`` extra): the fake Discord's
#: request validators. A production install leaves them out.
SANDBOX_EXTRA = ("jsonschema", "jsonschema_rs")
SANDBOX_INSTALL = "pip install -e '.[sandbox]'"


def sandbox_missing() -> str | None:
    """The sandbox's package this install lacks (``None``: the sandbox can start)."""
    try:
        from .sandbox import server  # noqa: F401
    except ModuleNotFoundError as exc:
        missing = (exc.name or "").partition(".")[0]
        if missing in SANDBOX_EXTRA:
            return missing
        raise
    return None


def sandbox_config(config: Config, database: str) -> Config:
    """The sandbox's settings: the environment's, but its own SQLite file, no Discord token, one
    process (no shards) and commands synced globally to the stand-in."""
    return dataclasses.replace(
        config,
        token="sandbox",
        database_path=database,
        dev_guild_id=None,
        shard_count=None,
        shard_ids=None,
        rate_limit_share=None,
    )


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    try:
        # no token is fine: `migrate` needs none, and without one `run` is the sandbox
        config = Config.from_env(require_token=False)
    except ConfigError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_CONFIG
    from .logs import setup_logging

    if args.command == "migrate":
        setup_logging(config.log_level)
        try:
            print(asyncio.run(migrate(config)))
        except (StorageUnavailable, MigrationError) as exc:
            print(f"error: {exc}", file=sys.stderr)
            return EXIT_FAILURE
        return EXIT_OK

    if not config.token and args.no_sandbox and not args.sandbox:
        print(f"error: {MISSING_TOKEN_MESSAGE}", file=sys.stderr)
        return EXIT_CONFIG
    if args.sandbox or not config.token:
        no_token = not config.token
        missing = sandbox_missing()
        if missing is not None:
            fallback = no_token and not args.sandbox  # the sandbox was not asked for
            what = (
                "no DISCORD_TOKEN, so this is the local sandbox, which" if fallback else "the local sandbox"
            )
            instead = "  (or put your bot token in .env, see README.md)" if fallback else ""
            print(
                f"error: {what} needs packages this install leaves out ({missing} is not installed): "
                f"install them with  {SANDBOX_INSTALL}{instead}.",
                file=sys.stderr,
            )
            return EXIT_CONFIG
        config = sandbox_config(config, args.db)
        if no_token and not args.sandbox:
            print(
                "No DISCORD_TOKEN set, so this is the local sandbox: the real bot against a stand-in for "
                "Discord on this computer. To run on Discord, put your bot token in .env (see README.md).",
                flush=True,
            )
        setup_logging(config.log_level)
        port = 8765 if args.port is None else args.port
        log.info("sandbox starting (database %s)", config.database_path)
        try:
            asyncio.run(run_sandbox(config, port))
        except KeyboardInterrupt:
            pass
        except OSError as exc:
            if exc.errno in (98, 48, 10048):  # address in use (Linux, macOS, Windows)
                print(
                    f"error: port {port} is in use: choose another with --port N (0 picks a free one).",
                    file=sys.stderr,
                )
                return EXIT_FAILURE
            log.debug("the sandbox stopped", exc_info=exc)
            print(f"error: {startup_failure(exc, config)}", file=sys.stderr)
            return EXIT_FAILURE
        except Exception as exc:
            log.debug("the sandbox stopped", exc_info=exc)
            print(f"error: the sandbox stopped: {type(exc).__name__}: {exc}", file=sys.stderr)
            return EXIT_FAILURE
        print("Sandbox stopped.", flush=True)
        return EXIT_OK

    if args.port is not None:
        print("error: --port is for the sandbox: add --sandbox (or unset DISCORD_TOKEN).", file=sys.stderr)
        return EXIT_CONFIG
    setup_logging(config.log_level)
    log.info(
        "starting (database %s, commands %s)",
        config.database_display,
        f"in dev server {config.dev_guild_id}" if config.dev_guild_id else "global",
    )
    try:
        asyncio.run(run(config))
    except KeyboardInterrupt:
        log.info("stopped")
    except Exception as exc:
        log.debug("start-up failed", exc_info=exc)  # the traceback, for LOG_LEVEL=DEBUG only
        print(f"error: {startup_failure(exc, config)}", file=sys.stderr)
        return EXIT_FAILURE
    return EXIT_OK


if __name__ == "__main__":
    sys.exit(main())
