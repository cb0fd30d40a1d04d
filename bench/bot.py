"""Load benchmark for the running bot: prints one JSON object.

    .venv/bin/python bench/bot.py                  # 20 tables to 100 points (~7-15 s)
    .venv/bin/python bench/bot.py --quick          # 2 tables, 1 hand (or BENCH_QUICK=1): the tests' run
    .venv/bin/python bench/bot.py --tables 40 --target 200 --seed 3
    .venv/bin/python bench/bot.py --profile prof.out   # cProfile of the whole run (bot + fake)

It starts the local fake Discord (``fakediscord``) and a real ``SpadesBot`` (real cogs, a
temp SQLite file, a small ``time_scale`` so the bots' pauses are short), opens one table per
channel with one human and three bots (``/spades new``, ``/spades start fill:True``) and plays
every table at once, as a person would: the human clicks "My hand" once, then acts on that private
panel (the bid select, card buttons, "Show my cards", the pass select) whenever the bot refreshes it
at their turn, choosing what the heuristic bot would choose. It reads the table service's state only
to know whose turn it is, never to change it.

Measured: interaction latency (the fake's time from dispatching an interaction to the bot's
initial response; Discord fails any answer after 3 s), actions persisted per second (every
``storage.tables.save`` call, timed), the peak rate of channel message edits and posts per channel
in any window of 5 s of bot time (Discord allows about 5), the SQLite file size, and memory: peak
RSS of this process (``resource``), RSS growth per live table (``/proc``) and the deep size of the
service's tables. The fake Discord runs in the same process and event loop as the bot and records
everything, so its CPU and memory are inside the RSS and latency numbers: they are an upper bound
for the bot alone. Its request validation against Discord's OpenAPI spec is off unless
``--validate`` (it took 60% of the CPU of a full run); the e2e tests and ``--quick`` in the test
suite keep it on.
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import gc
import json
import logging
import os
import platform
import re
import resource
import sys
import tempfile
import time
import types
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bot.client import SpadesBot  # noqa: E402
from bot.config import Config  # noqa: E402
from bot.model import Table  # noqa: E402
from bot.table.service import TableService  # noqa: E402
from engine.bots import get_bot  # noqa: E402
from fakediscord import Channel, FakeDiscord, InteractionResult, Message, User  # noqa: E402
from fakediscord.records import InteractionRecord  # noqa: E402

LIVE_PREFIX = "♠ **Spades**"
CARD_ID = re.compile(r"^sp:\d+:c:\d+:(\d+)$")
EDIT_ROUTE = "/channels/{channel_id}/messages/{message_id}"
POST_ROUTE = "/channels/{channel_id}/messages"
DEADLINE = 3.0  # seconds Discord gives an interaction for its initial response
T = TypeVar("T")


class BenchError(RuntimeError):
    """The run could not go on (a table did not open, the game stalled): reported, exit code 1."""


@dataclass
class TableRun:
    """What one table's human did."""

    channel: Channel
    user: User
    table_id: int | None = None
    actions: int = 0  # accepted or not: every decision the human clicked
    panel_opens: int = 0  # "My hand" clicks (one at the start; more only when a refresh was late)
    refresh_waits: list[float] = field(default_factory=list)  # turn seen -> panel refreshed (s)
    stale_panels: int = 0  # turns where the panel did not offer the move yet (the human waited)
    last: Table | None = None


@dataclass
class SaveStats:
    """Every ``storage.tables.save`` call: how many and how long each took."""

    times: list[float] = field(default_factory=list)


def percentile(values: list[float], q: float) -> float:
    """Nearest-rank percentile (``q`` in 0..100) of a non-empty list."""
    ordered = sorted(values)
    k = max(0, min(len(ordered) - 1, round(q / 100 * len(ordered) + 0.5) - 1))
    return ordered[k]


