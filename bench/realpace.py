"""``bench/bot.py --real-pace``: the bot alone in its process, at real pace, under Discord's limits.

Two processes. This one (the driver) runs the fake Discord (``fakediscord``, per-route buckets
and the global limit of 50 bot-token requests per second on) and plays the humans; a child
process (``bench/bot.py --child``) runs a real ``SpadesBot`` at ``time_scale`` 1 against it, so the
bot's CPU, memory and event-loop lag are its own. Each of ``--tables`` channels gets one human and
three bots; the human acts only through Discord (the live message's **My hand**, then the private
panel the bot keeps up to date), after a human pause: log-normal, median 2.5 s, 0.7-10 s.

Tables are opened over a ramp (not measured: opening 500 tables posts 500 live messages, ten
seconds of the token's budget); the window of ``--seconds`` starts once every table is playing.

Interaction latency at the sockets (``latency``): the fake writing the event to the bot's gateway
socket (stamped in the driver) -> the bot writing its first response to its HTTP socket (stamped in
the bot by aiohttp's request trace), so neither end waits on the driver's own event loop, which
simulates hundreds of humans and Discord in one process and lags under that load; the same
interactions as the driver sees them are ``latency_driver``. From the fake (driver): answers over
Discord's 3 s, rate-limit hits (429s of any kind), bot-token requests per second. From the bot
(child): event-loop lag (a 100 ms sleep's overrun), staleness (a card saved -> Discord's answer to
the edit that shows it: each human's panel, the public live message), CPU busy (process CPU /
wall), RSS per table, and the bots' decisions (``bot_decisions``: their wall time, and how many the
normal bot took because the search worker could not in time: ``degraded``).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import math
import os
import random
import re
import resource
import sys
import tempfile
import time
from collections import deque
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from fakediscord import Channel, FakeDiscord, InteractionResult, Message, User  # noqa: E402
from fakediscord.records import InteractionRecord  # noqa: E402

LIVE_PREFIX = "♠ **Spades**"
CARD_ID = re.compile(r"^sp:\d+:c:\d+:(\d+)$")
DEADLINE = 3.0
IDLE_SECONDS = 5.0  # the bot's idle cost is measured over this long once the humans stop


def percentile(values: list[float], q: float) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    k = max(0, min(len(ordered) - 1, math.ceil(q / 100 * len(ordered)) - 1))
    return ordered[k]


def ms(value: float | None) -> float | None:
    return None if value is None else round(value * 1000, 1)


def kind_of(payload: dict[str, Any]) -> str:
    """``/spades new``, ``hand``, ``c`` (card), ``b`` (bid)... for latency by kind."""
    data = payload.get("data", {})
    if payload.get("type") == 2:
        name = str(data.get("name", ""))
        for opt in data.get("options", []) or []:
            if opt.get("type") in (1, 2):
                name += " " + str(opt.get("name"))
        return "/" + name
    parts = str(data.get("custom_id", "")).split(":")
    return parts[2] if len(parts) > 2 else "?"


def rss_bytes() -> int:
    try:
        with open("/proc/self/statm") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return 0


# ---- the child: the bot alone ---------------------------------------------------------------------


async def panel_of(r: InteractionResult, timeout: float = 10.0) -> Message | None:
    """The ephemeral panel a My hand click answered with: the response itself, or (after a deferred
    update of the live message, whose token the bot keeps to redraw it) the follow-up."""
    if r.error is not None:
        return None
    if r.type == 6:
        end = time.monotonic() + timeout
        while not r.followups and time.monotonic() < end:
            await asyncio.sleep(0.02)
        msg = r.followups[-1] if r.followups else None
    else:
        msg = r.message
    return msg if msg is not None and msg.ephemeral else None


class Trace:
    """The garbage collector's pauses by generation (wall and CPU time), and with
    ``BENCH_CHILD_TRACE=1`` what else held the bot's loop: every callback the loop ran for more than
    20 ms (what it was, how long, how much of it the collector), and what a full collection would
    free at the end, by type."""

    SLOW = 0.02

    def __init__(self, *, callbacks: bool) -> None:
        self.callbacks = callbacks
        self.slow: list[tuple[float, float, str]] = []  # wall, CPU (this thread), what
        self.gc: dict[int, list[tuple[float, float]]] = {0: [], 1: [], 2: []}  # wall, CPU
        self._gc_t0 = (0.0, 0.0)
        self.gc_cpu = 0.0  # the collector's CPU so far
        self.slow_gc_cpu = 0.0  # of which inside the slow callbacks
        self.on = False

    def start(self) -> None:
        import gc

        self.on = True
        trace = self
        run = asyncio.events.Handle._run

        def timed(handle: asyncio.events.Handle) -> None:
            t0, c0, g0 = time.perf_counter(), time.thread_time(), trace.gc_cpu
            run(handle)
            took = time.perf_counter() - t0
            if took > trace.SLOW and trace.on:
                callback = handle._callback
                owner = getattr(callback, "__self__", None)
                what = repr(owner.get_coro()) if isinstance(owner, asyncio.Task) else repr(handle)
                trace.slow.append((took, time.thread_time() - c0, what[:300]))
                trace.slow_gc_cpu += trace.gc_cpu - g0

        if self.callbacks:
            asyncio.events.Handle._run = timed  # type: ignore[method-assign]

        def on_gc(phase: str, info: dict[str, int]) -> None:
            if phase == "start":
                trace._gc_t0 = (time.perf_counter(), time.thread_time())
            elif trace.on:
                t0, c0 = trace._gc_t0
                cpu = time.thread_time() - c0
                trace.gc_cpu += cpu
                trace.gc[info["generation"]].append((time.perf_counter() - t0, cpu))

        gc.callbacks.append(on_gc)

    @staticmethod
    def garbage() -> dict[str, int]:
        """What a full collection would free now, by type (the cycles the young collections left)."""
        import collections
        import gc

        gc.set_debug(gc.DEBUG_SAVEALL)
        gc.collect()
        gc.set_debug(0)
        kinds = collections.Counter(type(o).__qualname__ for o in gc.garbage)
        gc.garbage.clear()
        return dict(kinds.most_common(25))

    def report(self) -> dict[str, Any]:
        import gc

        self.on = False
        kinds: dict[str, list[tuple[float, float]]] = {}
        for took, cpu, what in self.slow:
            key = re.sub(r"0x[0-9a-f]+|\d+", "#", what)[:160]
            kinds.setdefault(key, []).append((took, cpu))

        def stats(v: list[tuple[float, float]]) -> dict[str, Any]:
            walls, cpus = [w for w, _ in v], [c for _, c in v]
            return {
                "count": len(v),
                "total_ms": ms(sum(walls)),
                "max_ms": ms(max(walls, default=0)),
                "cpu_total_ms": ms(sum(cpus)),
                "cpu_max_ms": ms(max(cpus, default=0)),
                "cpu_over_20ms": sum(1 for c in cpus if c > 0.02),
            }

        return {
            "by_generation": {str(g): stats(v) for g, v in self.gc.items()},
            "threshold": gc.get_threshold(),
            "objects": len(gc.get_objects()),
            "frozen": gc.get_freeze_count(),
            **({"garbage_by_type": self.garbage()} if self.callbacks else {}),
            **(
                {
                    "slow_callbacks": stats([(w, c) for w, c, _ in self.slow]),
                    "slow_callbacks_gc_cpu_ms": ms(self.slow_gc_cpu),
                    "slow_by_kind": sorted(
                        ({"what": k, **stats(v)} for k, v in kinds.items()), key=lambda d: -d["cpu_total_ms"]
                    )[:15],
                }
                if self.callbacks
                else {}
            ),
        }


def stamp_answers() -> dict[str, float]:
    """Interaction id -> the wall time the bot issued its first response (the callback request
    handed to aiohttp), in the bot's process: with the time the fake wrote the event to the gateway,
    the latency the bot alone is responsible for (neither the fake's reading of the answer nor a
    stalled driver is in it)."""
    from discord.webhook.async_ import AsyncWebhookAdapter

    answered: dict[str, float] = {}
    create = AsyncWebhookAdapter.create_interaction_response

    def stamped(self: AsyncWebhookAdapter, interaction_id: int, *a: Any, **kw: Any) -> Any:
        answered.setdefault(str(interaction_id), time.time())
        return create(self, interaction_id, *a, **kw)

    AsyncWebhookAdapter.create_interaction_response = stamped  # type: ignore[method-assign]
    return answered


def workers_cpu(pids: set[int]) -> float:
    """CPU seconds (user + system) the search worker processes have used so far (Linux /proc)."""
    total = 0
    for pid in pids:
        try:
            with open(f"/proc/{pid}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
            total += int(fields[11]) + int(fields[12])  # utime, stime (fields 14, 15)
        except (OSError, ValueError, IndexError):
            continue
    return total / os.sysconf("SC_CLK_TCK")


CALLBACK = re.compile(r"/interactions/(\d+)/[^/]+/callback$")


def stamp_wire(bot: Any) -> dict[str, float]:
    """Interaction id -> the wall time the bot's first response left it: its callback request's
    headers written to the socket (aiohttp's trace, on the session discord.py answers interactions
    with). With the time the fake wrote the event to the bot's gateway socket: the interaction's
    latency at the sockets, wire to wire, what Discord would see (no driver lag at either end)."""
    import aiohttp

    sent: dict[str, float] = {}

    async def on_headers(session: Any, ctx: Any, params: Any) -> None:
        m = CALLBACK.search(params.url.path)
        if m is not None:
            sent.setdefault(m.group(1), time.time())

    trace = aiohttp.TraceConfig()
    trace.on_request_headers_sent.append(on_headers)
    bot.http.http_trace = trace  # (read when the bot logs in and opens its session)
    return sent


async def child(args: argparse.Namespace, profile: str | None = None) -> None:
    import yarl
    from discord.gateway import DiscordWebSocket
    from discord.http import Route

    from bot.client import SpadesBot
    from bot.config import Config
    from bot.table.thinker import scheduling_class

    Route.BASE = args.base
    DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(args.gateway)
    started = time.monotonic()
    rate = float(os.environ.get("BENCH_CHILD_RATE", "50"))
    bot = SpadesBot(
        Config(token="x", database_path=args.db, time_scale=1.0, deal_seed=args.seed, discord_rate_limit=rate)
    )
    bot._connection.guild_ready_timeout = 0.2
    wire = stamp_wire(bot)

    async def no_delay(shard_id: int | None, *, initial: bool = False) -> None:
        return None

    bot.before_identify_hook = no_delay  # type: ignore[method-assign]
    task = asyncio.create_task(bot.start("x"))
    while not bot.is_ready():
        if task.done():
            raise SystemExit(f"bot stopped: {task.exception()!r}")
        await asyncio.sleep(0.01)
    ready_s = time.monotonic() - started
    posts = bot.tables.posts
    service = bot.tables
    armed = sum(1 for tid in service.tables if service.clock.holds(tid))
    print(
        json.dumps({"ready_s": round(ready_s, 3), "restored": len(service.tables), "timers_armed": armed}),
        flush=True,
    )
    lags: list[float] = []

    async def lag_sampler() -> None:
        while True:
            t0 = time.perf_counter()
            await asyncio.sleep(0.1)
            lags.append(max(0.0, time.perf_counter() - t0 - 0.1))

    sampler = asyncio.create_task(lag_sampler())
    answered = stamp_answers()
    saves: list[float] = []  # how long each table save (the group commit) kept its caller waiting
    save_table = bot.storage.tables.save

    async def timed_save(*a: Any, **kw: Any) -> Any:
        t0 = time.perf_counter()
        try:
            return await save_table(*a, **kw)
        finally:
            saves.append(time.perf_counter() - t0)

    bot.storage.tables.save = timed_save  # type: ignore[method-assign]
    trace = Trace(callbacks=bool(os.environ.get("BENCH_CHILD_TRACE")))
    idle_rss = rss_bytes()
    print("ready", flush=True)
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader()
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
    line = (await reader.readline()).decode().strip()
    assert line == "measure", line
    posts.staleness.enabled = True
    lags.clear()
    saves.clear()
    trace.start()
    budget = bot.budget
    sent0, levels0, peak_wait = budget.sent, list(budget.sent_by_level), 0
    token_edits0, token_refused0 = posts.tokens.edits, posts.tokens.refused
    thinker = service.clock.thinker
    thinks0, fallbacks0 = thinker.decisions, thinker.fallbacks
    degraded0, degraded_by0 = thinker.degraded, dict(thinker.degraded_by)
    # the window's decision times, all of them (the thinker keeps only its latest 10,000)
    thinker.durations, thinker.searched = deque(maxlen=2_000_000), deque(maxlen=2_000_000)
    prof = None
    if profile:  # the window only, in the main thread's CPU time (BENCH_CHILD_PROFILE)
        import cProfile

        # not wall time: that charges the calls that release the GIL (socket sends, queue puts)
        # with the other threads' work meanwhile
        prof = cProfile.Profile(time.thread_time)
        prof.enable()
    cpu0, wall0, workers0 = time.process_time(), time.monotonic(), workers_cpu(thinker.warm_pids)

    async def watch_queue() -> None:
        nonlocal peak_wait
        while True:
            peak_wait = max(peak_wait, budget.waiting)
            await asyncio.sleep(0.1)

    watcher = asyncio.create_task(watch_queue())
    line = (await reader.readline()).decode().strip()
    wall = time.monotonic() - wall0
    cpu = time.process_time() - cpu0
    workers = workers_cpu(thinker.warm_pids) - workers0
    if prof is not None:
        prof.disable()
        prof.dump_stats(profile)
    # then (a real-pace run) the humans stop: once the bots have played up to them, what the bot
    # spends with nothing happening (timers, health, sweeps, the gateway's heartbeat)
    idle: dict[str, Any] | None = None
    if line == "window":
        line = (await reader.readline()).decode().strip()
    if line == "idle":
        c1, w1 = time.process_time(), time.monotonic()
        line = (await reader.readline()).decode().strip()
        idle_wall = time.monotonic() - w1
        idle = {"seconds": round(idle_wall, 1), "cpu_seconds": round(time.process_time() - c1, 3)}
    sampler.cancel()
    watcher.cancel()
    live = sum(1 for t in bot.tables.tables.values() if t.status in ("open", "playing"))
    st = posts.staleness
    out = {
        "loop_lag": {
            "samples": len(lags),
            "p50_ms": ms(percentile(lags, 50)),
            "p99_ms": ms(percentile(lags, 99)),
            "max_ms": ms(max(lags, default=0.0)),
        },
        "staleness": {
            "cards": len(st.public) + sum(len(v) for v in st._public_owed.values()),
            "panel_p50_ms": ms(percentile(st.panel, 50)),
            "panel_p99_ms": ms(percentile(st.panel, 99)),
            "public_p50_ms": ms(percentile(st.public, 50)),
            "public_p99_ms": ms(percentile(st.public, 99)),
            "public_max_ms": ms(max(st.public, default=0.0)),
            "public_not_yet_shown": sum(len(v) for v in st._public_owed.values()),
        },
        "save_wait": {
            "count": len(saves),
            "p50_ms": ms(percentile(saves, 50)),
            "p99_ms": ms(percentile(saves, 99)),
            "max_ms": ms(max(saves, default=0.0)),
        },
        "cpu_busy": round(cpu / wall, 3),
        "cpu_seconds": round(cpu, 3),
        "window_seconds": round(wall, 3),
        "workers_cpu_seconds": round(workers, 3),
        "idle": idle,
        "live_tables": live,
        "rss_mb": round(rss_bytes() / 2**20, 1),
        "peak_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
        "rss_per_table_kb": round((rss_bytes() - idle_rss) / max(live, 1) / 1024, 1),
        "budget": {
            "per_second": budget.per_second,
            "rate": round(budget.rate, 1),
            "burst": budget.burst,
            "granted_per_s": round((budget.sent - sent0) / wall, 1),
            "granted_by_level": dict(
                zip(
                    ("urgent", "human", "posts", "bots"),
                    (a - b for a, b in zip(budget.sent_by_level, levels0, strict=True)),
                    strict=True,
                )
            ),
            "peak_waiting": peak_wait,
            "held_back_at_send": budget.held_back,
        },
        # the bots' decisions in the window (the strong level searches in a worker process)
        "bot_decisions": {
            "count": thinker.decisions - thinks0,
            "fallbacks": thinker.fallbacks - fallbacks0,
            # search decisions the normal bot took because the worker could not search them in time
            "degraded": thinker.degraded - degraded0,
            "degraded_by": {k: v - degraded_by0.get(k, 0) for k, v in thinker.degraded_by.items()},
            "worker_nice": thinker.worker_nice,
            "worker_class": sorted(scheduling_class(pid) for pid in thinker.warm_pids),
            "worker_seconds_per_search": round(thinker.service, 4),
            "searched": len(thinker.searched),
            "searched_p50_ms": ms(percentile(list(thinker.searched), 50)),
            "searched_p99_ms": ms(percentile(list(thinker.searched), 99)),
            "p50_ms": ms(percentile(list(thinker.durations), 50)),
            "p99_ms": ms(percentile(list(thinker.durations), 99)),
            "max_ms": ms(max(thinker.durations, default=0.0)),
        },
        # the live messages redrawn through a click's token (exempt), in the window
        "public_tokens": {
            "edits_per_s": round((posts.tokens.edits - token_edits0) / wall, 1),
            "refused": posts.tokens.refused - token_refused0,
            "tables_holding_one": posts.tokens.tables(),
        },
    }
    out["answered_at"] = answered
    out["sent_at"] = wire
    out["gc"] = trace.report()
    print(json.dumps(out), flush=True)
    await bot.close()
    task.cancel()


async def bare_child(args: argparse.Namespace) -> None:
    """A bare discord.py bot against the same fake: every interaction answered with a deferral and
    one edit of the original response, nothing else. Its CPU per interaction is the floor discord.py
    itself costs (the gateway, parsing each interaction, two REST calls), which the bot's own figure
    is compared with. The same intents as the bot's (``guilds`` only)."""
    import discord
    import yarl
    from discord.gateway import DiscordWebSocket
    from discord.http import Route

    Route.BASE = args.base
    DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(args.gateway)
    discord.VoiceClient.warn_nacl = False
    discord.VoiceClient.warn_dave = False
    intents = discord.Intents.none()
    intents.guilds = True
    client = discord.Client(intents=intents)
    client._connection.guild_ready_timeout = 0.2
    stamp_wire(client)  # the bot's latency trace, so both pay for it
    answered = 0
    failed = 0

    async def on_interaction(interaction: discord.Interaction) -> None:
        nonlocal answered, failed
        try:
            await interaction.response.defer()
            await interaction.edit_original_response(content="ok")
            answered += 1
        except discord.HTTPException:
            failed += 1

    client.on_interaction = on_interaction  # type: ignore[attr-defined]

    async def no_delay(shard_id: int | None, *, initial: bool = False) -> None:
        return None

    client.before_identify_hook = no_delay  # type: ignore[method-assign]
    task = asyncio.create_task(client.start("x"))
    while not client.is_ready():
        if task.done():
            raise SystemExit(f"bare bot stopped: {task.exception()!r}")
        await asyncio.sleep(0.01)
    print(json.dumps({"ready": True}), flush=True)
    print("ready", flush=True)
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader()
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
    line = (await reader.readline()).decode().strip()
    assert line == "measure", line
    cpu0, wall0, answered0 = time.process_time(), time.monotonic(), answered
    await reader.readline()
    cpu, wall = time.process_time() - cpu0, time.monotonic() - wall0
    out = {
        "cpu_seconds": round(cpu, 3),
        "window_seconds": round(wall, 3),
        "answered": answered - answered0,
        "failed": failed,
    }
    print(json.dumps(out), flush=True)
    await client.close()
    task.cancel()


