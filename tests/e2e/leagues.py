"""League-night helpers of the e2e tests: a league created through the commands, the clocks (the
bot's and the fake Discord's) moved to a night's moments, the posts read."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import UTC, datetime, timedelta
from typing import Any

from bot.client import EXTENSIONS, SpadesBot
from bot.clock import utcnow
from bot.storage.league_rounds import LeagueTable
from bot.storage.leagues import LeagueStore, NightRow
from fakediscord import Message, User
from tests.e2e.harness import Spades, said

LEAGUE = "Spades Thursday"


WITH_LEAGUE = EXTENSIONS if "cogs.league" in EXTENSIONS else (*EXTENSIONS, "cogs.league")


@asynccontextmanager
async def running(spades: Spades, *, speed: float = 50.0, **settings: Any) -> AsyncIterator[SpadesBot]:
    """A bot process with the league on the world's database (``settings``: more of its Config); its
    clock (``spades.clock``) is the league's too."""
    settings.setdefault("search_workers_at_start", True)  # (the product's default)
    async with spades.running(speed=speed, extensions=WITH_LEAGUE, **settings) as bot:
        yield bot


def now(spades: Spades) -> datetime:
    """The bot's time (its clock runs the league's nights)."""
    assert spades.clock is not None, "no bot has run yet"
    return utcnow(spades.clock)


def advance(spades: Spades, seconds: float = 0.0, *, minutes: float = 0.0) -> None:
    """Move the bot's clock and the fake Discord's forward together."""
    assert spades.clock is not None, "no bot has run yet"
    spades.clock.advance(seconds + 60 * minutes)
    spades.fake.advance_clock(seconds, minutes=minutes)


def advance_to(spades: Spades, when: datetime) -> None:
    delta = (when - now(spades)).total_seconds()
    assert delta >= 0, "the clocks only move forward"
    advance(spades, delta)


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


@asynccontextmanager
async def stored_leagues(spades: Spades) -> AsyncIterator[LeagueStore]:
    """The league rows of the bot's database, read on a connection of the test's own."""
    async with spades.stored() as db:
        yield LeagueStore(db)


async def stored_night(spades: Spades, number: int) -> NightRow:
    """Night ``number`` of the guild's one league's current season, as stored."""
    async with stored_leagues(spades) as store:
        (league,) = await store.rosters.leagues(spades.guild.id)
        nights = [n for n in await store.nights.nights(league.id, league.season) if n.number == number]
    assert len(nights) == 1, f"night {number} is not stored"
    return nights[0]


async def the_one_table(spades: Spades, first: datetime) -> tuple[NightRow, LeagueTable]:
    """Starts the first night (``first``: its start) and waits for its seating; the night and its
    round's one table, as stored (a one-round league night with one table's worth checked in)."""
    advance_to(spades, first + timedelta(seconds=1))
    await spades.wait_for(lambda: bool(posts_with(spades, "round 1 of 1")), what="the seating")
    night = await stored_night(spades, 1)
    async with stored_leagues(spades) as store:
        (table,) = await store.rounds.round_tables(night.id, 1)
    assert table.table_id is not None
    return night, table
