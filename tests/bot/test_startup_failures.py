"""A database the bot cannot use ends ``python -m bot`` with one clear line, the file untouched.

Not a database, damaged, in a read-only directory, read-only itself, an unreachable PostgreSQL:
each is one ``error: …`` line naming the file (or server) and the cause, exit status 1, before any
attempt to reach Discord. Read-only is made with chmod, or, as root (who ignores permissions),
with the immutable attribute (``chattr +i``).
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import shutil
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _run_bot(cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "DATABASE_"))}
    clean.update({"DISCORD_TOKEN": "not-a-real-token", "PYTHONPATH": str(ROOT), **env})
    return subprocess.run(
        [sys.executable, "-m", "bot"], cwd=cwd, env=clean, capture_output=True, text=True, timeout=60
    )


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _one_error_line(proc: subprocess.CompletedProcess[str]) -> str:
    assert proc.returncode == 1, (proc.returncode, proc.stderr[-2000:])
    lines = [line for line in proc.stderr.splitlines() if line.strip()]
    errors = [line for line in lines if line.startswith("error: ")]
    assert len(errors) == 1 and "Traceback" not in proc.stderr, proc.stderr[-2000:]
    return errors[0]


def _good_database(path: Path) -> None:
    with sqlite3.connect(path) as conn:
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("CREATE TABLE kept (x INTEGER)")
        conn.executemany("INSERT INTO kept VALUES (?)", [(i,) for i in range(500)])
    conn.close()


@contextlib.contextmanager
def _read_only(path: Path) -> Iterator[None]:
    if os.geteuid() != 0:
        mode = path.stat().st_mode
        path.chmod(0o555 if path.is_dir() else 0o444)
        try:
            yield
        finally:
            path.chmod(mode)
        return
    chattr = shutil.which("chattr")
    if chattr is None or subprocess.run([chattr, "+i", str(path)], capture_output=True).returncode != 0:
        pytest.skip("running as root and this filesystem has no immutable attribute (chattr +i)")
    try:
        yield
    finally:
        subprocess.run([chattr, "-i", str(path)], check=True)


def test_a_file_that_is_not_a_database(tmp_path: Path) -> None:
    junk = tmp_path / "spades.db"
    junk.write_text("these are my notes, not a database\n" * 200)
    before = _digest(junk)
    line = _one_error_line(_run_bot(tmp_path, {"DATABASE_PATH": str(junk)}))
    assert str(junk) in line and "not a SQLite database" in line
    assert _digest(junk) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["spades.db"]  # no -wal, no -shm


def test_a_database_whose_schema_is_damaged(tmp_path: Path) -> None:
    db = tmp_path / "spades.db"
    _good_database(db)
    data = bytearray(db.read_bytes())
    data[100:4096] = bytes((i * 37) % 251 for i in range(100, 4096))  # page 1: the schema
    db.write_bytes(bytes(data))
    before = _digest(db)
    line = _one_error_line(_run_bot(tmp_path, {"DATABASE_PATH": str(db)}))
    assert str(db) in line and "damaged" in line and ".recover" in line
    assert _digest(db) == before


def test_a_read_only_directory(tmp_path: Path) -> None:
    folder = tmp_path / "data"
    folder.mkdir()
    db = folder / "spades.db"
    _good_database(db)
    before = _digest(db)
    with _read_only(folder):
        line = _one_error_line(_run_bot(tmp_path, {"DATABASE_PATH": str(db)}))
    assert str(db) in line and "read-only" in line and str(folder) in line
    assert _digest(db) == before


def test_a_new_database_in_a_read_only_directory(tmp_path: Path) -> None:
    folder = tmp_path / "data"
    folder.mkdir()
    with _read_only(folder):
        line = _one_error_line(_run_bot(tmp_path, {"DATABASE_PATH": str(folder / "spades.db")}))
    assert "cannot create database file" in line and str(folder) in line
    assert list(folder.iterdir()) == []


def test_a_read_only_database_file(tmp_path: Path) -> None:
    db = tmp_path / "spades.db"
    _good_database(db)
    before = _digest(db)
    with _read_only(db):
        line = _one_error_line(_run_bot(tmp_path, {"DATABASE_PATH": str(db)}))
    assert str(db) in line and "read-only" in line
    assert _digest(db) == before


def test_an_unreachable_postgresql_server(tmp_path: Path) -> None:
    import socket

    with socket.socket() as s:  # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    url = f"postgresql://spades:s3cret@127.0.0.1:{port}/spades"
    line = _one_error_line(_run_bot(tmp_path, {"DATABASE_URL": url}))
    assert f"127.0.0.1:{port}/spades" in line and "cannot connect to PostgreSQL" in line
    assert "s3cret" not in line


async def test_a_read_only_postgresql_database_is_refused(postgres_url: str) -> None:
    import asyncpg

    from bot.storage import Storage, StorageUnavailable

    name = postgres_url.rsplit("/", 1)[-1]
    admin = await asyncpg.connect(postgres_url)
    try:
        await admin.execute(f'ALTER DATABASE "{name}" SET default_transaction_read_only = on')
    finally:
        await admin.close()
    with pytest.raises(StorageUnavailable, match="read-only"):
        await Storage.open(postgres_url)


@contextlib.contextmanager
def _locked_by_another_process(db: Path, seconds: float) -> Iterator[subprocess.Popen[str]]:
    """Another process holds the database's write lock (``BEGIN IMMEDIATE``) for ``seconds``."""
    code = (
        "import sqlite3, sys, time\n"
        "c = sqlite3.connect(sys.argv[1], isolation_level=None)\n"
        "c.execute('BEGIN IMMEDIATE')\n"
        "print('locked', flush=True)\n"
        "time.sleep(float(sys.argv[2]))\n"
        "c.execute('ROLLBACK')\n"
    )
    holder = subprocess.Popen(
        [sys.executable, "-c", code, str(db), str(seconds)], stdout=subprocess.PIPE, text=True
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "locked"
        yield holder
    finally:
        holder.kill()
        holder.wait()


def _migrate(cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "DATABASE_"))}
    clean.update({"PYTHONPATH": str(ROOT), **env})
    return subprocess.run(
        [sys.executable, "-m", "bot", "migrate"],
        cwd=cwd,
        env=clean,
        capture_output=True,
        text=True,
        timeout=90,
    )


