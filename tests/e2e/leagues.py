"""League-night helpers of the e2e tests: a league created through the commands, the fake clock
moved to a night's moments, the posts read."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import UTC, datetime
from typing import Any

from bot.client import EXTENSIONS, SpadesBot
from bot.config import Config
from fakediscord import Message, User
from tests.e2e.conftest import Spades, said

LEAGUE = "Spades Thursday"


WITH_LEAGUE = EXTENSIONS if "cogs.league" in EXTENSIONS else (*EXTENSIONS, "cogs.league")


@asynccontextmanager
async def running(spades: Spades, *, time_scale: float = 0.02, **settings: Any) -> AsyncIterator[SpadesBot]:
    """A bot process on the world's database whose league clock is the fake Discord's clock
    (``settings``: more of its Config)."""
    config = Config(
        token="x", database_path=str(spades.db_path), time_scale=time_scale, deal_seed=7, **settings
    )
    bot = SpadesBot(config, extensions=WITH_LEAGUE)
    # the league cog's documented clock seam (cogs.league.league_clock): set, never read back
    bot.league_clock = lambda: datetime.fromtimestamp(spades.fake.clock.now(), UTC)  # type: ignore[attr-defined]
    spades.bot = bot
    try:
        async with spades.fake.run_bot(bot, sync_commands=False):
            yield bot
    finally:
        spades.bot = None


def now(spades: Spades) -> datetime:
    return datetime.fromtimestamp(spades.fake.clock.now(), UTC)


def advance_to(spades: Spades, when: datetime) -> None:
    delta = (when - now(spades)).total_seconds()
    assert delta >= 0, "the fake clock only moves forward"
    spades.fake.advance_clock(delta)


async def create(spades: Spades, user: User | None = None, **options: Any) -> str:
    args: dict[str, Any] = {
        "name": LEAGUE,
        "weekday": "thursday",
        "time": "8pm",
        "timezone": "America/New_York",
        "weeks": 8,
    }
    args.update(options)
    r = await spades.fake.slash(user or spades.users["admin"], spades.channel, "league create", options=args)
    assert r.ephemeral, "league answers are ephemeral"
    return await said(r)


async def ask(spades: Spades, user: User, command: str, **options: Any) -> str:
    r = await spades.fake.slash(user, spades.channel, command, options=options)
    assert r.ephemeral
    return await said(r)


async def first_start(spades: Spades) -> datetime:
    """When night 1 starts, as ``/league schedule`` shows it."""
    schedule = await ask(spades, spades.users["bob"], "league schedule", league=LEAGUE)
    return datetime.fromtimestamp(int(schedule.split("Night 1: <t:")[1].split(":")[0]), UTC)


def checkin_posts(spades: Spades) -> list[Message]:
    return [
        m
        for m in spades.fake.public_messages(spades.channel)
        if any(b.get("custom_id", "").startswith("lg:ci:") for b in m.buttons)
        or "Check-in closed" in m.content
    ]


def posts_with(spades: Spades, needle: str) -> list[Message]:
    return [m for m in spades.fake.public_messages(spades.channel) if needle in m.content]
