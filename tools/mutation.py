"""The mutation runs (docs/TESTING.md, "Mutation testing"): a command people run, not part of CI.

    python tools/mutation.py engine            # the engine's scoring and rules ([tool.mutmut], in place)
    python tools/mutation.py bot               # the bot's persistence and permission code
    python tools/mutation.py bot summary       # the last result: mutants, killed, timed out, survived
    python tools/mutation.py bot results       # the survivors, by name
    python tools/mutation.py bot show NAME     # one mutant's diff
    python tools/mutation.py bot run NAME...   # only these mutants again (after a new test)

mutmut reads one ``[tool.mutmut]`` table, from the ``pyproject.toml`` of the directory it runs in.
The engine run uses the project's own (``mutants/`` in the project). The bot run works in its own
copy of the project, ``.mutation/bot/`` (ignored by git), whose ``pyproject.toml`` carries the
configuration below; the copy is brought up to date before every command, so ``mutmut`` notices
changed sources and makes their mutants again. Extra arguments go to mutmut (``--max-children 1``).

The bot run mutates only the functions named in ``BOT_FUNCTIONS`` (mutmut's own mutant-name
filter; whole modules would make the run too long) and runs the fast unit tests that reach them,
against SQLite in a temporary directory inside the copy (``TMPDIR``): never PostgreSQL, never the
end-to-end suite.
"""

from __future__ import annotations

import contextlib
import fnmatch
import json
import os
import re
import shutil
import signal
import subprocess
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BOT_DIR = ROOT / ".mutation" / "bot"

#: copied into the bot run's copy of the project (everything its tests import or read)
COPIED = ("bot", "engine", "cogs", "tests", "pyproject.toml")

#: the files mutmut mutates in the bot run
BOT_FILES = (
    "bot/table/store.py",
    "bot/storage/saves.py",
    "bot/table/play.py",
    "bot/permissions.py",
    "bot/checks.py",
)

#: of those, the functions whose mutants run (mutmut's names: module, then ``x_`` and the function,
#: or ``xǁClassǁmethod``): the save before an answer, the version check, the per-table lock, and
#: the permission checks
BOT_FUNCTIONS = (
    # TableStore.commit: the one write path (persist, then swap in and tell); the per-table lock
    "bot.table.store.xǁTableStoreǁcommit__mutmut_*",
    "bot.table.store.xǁTableStoreǁlock__mutmut_*",
    # Writer.save (storage.tables.save): one transaction per batch, version-checked, fenced
    "bot.storage.saves.*",
    # Play.act: under the table's lock, the panel's stamp, the turn, save, then acknowledge
    "bot.table.play.xǁPlayǁact__mutmut_*",
    "bot.table.play.x_seat_for__mutmut_*",
    "bot.table.play.x_turn_message__mutmut_*",
    # the bot's permissions for a table, named as each reader's Discord names them
    "bot.checks.x_missing_permissions__mutmut_*",
    "bot.checks.x_cannot_run_table__mutmut_*",
    "bot.permissions.*",
)

_TABLES = "tests/bot/table/test_tables.py::test_"
#: the tests the bot run uses: unit tests of storage, the store and moves, and the permission
#: refusals; of the table service's tests, those about saving, refusing and locking (one preset of
#: the seventeen that play a hand). The end-to-end suite is far too slow per mutant.
BOT_TESTS = (
    "tests/bot/storage/test_storage.py",
    "tests/bot/storage/test_storage_shards.py",
    "tests/bot/test_checks_languages.py",
    "tests/bot/table/test_saved_before_answered.py",
    *(
        _TABLES + name
        for name in (
            "create_persists_an_open_table_with_the_host_seated",
            "second_table_in_a_channel_is_refused",
            "join_fills_seats_then_table_full",
            "only_the_host_starts_and_empty_seats_are_offered_to_bots",
            "actions_without_a_table_or_seat_are_refused",
            "a_failed_save_changes_nothing_and_is_not_acknowledged",
            "a_concurrent_writer_is_detected",
            "concurrent_actions_on_one_table_count_once",
            "restore_brings_back_the_same_tables",
            "every_preset_plays_a_hand_through_the_service[standard]",
            "whatever_a_player_types_is_answered_and_changes_nothing",
            "listeners_hear_every_hand_and_the_game_after_they_are_saved",
            "a_player_is_marked_away_after_exactly_two_timeouts_in_a_row",
        )
    ),
)

BOT_CONFIG = {
    "source_paths": ["bot"],
    "only_mutate": list(BOT_FILES),
    "also_copy": ["engine", "cogs", "tests"],
    "pytest_add_cli_args_test_selection": list(BOT_TESTS),
    # SQLite only: the PostgreSQL half of the storage tests needs a server and adds nothing here
    "pytest_add_cli_args": ["-p", "no:cacheprovider", "--no-cov", "-q", "-n", "0", "-k", "not postgresql"],
}


def _toml_value(value: object) -> str:
    return json.dumps(value, ensure_ascii=False)  # a JSON string or list of strings is valid TOML