def reference_loop(rounds: int = 5, size: int = 20_000) -> dict[str, Any]:
    """The machine's single-thread speed, measured in the run: a fixed pure-Python workload (a
    Discord-like JSON payload parsed and dumped, dict and list work, string formatting), best of
    ``rounds`` in CPU time. ``per_second`` carries the bot's CPU figures from one machine to another."""
    payload = json.dumps(
        {
            "id": "1234567890123456789",
            "type": 3,
            "data": {"custom_id": "sp:12:c:3:17", "component_type": 2},
            "member": {"user": {"id": "42", "username": "player", "global_name": None}, "roles": []},
            "message": {"id": "99", "content": "x" * 200, "components": [{"type": 1, "components": []}]},
        }
    )
    best = math.inf
    for _ in range(rounds):
        t0 = time.process_time()
        acc = 0
        for i in range(size):
            d = json.loads(payload)
            d["data"]["n"] = i
            acc += len(json.dumps(d)) + len(f"{i}:{d['member']['user']['username']}")
            acc += sum(sorted((i * 7919 + j) % 101 for j in range(8)))
        best = min(best, time.process_time() - t0)
    return {"loops": size, "best_cpu_seconds": round(best, 4), "per_second": round(size / best)}


# ---- the driver: fake Discord and the humans ------------------------------------------------------


