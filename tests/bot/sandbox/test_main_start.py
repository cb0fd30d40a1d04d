"""``python -m bot``: the no-token start (the sandbox), and every start-up failure as one clear line."""

from __future__ import annotations

import asyncio
import json
import logging
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import discord
import pytest
import yarl
from discord.gateway import DiscordWebSocket

from bot import __main__ as main_module
from bot.config import MISSING_TOKEN_MESSAGE
from fakediscord import FakeDiscord
from tests.bot.sandbox.helpers import ROOT, bot_env, start_bot


def fetch(url: str) -> str:
    with urllib.request.urlopen(url, timeout=10) as resp:  # loopback only
        text: str = resp.read().decode()
        return text


# ---------------------------------------------------------------- the sandbox start path (real process)


def test_no_token_starts_the_sandbox_and_ctrl_c_stops_it(tmp_path: Path) -> None:
    p = start_bot(tmp_path, "--port", "0")
    stream = None
    try:
        assert "No DISCORD_TOKEN set, so this is the local sandbox" in p.out
        assert "put your bot token in .env" in p.out
        assert p.url.startswith("http://127.0.0.1:")
        assert "LOCAL SANDBOX" in fetch(p.url)
        state = json.loads(fetch(p.url + "api/state"))
        assert state["guild"] == "Sandbox server"
        assert (tmp_path / "sandbox.db").is_file()  # its own database, by default
        assert not (tmp_path / "spades.db").exists()
        # a page is open (its event stream too) when Ctrl-C comes
        query = f"user={state['users'][0]['id']}&channel={state['channels'][0]['id']}"
        stream = urllib.request.urlopen(p.url + "api/events?" + query, timeout=10)
        assert stream.readline() == b"event: messages\n"
    finally:
        code = p.stop()
        if stream is not None:
            stream.close()
    assert code == 0 and "Traceback" not in p.err, p.err
    assert p.out.rstrip().endswith("Sandbox stopped.")


def test_sandbox_flag_wins_over_a_token_and_never_uses_the_real_database(tmp_path: Path) -> None:
    p = start_bot(
        tmp_path,
        "--sandbox",
        "--port",
        "0",
        "--db",
        "try.db",
        env={"DISCORD_TOKEN": "a.real.looking.token", "DATABASE_PATH": "spades.db"},
    )
    try:
        assert "No DISCORD_TOKEN" not in p.out  # it was asked for, not fallen back to
        assert "Sandbox ready" in p.out
        assert (tmp_path / "try.db").is_file() and not (tmp_path / "spades.db").exists()
    finally:
        assert p.stop() == 0


