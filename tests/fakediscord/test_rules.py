"""Discord's rules, end to end: the bot breaks one, gets Discord's error, and the test sees why."""

from __future__ import annotations

import asyncio

import discord
import pytest

from fakediscord import FakeDiscord, Stopwatch

from .conftest import World


async def _bot_error(world: World) -> discord.HTTPException:
    """The one Discord error the demo bot got. ``settle`` sees the fake's side only: a request the
    bot is still preparing (a woken command, a loaded machine) is not in flight yet, so wait for
    the bot to have its answer."""
    watch = Stopwatch()
    while not world.bot.errors:
        assert not watch.past(30), "the bot got no error from Discord"
        await asyncio.sleep(0.01)
    (exc,) = world.bot.errors
    return exc


def _only(fake: FakeDiscord, kind: str) -> str:
    violations = fake.take_violations()
    assert [v.kind for v in violations] == [kind], violations
    return str(violations[0])


async def test_over_long_message_is_rejected_with_50035(world: World) -> None:
    fake = world.fake
    r = await fake.slash(world.alice, world.channel, "demo long")
    assert r.type is None  # the user saw "interaction failed"
    assert r.error is not None and "rejected: 50035" in r.error
    exc = await _bot_error(world)
    await fake.settle()
    assert exc.status == 400 and exc.code == 50035
    assert "Must be 2000 or fewer in length" in str(exc)  # Discord's error tree, as discord.py shows it
    violations = fake.take_violations()
    assert [v.kind for v in violations] == ["invalid_body"]
    invalid = violations[0]
    assert invalid.code == 50035 and any(e.startswith("data.content:") for e in invalid.errors)
    assert fake.public_messages(world.channel) == []


async def test_select_with_26_options_is_rejected(world: World) -> None:
    fake = world.fake
    await fake.slash(world.alice, world.channel, "demo select26")
    exc = await _bot_error(world)
    await fake.settle()
    assert exc.status == 400 and exc.code == 50035
    invalid = next(v for v in fake.take_violations() if v.kind == "invalid_body")
    assert any("options" in e and "(got 26)" in e for e in invalid.errors), invalid.errors


async def test_late_answer_gets_10062(world: World) -> None:
    fake = world.fake
    task = asyncio.create_task(fake.slash(world.alice, world.channel, "demo late"))
    await asyncio.sleep(0.05)  # the bot has the interaction and is waiting
    fake.advance_clock(3.1)
    r = await task
    assert r.type is None and "no initial response within 3 s" in (r.error or "")
    world.bot.release.set()
    exc = await _bot_error(world)
    await fake.settle()
    assert isinstance(exc, discord.NotFound) and exc.code == 10062
    kinds = [v.kind for v in fake.take_violations()]
    assert kinds == ["no_response", "late_response"]


async def test_answer_just_inside_the_deadline_is_fine(world: World) -> None:
    fake = world.fake
    task = asyncio.create_task(fake.slash(world.alice, world.channel, "demo late"))
    await asyncio.sleep(0.05)
    fake.advance_clock(2.5)
    world.bot.release.set()
    r = await task
    assert r.type == 4 and r.content == "too late" and r.error is None


async def test_double_answer_gets_40060(world: World) -> None:
    fake = world.fake
    r = await fake.slash(world.alice, world.channel, "demo double")
    exc = await _bot_error(world)
    await fake.settle()
    assert r.type == 4 and r.content == "once"
    assert exc.status == 400 and exc.code == 40060
    assert "already been acknowledged" in _only(fake, "double_response")
    assert [m.content for m in fake.public_messages(world.channel)] == ["once"]


async def test_too_many_autocomplete_choices(world: World) -> None:
    fake = world.fake
    choices = await fake.autocomplete(world.alice, world.channel, "demo color", "color", "*")
    assert choices == []  # the client shows nothing
    await fake.settle()
    violations = fake.take_violations()
    invalid = next(v for v in violations if v.kind == "invalid_body")
    assert any(e.startswith("data.choices:") and "(got 26)" in e for e in invalid.errors)
    assert fake.bot_errors  # discord.py logged the failed autocomplete
    fake.bot_errors.clear()


async def test_followups_work_for_15_minutes_then_the_token_expires(world: World) -> None:
    fake = world.fake
    r = await fake.slash(world.alice, world.channel, "demo remind")
    assert r.type == 5 and r.ephemeral
    fake.advance_clock(minutes=14)
    world.bot.release.set()
    await fake.settle()
    assert r.content == "reminder" and not world.bot.errors

    world.bot.release.clear()
    r2 = await fake.slash(world.alice, world.channel, "demo remind")
    fake.advance_clock(minutes=15, seconds=1)
    world.bot.release.set()
    exc = await _bot_error(world)
    await fake.settle()
    assert exc.status == 401 and exc.code == 50027
    assert r2.message is not None and r2.message.loading  # still "thinking" for the user
    assert fake.take_thinking() == [r2.record]  # the fixture would report it otherwise
    assert fake.violations == []  # an expired token is something the bot must cope with


async def test_unknown_route_is_a_violation(world: World) -> None:
    fake = world.fake
    route = discord.http.Route("GET", "/guilds/{guild_id}/bans", guild_id=world.guild.id)
    with pytest.raises(discord.NotFound):
        await world.bot.http.request(route)
    text = _only(fake, "unknown_route")
    assert "/guilds/" in text and "/bans" in text


async def test_requests_without_the_bot_token_are_refused(world: World) -> None:
    import aiohttp

    fake = world.fake
    async with aiohttp.ClientSession() as session, session.get(fake.base_url + "/users/@me") as resp:
        assert resp.status == 401
        assert resp.headers["Content-Type"] == "application/json"
        assert (await resp.json())["message"] == "401: Unauthorized"
    _only(fake, "unauthorized")
