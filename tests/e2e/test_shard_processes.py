"""Two bot processes, one PostgreSQL, the fake Discord: each runs only its own shard's tables.

The processes are the real ``python -m bot`` (tests/e2e/shard_process.py only points discord.py at
the fake), with ``SHARD_COUNT=2`` and ``SHARD_IDS`` 0 and 1. A table plays in a server of each
shard; the process of shard 0 is killed with SIGKILL right after an acknowledged card, mid-trick,
while the other table plays on; it is restarted, sees that the lease holder (the killed process on
this machine) is gone, takes the shard over at once, and resumes its table with nothing
acknowledged lost. The other process never touches it. Then shard 1 gets
a rolling restart: its replacement waits while the old process runs, and takes over as soon as the
old one stops cleanly.
"""

from __future__ import annotations

import asyncio
import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from pathlib import Path

import pytest

import engine
from bot.model import Table
from bot.storage import Lease, Storage
from fakediscord import Channel, FakeDiscord, InteractionResult, Message, User
from tests.e2e.harness import CARD_ID, LIVE_PREFIX, act_from_panel

ROOT = Path(__file__).resolve().parents[2]
TOKEN = "fake-token-for-shards"
LEASE = 60.0  # long: every hand-over in this test must come before a lease runs out


@dataclass
class Process:
    shard: int
    log: Path
    env: dict[str, str]
    proc: subprocess.Popen[bytes] | None = None
    runs: int = 0

    def start(self) -> None:
        self.runs += 1
        out = self.log.open("ab")
        out.write(f"\n===== run {self.runs} =====\n".encode())
        out.flush()
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "tests.e2e.shard_process"],
            cwd=ROOT,
            env=self.env,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
        out.close()

    def text(self) -> str:
        return self.log.read_text(errors="replace")

    def kill(self) -> None:
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(10)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)


@dataclass
class Seat:
    """One server of the test: its channel, its human, the table's id once open."""

    fake: FakeDiscord
    channel: Channel
    user: User
    url: str
    table_id: int | None = None
    acked: list[int] = field(default_factory=list)  # cards the bot acknowledged, this hand
    hand_no: int = 0

    async def stored(self) -> Table:
        """The table as stored, read on a connection of the test's own (the bots run in other
        processes: what they persisted is what this test checks)."""
        db = await Storage.open(self.url)
        try:
            row = await (
                db.tables.get(self.table_id) if self.table_id else db.tables.live_in(self.channel.id)
            )
        finally:
            await db.close()
        assert row is not None, "no table stored"
        self.table_id = row.id
        return Table.from_row(row)

    def live(self) -> Message | None:
        msgs = [
            m
            for m in self.fake.public_messages(self.channel)
            if m.content.startswith(LIVE_PREFIX) and f"table {self.table_id} " in m.content
        ]
        return msgs[-1] if msgs else None

    async def panel(self) -> Message:
        await wait_for(lambda: (m := self.live()) is not None and any(
            b.get("label") == "My hand" for b in m.buttons), what="the live message")  # fmt: skip
        live = self.live()
        assert live is not None
        r = await self.fake.click(self.user, live, label="My hand")
        assert r.error is None and r.message is not None, r.error
        if r.type == 6:  # a deferred update of the live message; the panel is the follow-up
            await wait_for(lambda: bool(r.followups), what="the panel")
            return r.followups[-1]
        return r.message

    async def my_turn(self) -> Table | None:
        """The table as stored when it is this human's turn in it; else None."""
        t = await self.stored()
        seat = t.seat_of(self.user.id)
        if t.status == "playing" and seat in t.seats_to_act():
            return t
        return None

    async def act(self) -> tuple[InteractionResult, str, int | None]:
        """The human's turn (as stored): they take the first action their panel offers (see
        ``act_from_panel``); (result, "look" | "bid" | "pass" | "keep" | "card", the card played)."""
        t = await self.my_turn()
        assert t is not None and t.game is not None
        if t.game.hand_no != self.hand_no:
            self.hand_no, self.acked = t.game.hand_no, []
        # The process stores an action before it moves its table on in memory (and a process that
        # just took a shard over catches up), so for a moment the stored turn can be ahead of the
        # panel; like a player, open the panel again rather than take that moment for the turn.
        end = time.monotonic() + 10
        while (acted := await act_from_panel(self.fake, self.user, await self.panel())) is None:
            assert time.monotonic() < end, "the human's turn (as stored), and the panel offers nothing"
            await asyncio.sleep(0.2)
        r, kind, card = acted
        assert r.error is None, r.error
        return r, kind, card