def test_a_database_locked_at_start_up_is_waited_for_with_one_line_naming_the_holder(tmp_path: Path) -> None:
    """Issue 34, item 6: another process holds the file's write lock for 8 s (past SQLite's 5 s
    busy timeout, after which the bot used to exit with SQLITE_BUSY): the bot says once who holds
    it, waits, and then starts (here: ``migrate`` applies the schema)."""
    db = tmp_path / "spades.db"
    _good_database(db)
    with _locked_by_another_process(db, 8) as holder:
        proc = _migrate(tmp_path, {"DATABASE_PATH": str(db)})
    assert proc.returncode == 0, proc.stderr[-2000:]
    waits = [line for line in proc.stderr.splitlines() if "is locked by" in line]
    assert len(waits) == 1 and "Traceback" not in proc.stderr, proc.stderr[-2000:]
    assert str(db) in waits[0] and f"process {holder.pid} (" in waits[0] and "waiting up to 60 s" in waits[0]
    assert "schema version" in proc.stdout


def test_a_database_that_stays_locked_is_one_clear_line_after_the_wait(tmp_path: Path) -> None:
    db = tmp_path / "spades.db"
    _good_database(db)
    before = _digest(db)
    with _locked_by_another_process(db, 60) as holder:
        proc = _migrate(tmp_path, {"DATABASE_PATH": str(db), "DATABASE_LOCK_WAIT": "2"})
    line = _one_error_line(proc)
    assert str(db) in line and f"stayed locked by process {holder.pid} (" in line and "for 2 s" in line
    assert "DATABASE_LOCK_WAIT" in line
    assert _digest(db) == before


def test_an_unusable_shm_file_is_refused_with_one_line(tmp_path: Path) -> None:
    """Issue 34, item 7: a ``-shm`` file the bot cannot write (immutable, as root; read-only
    otherwise) is refused at start with one line naming it (an immutable one ended the bot with
    SIGBUS when SQLite mapped it)."""
    db = tmp_path / "spades.db"
    _good_database(db)
    shm = tmp_path / "spades.db-shm"
    shm.write_bytes(bytes(32768))
    before = _digest(db)
    with _read_only(shm):
        line = _one_error_line(_run_bot(tmp_path, {"DATABASE_PATH": str(db)}))
    assert f"{shm} " in line and "cannot read and write" in line
    assert _digest(db) == before
