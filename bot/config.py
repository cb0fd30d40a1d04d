"""Configuration from the environment and `.env` (python-dotenv). The real environment wins."""

from __future__ import annotations

import logging
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from dotenv import dotenv_values

MISSING_TOKEN_MESSAGE = (
    "DISCORD_TOKEN is not set: copy .env.example to .env and put your bot token after DISCORD_TOKEN= "
    "(or export DISCORD_TOKEN=...), then run python -m bot again."
)

LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")


class ConfigError(ValueError):
    """A setting is missing or malformed; the message is one line a user can act on."""


class MissingToken(ConfigError):
    def __init__(self) -> None:
        super().__init__(MISSING_TOKEN_MESSAGE)


def _snowflake(name: str, text: str) -> int:
    try:
        value = int(text.strip())
    except ValueError:
        raise ConfigError(f"{name} must be a Discord id (digits only), got {text.strip()!r}") from None
    if value <= 0:
        raise ConfigError(f"{name} must be a positive Discord id, got {value}")
    return value


@dataclass(frozen=True)
class Config:
    """Everything the bot reads at start-up. ``token`` is kept out of ``repr``."""

    token: str = field(repr=False)
    database_path: str = "spades.db"
    dev_guild_id: int | None = None
    log_level: str = "INFO"
    owner_ids: frozenset[int] = frozenset()
    time_scale: float = 1.0  # multiplies every timer and bot pause (tests use a small value)
    deal_seed: int | None = None  # tests only: reproducible deals

    @classmethod
    def from_env(
        cls,
        environ: Mapping[str, str] | None = None,
        *,
        dotenv_path: str | Path | None = ".env",
    ) -> Config:
        """Read ``dotenv_path`` (if it exists) under ``environ`` (default ``os.environ``).

        Raises MissingToken without DISCORD_TOKEN, ConfigError for a malformed value.
        """
        values: dict[str, str] = {}
        if dotenv_path is not None and Path(dotenv_path).is_file():
            values.update({k: v for k, v in dotenv_values(dotenv_path).items() if v is not None})
        values.update(os.environ if environ is None else environ)

        def get(name: str) -> str | None:
            value = values.get(name)
            return value.strip() if value is not None and value.strip() else None

        token = get("DISCORD_TOKEN")
        if token is None:
            raise MissingToken()

        level = (get("LOG_LEVEL") or "INFO").upper()
        if level not in LOG_LEVELS:
            raise ConfigError(f"LOG_LEVEL must be one of {', '.join(LOG_LEVELS)}, got {level!r}")

        dev_guild = get("DEV_GUILD_ID")
        owners_text = get("OWNER_IDS") or ""
        owners = frozenset(
            _snowflake("OWNER_IDS", part) for part in owners_text.replace(" ", ",").split(",") if part
        )

        time_scale = 1.0
        if (scale := get("TIME_SCALE")) is not None:
            try:
                time_scale = float(scale)
            except ValueError:
                raise ConfigError(f"TIME_SCALE must be a number, got {scale!r}") from None
            if not 0 < time_scale < float("inf"):
                raise ConfigError(f"TIME_SCALE must be a positive number, got {scale!r}")

        deal_seed = None
        if (seed := get("DEAL_SEED")) is not None:
            try:
                deal_seed = int(seed)
            except ValueError:
                raise ConfigError(f"DEAL_SEED must be an integer, got {seed!r}") from None

        return cls(
            token=token,
            database_path=get("DATABASE_PATH") or "spades.db",
            dev_guild_id=None if dev_guild is None else _snowflake("DEV_GUILD_ID", dev_guild),
            log_level=level,
            owner_ids=owners,
            time_scale=time_scale,
            deal_seed=deal_seed,
        )

    @property
    def log_level_number(self) -> int:
        return logging.getLevelNamesMapping()[self.log_level]
