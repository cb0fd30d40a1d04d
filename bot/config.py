"""Configuration from the environment and `.env` (python-dotenv). The real environment wins."""

from __future__ import annotations

import logging
import os
from collections.abc import Callable, Mapping
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


def _int_setting(get: Callable[[str], str | None], name: str, *, minimum: int) -> int | None:
    text = get(name)
    if text is None:
        return None
    try:
        value = int(text)
    except ValueError:
        raise ConfigError(f"{name} must be a whole number, got {text!r}") from None
    if value < minimum:
        raise ConfigError(f"{name} must be at least {minimum}, got {value}")
    return value


def _float_setting(
    get: Callable[[str], str | None], name: str, default: float | None, *, minimum: float
) -> float | None:
    text = get(name)
    if text is None:
        return default
    try:
        value = float(text)
    except ValueError:
        raise ConfigError(f"{name} must be a number, got {text!r}") from None
    if not minimum <= value < float("inf"):
        raise ConfigError(f"{name} must be a number of at least {minimum:g}, got {text!r}")
    return value


def _shard_ids(text: str, count: int) -> tuple[int, ...]:
    """SHARD_IDS: "0,1", "0 1" or a range "0-3"; each below SHARD_COUNT, no repeats."""
    ids: list[int] = []
    for part in text.replace(" ", ",").split(","):
        if not part:
            continue
        low, dash, high = part.partition("-")
        try:
            span = range(int(low), int(high) + 1) if dash else range(int(low), int(low) + 1)
        except ValueError:
            raise ConfigError(f"SHARD_IDS must be shard numbers like 0,1 or 0-3, got {text!r}") from None
        ids.extend(span)
    if not ids:
        raise ConfigError("SHARD_IDS is empty: name the shards this process runs, like 0,1")
    bad = [i for i in ids if not 0 <= i < count]
    if bad:
        raise ConfigError(f"SHARD_IDS {bad[0]} is not a shard of SHARD_COUNT={count} (0 to {count - 1})")
    if len(set(ids)) != len(ids):
        raise ConfigError(f"SHARD_IDS names a shard twice: {text!r}")
    return tuple(sorted(ids))


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


FAULT_SAVE_ERRORS = ("storage", "unexpected")
# the fault settings' earlier names: refused with the new one rather than silently ignored
RENAMED_FAULTS = {
    "SPADES_FAULT_STORAGE_DELAY": "FAULT_STORAGE_WRITE_DELAY",
    "SPADES_FAULT_SAVE_ERROR": "FAULT_SAVE_ERROR",
}


@dataclass
class Faults:
    """The bot's one fault-injection seam, for resilience tests and drills: all off by default.

    - ``FAULT_STORAGE_READ_DELAY`` / ``FAULT_STORAGE_WRITE_DELAY``: seconds the database waits
      before every read / every write transaction (a busy disk, a distant server).
    - ``FAULT_SAVE_ERROR``: every table save fails, ``storage`` as a failing database does (the
      action is refused and nothing changes), ``unexpected`` as a bug would (the generic apology).

    The bot installs its fault seams (``bot.faults``) only when one of these is set at start-up;
    whoever hands the bot this object itself (the sandbox, a test: ``SpadesBot(faults=...)``) gets
    the seams installed and may change the values while the bot runs. Never set them in production.
    """

    storage_read_delay: float = 0.0
    storage_write_delay: float = 0.0
    save_error: str | None = None  # None, or one of FAULT_SAVE_ERRORS

    @property
    def configured(self) -> bool:
        """Whether any fault is set."""
        return bool(self.storage_read_delay or self.storage_write_delay or self.save_error)


