"""Configuration from the environment and `.env` (python-dotenv). The real environment wins."""

from __future__ import annotations

import logging
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

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


POSTGRES_SCHEMES = ("postgresql://", "postgres://")


def redact_url(url: str) -> str:
    """A URL without its password."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    netloc = parts.netloc.rsplit("@", 1)[-1]
    return urlunsplit((parts.scheme, f"{parts.username or ''}:***@{netloc}", parts.path, parts.query, ""))


def _database_url(url: str) -> str:
    """DATABASE_URL: postgresql://… (PostgreSQL) or sqlite:///path (a SQLite file)."""
    lowered = url.lower()
    if lowered.startswith(POSTGRES_SCHEMES):
        return url
    if lowered.startswith("sqlite:///"):
        return url[len("sqlite:///") :] or "spades.db"
    scheme = url.split(":", 1)[0] if ":" in url else url
    raise ConfigError(
        f"DATABASE_URL must start with postgresql:// (or sqlite:///), got {scheme!r}: "
        "leave it unset to use the SQLite file DATABASE_PATH"
    )


@dataclass(frozen=True, repr=False)
class Config:
    """Everything the bot reads at start-up. ``token`` is kept out of ``repr``."""

    token: str = field(repr=False)
    # where the data lives: a SQLite file (default), or a postgresql:// URL from DATABASE_URL
    database_path: str = field(default="spades.db", repr=False)
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

        database = get("DATABASE_PATH") or "spades.db"
        if (url := get("DATABASE_URL")) is not None:
            database = _database_url(url)

        return cls(
            token=token,
            database_path=database,
            dev_guild_id=None if dev_guild is None else _snowflake("DEV_GUILD_ID", dev_guild),
            log_level=level,
            owner_ids=owners,
            time_scale=time_scale,
            deal_seed=deal_seed,
        )

    @property
    def uses_postgres(self) -> bool:
        return self.database_path.lower().startswith(POSTGRES_SCHEMES)

    @property
    def database_display(self) -> str:
        """Where the data lives, fit for a log line (a URL's password hidden)."""
        return redact_url(self.database_path) if self.uses_postgres else self.database_path

    def __repr__(self) -> str:
        return (
            f"Config(database={self.database_display!r}, dev_guild_id={self.dev_guild_id!r}, "
            f"log_level={self.log_level!r}, owner_ids={set(self.owner_ids)!r}, "
            f"time_scale={self.time_scale!r}, deal_seed={self.deal_seed!r})"
        )

    @property
    def log_level_number(self) -> int:
        return logging.getLevelNamesMapping()[self.log_level]