@dataclass
class Human:
    channel: Channel
    user: User
    rng: random.Random
    panel: Message | None = None
    actions: int = 0
    reopen: int = 0
    errors: int = 0


class Driver:
    def __init__(self, args: argparse.Namespace) -> None:
        self.args = args
        self.fake = FakeDiscord(validate=False, rate_limits=True)
        self.stop_at = math.inf
        self.written: dict[str, float] = {}  # wall clock (time.time), as the bot's stamps
        self.written_fake: dict[str, float] = {}  # the same on the fake's clock, as its records

    def stamp_writes(self) -> None:
        """Interaction id -> the wall time the fake wrote its INTERACTION_CREATE to the bot's
        gateway socket (this driver's loop lag before that is the simulated human's, not the bot's)."""
        from fakediscord.gateway import Connection

        written, written_fake, clock = self.written, self.written_fake, self.fake.clock
        send = Connection.send

        async def stamped(conn: Connection, payload: dict[str, Any]) -> None:
            if payload.get("t") == "INTERACTION_CREATE":
                written[str(payload["d"]["id"])] = time.time()
                written_fake[str(payload["d"]["id"])] = clock.now()
            await send(conn, payload)

        Connection.send = stamped  # type: ignore[method-assign]

    def live(self, h: Human) -> Message | None:
        for m in reversed(self.fake.public_messages(h.channel)):
            if m.content.startswith(LIVE_PREFIX) and not m.deleted:
                return m
        return None

    async def until(self, pred: Any, what: str, timeout: float = 120.0) -> None:
        end = time.monotonic() + timeout
        while not pred():
            if time.monotonic() > end:
                raise RuntimeError(f"timed out waiting for {what}")
            await asyncio.sleep(0.1)

    async def open(self, h: Human) -> None:
        level = {"bots": self.args.bots}
        r = await self.fake.slash(
            h.user, h.channel, "spades new", target=500, play_seconds=600, bid_seconds=600, **level
        )
        if r.error:
            raise RuntimeError(f"/spades new: {r.error}")
        await self.until(lambda: self.live(h) is not None, "the live message")
        r = await self.fake.slash(h.user, h.channel, "spades start", fill=True)
        if r.error:
            raise RuntimeError(f"/spades start: {r.error}")
        for attempt in range(3):  # an overloaded bot may miss 3 s: the player clicks again
            try:
                await self.open_panel(h)
                return
            except RuntimeError:
                h.errors += 1
                if attempt == 2:
                    raise
                await asyncio.sleep(2.0)

    async def open_panel(self, h: Human) -> None:
        def ready() -> bool:
            m = self.live(h)
            return m is not None and any(b.get("label") == "My hand" for b in m.buttons)

        await self.until(ready, "the My hand button")
        live = self.live(h)
        assert live is not None
        r = await self.fake.click(h.user, live, label="My hand")
        panel = await panel_of(r)
        if panel is None:
            raise RuntimeError(f"My hand: {r.error or r.content}")
        h.panel = panel

    def choice(self, h: Human) -> tuple[str, list[str] | None] | None:
        """What the panel lets the human do now: a custom_id (and select values), or None."""
        p = h.panel
        assert p is not None
        cards = [b for b in p.buttons if CARD_ID.match(b.get("custom_id", "")) and not b.get("disabled")]
        if cards:
            return h.rng.choice(cards)["custom_id"], None
        for sel in p.selects:
            if sel.get("disabled"):
                continue
            cid = sel["custom_id"]
            values = [o["value"] for o in sel.get("options", [])]
            if ":b:" in cid:
                modest = [v for v in values if v in ("2", "3", "4")]
                return cid, [h.rng.choice(modest or values)]
            if ":p:" in cid:
                n = int(sel.get("min_values") or 1)
                return cid, h.rng.sample(values, n)
        for b in p.buttons:
            if b.get("disabled"):
                continue
            if b.get("label") in ("Show my cards", "I'm back", "Keep it"):
                return b["custom_id"], None
        return None

    async def play(self, h: Human) -> None:
        quiet_since = time.monotonic()
        seen = -1
        idle: tuple[int, int] | None = None  # the panel (and its edit) that offered nothing to do
        while time.monotonic() < self.stop_at:
            assert h.panel is not None
            if h.panel.edits != seen:
                seen, quiet_since = h.panel.edits, time.monotonic()
            # (the panel unchanged since it offered nothing: no need to read it again)
            what = None if idle == (id(h.panel), h.panel.edits) else self.choice(h)
            if what is None:
                idle = (id(h.panel), h.panel.edits)
                if time.monotonic() - quiet_since > 30:  # nothing to do for long: look again
                    h.reopen += 1
                    try:
                        await self.open_panel(h)
                    except RuntimeError:  # not answered in time (counted as late by the fake)
                        h.errors += 1  # keep the old panel and try again later
                    quiet_since = time.monotonic()
                await asyncio.sleep(0.25)  # (the driver's CPU is the fake's: keep the polling light)
                continue
            # a person reads the panel, thinks, clicks
            await asyncio.sleep(min(10.0, max(0.7, h.rng.lognormvariate(math.log(2.5), 0.5))))
            if time.monotonic() >= self.stop_at:
                return
            what = self.choice(h)  # the panel may have changed meanwhile
            if what is None:
                continue
            cid, values = what
            r: InteractionResult
            try:
                if values is None:
                    r = await self.fake.click(h.user, h.panel, custom_id=cid)
                else:
                    r = await self.fake.select(h.user, h.panel, custom_id=cid, values=values)
            except AssertionError:  # the component went away between reading and clicking
                continue
            h.actions += 1
            if r.error:
                h.errors += 1
            if r.type == 7 and r.message is not None:
                h.panel = r.message
            seen = -1

    async def replay(self, records: list[InteractionRecord], w0: float) -> dict[str, Any]:
        """The window's interactions again, at the same moments, to a bare discord.py bot in its own
        process against this fake (``bare_child``): what discord.py alone costs for the same work."""
        fake = self.fake
        proc = await spawn(fake, "", self.args.seed, bare=True)
        assert proc.stdin is not None and proc.stdout is not None
        try:
            await started(proc)
            proc.stdin.write(b"measure\n")
            await proc.stdin.drain()
            t0 = time.monotonic()
            sent: list[InteractionRecord] = []
            waits: list[asyncio.Task[InteractionResult]] = []
            for rec in records:
                delay = t0 + (rec.created - w0) - time.monotonic()
                if delay > 0:
                    await asyncio.sleep(delay)
                copy = fake._interaction_base(rec.type, rec.user, rec.channel, rec.payload["data"])
                if "message" in rec.payload:
                    copy.payload["message"] = rec.payload["message"]
                    copy.source_message = rec.source_message
                sent.append(copy)
                waits.append(asyncio.create_task(fake._send_interaction(copy)))
            await asyncio.gather(*waits)
            await fake.settle(quiet=1.0, timeout=30)
            proc.stdin.write(b"stop\n")
            await proc.stdin.drain()
            out: dict[str, Any] = json.loads(await asyncio.wait_for(proc.stdout.readline(), 60))
            await asyncio.wait_for(proc.wait(), 30)
        finally:
            if proc.returncode is None:
                proc.kill()
        out["interactions"] = len(sent)
        out["late"] = sum(1 for r in sent if r.responded_at is None or r.responded_at - r.created > DEADLINE)
        return out

    async def run(self) -> dict[str, Any]:
        args = self.args
        fake = self.fake
        self.stamp_writes()
        reference = reference_loop()
        await fake.start()
        fake.token = "x"
        guild = fake.add_guild("Bench server")
        humans = [
            Human(
                guild.add_text_channel(f"spades-{i + 1}"),
                fake.add_user(f"player{i + 1}"),
                random.Random(args.seed * 100_003 + i),
            )
            for i in range(args.tables)
        ]
        tmp = tempfile.TemporaryDirectory(prefix="spades-realpace-")
        db = str(Path(tmp.name) / "spades.db")
        proc = await spawn(fake, db, args.seed)
        assert proc.stdout is not None and proc.stdin is not None
        try:
            await started(proc)
            ramp0 = time.monotonic()
            gate = asyncio.Semaphore(20)

            async def open_one(h: Human) -> None:
                async with gate:
                    await self.open(h)

            await asyncio.gather(*(open_one(h) for h in humans))
            ramp = time.monotonic() - ramp0
            players = [asyncio.create_task(self.play(h)) for h in humans]
            fake_lags: list[float] = []

            async def fake_lag() -> None:  # this process's lag: the fake's timestamps are taken here
                while True:
                    t = time.perf_counter()
                    await asyncio.sleep(0.1)
                    fake_lags.append(max(0.0, time.perf_counter() - t - 0.1))

            lagger = asyncio.create_task(fake_lag())
            await asyncio.sleep(min(10.0, args.seconds / 6))  # let the tables get into their stride
            proc.stdin.write(b"measure\n")
            await proc.stdin.drain()
            t0, w0 = time.monotonic(), fake.clock.now()
            self.stop_at = t0 + args.seconds
            await asyncio.gather(*players)
            lagger.cancel()
            proc.stdin.write(b"window\n")
            await proc.stdin.drain()
            elapsed = time.monotonic() - t0
            w1 = fake.clock.now()
            # the humans have stopped: the bots play up to them (at most three 1.5 s pauses), then
            # the bot's idle cost with every table waiting for its human
            await asyncio.sleep(6.0)
            proc.stdin.write(b"idle\n")
            await proc.stdin.drain()
            await asyncio.sleep(IDLE_SECONDS)
            proc.stdin.write(b"stop\n")
            await proc.stdin.drain()
            child_out = json.loads(await asyncio.wait_for(proc.stdout.readline(), 60))
            await asyncio.wait_for(proc.wait(), 30)
            window = sorted(
                (r for r in fake.interactions.values() if w0 <= r.created <= w1), key=lambda r: r.created
            )
            bare = None if args.no_bare else await self.replay(window, w0)
        finally:
            if proc.returncode is None:
                try:
                    await asyncio.wait_for(proc.wait(), 15)
                except TimeoutError:
                    proc.kill()
            await fake.close()
            tmp.cleanup()
        records = window
        cpu = cpu_figures(args.tables, len(records), child_out, bare, reference)
        answered_at: dict[str, float] = child_out.pop("answered_at")
        sent_at: dict[str, float] = child_out.pop("sent_at")

        def stats(values: list[float]) -> dict[str, Any]:
            return {
                "count": len(values),
                "p50_ms": ms(percentile(values, 50)),
                "p99_ms": ms(percentile(values, 99)),
                "max_ms": ms(max(values, default=0.0)),
            }

        # wire to wire: the event written to the bot's gateway socket -> the bot's callback written to
        # its socket (both wall clock, one machine); the fallback (no trace stamp) is the bot issuing it
        wire: dict[str, list[float]] = {}
        for r in records:
            key = str(r.id)
            left = sent_at.get(key, answered_at.get(key))
            if left is not None and key in self.written:
                wire.setdefault(kind_of(r.payload), []).append(left - self.written[key])
        lat = [x for v in wire.values() for x in v]
        driver = [r.responded_at - r.created for r in records if r.responded_at is not None]
        at_fake = [
            r.responded_at - self.written_fake[str(r.id)]
            for r in records
            if r.responded_at is not None and str(r.id) in self.written_fake
        ]
        bot_lat = [
            answered_at[str(r.id)] - self.written[str(r.id)]
            for r in records
            if str(r.id) in answered_at and str(r.id) in self.written
        ]
        ramp_late = sum(
            1
            for r in fake.interactions.values()
            if r.created < w0 and (r.responded_at is None or r.responded_at - r.created > DEADLINE)
        )
        late = sum(1 for r in records if r.responded_at is None or r.responded_at - r.created > DEADLINE)
        in_window = [q for q in fake.requests if w0 <= q.at <= w1]
        bot_token = [q for q in in_window if q.bot_token]
        hits = [q for q in fake.rate_limit_hits]
        return {
            "mode": "real-pace",
            "tables": args.tables,
            "seconds": round(elapsed, 1),
            "ramp_seconds": round(ramp, 1),
            "human_actions": sum(h.actions for h in humans),
            "panel_reopens": sum(h.reopen for h in humans),
            "action_errors": sum(h.errors for h in humans),
            # interaction -> first response at the sockets (what Discord would measure, no driver in it);
            # over_3s: as the fake enforces Discord's deadline (from the click, driver lag included)
            "latency": {
                **stats(lat),
                "over_3s": late,
                "by_kind": {k: stats(v) for k, v in sorted(wire.items())},
                "answers_stamped_on_the_wire": sum(1 for r in records if str(r.id) in sent_at),
                "over_3s_during_ramp": ramp_late,
            },
            # the same interactions as the driver process sees them: the human's click registered ->
            # the fake handled the answer; the driver's own lag (simulating 500 humans and Discord in
            # one process) is in it at both ends
            "latency_driver": stats(driver),
            # the event written to the bot's socket -> the fake handled the answer (the driver's lag
            # in reading the answer is in it, not its lag in sending the event)
            "latency_at_fake": stats(at_fake),
            # the event written -> the bot's handler issued its answer (before aiohttp sends it)
            "bot_latency": stats(bot_lat),
            "rate_limit_hits": len(hits),
            # the fake counts the global limit by when it reads a request: a stalled fake reads a
            # backlog at once, which it then counts as sent in the same second
            "fake_loop_lag": {
                "p50_ms": ms(percentile(fake_lags, 50)),
                "p99_ms": ms(percentile(fake_lags, 99)),
            },
            "rate_limit_hits_global": sum(1 for q in hits if (q.response or {}).get("global")),
            "invalid_requests": len(fake.invalid_requests),
            "bot_token_per_s": round(len(bot_token) / elapsed, 1),
            "interaction_route_per_s": round((len(in_window) - len(bot_token)) / elapsed, 1),
            **child_out,
            "cpu": cpu,
            "violations": [str(v) for v in fake.violations][:5],
            "cpus": os.cpu_count(),
            "load_average": [round(x, 2) for x in os.getloadavg()],
        }