async def leases(url: str) -> list[Lease]:
    db = await Storage.open(url)
    try:
        return await db.shards.leases()
    finally:
        await db.close()


def panel_cards(panel: Message) -> set[int]:
    return {int(m.group(1)) for b in panel.buttons if (m := CARD_ID.match(b.get("custom_id", "")))}


async def wait_for(pred: Callable[[], bool], timeout: float = 30.0, what: str = "condition") -> None:
    end = time.monotonic() + timeout
    while not pred():
        if time.monotonic() > end:
            raise AssertionError(f"timed out waiting for {what}")
        await asyncio.sleep(0.05)


async def wait_stored_turn(seat: Seat, timeout: float = 30.0) -> Table:
    end = time.monotonic() + timeout
    while True:
        t = await seat.my_turn()
        if t is not None:
            return t
        assert time.monotonic() < end, "the human's turn never came"
        await asyncio.sleep(0.1)


@pytest.fixture
async def processes(
    tmp_path: Path, fake_discord: FakeDiscord, postgres_url: str
) -> AsyncIterator[list[Process]]:
    fake_discord.token = TOKEN
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "DATABASE_", "SHARD"))}
    env.update(
        PYTHONPATH=str(ROOT),
        DISCORD_TOKEN=TOKEN,
        DATABASE_URL=postgres_url,
        SHARD_COUNT="2",
        TIME_SCALE="0.2",
        DEAL_SEED="7",
        HEALTH_SECONDS="1",
        LOG_LEVEL="INFO",
        FAKE_DISCORD_API=fake_discord.base_url,
        FAKE_DISCORD_GATEWAY=fake_discord.gateway_url,
    )
    env["SHARD_LEASE_SECONDS"] = str(LEASE)
    procs = [Process(i, tmp_path / f"shard{i}.log", env | {"SHARD_IDS": str(i)}) for i in (0, 1)]
    try:
        yield procs
    finally:
        for p in procs:
            p.stop()


def _ready(fake: FakeDiscord, shard: int) -> bool:
    g = fake.gateway.shards.get(shard)
    return g is not None and g.connected


