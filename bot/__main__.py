"""``python -m bot``: read the configuration, set up logging, run the bot until stopped."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import signal
import sys

import discord

from .config import Config, ConfigError
from .storage import MigrationError, Storage, StorageUnavailable

log = logging.getLogger("bot")

EXIT_OK = 0
EXIT_FAILURE = 1
EXIT_CONFIG = 2


async def run(config: Config) -> None:
    from .client import SpadesBot

    # the database first: a file or server the bot cannot use is reported before logging in
    storage = await Storage.open(config.database_path, faults=config.faults)
    bot = SpadesBot(config, storage=storage)
    loop = asyncio.get_running_loop()
    with contextlib.suppress(NotImplementedError):  # no signal handlers on Windows
        # hosts (Procfile workers, systemd, docker) stop with SIGTERM: close cleanly, storage included
        loop.add_signal_handler(signal.SIGTERM, lambda: asyncio.ensure_future(bot.close()))
    async with bot:
        await bot.start(config.token)


async def migrate(config: Config) -> str:
    """``python -m bot migrate``: apply pending migrations and say where the schema is."""
    storage = await Storage.open(config.database_path)
    try:
        version = await storage.schema_version()
    finally:
        await storage.close()
    if storage.migrated:
        done = ", ".join(f"{v:03d}" for v in storage.migrated)
        return f"database {config.database_display}: applied {done}; schema version {version}"
    return f"database {config.database_display}: up to date (schema version {version})"


def _arguments(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m bot",
        description="Run the Spades bot (settings come from the environment and .env).",
    )
    parser.add_argument(
        "command",
        nargs="?",
        default="run",
        choices=("run", "migrate"),
        help="run (default): start the bot; migrate: apply database migrations and exit",
    )
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = _arguments(argv)
    try:
        config = Config.from_env(require_token=args.command == "run")
    except ConfigError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_CONFIG
    from .logs import setup_logging

    setup_logging(config.log_level)
    if args.command == "migrate":
        try:
            print(asyncio.run(migrate(config)))
        except (StorageUnavailable, MigrationError) as exc:
            print(f"error: {exc}", file=sys.stderr)
            return EXIT_FAILURE
        return EXIT_OK
    log.info(
        "starting (database %s, commands %s)",
        config.database_display,
        f"in dev server {config.dev_guild_id}" if config.dev_guild_id else "global",
    )
    try:
        asyncio.run(run(config))
    except KeyboardInterrupt:
        log.info("stopped")
    except StorageUnavailable as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_FAILURE
    except MigrationError as exc:
        print(f"error: database {config.database_display}: {exc}", file=sys.stderr)
        return EXIT_FAILURE
    except discord.LoginFailure:
        print(
            "error: Discord refused DISCORD_TOKEN: copy the bot token again from the Developer Portal "
            "(Bot → Reset Token) into .env.",
            file=sys.stderr,
        )
        return EXIT_FAILURE
    return EXIT_OK


if __name__ == "__main__":
    sys.exit(main())