@dataclass(frozen=True, repr=False)
class Config:
    """Everything the bot reads at start-up. ``token`` is kept out of ``repr``."""

    token: str = field(repr=False)
    # where the data lives: a SQLite file (default), or a postgresql:// URL from DATABASE_URL
    database_path: str = field(default="spades.db", repr=False)
    dev_guild_id: int | None = None
    log_level: str = "INFO"
    owner_ids: frozenset[int] = frozenset()
    time_scale: float = 1.0  # TIME_SCALE: picks the bot's clock (bot.client.clock_for), 1/TIME_SCALE x faster
    deal_seed: int | None = None  # tests only: reproducible deals
    # sharding (docs/SHARDING.md): None/None = one process running every shard
    shard_count: int | None = None
    shard_ids: tuple[int, ...] | None = None
    shard_lease_seconds: float = 20.0  # a dead process's shards are taken over after this long
    database_lock_wait: float = 60.0  # at start, how long a SQLite file another process locked is waited for
    # Discord's global REST budget for the token (requests per second) and this process's share of it
    discord_rate_limit: float = 50.0
    rate_limit_share: float | None = None  # None: computed as len(shard_ids) / shard_count
    health_seconds: float = 60.0  # one health line in the log this often (0: never)
    # Python's full garbage collection every this many seconds (bot/collector.py); 0: Python's own
    gc_full_seconds: float = 60.0
    card_emojis: bool = True  # upload card faces as application emojis for the hand buttons
    # start the strong bots' search workers at start-up (in the background), not at the first
    # strong decision (tests that never seat a strong bot turn it off to save the process)
    search_workers_at_start: bool = True
    # niceness added to the search workers (and on Linux the idle scheduling class), so the event
    # loop always wins a core from them; 0 runs them at the bot's own priority (a machine of its own
    # where other work must not starve the searches and the hand reviews)
    search_nice: int = 10
    # fault injection for resilience tests and drills (docs/TESTING.md); off by default
    faults: Faults = field(default_factory=Faults)

    @classmethod
    def from_env(
        cls,
        environ: Mapping[str, str] | None = None,
        *,
        dotenv_path: str | Path | None = ".env",
        require_token: bool = True,
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
            if require_token:
                raise MissingToken()
            token = ""  # `python -m bot migrate` needs no token

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

        shard_count = _int_setting(get, "SHARD_COUNT", minimum=1)
        shard_ids: tuple[int, ...] | None = None
        if (ids_text := get("SHARD_IDS")) is not None:
            if shard_count is None:
                raise ConfigError("SHARD_IDS needs SHARD_COUNT (how many shards the bot has in all)")
            shard_ids = _shard_ids(ids_text, shard_count)
        elif shard_count is not None:
            shard_ids = tuple(range(shard_count))

        lease = _float_setting(get, "SHARD_LEASE_SECONDS", 20.0, minimum=1.0)
        lock_wait = _float_setting(get, "DATABASE_LOCK_WAIT", 60.0, minimum=0.0)
        rate = _float_setting(get, "DISCORD_RATE_LIMIT", 50.0, minimum=1.0)
        share = _float_setting(get, "RATE_LIMIT_SHARE", None, minimum=0.0)
        if share is not None and not 0 < share <= 1:
            raise ConfigError(f"RATE_LIMIT_SHARE must be a fraction above 0 and at most 1, got {share}")
        health = _float_setting(get, "HEALTH_SECONDS", 60.0, minimum=0.0)
        gc_full = _float_setting(get, "GC_FULL_SECONDS", 60.0, minimum=0.0)
        for old, new in RENAMED_FAULTS.items():
            if get(old) is not None:
                raise ConfigError(f"{old} is now {new} (see docs/TESTING.md, fault injection)")
        save_error = get("FAULT_SAVE_ERROR")
        if save_error is not None and save_error not in FAULT_SAVE_ERRORS:
            raise ConfigError(
                f"FAULT_SAVE_ERROR must be one of {', '.join(FAULT_SAVE_ERRORS)}, got {save_error!r}"
            )
        faults = Faults(
            storage_read_delay=_float_setting(get, "FAULT_STORAGE_READ_DELAY", 0.0, minimum=0.0) or 0.0,
            storage_write_delay=_float_setting(get, "FAULT_STORAGE_WRITE_DELAY", 0.0, minimum=0.0) or 0.0,
            save_error=save_error,
        )
        workers_text = (get("SEARCH_WORKERS_AT_START") or "on").lower()
        if workers_text not in ("on", "off", "true", "false", "1", "0", "yes", "no"):
            raise ConfigError(f"SEARCH_WORKERS_AT_START must be on or off, got {workers_text!r}")
        nice = _int_setting(get, "SEARCH_NICE", minimum=0)
        if nice is not None and nice > 19:
            raise ConfigError(f"SEARCH_NICE must be 0 to 19, got {nice}")
        emojis_text = (get("CARD_EMOJIS") or "on").lower()
        if emojis_text not in ("on", "off", "true", "false", "1", "0", "yes", "no"):
            raise ConfigError(f"CARD_EMOJIS must be on or off, got {emojis_text!r}")

        return cls(
            token=token,
            database_path=database,
            dev_guild_id=None if dev_guild is None else _snowflake("DEV_GUILD_ID", dev_guild),
            log_level=level,
            owner_ids=owners,
            time_scale=time_scale,
            deal_seed=deal_seed,
            shard_count=shard_count,
            shard_ids=shard_ids,
            shard_lease_seconds=lease if lease is not None else 20.0,
            database_lock_wait=lock_wait if lock_wait is not None else 60.0,
            discord_rate_limit=rate if rate is not None else 50.0,
            rate_limit_share=share,
            health_seconds=health if health is not None else 60.0,
            gc_full_seconds=gc_full if gc_full is not None else 60.0,
            faults=faults,
            card_emojis=emojis_text in ("on", "true", "1", "yes"),
            search_workers_at_start=workers_text in ("on", "true", "1", "yes"),
            search_nice=nice if nice is not None else 10,
        )

    @property
    def sharded(self) -> bool:
        return self.shard_count is not None

    @property
    def shards(self) -> tuple[int, tuple[int, ...]]:
        """(shard count, this process's shard ids) as storage guards them: unsharded is (1, (0,))."""
        if self.shard_count is None or self.shard_ids is None:
            return 1, (0,)
        return self.shard_count, self.shard_ids

    @property
    def rate_share(self) -> float:
        """This process's fraction of the token's global request budget."""
        if self.rate_limit_share is not None:
            return self.rate_limit_share
        count, ids = self.shards
        return len(ids) / count

    @property
    def requests_per_second(self) -> float:
        return self.discord_rate_limit * self.rate_share

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
            f"time_scale={self.time_scale!r}, deal_seed={self.deal_seed!r}, "
            f"shard_count={self.shard_count!r}, shard_ids={self.shard_ids!r})"
        )

    @property
    def log_level_number(self) -> int:
        return logging.getLevelNamesMapping()[self.log_level]