def cpu_figures(
    tables: int, actions: int, bot: dict[str, Any], bare: dict[str, Any] | None, reference: dict[str, Any]
) -> dict[str, Any]:
    """The bot's CPU per human action and per table-minute in the window, the bare discord.py bot's
    for the same interactions, their ratio, and the same figures in reference loops (the machine's
    speed measured in the run), which carry from one machine to another."""
    per_action = bot["cpu_seconds"] / actions if actions else None
    minutes = bot["window_seconds"] / 60
    idle = bot.get("idle")
    idle_minutes = idle["seconds"] / 60 if idle else 0.0
    out: dict[str, Any] = {
        "reference_loops_per_second": reference["per_second"],
        "bot": {
            "cpu_seconds": bot["cpu_seconds"],
            "actions": actions,
            "per_action_ms": ms(per_action),
            "per_action_reference_loops": (
                round(per_action * reference["per_second"], 1) if per_action else None
            ),
            "per_table_minute_ms": ms(bot["cpu_seconds"] / tables / minutes) if minutes else None,
            # per saved change (the human's moves and the bots'): steadier than per human action
            # when a starved driver lets the bots make more of the moves
            "saves": bot["save_wait"]["count"],
            "per_save_ms": ms(bot["cpu_seconds"] / bot["save_wait"]["count"])
            if bot["save_wait"]["count"]
            else None,
            # with nothing happening: every table waiting for its human
            "idle_per_table_minute_ms": (
                ms(idle["cpu_seconds"] / tables / idle_minutes) if idle and idle_minutes else None
            ),
            # the strong bots' searches, in their own (idle-class) processes: not in the figures above
            "workers_cpu_seconds": bot.get("workers_cpu_seconds"),
        },
        "bare": None,
        "ratio_vs_bare": None,
    }
    if bare is not None and bare["answered"]:
        bare_per_action = bare["cpu_seconds"] / bare["answered"]
        out["bare"] = {
            **bare,
            "per_action_ms": ms(bare_per_action),
            "per_action_reference_loops": round(bare_per_action * reference["per_second"], 1),
        }
        if per_action:
            out["ratio_vs_bare"] = round(per_action / bare_per_action, 2)
    return out