@pytest.mark.timeout(300)
async def test_two_shard_processes_and_a_sigkill_mid_trick(
    fake_discord: FakeDiscord, processes: list[Process], postgres_url: str
) -> None:
    fake = fake_discord
    g0 = fake.add_guild("Shard zero club", shard=(0, 2))
    g1 = fake.add_guild("Shard one club", shard=(1, 2))
    alice = fake.add_user("alice", guild=g0)
    bob = fake.add_user("bob", guild=g1)
    zero = Seat(fake, g0.add_text_channel("spades"), alice, postgres_url)
    one = Seat(fake, g1.add_text_channel("spades"), bob, postgres_url)
    p0, p1 = processes
    p0.start()
    await wait_for(lambda: _ready(fake, 0) and "restored" in p0.text(), 60, "process 0 to start")
    p1.start()
    await wait_for(lambda: _ready(fake, 1) and "restored" in p1.text(), 60, "process 1 to start")
    await wait_for(lambda: bool(fake.commands.get(None)), 30, "the commands to be synced")

    for seat in (zero, one):
        r = await fake.slash(seat.user, seat.channel, "spades new", play_seconds=600, bid_seconds=600)
        assert r.error is None, r.error
        await seat.stored()
        r = await fake.slash(seat.user, seat.channel, "spades start", fill=True)
        assert r.error is None, r.error
        await wait_for(lambda s=seat: s.live() is not None, what="the live message")

    # both tables play, each answered by its own process
    for seat in (zero, one):
        for _ in range(3):
            await wait_stored_turn(seat)
            await seat.act()

    # shard 0's process dies right after an acknowledged card, with the trick still going on
    while True:
        await wait_stored_turn(zero)
        r, kind, card = await zero.act()
        if kind == "card":
            assert card is not None and r.type is not None  # answered: the play was saved first
            zero.acked.append(card)
            after = await zero.stored()
            assert after.game is not None
            if after.game.view(after.seat_of(alice.id) or 0).current_trick:
                p0.kill()
                break
    dead = {lease.shard_id: lease for lease in await leases(postgres_url)}
    assert set(dead) == {0, 1}
    before = await zero.stored()
    assert before.game is not None
    seat0 = before.seat_of(alice.id)
    assert seat0 is not None
    held = set(engine.cards_of(before.game.hand(seat0)))
    assert not held & set(zero.acked)  # everything acknowledged is in the database

    # meanwhile the other shard plays on, untouched
    for _ in range(3):
        await wait_stored_turn(one)
        await one.act()

    # restarted on the same machine: the holder's pid is gone, so it takes the shard over at once
    p0.start()
    restored = f"restored 1 live table(s) on shard(s) 0: table {zero.table_id}"
    await wait_for(lambda: restored in p0.text(), 60, "the restore")
    now = {lease.shard_id: lease for lease in await leases(postgres_url)}
    # a new owner for shard 0, well before the killed process's lease would have run out
    assert now[0].owner != dead[0].owner and now[0].acquired_at < dead[0].expires_at
    assert f"the process(es) {dead[0].owner} on this machine are gone" in p0.text()
    assert now[1] == dead[1] or (now[1].owner, now[1].acquired_at) == (dead[1].owner, dead[1].acquired_at)
    await wait_for(lambda: _ready(fake, 0), 30, "shard 0 to reconnect")
    # the restored table goes on: the bots finish the trick, alice plays again, and her panel (drawn
    # by the new process) holds none of the cards the dead one acknowledged
    for _ in range(3):
        await wait_stored_turn(zero)
        if (await zero.stored()).game.hand_no == zero.hand_no:  # type: ignore[union-attr]
            panel = await zero.panel()
            assert not panel_cards(panel) & set(zero.acked)
        await zero.act()

    # a rolling restart of shard 1: the replacement waits while the old process holds the shard,
    # and takes it over as soon as the old one stops cleanly (SIGTERM), not a lease later
    p1b = Process(1, p1.log.with_name("shard1b.log"), p1.env)
    processes.append(p1b)
    p1b.start()
    await wait_for(lambda: "waiting for shard(s) 1 held by" in p1b.text(), 60, "the replacement to wait")
    assert "restored" not in p1b.text()
    await wait_stored_turn(one)
    await one.act()  # still the old process's table
    p1.stop()
    stopped = time.monotonic()
    restored_b = f"restored 1 live table(s) on shard(s) 1: table {one.table_id}"
    await wait_for(lambda: restored_b in p1b.text(), 30, "the replacement to take over")
    assert time.monotonic() - stopped < LEASE / 2  # released, not left to run out
    await wait_for(lambda: _ready(fake, 1), 30, "shard 1 to reconnect")
    for _ in range(2):
        await wait_stored_turn(one)
        await one.act()

    # each process ran only its own table
    t0, t1 = zero.table_id, one.table_id
    first_run, _, second_run = p0.text().partition("===== run 2 =====")
    for text in (first_run, second_run):
        assert not re.search(rf"\btable {t1}\b", text) and re.search(rf"\btable {t0}\b", text)
    for proc in (p1, p1b):
        assert not re.search(rf"\btable {t0}\b", proc.text()) and re.search(rf"\btable {t1}\b", proc.text())
    assert "health: shards 1 of 2" in p1.text() and "health: shards 0 of 2" in second_run
    assert "Traceback" not in p1.text() + p1b.text()
