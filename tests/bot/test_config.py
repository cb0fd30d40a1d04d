"""Config.from_env and the `python -m bot` entry point's refusal without a token."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from bot.config import MISSING_TOKEN_MESSAGE, Config, ConfigError, Faults, MissingToken

ROOT = Path(__file__).resolve().parents[2]


def test_defaults_with_only_a_token(tmp_path: Path) -> None:
    config = Config.from_env({"DISCORD_TOKEN": "abc"}, dotenv_path=tmp_path / "absent.env")
    assert config == Config(token="abc")
    assert (config.database_path, config.dev_guild_id, config.log_level) == ("spades.db", None, "INFO")
    assert (config.owner_ids, config.time_scale, config.deal_seed) == (frozenset(), 1.0, None)


def test_reads_dotenv_file(tmp_path: Path) -> None:
    env = tmp_path / ".env"
    env.write_text(
        "# comment\n"
        "DISCORD_TOKEN=from-file\n"
        "DATABASE_PATH=/data/spades.db\n"
        "DEV_GUILD_ID=123456789012345678\n"
        "LOG_LEVEL=debug\n"
        'OWNER_IDS="11, 22,33"\n'
    )
    config = Config.from_env({}, dotenv_path=env)
    assert config.token == "from-file"
    assert config.database_path == "/data/spades.db"
    assert config.dev_guild_id == 123456789012345678
    assert config.log_level == "DEBUG"
    assert config.owner_ids == frozenset({11, 22, 33})


def test_real_environment_beats_dotenv(tmp_path: Path) -> None:
    env = tmp_path / ".env"
    env.write_text("DISCORD_TOKEN=from-file\nDATABASE_PATH=file.db\n")
    config = Config.from_env({"DISCORD_TOKEN": "from-env"}, dotenv_path=env)
    assert (config.token, config.database_path) == ("from-env", "file.db")


def test_token_never_in_repr() -> None:
    assert "s3cret" not in repr(Config(token="s3cret"))


@pytest.mark.parametrize("value", [None, "", "   "])
def test_missing_token(tmp_path: Path, value: str | None) -> None:
    environ = {} if value is None else {"DISCORD_TOKEN": value}
    with pytest.raises(MissingToken) as info:
        Config.from_env(environ, dotenv_path=tmp_path / "absent.env")
    assert str(info.value) == MISSING_TOKEN_MESSAGE
    assert ".env.example" in MISSING_TOKEN_MESSAGE and "DISCORD_TOKEN" in MISSING_TOKEN_MESSAGE


@pytest.mark.parametrize(
    ("name", "value", "message"),
    [
        ("DEV_GUILD_ID", "my-server", "DEV_GUILD_ID must be a Discord id"),
        ("DEV_GUILD_ID", "-5", "positive"),
        ("OWNER_IDS", "1,two", "OWNER_IDS must be a Discord id"),
        ("LOG_LEVEL", "LOUD", "LOG_LEVEL must be one of"),
        ("TIME_SCALE", "fast", "TIME_SCALE must be a number"),
        ("TIME_SCALE", "0", "positive"),
        ("DEAL_SEED", "x1", "DEAL_SEED must be an integer"),
        ("SEARCH_NICE", "low", "SEARCH_NICE must be a whole number"),
        ("SEARCH_NICE", "20", "SEARCH_NICE must be 0 to 19"),
        ("SEARCH_NICE", "-1", "SEARCH_NICE must be at least 0"),
    ],
)
def test_malformed_values_are_one_clear_line(tmp_path: Path, name: str, value: str, message: str) -> None:
    with pytest.raises(ConfigError, match=message) as info:
        Config.from_env({"DISCORD_TOKEN": "t", name: value}, dotenv_path=tmp_path / "absent.env")
    assert "\n" not in str(info.value)


def test_the_search_workers_priority(tmp_path: Path) -> None:
    config = Config.from_env({"DISCORD_TOKEN": "t", "SEARCH_NICE": "0"}, dotenv_path=tmp_path / "absent.env")
    assert config.search_nice == 0 and Config(token="t").search_nice == 10


def test_test_only_knobs(tmp_path: Path) -> None:
    config = Config.from_env(
        {"DISCORD_TOKEN": "t", "TIME_SCALE": "0.01", "DEAL_SEED": "42"}, dotenv_path=tmp_path / "x"
    )
    assert (config.time_scale, config.deal_seed) == (0.01, 42)


def _run_bot(cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if k not in {"DISCORD_TOKEN", "DEV_GUILD_ID"}}
    clean.update(env)
    clean["PYTHONPATH"] = str(ROOT)
    return subprocess.run(
        [sys.executable, "-m", "bot"], cwd=cwd, env=clean, capture_output=True, text=True, timeout=60
    )


# Without a token, `python -m bot` runs the local sandbox (its own sandbox.db, never spades.db):
# tests/bot/sandbox/test_main_start.py starts it for real.


def test_python_m_bot_bad_setting_exits_2(tmp_path: Path) -> None:
    (tmp_path / ".env").write_text("DISCORD_TOKEN=t\nDEV_GUILD_ID=oops\n")
    proc = _run_bot(tmp_path, {})
    assert proc.returncode == 2
    assert proc.stderr.strip().splitlines() == [
        "error: DEV_GUILD_ID must be a Discord id (digits only), got 'oops'"
    ]


def test_env_example_documents_every_setting() -> None:
    text = (ROOT / ".env.example").read_text()
    for name in ("DISCORD_TOKEN", "DATABASE_PATH", "DEV_GUILD_ID", "LOG_LEVEL", "OWNER_IDS"):
        assert f"\n{name}=" in text
    # the example itself has no token: copying it must still fail with the clear line
    with pytest.raises(MissingToken):
        Config.from_env({}, dotenv_path=ROOT / ".env.example")


def test_database_url_selects_postgresql_and_hides_its_password(tmp_path: Path) -> None:
    url = "postgresql://spades:hunter2@db.internal:5432/spades"
    config = Config.from_env(
        {"DISCORD_TOKEN": "t", "DATABASE_URL": url, "DATABASE_PATH": "ignored.db"},
        dotenv_path=tmp_path / "absent.env",
    )
    assert config.database_path == url and config.uses_postgres
    assert config.database_display == "postgresql://spades:***@db.internal:5432/spades"
    assert "hunter2" not in repr(config)


def test_database_url_sqlite_and_default(tmp_path: Path) -> None:
    absent = tmp_path / "absent.env"
    environ = {"DISCORD_TOKEN": "t", "DATABASE_URL": "sqlite:///data/x.db"}
    config = Config.from_env(environ, dotenv_path=absent)
    assert (config.database_path, config.uses_postgres) == ("data/x.db", False)
    assert not Config.from_env({"DISCORD_TOKEN": "t"}, dotenv_path=absent).uses_postgres


@pytest.mark.parametrize(
    ("url", "message"),
    [
        ("mysql://u:p@h/db", "must start with postgresql://"),
        ("spades.db", "must start with postgresql://"),
    ],
)
def test_bad_database_url_is_one_clear_line(tmp_path: Path, url: str, message: str) -> None:
    with pytest.raises(ConfigError, match=message) as info:
        Config.from_env({"DISCORD_TOKEN": "t", "DATABASE_URL": url}, dotenv_path=tmp_path / "absent.env")
    assert "\n" not in str(info.value) and ":p@" not in str(info.value)


def test_sharding_settings(tmp_path: Path) -> None:
    absent = tmp_path / "absent.env"
    one = Config.from_env({"DISCORD_TOKEN": "t"}, dotenv_path=absent)
    assert (one.sharded, one.shards, one.rate_share, one.requests_per_second) == (False, (1, (0,)), 1.0, 50.0)
    two_of_four = Config.from_env(
        {"DISCORD_TOKEN": "t", "SHARD_COUNT": "4", "SHARD_IDS": "2, 3"}, dotenv_path=absent
    )
    assert two_of_four.shards == (4, (2, 3)) and two_of_four.rate_share == 0.5
    assert two_of_four.requests_per_second == 25.0
    ranged = Config.from_env(
        {"DISCORD_TOKEN": "t", "SHARD_COUNT": "8", "SHARD_IDS": "0-2", "RATE_LIMIT_SHARE": "0.25",
         "DISCORD_RATE_LIMIT": "40", "SHARD_LEASE_SECONDS": "5"},
        dotenv_path=absent,
    )  # fmt: skip
    assert ranged.shard_ids == (0, 1, 2) and ranged.requests_per_second == 10.0
    assert ranged.shard_lease_seconds == 5.0
    every = Config.from_env({"DISCORD_TOKEN": "t", "SHARD_COUNT": "3"}, dotenv_path=absent)
    assert every.shards == (3, (0, 1, 2)) and every.rate_share == 1.0


@pytest.mark.parametrize(
    ("env", "message"),
    [
        ({"SHARD_IDS": "0"}, "SHARD_IDS needs SHARD_COUNT"),
        ({"SHARD_COUNT": "0"}, "SHARD_COUNT must be at least 1"),
        ({"SHARD_COUNT": "two"}, "SHARD_COUNT must be a whole number"),
        ({"SHARD_COUNT": "2", "SHARD_IDS": "2"}, "SHARD_IDS 2 is not a shard of SHARD_COUNT=2"),
        ({"SHARD_COUNT": "2", "SHARD_IDS": "1,1"}, "names a shard twice"),
        ({"SHARD_COUNT": "2", "SHARD_IDS": "a"}, "shard numbers like 0,1"),
        ({"RATE_LIMIT_SHARE": "1.5"}, "RATE_LIMIT_SHARE must be a fraction"),
        ({"SHARD_LEASE_SECONDS": "0.1"}, "SHARD_LEASE_SECONDS must be a number of at least 1"),
    ],
)
def test_bad_sharding_settings_are_one_clear_line(tmp_path: Path, env: dict[str, str], message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        Config.from_env({"DISCORD_TOKEN": "t", **env}, dotenv_path=tmp_path / "absent.env")


def _run(cwd: Path, args: list[str], env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "DATABASE_"))}
    clean.update({"PYTHONPATH": str(ROOT), **env})
    return subprocess.run(
        [sys.executable, "-m", "bot", *args], cwd=cwd, env=clean, capture_output=True, text=True, timeout=60
    )


def test_python_m_bot_migrate_needs_no_token_and_runs_once(db_target: str, tmp_path: Path) -> None:
    env = {"DATABASE_URL" if db_target.startswith("postgresql") else "DATABASE_PATH": db_target}
    first = _run(tmp_path, ["migrate"], env)
    assert first.returncode == 0, first.stderr
    assert "applied 001" in first.stdout and "schema version" in first.stdout
    second = _run(tmp_path, ["migrate"], env)
    assert second.returncode == 0 and "up to date" in second.stdout
    bad = _run(tmp_path, ["migrat"], env)
    assert bad.returncode == 2 and "invalid choice" in bad.stderr


def test_fault_injection_is_one_setting_group_off_by_default(tmp_path: Path) -> None:
    """FAULT_STORAGE_READ_DELAY, FAULT_STORAGE_WRITE_DELAY and FAULT_SAVE_ERROR fill the one
    ``Config.faults``; unset, nothing waits and nothing fails."""
    absent = tmp_path / "absent.env"
    off = Config.from_env({"DISCORD_TOKEN": "x"}, dotenv_path=absent).faults
    assert off == Faults() and (off.storage_read_delay, off.storage_write_delay, off.save_error) == (
        0,
        0,
        None,
    )
    env = {
        "DISCORD_TOKEN": "x",
        "FAULT_STORAGE_READ_DELAY": "0.5",
        "FAULT_STORAGE_WRITE_DELAY": "2.5",
        "FAULT_SAVE_ERROR": "storage",
    }
    assert Config.from_env(env, dotenv_path=absent).faults == Faults(0.5, 2.5, "storage")


@pytest.mark.parametrize(
    ("name", "value", "says"),
    [
        (
            "FAULT_SAVE_ERROR",
            "sometimes",
            "FAULT_SAVE_ERROR must be one of storage, unexpected, got 'sometimes'",
        ),
        ("FAULT_STORAGE_WRITE_DELAY", "-1", "FAULT_STORAGE_WRITE_DELAY must be a number of at least 0"),
        ("FAULT_STORAGE_READ_DELAY", "soon", "FAULT_STORAGE_READ_DELAY must be a number, got 'soon'"),
        # the earlier names are refused with the new one, never silently ignored
        ("SPADES_FAULT_STORAGE_DELAY", "2.5", "SPADES_FAULT_STORAGE_DELAY is now FAULT_STORAGE_WRITE_DELAY"),
        ("SPADES_FAULT_SAVE_ERROR", "storage", "SPADES_FAULT_SAVE_ERROR is now FAULT_SAVE_ERROR"),
    ],
)
def test_fault_settings_are_checked(tmp_path: Path, name: str, value: str, says: str) -> None:
    with pytest.raises(ConfigError) as err:
        Config.from_env({"DISCORD_TOKEN": "x", name: value}, dotenv_path=tmp_path / "absent.env")
    assert says in str(err.value)