async def spawn(
    fake: FakeDiscord, db: str, seed: int, rate: float = 50.0, *, bare: bool = False
) -> asyncio.subprocess.Process:
    """The bot in its own process (``bench/bot.py --child``), pointed at ``fake``; ``bare``: the
    bare discord.py bot instead (``--bare-child``)."""
    return await asyncio.create_subprocess_exec(
        sys.executable,
        str(ROOT / "bench" / "bot.py"),
        "--bare-child" if bare else "--child",
        "--base",
        fake.base_url,
        "--gateway",
        fake.gateway_url,
        "--db",
        db,
        "--seed",
        str(seed),
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
        limit=2**26,
        env={**os.environ, "BENCH_CHILD_RATE": str(rate)},
    )


async def started(proc: asyncio.subprocess.Process) -> dict[str, Any]:
    """Until the child's bot is ready; what it says about its start."""
    assert proc.stdout is not None
    first = await asyncio.wait_for(proc.stdout.readline(), 120)
    line = await asyncio.wait_for(proc.stdout.readline(), 60)
    if line.strip() != b"ready":
        raise RuntimeError(f"the bot did not start: {first!r} {line!r}")
    info: dict[str, Any] = json.loads(first)
    return info


async def stop(proc: asyncio.subprocess.Process) -> dict[str, Any]:
    """Measure nothing, stop the child, wait for it."""
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.write(b"measure\nstop\n")
    await proc.stdin.drain()
    out: dict[str, Any] = json.loads(await asyncio.wait_for(proc.stdout.readline(), 60))
    await asyncio.wait_for(proc.wait(), 30)
    return out