def test_a_port_in_use_is_one_line(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        p = start_bot(tmp_path, "--port", str(port), wait=False)
        code = p.proc.wait(60)
    p.stop()
    assert code == 1
    assert p.err.strip().splitlines()[-1] == (
        f"error: port {port} is in use: choose another with --port N (0 picks a free one)."
    )
    assert "Traceback" not in p.err


def test_hosts_can_refuse_the_sandbox(tmp_path: Path) -> None:
    # the Procfile's worker: a host without a token must fail loudly, not serve a page nobody sees
    p = start_bot(tmp_path, "--no-sandbox", wait=False)
    assert p.proc.wait(60) == 2
    p.stop()
    assert p.err.strip() == f"error: {MISSING_TOKEN_MESSAGE}" and p.out == ""
    assert not list(tmp_path.iterdir())  # no database made
    assert "--no-sandbox" in (ROOT / "Procfile").read_text()


@pytest.mark.parametrize("blocked", ["jsonschema", "jsonschema_rs"])
@pytest.mark.parametrize("flag", [(), ("--sandbox",)])
def test_without_the_sandbox_extra_the_sandbox_names_its_install_command(
    tmp_path: Path, blocked: str, flag: tuple[str, ...]
) -> None:
    # a production install (`pip install -e .`) has no jsonschema: the import is made to fail here,
    # in the child process, as it does there
    run_bot = (
        f"import runpy, sys; sys.modules[{blocked!r}] = None; runpy.run_module('bot', run_name='__main__')"
    )
    done = subprocess.run(
        [sys.executable, "-c", run_bot, *flag],
        cwd=tmp_path,
        env=bot_env(),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr and done.stdout == ""
    line = done.stderr.strip()
    assert "\n" not in line and line.startswith("error: ")
    assert f"({blocked} is not installed): install them with  pip install -e '.[sandbox]'" in line
    assert ("no DISCORD_TOKEN" in line) is (not flag)
    assert not list(tmp_path.iterdir())  # no database made


def test_port_without_the_sandbox_is_refused(tmp_path: Path) -> None:
    p = start_bot(tmp_path, "--port", "9", env={"DISCORD_TOKEN": "x"}, wait=False)
    assert p.proc.wait(60) == 2
    p.stop()
    assert p.err.strip() == "error: --port is for the sandbox: add --sandbox (or unset DISCORD_TOKEN)."


# ---------------------------------------------------------------- start-up failures with a token (in process)


@pytest.fixture
def env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.chdir(tmp_path)  # no .env here
    monkeypatch.setenv("DISCORD_TOKEN", "made.up.token")
    monkeypatch.setenv("DATABASE_PATH", str(tmp_path / "spades.db"))
    monkeypatch.delenv("DEV_GUILD_ID", raising=False)
    yield
    root = logging.getLogger()
    for handler in [h for h in root.handlers if getattr(h, "_spades", False)]:
        root.removeHandler(handler)  # what main() installed


@pytest.fixture
def discord_thread(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeDiscord]:
    """A fake Discord in its own thread and loop, and discord.py pointed at it (as if it were Discord)."""
    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_forever, daemon=True)
    thread.start()
    fake = FakeDiscord(privileged_intents=False)
    asyncio.run_coroutine_threadsafe(fake.start(), loop).result(10)
    fake.token = "the.right.token"
    monkeypatch.setattr(discord.http.Route, "BASE", fake.base_url)
    monkeypatch.setattr(DiscordWebSocket, "DEFAULT_GATEWAY", yarl.URL(fake.gateway_url))
    try:
        yield fake
    finally:
        asyncio.run_coroutine_threadsafe(fake.close(), loop).result(10)
        loop.call_soon_threadsafe(loop.stop)
        thread.join(10)
        loop.close()


def one_line_failure(capsys: pytest.CaptureFixture[str], code: int) -> str:
    err = capsys.readouterr().err
    assert code == main_module.EXIT_FAILURE, err
    assert "Traceback" not in err, err
    errors = [line for line in err.splitlines() if line.startswith("error:")]
    assert len(errors) == 1 and err.rstrip().splitlines()[-1] == errors[0], err
    return errors[0]


def test_unreachable_discord_is_one_line(
    env: None, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    with socket.socket() as s:  # a loopback port nobody listens on: no network to Discord
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    monkeypatch.setattr(discord.http.Route, "BASE", f"http://127.0.0.1:{port}/api/v10")
    line = one_line_failure(capsys, main_module.main([]))
    assert line.startswith("error: cannot reach Discord (127.0.0.1): ")
    assert line.endswith(
        "Check this machine's network connection (and any proxy or firewall), then start the bot again."
    )


def test_a_wrong_token_is_one_line(
    env: None, discord_thread: FakeDiscord, capsys: pytest.CaptureFixture[str]
) -> None:
    line = one_line_failure(capsys, main_module.main([]))
    assert line == (
        "error: Discord refused DISCORD_TOKEN: copy the bot token again from the Developer Portal "
        "(Bot → Reset Token) into .env."
    )
    assert [r.status for r in discord_thread.requests] == [401]  # it asked once, and stopped


def test_a_missing_privileged_intent_is_one_line(
    env: None,
    discord_thread: FakeDiscord,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    # a bot that asks for the members intent the application has not enabled (4014 at IDENTIFY)
    monkeypatch.setenv("DISCORD_TOKEN", discord_thread.token or "")
    monkeypatch.setattr(discord.Intents, "none", classmethod(lambda cls: cls(members=True)))
    line = one_line_failure(capsys, main_module.main([]))
    assert line == "error: " + main_module.CLOSE_CODES[4014]


def test_an_unusable_database_is_one_line(
    env: None,
    discord_thread: FakeDiscord,
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", discord_thread.token or "")
    (tmp_path / "notes.txt").write_text("a file, not a directory")
    monkeypatch.setenv("DATABASE_PATH", str(tmp_path / "notes.txt" / "spades.db"))
    line = one_line_failure(capsys, main_module.main([]))
    assert line.startswith(f"error: cannot create database file {tmp_path}/notes.txt/spades.db")
    assert discord_thread.requests == []  # the database is checked before logging in


@pytest.mark.parametrize(
    ("exc", "expected"),
    [
        (discord.GatewayNotFound(), "Discord's gateway cannot be found right now"),
        (TimeoutError(), "lost the connection to Discord at start-up (TimeoutError)"),
        (PermissionError(13, "Permission denied", "spades.db"), "Permission denied (spades.db)."),
        (RuntimeError("boom"), "the bot stopped: RuntimeError: boom (LOG_LEVEL=DEBUG logs the details)."),
    ],
)
def test_other_failures_have_a_line_too(exc: BaseException, expected: str) -> None:
    assert expected in main_module.startup_failure(exc)


def _children(pid: int) -> list[int]:
    """The child processes of ``pid`` (started by any of its threads)."""
    found = []
    for task in Path(f"/proc/{pid}/task").glob("*"):
        try:
            found += [int(c) for c in (task / "children").read_text().split()]
        except OSError:
            continue
    return found


def _search_workers(pid: int) -> list[int]:
    """The bot's worker processes (multiprocessing's spawn children; Linux /proc)."""
    found = []
    for child in _children(pid):
        try:
            cmdline = Path(f"/proc/{child}/cmdline").read_bytes()
        except OSError:
            continue
        if b"spawn_main" in cmdline:
            found.append(child)
    return found


@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="reads the process tree from Linux /proc")
def test_ctrl_c_in_a_terminal_stops_the_sandbox_and_its_workers_without_a_traceback(tmp_path: Path) -> None:
    """A terminal's Ctrl-C sends SIGINT to the whole process group: the search workers ignore it (the
    bot ends them), so no KeyboardInterrupt traceback comes from a worker."""
    p = start_bot(tmp_path, "--port", "0", env={"SEARCH_WORKERS_AT_START": "on"}, group=True)
    try:
        deadline = time.monotonic() + 60
        while not (workers := _search_workers(p.proc.pid)) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert workers, "the search workers did not start"
        time.sleep(1.0)  # the worker is idle in its queue (where SIGINT raised before)
    finally:
        code = p.stop(group=True)
    assert code == 0, p.err
    assert "Traceback" not in p.err and "KeyboardInterrupt" not in p.err, p.err
    assert p.out.rstrip().endswith("Sandbox stopped.")
    assert not [w for w in workers if Path(f"/proc/{w}").exists() and b"spawn_main" in _cmdline(w)]


def _cmdline(pid: int) -> bytes:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return b""
