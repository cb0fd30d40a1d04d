"""Starting ``python -m bot`` for real (a subprocess, no token) and stopping it with Ctrl-C: the
helpers of the sandbox tests (``conftest.py`` has the fixture)."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]


def scaled(seconds: float) -> float:
    """A wait on ``python -m bot`` (another process) stretched by how busy the machine is now: the
    load average per core, at least 1. (The in-process tests use the fake's Stopwatch instead,
    which sees the time this process waited; another process's waits are not visible here.)"""
    return seconds * max(1.0, os.getloadavg()[0] / (os.cpu_count() or 1))


READY = re.compile(r"Sandbox ready: open (http://127\.0\.0\.1:(\d+)/)")


@dataclass
class Process:
    proc: subprocess.Popen[str]
    cwd: Path
    stdout: list[str] = field(default_factory=list)
    stderr: list[str] = field(default_factory=list)
    url: str = ""

    def stop(self, timeout: float = 20.0, *, group: bool = False) -> int:
        """Ctrl-C (SIGINT; to the whole process group, as a terminal sends it, with ``group``: the
        process must have been started with ``start_bot(..., group=True)``), then wait for the exit code."""
        if self.proc.poll() is None:
            if group:
                os.killpg(self.proc.pid, signal.SIGINT)
            else:
                self.proc.send_signal(signal.SIGINT)
        try:
            return self.proc.wait(scaled(timeout))
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(5)
            raise AssertionError(f"python -m bot did not stop within {timeout} s of Ctrl-C") from None

    @property
    def err(self) -> str:
        return "".join(self.stderr)

    @property
    def out(self) -> str:
        return "".join(self.stdout)


def _pump(stream: object, sink: list[str]) -> None:
    for line in stream:  # type: ignore[attr-defined]
        sink.append(line)


def bot_env(env: dict[str, str] | None = None) -> dict[str, str]:
    """The environment ``python -m bot`` runs in here: this one without DISCORD_TOKEN and the
    database settings (unless ``env`` sets them), this checkout on the path, output unbuffered."""
    unset = ("DISCORD_TOKEN", "DATABASE_PATH", "DEV_GUILD_ID")
    base = {k: v for k, v in os.environ.items() if k not in unset}
    base["PYTHONPATH"] = str(ROOT)
    base["PYTHONUNBUFFERED"] = "1"
    return base | (env or {})


def start_bot(
    cwd: Path, *args: str, env: dict[str, str] | None = None, wait: bool = True, group: bool = False
) -> Process:
    """``python -m bot *args`` in ``cwd`` (no .env there), without DISCORD_TOKEN unless ``env`` sets it;
    ``group``: in a process group of its own (with its worker processes), as a terminal starts it."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "bot", *args],
        cwd=cwd,
        env=bot_env(env),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        process_group=0 if group else None,
    )
    p = Process(proc, cwd)
    for stream, sink in ((proc.stdout, p.stdout), (proc.stderr, p.stderr)):
        threading.Thread(target=_pump, args=(stream, sink), daemon=True).start()
    if not wait:
        return p
    deadline = time.monotonic() + scaled(60)
    while time.monotonic() < deadline:
        m = READY.search(p.out)
        if m:
            p.url = m.group(1)
            return p
        if proc.poll() is not None:
            break
        time.sleep(0.05)
    p.stop()
    raise AssertionError(f"the sandbox did not start:\n{p.out}\n{p.err}")