async def restore(args: argparse.Namespace) -> dict[str, Any]:
    """``--restore N``: N live tables in the database (opened through Discord by a first bot process
    with no rate limit, each waiting for its human to bid), then a second bot process starts on
    that database: how long until it is ready (every table back, timers armed) and until the
    buttons of the live messages answer (**My hand** on tables picked at random, clicked the
    moment the bot says it is ready)."""
    n = args.restore
    fake = FakeDiscord(validate=False)  # building the tables is not what is measured: no limits
    await fake.start()
    fake.token = "x"
    driver = Driver(args)
    driver.fake = fake
    guild = fake.add_guild("Restore server")
    humans = [
        Human(guild.add_text_channel(f"spades-{i + 1}"), fake.add_user(f"player{i + 1}"), random.Random(i))
        for i in range(n)
    ]
    tmp = tempfile.TemporaryDirectory(prefix="spades-restore-")
    db = str(Path(tmp.name) / "spades.db")
    try:
        proc = await spawn(fake, db, args.seed, rate=100_000)
        await started(proc)
        t0 = time.monotonic()
        gate = asyncio.Semaphore(25)

        async def open_one(h: Human) -> None:
            async with gate:
                r = await fake.slash(
                    h.user, h.channel, "spades new", target=500, play_seconds=600, bid_seconds=600
                )
                assert r.error is None, r.error
                await driver.until(lambda: driver.live(h) is not None, "the live message")
                r = await fake.slash(h.user, h.channel, "spades start", fill=True)
                assert r.error is None, r.error

                def started() -> bool:
                    m = driver.live(h)
                    return m is not None and any(b.get("label") == "My hand" for b in m.buttons)

                await driver.until(started, "the started table's live message")

        await asyncio.gather(*(open_one(h) for h in humans))
        await fake.settle(quiet=2.0, timeout=120)
        build = time.monotonic() - t0
        await stop(proc)
        # the restart: limits on as on Discord
        fake.global_limit = 50
        t1 = time.monotonic()
        proc = await spawn(fake, db, args.seed)
        info = await started(proc)
        up = time.monotonic() - t1
        picked = random.Random(args.seed).sample(humans, min(20, n))

        async def click(h: Human) -> tuple[float, bool]:
            live = driver.live(h)
            assert live is not None
            c0 = time.monotonic()
            r = await fake.click(h.user, live, label="My hand")
            # the hand panel, drawn from the restored table: its cards (or the bid, or Show my cards)
            panel = await panel_of(r)
            ok = bool(
                r.error is None
                and panel is not None
                and (
                    panel.selects
                    or any(CARD_ID.match(b.get("custom_id", "")) for b in panel.buttons)
                    or any(b.get("label") == "Show my cards" for b in panel.buttons)
                )
            )
            return time.monotonic() - c0, ok

        clicks = await asyncio.gather(*(click(h) for h in picked))
        answered = time.monotonic() - t1
        await stop(proc)
    finally:
        await fake.close()
        tmp.cleanup()
    return {
        "mode": "restore",
        "tables": n,
        "build_seconds": round(build, 1),
        "process_start_to_ready_s": round(up, 3),
        "bot_start_to_ready_s": info["ready_s"],
        "restored": info["restored"],
        "timers_armed": info["timers_armed"],
        "first_clicks": len(clicks),
        "first_clicks_ok": sum(ok for _, ok in clicks),
        "first_click_latency_max_ms": ms(max(t for t, _ in clicks)),
        "process_start_to_buttons_answered_s": round(answered, 3),
        "cpus": os.cpu_count(),
        "load_average": [round(x, 2) for x in os.getloadavg()],
    }


def main(args: argparse.Namespace) -> int:
    logging.basicConfig(level=logging.WARNING, stream=sys.stderr)
    if args.bare_child:
        asyncio.run(bare_child(args))
        return 0
    if args.child:
        profile = os.environ.get("BENCH_CHILD_PROFILE")  # a cProfile of the bot process
        asyncio.run(child(args, profile))
        return 0
    if args.restore:
        print(json.dumps(asyncio.run(restore(args)), indent=2))
        return 0
    out = asyncio.run(Driver(args).run())
    print(json.dumps(out, indent=2))
    return 1 if out["latency"]["over_3s"] or out["violations"] else 0