def summary_ms(values: list[float]) -> dict[str, Any]:
    """p50/p95/p99/max in milliseconds of durations in seconds."""
    if not values:
        return {"count": 0, "p50_ms": None, "p95_ms": None, "p99_ms": None, "max_ms": None}
    return {
        "count": len(values),
        "p50_ms": round(percentile(values, 50) * 1000, 2),
        "p95_ms": round(percentile(values, 95) * 1000, 2),
        "p99_ms": round(percentile(values, 99) * 1000, 2),
        "max_ms": round(max(values) * 1000, 2),
    }


def rss_bytes() -> int:
    """Current resident set size of this process (Linux /proc; 0 elsewhere)."""
    try:
        with open("/proc/self/statm") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return 0


def peak_rss_bytes() -> int:
    """Peak RSS of this process so far (``ru_maxrss`` is KiB on Linux, bytes on macOS)."""
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak if sys.platform == "darwin" else peak * 1024


def interaction_kind(record: InteractionRecord) -> str:
    """A short label for grouping latencies: ``/spades new``, ``hand``, ``card``, ``bid``..."""
    data = record.payload.get("data", {})
    if record.type == 2:
        name = str(data.get("name", ""))
        for opt in data.get("options", []) or []:
            if opt.get("type") in (1, 2):
                name += " " + str(opt.get("name"))
        return "/" + name
    custom = str(data.get("custom_id", ""))
    parts = custom.split(":")
    return parts[2] if len(parts) > 2 and parts[0] == "sp" else custom or f"type {record.type}"


def deep_size(root: object) -> int:
    """Bytes of ``root`` and everything it references (modules, classes and functions excluded)."""
    seen: set[int] = set()
    stack = [root]
    total = 0
    while stack:
        obj = stack.pop()
        if id(obj) in seen or isinstance(obj, type | types.ModuleType | types.FunctionType):
            continue
        seen.add(id(obj))
        total += sys.getsizeof(obj)
        stack.extend(gc.get_referents(obj))
    return total