def bot_pyproject(text: str) -> str:
    """The project's pyproject.toml with its ``[tool.mutmut]`` table replaced by the bot run's."""
    table = "[tool.mutmut]\n" + "".join(f"{k} = {_toml_value(v)}\n" for k, v in BOT_CONFIG.items())
    start = text.find("[tool.mutmut]")
    if start < 0:
        return text.rstrip("\n") + "\n\n" + table
    end = re.search(r"^\[", text[start + 1 :], re.M)
    rest = text[start + 1 + end.start() :] if end else ""
    return text[:start] + table + ("\n" + rest if rest else "")


def _sync_file(src: Path, dst: Path, data: bytes | None = None) -> None:
    """Copy only a changed file (mutmut tells a mutated copy from a fresh one by its mtime)."""
    new = src.read_bytes() if data is None else data
    if dst.exists() and dst.read_bytes() == new:
        return
    dst.parent.mkdir(parents=True, exist_ok=True)
    if data is None:
        shutil.copy2(src, dst)
    else:
        dst.write_bytes(new)


def sync_bot_copy() -> None:
    """Bring ``.mutation/bot/`` up to date with the project (files changed, added or removed).
    A source that changed is also removed from ``mutants/``, so that mutmut copies and mutates it
    again."""
    BOT_DIR.mkdir(parents=True, exist_ok=True)
    for name in COPIED:
        src = ROOT / name
        if src.is_file():
            data = bot_pyproject(src.read_text("utf-8")).encode() if name == "pyproject.toml" else None
            _sync_file(src, BOT_DIR / name, data)
            continue
        wanted: set[Path] = set()
        for path in src.rglob("*"):
            if path.is_dir() or "__pycache__" in path.parts or path.suffix in (".pyc", ".db"):
                continue
            rel = path.relative_to(ROOT)
            wanted.add(rel)
            dst = BOT_DIR / rel
            if not dst.exists() or dst.read_bytes() != path.read_bytes():
                _sync_file(path, dst)
                stale = BOT_DIR / "mutants" / rel
                for old in (stale, stale.with_name(stale.name + ".meta")):
                    old.unlink(missing_ok=True)
        for path in (BOT_DIR / name).rglob("*"):
            if path.is_file() and "__pycache__" not in path.parts and path.relative_to(BOT_DIR) not in wanted:
                path.unlink()
    (BOT_DIR / "tmp").mkdir(exist_ok=True)


def outcomes(cwd: Path, patterns: tuple[str, ...] | None) -> dict[str, str]:
    """Each mutant's outcome (``killed``, ``survived``, ...), from mutmut's result files
    (``mutants/**.meta``); in the bot run only the mutants of ``BOT_FUNCTIONS``."""
    from mutmut.stats import status_by_exit_code

    found: dict[str, str] = {}
    for meta in (cwd / "mutants").rglob("*.py.meta"):
        codes = json.loads(meta.read_text("utf-8"))["exit_code_by_key"]
        for name, code in codes.items():
            if patterns is None or any(fnmatch.fnmatch(name, p) for p in patterns):
                found[name] = status_by_exit_code[code]
    return found


def summary(cwd: Path, patterns: tuple[str, ...] | None) -> dict[str, int]:
    """Mutants by outcome."""
    counts = Counter(outcomes(cwd, patterns).values())
    return {"mutants": sum(counts.values()), **dict(sorted(counts.items()))}


def main(argv: list[str]) -> int:
    if not argv or argv[0] not in ("engine", "bot"):
        print(__doc__)
        return 2
    target, rest = argv[0], argv[1:]
    command = rest[0] if rest else "run"
    args = rest[1:]
    cwd = ROOT if target == "engine" else BOT_DIR
    patterns = BOT_FUNCTIONS if target == "bot" else None
    env = dict(os.environ)
    if target == "bot":
        sync_bot_copy()
        env["TMPDIR"] = str(BOT_DIR / "tmp")  # the tests' databases (pytest's tmp_path) live here
    if command == "summary":
        print(json.dumps(summary(cwd, patterns), indent=2))
        return 0
    if command == "results" and target == "bot":  # (mutmut's own lists every file's unrun mutants)
        for name, status in sorted(outcomes(cwd, patterns).items()):
            if status != "killed":
                print(f"    {name}: {status}")
        return 0
    mutmut = [sys.executable, "-m", "mutmut", command, *args]
    if target == "bot" and command == "run" and not any("." in a for a in args):
        mutmut += list(BOT_FUNCTIONS)
    returncode = _run_alone(mutmut, cwd, env)
    if command == "run":
        print(json.dumps(summary(cwd, patterns), indent=2))
    return returncode


def _run_alone(command: list[str], cwd: Path, env: dict[str, str]) -> int:
    """Run mutmut in a process group of its own, and end what is left of that group afterwards:
    a mutant that stops a test half-way leaves the table service's search workers (spawned
    processes) without their parent."""
    proc = subprocess.Popen(command, cwd=cwd, env=env, start_new_session=True)
    try:
        return proc.wait()
    except KeyboardInterrupt:  # (the group is not the terminal's: pass Ctrl-C on)
        os.killpg(proc.pid, signal.SIGINT)
        return proc.wait()
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGTERM)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