class Bench:
    """One run: a fake Discord, a bot, ``tables`` channels each with one human."""

    def __init__(self, args: argparse.Namespace, db_path: Path) -> None:
        self.args = args
        self.db_path = db_path
        self.fake = FakeDiscord(validate=args.validate)
        self.bot: SpadesBot | None = None
        self.saves = SaveStats()
        self.rss_samples: list[tuple[float, int, int]] = []  # (seconds, rss, live tables)

    @property
    def service(self) -> TableService:
        assert self.bot is not None
        return self.bot.tables

    async def wait_for(self, pred: Callable[[], bool], what: str, timeout: float = 60.0) -> None:
        end = time.monotonic() + timeout
        while not pred():
            if time.monotonic() > end:
                raise BenchError(f"timed out waiting for {what}")
            await asyncio.sleep(0.01)

    def table(self, run: TableRun) -> Table:
        assert run.table_id is not None
        t = self.service.tables.get(run.table_id)
        if t is not None:
            run.last = t
        assert run.last is not None
        return run.last

    def live(self, run: TableRun) -> Message | None:
        """The table's live message: the newest public one for this table in its channel."""
        marker = f"table {run.table_id} "
        for m in reversed(self.fake.public_messages(run.channel)):
            if m.content.startswith(LIVE_PREFIX) and marker in m.content and not m.deleted:
                return m
        return None

    def _instrument(self, bot: SpadesBot) -> None:
        """Count and time every persisted write (the call goes through unchanged)."""
        storage = bot.tables.storage
        original = storage.tables.save
        times = self.saves.times

        async def save_table(*a: Any, **kw: Any) -> Any:
            start = time.perf_counter()
            try:
                return await original(*a, **kw)
            finally:
                times.append(time.perf_counter() - start)

        storage.tables.save = save_table  # type: ignore[method-assign]

    async def _sample_rss(self, start: float) -> None:
        while True:
            live = sum(1 for t in self.service.tables.values() if t.status in ("open", "playing"))
            self.rss_samples.append((time.monotonic() - start, rss_bytes(), live))
            await asyncio.sleep(0.25)

    # ---- one table, as its human plays it -----------------------------------------------------
    async def open_table(self, run: TableRun) -> None:
        r = await self.fake.slash(
            run.user,
            run.channel,
            "spades new",
            target=self.args.target,
            play_seconds=600,
            bid_seconds=600,
            bots=self.args.bots,
        )
        if r.error is not None:
            raise BenchError(f"/spades new failed: {r.error}")
        await self.wait_for(lambda: self.service.in_channel(run.channel.id) is not None, "the table")
        t = self.service.in_channel(run.channel.id)
        assert t is not None
        run.table_id = t.id
        await self.wait_for(lambda: self.live(run) is not None, "the live message")
        r = await self.fake.slash(run.user, run.channel, "spades start", fill=True)
        if r.error is not None:
            raise BenchError(f"/spades start failed: {r.error}")
        await self.wait_for(lambda: self.table(run).status == "playing", "the start")

    async def open_panel(self, run: TableRun) -> Message:
        """Click "My hand" on the live message: the private panel the human then keeps using."""
        await self.wait_for(
            lambda: (m := self.live(run)) is not None and any(b.get("label") == "My hand" for b in m.buttons),
            "the My hand button",
        )
        live = self.live(run)
        assert live is not None
        r = await self.fake.click(run.user, live, label="My hand")
        run.panel_opens += 1
        panel = r.message
        if r.type == 6 and r.error is None:
            # a deferred update of the live message (its token redraws it); the panel follows
            await self.wait_for(lambda: bool(r.followups), "the panel's follow-up")
            panel = r.followups[-1]
        if panel is None or not panel.ephemeral:
            raise BenchError(f"My hand did not answer with a panel: {r.error or r.content}")
        return panel

    def done(self, run: TableRun) -> bool:
        t = self.table(run)
        if t.status != "playing" or t.game is None:
            return True
        return bool(self.args.hands) and t.game.hand_no > self.args.hands

    def my_turn(self, run: TableRun) -> bool:
        t = self.table(run)
        seat = t.seat_of(run.user.id)
        if seat is None or seat not in t.seats_to_act():
            return False
        s = t.seats[seat]
        return s is not None and not s.automatic

    async def act(self, run: TableRun, panel: Message, bot_seed: int) -> InteractionResult | None:
        """Do what the heuristic bot would do in the human's seat, through the panel's components;
        ``None`` when the panel does not offer that move (yet): a person would wait, not click."""
        t = self.table(run)
        seat = t.seat_of(run.user.id)
        assert t.game is not None and seat is not None
        action = get_bot("heuristic", bot_seed).act(t.game.view(seat))
        kind = type(action).__name__

        def button(pred: Callable[[dict[str, Any]], bool]) -> str | None:
            for b in panel.buttons:
                if pred(b) and not b.get("disabled"):
                    return str(b["custom_id"])
            return None

        def select(kind: str) -> str | None:
            for sel in panel.selects:
                if f":{kind}:" in sel["custom_id"] and not sel.get("disabled"):
                    return str(sel["custom_id"])
            return None

        def card(b: dict[str, Any]) -> bool:
            m = CARD_ID.match(b.get("custom_id", ""))
            return m is not None and int(m.group(1)) == action.card

        custom_id: str | None
        values: list[str] | None = None
        if kind == "Look":
            custom_id = button(lambda b: b.get("label") == "Show my cards")
        elif kind == "BidAction" and action.bid.kind == "blind_nil":
            custom_id = button(lambda b: b.get("label") == "Bid blind nil")
        elif kind == "BidAction":
            custom_id, values = select("b"), [str(action.bid)]
        elif kind == "PlayAction":
            custom_id = button(card)
        elif kind == "PassAction":
            custom_id, values = select("p"), [str(c) for c in action.cards]
        else:
            raise BenchError(f"unexpected action {kind}")
        if custom_id is None:
            return None
        if values is None:
            return await self.fake.click(run.user, panel, custom_id=custom_id)
        return await self.fake.select(run.user, panel, custom_id=custom_id, values=values)

    async def play_table(self, run: TableRun, index: int) -> None:
        await self.open_table(run)
        panel = await self.open_panel(run)
        # The panel is current right after it was drawn (opened, or updated in place by a click);
        # after that the human waits for the bot to refresh it when their turn comes.
        current = True
        seen = panel.edits
        limit = 400 * max(1, self.args.hands or 20)
        while not self.done(run):
            if not self.my_turn(run):
                current = False
                await asyncio.sleep(0.005)
                continue
            if not current:
                turn_seen = time.monotonic()
                end = turn_seen + self.args.refresh_wait
                while panel.edits <= seen and time.monotonic() < end and self.my_turn(run):
                    await asyncio.sleep(0.005)
                if not self.my_turn(run):
                    continue
                if panel.edits > seen:
                    run.refresh_waits.append(time.monotonic() - turn_seen)
                else:  # no refresh in time: reopen the panel as a person would
                    panel = await self.open_panel(run)
            before = panel.edits
            r = await self.act(run, panel, self.args.seed * 1000 + index)
            if r is None:  # the panel does not offer the move: wait for it to change, else reopen
                run.stale_panels += 1
                current, seen = False, panel.edits
                continue
            run.actions += 1
            if run.actions > limit:
                raise BenchError(f"table {run.table_id}: the game does not end")
            if r.error is not None:
                raise BenchError(f"table {run.table_id}: an action failed: {r.error}")
            if r.type == 6:  # deferred update: the panel's follow-up edit is the answer
                await self.wait_for(lambda p=panel, n=before: p.edits > n, "the deferred answer", timeout=30)
            elif r.type == 7 and r.message is not None:
                panel = r.message
            seen = panel.edits
            current = r.type in (6, 7)

    # ---- the whole run ---------------------------------------------------------------------------
    async def run(self) -> dict[str, Any]:
        args = self.args
        await self.fake.start()
        try:
            guild = self.fake.add_guild("Bench server")
            runs = [
                TableRun(guild.add_text_channel(f"spades-{i + 1}"), self.fake.add_user(f"player{i + 1}"))
                for i in range(args.tables)
            ]
            config = Config(
                token="x", database_path=str(self.db_path), time_scale=args.time_scale, deal_seed=args.seed
            )
            bot = SpadesBot(config)
            self.bot = bot
            async with self.fake.run_bot(bot, sync_commands=False):
                self._instrument(bot)
                baseline_rss = rss_bytes()
                cpu_start = time.process_time()
                start = time.monotonic()
                sampler = asyncio.create_task(self._sample_rss(start))
                try:
                    await asyncio.gather(*(self.play_table(run, i) for i, run in enumerate(runs)))
                finally:
                    sampler.cancel()
                elapsed = time.monotonic() - start
                cpu = time.process_time() - cpu_start
                await self.fake.settle(timeout=30)
                result = self.report(runs, elapsed, baseline_rss)
                # share of one core this process (bot + fake, one event loop) kept busy
                result["cpu_seconds"] = round(cpu, 2)
                result["cpu_busy"] = round(cpu / elapsed, 3) if elapsed > 0 else None
                # each table's state, game and stored row: the Table objects the service served, as
                # each run last saw them (a finished table leaves the service's memory a grace
                # period after closing, on the bot's clock, so the service may hold none by now)
                served = [run.last for run in runs if run.last is not None]
                held = deep_size(served)
                result["memory"]["tables_measured"] = len(served)
                result["memory"]["table_state_kb"] = round(held / 1024, 1)
                result["memory"]["table_state_kb_per_table"] = round(held / 1024 / max(1, len(served)), 1)
                # tables the service still holds at the end, finished ones included
                result["memory"]["tables_in_memory"] = len(self.service.tables)
            # measured once the bot has closed its database (the WAL is checkpointed into the file)
            wal = self.db_path.with_name(self.db_path.name + "-wal")
            result["sqlite"] = {
                "bytes": self.db_path.stat().st_size if self.db_path.exists() else 0,
                "wal_bytes": wal.stat().st_size if wal.exists() else 0,
                "bytes_per_hand": (
                    round(self.db_path.stat().st_size / result["hands"]) if result["hands"] else None
                ),
            }
            result["violations"] = [str(v) for v in self.fake.violations]
            result["bot_errors"] = [r.getMessage() for r in self.fake.bot_errors]
            return result
        finally:
            await self.fake.close()

    def report(self, runs: list[TableRun], elapsed: float, baseline_rss: int) -> dict[str, Any]:
        args = self.args
        records = list(self.fake.interactions.values())
        latencies: list[float] = []
        by_kind: dict[str, list[float]] = {}
        missed = 0
        for rec in records:
            if rec.responded_at is None:
                missed += 1
                continue
            lat = rec.responded_at - rec.created
            latencies.append(lat)
            by_kind.setdefault(interaction_kind(rec), []).append(lat)
            if lat > DEADLINE or rec.errors:
                missed += 1
        tables = [self.table(r) for r in runs]
        hands = 0
        for t in tables:
            if t.game is not None:
                hands += len(t.game.hand_records)
        humans = sum(r.actions for r in runs)
        timeouts = sum(s.timeouts for t in tables for s in t.seats if s is not None and not s.bot)
        peak_live = max((n for _, _, n in self.rss_samples), default=0)
        peak_sampled = max((rss for _, rss, _ in self.rss_samples), default=baseline_rss)
        all_live = next((rss for _, rss, n in self.rss_samples if n == len(runs)), None)
        refresh = [w for r in runs for w in r.refresh_waits]
        return {
            "quick": args.quick,
            "tables": len(runs),
            "target": args.target,
            "hands_limit": args.hands or None,
            "seed": args.seed,
            "time_scale": args.time_scale,
            "validate": args.validate,
            "seconds": round(elapsed, 2),
            "games_finished": sum(1 for t in tables if t.status == "finished"),
            "hands": hands,
            "human_actions": humans,
            "human_timeouts": timeouts,
            "interactions": len(records),
            "latency": {
                **summary_ms(latencies),
                "over_3s": missed,
                # answered "thinking..." first (the bot defers when its work is slow), then followed up
                "deferred": sum(1 for rec in records if rec.response_type in (5, 6)),
                "by_kind": {k: summary_ms(v) for k, v in sorted(by_kind.items())},
            },
            # the bots' decisions that ran in the worker (the strong level): wall time each, the
            # search capped by the bot's pause (1-1.5 s x time_scale) and by MAX_THINK_SECONDS
            "bot_level": args.bots,
            "bot_decisions": {
                **summary_ms(list(self.service.clock.thinker.durations)),
                "all": self.service.clock.thinker.decisions,
                # decisions asked before the worker processes (started with the bot) were ready
                "before_workers_ready": sum(
                    1 for ready in self.service.clock.thinker.ready_at_decision if not ready
                ),
                "after_workers_ready": summary_ms(list(self.service.clock.thinker.ready_durations)),
                # decided by the normal bot: the worker could not search them in time (thinker.py)
                "degraded": self.service.clock.thinker.degraded,
            },
            "panel": {
                "opens": sum(r.panel_opens for r in runs),
                "stale": sum(r.stale_panels for r in runs),
                "refresh_wait": summary_ms(refresh),
            },
            "persisted": {
                "writes": len(self.saves.times),
                "per_second": round(len(self.saves.times) / elapsed, 1) if elapsed > 0 else None,
                "write": summary_ms(self.saves.times),
            },
            # Every bot timer, the live message's edit interval included, runs at ``time_scale``:
            # Discord's 5 s window is 5 * time_scale s of this run (the raw 5 s count is given too).
            "channel_rate": {
                "window_s": round(5.0 * args.time_scale, 4),
                "peak_edits_per_5s": self.fake.peak_rate("PATCH", EDIT_ROUTE, 5.0 * args.time_scale),
                "peak_posts_per_5s": self.fake.peak_rate("POST", POST_ROUTE, 5.0 * args.time_scale),
                "discord_allows": 5,
                "unscaled_peak_edits_in_5s": self.fake.peak_rate("PATCH", EDIT_ROUTE, 5.0),
            },
            "requests": len(self.fake.requests),
            "memory": {
                "baseline_rss_mb": round(baseline_rss / 2**20, 1),
                "peak_rss_mb": round(peak_rss_bytes() / 2**20, 1),
                "peak_live_tables": peak_live,
                # growth over the whole run (includes the fake's records of every message and request)
                "rss_per_live_table_kb": (
                    round((peak_sampled - baseline_rss) / peak_live / 1024, 1) if peak_live else None
                ),
                # growth by the first moment every table was live (opened, dealt, a few actions in)
                "rss_per_table_when_all_live_kb": (
                    round((all_live - baseline_rss) / len(runs) / 1024, 1) if all_live else None
                ),
            },
            "python": platform.python_version(),
            "machine": platform.machine(),
            "cpus": os.cpu_count(),
        }


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    p.add_argument("--tables", type=int, default=20, help="tables (channels), one human each (default 20)")
    p.add_argument("--target", type=int, default=100, help="points to win, 50-1000 (default 100)")
    p.add_argument("--hands", type=int, default=0, help="stop each table after this many hands (0: game end)")
    p.add_argument("--seed", type=int, default=1, help="deal and decision seed (default 1)")
    p.add_argument("--time-scale", type=float, default=0.02, help="bot pauses and timers scale (0.02)")
    p.add_argument(
        "--bots",
        default="strong",
        choices=["easy", "normal", "strong"],
        help="the bots' level at every table, --real-pace too (default strong)",
    )
    p.add_argument(
        "--refresh-wait",
        type=float,
        default=2.0,
        help="seconds a human waits for the panel refresh before reopening it (2)",
    )
    p.add_argument(
        "--validate",
        action="store_true",
        help="check every request against Discord's OpenAPI spec (the fake's costliest work: "
        "off by default so the numbers are mostly the bot's)",
    )
    p.add_argument("--quick", action="store_true", help="tiny run for the test suite: 2 tables, 1 hand")
    p.add_argument("--profile", metavar="FILE", help="write a cProfile of the run to FILE")
    p.add_argument(
        "--real-pace",
        action="store_true",
        help="the bot in its own process at time scale 1, humans at human pace, Discord's "
        "limits on (bench/realpace.py); measured for --seconds once every table plays",
    )
    p.add_argument("--seconds", type=float, default=60.0, help="measured window of --real-pace (60)")
    p.add_argument(
        "--restore",
        type=int,
        metavar="N",
        default=0,
        help="measure start-up with N live tables in the database (bench/realpace.py)",
    )
    p.add_argument(
        "--no-bare",
        action="store_true",
        help="--real-pace without the bare discord.py bot's replay of the window (half the run's time)",
    )
    p.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    p.add_argument("--bare-child", action="store_true", help=argparse.SUPPRESS)
    p.add_argument("--base", help=argparse.SUPPRESS)
    p.add_argument("--gateway", help=argparse.SUPPRESS)
    p.add_argument("--db", help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if os.environ.get("BENCH_QUICK") == "1":  # the switch every script under bench/ honours
        args.quick = True
    if args.quick:
        args.tables, args.hands = 2, 1
    if args.tables < 1 or args.hands < 0 or not 50 <= args.target <= 1000 or args.time_scale <= 0:
        p.error("need --tables >= 1, --hands >= 0, --target in 50..1000 and --time-scale > 0")
    return args


def run_profiled(fn: Callable[[], Awaitable[T]], path: str | None) -> T:
    if path is None:
        return asyncio.run(fn())  # type: ignore[arg-type]
    prof = cProfile.Profile()
    prof.enable()
    try:
        return asyncio.run(fn())  # type: ignore[arg-type]
    finally:
        prof.disable()
        prof.dump_stats(path)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    if args.real_pace or args.child or args.bare_child or args.restore:
        import realpace  # bench/realpace.py, next to this script

        return realpace.main(args)
    logging.basicConfig(level=logging.WARNING, stream=sys.stderr)
    with tempfile.TemporaryDirectory(prefix="spades-bench-") as tmp:
        bench = Bench(args, Path(tmp) / "spades.db")
        try:
            out = run_profiled(bench.run, args.profile)
        except BenchError as exc:
            print(f"bench/bot.py: {exc}", file=sys.stderr)
            return 1
    print(json.dumps(out, indent=2))
    bad = out["latency"]["over_3s"] or out["violations"] or out["bot_errors"]
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
