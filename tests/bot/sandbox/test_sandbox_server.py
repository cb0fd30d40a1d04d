"""The sandbox's HTTP endpoints, in process: the real SpadesBot behind the fake Discord and the page's API."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

import aiohttp
import pytest
import pytest_asyncio

from bot.client import SpadesBot
from bot.config import Config
from bot.sandbox import server
from bot.sandbox.server import BOT_ID, GUILD_ID, Sandbox
from bot.sandbox.world import CHANNELS

CHANNEL_2 = str(CHANNELS[1][1])


@pytest_asyncio.fixture
async def sandbox(tmp_path: Path) -> AsyncIterator[Sandbox]:
    config = Config(token="sandbox", database_path=str(tmp_path / "sandbox.db"), time_scale=0.02, deal_seed=5)
    sb = Sandbox(lambda: SpadesBot(config), port=0, database="sandbox.db")
    await sb.start()
    try:
        yield sb
    finally:
        await sb.stop()
    assert sb.fake.violations == [], sb.fake.violations
    assert sb.fake.bot_errors == []


@pytest_asyncio.fixture
async def http(sandbox: Sandbox) -> AsyncIterator[aiohttp.ClientSession]:
    async with aiohttp.ClientSession(base_url=sandbox.url) as session:
        yield session


async def call(http: aiohttp.ClientSession, path: str, body: dict[str, Any], status: int = 200) -> Any:
    async with http.post(path, json=body) as resp:
        data = await resp.json()
        assert resp.status == status, data
        return data


def ids(sandbox: Sandbox) -> tuple[str, str, str]:
    alice, bob = sandbox.world.users[:2]
    return str(alice.id), str(bob.id), str(sandbox.world.channels[0].id)


async def messages(http: aiohttp.ClientSession, user: str, channel: str) -> list[dict[str, Any]]:
    async with http.get("/api/messages", params={"user": user, "channel": channel}) as resp:
        assert resp.status == 200
        result: list[dict[str, Any]] = await resp.json()
        return result


async def test_the_page_and_the_state(sandbox: Sandbox, http: aiohttp.ClientSession) -> None:
    assert sandbox.url.startswith("http://127.0.0.1:") and sandbox.port > 0
    async with http.get("/") as resp:
        page = await resp.text()
        assert resp.status == 200 and resp.content_type == "text/html"
    assert "LOCAL SANDBOX" in page and "EventSource" in page
    async with http.get("/api/state") as resp:
        state = await resp.json()
    assert state["guild"] == "Sandbox server" and state["database"] == "sandbox.db"
    assert state["bot"] == {"id": str(BOT_ID), "name": "Spades"}
    assert [c["name"] for c in state["channels"]] == [name for name, _ in CHANNELS]
    assert [u["name"] for u in state["users"]] == ["Alice", "Bob", "Carol", "Dave"]
    # the commands the real bot synced, with their options
    names = [c["name"] for c in state["commands"]]
    assert {"spades", "bid", "play", "join", "leaderboard"} <= set(names)
    spades = next(c for c in state["commands"] if c["name"] == "spades")
    new = next(o for o in spades["options"] if o["name"] == "new")
    assert {"preset", "target", "rules"} <= {o["name"] for o in new["options"]}
    assert state["status"]["violation_count"] == 0
    assert sandbox.fake.guilds[GUILD_ID].name == "Sandbox server"
    assert sandbox.fake.global_limit == 50  # Discord's global limit, as on Discord


async def test_only_loopback_names_and_json_posts_are_answered(http: aiohttp.ClientSession) -> None:
    async with http.get("/api/state", headers={"Host": "evil.example:80"}) as resp:
        assert resp.status == 403  # a DNS-rebinding page cannot read the sandbox
    async with http.post("/api/slash", data="command=spades+new") as resp:
        assert resp.status == 415  # a cross-site form post cannot act in it


async def test_a_command_a_click_and_ephemeral_messages_per_user(
    sandbox: Sandbox, http: aiohttp.ClientSession
) -> None:
    alice, bob, channel = ids(sandbox)
    body = {"user": alice, "channel": channel, "command": "spades new", "options": {"target": "300"}}
    r = await call(http, "/api/slash", body)
    assert r["type"] == 4 and r["ephemeral"] and r["error"] is None
    await sandbox.fake.settle()
    seen_by_alice = await messages(http, alice, channel)
    seen_by_bob = await messages(http, bob, channel)
    answer = next(m for m in seen_by_alice if m["ephemeral"])
    assert "Table 1 is open" in answer["content"] and "to 300" in answer["content"]
    assert answer["interaction"] == {"user": "Alice", "name": "spades new"}
    assert [m["id"] for m in seen_by_bob] == [m["id"] for m in seen_by_alice if not m["ephemeral"]]
    live = seen_by_bob[-1]
    assert live["author"] == {"id": str(BOT_ID), "name": "Spades", "bot": True}
    join = next(c for row in live["components"] for c in row["components"] if c.get("label") == "Join")
    r = await call(http, "/api/click", {"user": bob, "message": live["id"], "custom_id": join["custom_id"]})
    assert r["ephemeral"] and r["error"] is None
    await sandbox.fake.settle()
    mine = [m for m in await messages(http, bob, channel) if m["ephemeral"]]
    assert len(mine) == 1 and "You took seat" in mine[0]["content"]
    assert mine[0]["interaction"] is None  # a button's answer has no "used /command" line
    assert not any("You took seat" in m["content"] for m in await messages(http, alice, channel))

    async def live_shows_bob() -> bool:  # (the live message's edit follows the bot's short debounce)
        now = next(m for m in await messages(http, alice, channel) if m["id"] == live["id"])
        return bool(now["edited"]) and f"<@{bob}>" in now["content"]

    assert await _until(live_shows_bob)


async def test_autocomplete_comes_from_the_bot(sandbox: Sandbox, http: aiohttp.ClientSession) -> None:
    alice, _, channel = ids(sandbox)
    body = {"user": alice, "channel": channel, "command": "spades new", "option": "preset", "value": "cut"}
    r = await call(http, "/api/autocomplete", body)
    assert [c["value"] for c in r["choices"]] == ["cutthroat"]
    body |= {"option": "rules", "value": "bag_li", "options": {"preset": "standard", "target": "oops"}}
    r = await call(http, "/api/autocomplete", body)  # a half-typed other option does not matter
    assert r["choices"] and all("bag_limit" in c["value"] for c in r["choices"])


async def test_what_discord_would_not_let_a_user_do_is_a_clear_400(
    sandbox: Sandbox, http: aiohttp.ClientSession
) -> None:
    alice, bob, channel = ids(sandbox)
    base = {"user": alice, "channel": channel}
    r = await call(http, "/api/slash", base | {"command": "nosuch"}, 400)
    assert r["error"] == "/nosuch is not a command of this bot"
    r = await call(http, "/api/slash", base | {"command": "spades new", "options": {"target": "lots"}}, 400)
    assert r["error"] == "target: 'lots' is not a whole number"
    r = await call(http, "/api/slash", base | {"command": "spades new", "options": {"target": "5"}}, 400)
    assert "target" in r["error"] and "within" in r["error"]  # the range Discord's client enforces
    r = await call(http, "/api/slash", base | {"command": "bid"}, 400)
    assert "needs option 'bid'" in r["error"]
    r = await call(http, "/api/slash", {"user": "1", "channel": channel, "command": "spades new"}, 400)
    assert r["error"] == "unknown user '1'"
    r = await call(http, "/api/slash", {"user": str(BOT_ID), "channel": channel, "command": "rules"}, 400)
    assert "bot" in r["error"]
    # someone else's ephemeral message cannot be clicked
    await call(http, "/api/slash", base | {"command": "spades new"})
    await sandbox.fake.settle()
    fill_prompt = await call(http, "/api/slash", base | {"command": "spades start"})
    await sandbox.fake.settle()
    eph = next(m for m in await messages(http, alice, channel) if m["ephemeral"] and m["components"])
    assert fill_prompt["ephemeral"]
    button = eph["components"][0]["components"][0]
    body = {"user": bob, "message": eph["id"], "custom_id": button["custom_id"]}
    r = await call(http, "/api/click", body, 400)
    assert "cannot see" in r["error"] or "ephemeral" in r["error"]


async def test_events_stream_each_change_for_that_user(sandbox: Sandbox, http: aiohttp.ClientSession) -> None:
    alice, bob, channel = ids(sandbox)

    async def next_messages(resp: aiohttp.ClientResponse) -> list[dict[str, Any]]:
        event = ""
        while True:
            line = (await asyncio.wait_for(resp.content.readline(), 10)).decode().rstrip("\n")
            if line.startswith("event: "):
                event = line[7:]
            elif line.startswith("data: ") and event == "messages":
                result: list[dict[str, Any]] = json.loads(line[6:])
                return result

    async with (
        http.get("/api/events", params={"user": bob, "channel": channel}) as bob_stream,
        http.get("/api/events", params={"user": alice, "channel": channel}) as alice_stream,
    ):
        assert bob_stream.headers["Content-Type"] == "text/event-stream"
        assert await next_messages(bob_stream) == [] and await next_messages(alice_stream) == []
        await call(http, "/api/slash", {"user": alice, "channel": channel, "command": "spades new"})
        seen = await next_messages(alice_stream)
        while len(seen) < 2:  # the answer and the live message, one push or two
            seen = await next_messages(alice_stream)
        # (in either order: on a busy machine the answer is deferred, so its message may come second)
        assert sorted(m["ephemeral"] for m in seen) == [False, True]
        bob_sees = await next_messages(bob_stream)
        assert len(bob_sees) == 1 and not bob_sees[0]["ephemeral"]
        # an edit is pushed too: Bob joins, the live message changes
        live = bob_sees[0]
        join = live["components"][0]["components"][0]
        assert join["label"] == "Join"
        await call(http, "/api/click", {"user": bob, "message": live["id"], "custom_id": join["custom_id"]})
        edited = None
        while edited is None or f"<@{bob}>" not in edited["content"]:
            edited = next(m for m in await next_messages(alice_stream) if m["id"] == live["id"])
        assert edited["edited"]


async def test_a_request_discord_would_reject_shows_on_the_page(
    sandbox: Sandbox, http: aiohttp.ClientSession
) -> None:
    # what a buggy bot would send: a message over 2,000 characters, with the bot's token
    fake, channel = sandbox.fake, sandbox.world.channels[0]
    async with aiohttp.ClientSession() as raw:
        url = f"{fake.base_url}/channels/{channel.id}/messages"
        headers = {"Authorization": f"Bot {fake.token}"}
        async with raw.post(url, json={"content": "x" * 2001}, headers=headers) as resp:
            assert resp.status == 400
    async with http.get("/api/state") as resp:
        status = (await resp.json())["status"]
    assert status["violation_count"] == 1 and "2000" in status["violations"][0]
    assert len(fake.take_violations()) == 1


async def test_a_table_carries_on_after_a_restart(tmp_path: Path) -> None:
    """The world has fixed ids, so the table stored in sandbox.db finds its channel and players."""
    config = Config(token="sandbox", database_path=str(tmp_path / "sandbox.db"), time_scale=0.02)
    first = Sandbox(lambda: SpadesBot(config), port=0)
    await first.start()
    try:
        alice, bob, channel = ids(first)
        async with aiohttp.ClientSession(base_url=first.url) as http:
            await call(http, "/api/slash", {"user": alice, "channel": channel, "command": "spades new"})
            await call(http, "/api/slash", {"user": bob, "channel": channel, "command": "join"})
            await first.fake.settle()
    finally:
        await first.stop()
    second = Sandbox(lambda: SpadesBot(config), port=0)
    await second.start()
    try:
        assert ids(second) == (alice, bob, channel)
        async with aiohttp.ClientSession(base_url=second.url) as http:
            r = await call(http, "/api/slash", {"user": bob, "channel": channel, "command": "table"})
            assert r["error"] is None

            async def live_shows_both() -> bool:
                live = [m for m in await messages(http, bob, channel) if not m["ephemeral"]][-1]
                text = live["content"]
                return "table 1" in text and f"<@{alice}>" in text and f"<@{bob}>" in text

            assert await _until(live_shows_both)
        assert second.fake.violations == [] and second.fake.bot_errors == []
    finally:
        await second.stop()


async def _until(check: Callable[[], Awaitable[bool]], timeout: float = 15.0) -> bool:
    """Whether ``check()`` comes true within ``timeout`` seconds (polled)."""
    end = time.monotonic() + timeout
    while not await check():
        if time.monotonic() > end:
            return False
        await asyncio.sleep(0.05)
    return True


async def _eventually(found: Callable[[], list[Any]], timeout: float = 15.0) -> list[Any]:
    """What ``found`` returns once it is not empty (polled; [] after ``timeout`` seconds)."""
    end = time.monotonic() + timeout
    while not (got := found()) and time.monotonic() < end:
        await asyncio.sleep(0.05)
    return got


async def test_a_long_session_forgets_old_requests_and_versions(
    sandbox: Sandbox, http: aiohttp.ClientSession, monkeypatch: pytest.MonkeyPatch
) -> None:
    alice, bob, channel = ids(sandbox)
    await call(http, "/api/slash", {"user": alice, "channel": channel, "command": "spades new"})
    # the table's message is posted once the bot's short debounce is over (a join before that is
    # in its first version): wait for it, so that the join edits it
    assert await _eventually(lambda: [m for m in sandbox.fake.messages.values() if not m.ephemeral])
    await call(http, "/api/slash", {"user": bob, "channel": channel, "command": "join"})
    edited = await _eventually(lambda: [m for m in sandbox.fake.messages.values() if m.history])
    monkeypatch.setattr(server, "KEEP_REQUESTS", 3)
    monkeypatch.setattr(server, "KEEP_VERSIONS", 0)
    newest = sandbox.fake.requests[-3:]
    assert edited and len(sandbox.fake.requests) > 3
    sandbox.trim()
    assert sandbox.fake.requests == newest and all(m.history == [] for m in edited)
    # the page still sees every change after a trim
    await call(http, "/api/slash", {"user": alice, "channel": channel, "command": "leave"})

    async def live_without_alice() -> bool:
        return f"<@{alice}>" not in (await messages(http, bob, channel))[-1]["content"]

    assert await _until(live_without_alice)


def button(message: dict[str, Any], label: str) -> dict[str, Any]:
    return next(
        c
        for row in message["components"]
        for c in row.get("components", [])
        if c.get("type") == 2 and c.get("label") == label
    )


async def start_league_night(sandbox: Sandbox, http: aiohttp.ClientSession) -> str:
    """Alice (Manage Server) creates a league, she and Bob sign up and check in, she starts the
    night: the id of the thread its table is seated in."""
    alice, bob, channel = ids(sandbox)

    async def slash(user: str, command: str, **options: str) -> None:
        r = await call(
            http, "/api/slash", {"user": user, "channel": channel, "command": command, "options": options}
        )
        assert r["error"] is None
        await sandbox.fake.settle()

    league = {"league": "Test"}
    await slash(alice, "league create", name="Test", weekday="thursday", time="8pm", timezone="UTC")
    for user in (alice, bob):
        await slash(user, "league signup", **league)
    await slash(alice, "league admin start", **league)  # opens check-in early
    post = (
        await _eventually(
            lambda: [
                m
                for m in sandbox.fake.public_messages(sandbox.world.channels[0])
                if any(b.get("label") == "Check in" for b in m.buttons)
            ]
        )
    )[-1]
    for user in (alice, bob):
        r = await call(
            http,
            "/api/click",
            {
                "user": user,
                "message": str(post.id),
                "custom_id": post.find_component(label="Check in")["custom_id"],
            },
        )
        assert r["error"] is None
    await slash(alice, "league admin start", **league)

    async def threads() -> list[dict[str, Any]]:
        async with http.get("/api/state") as resp:
            return [c for c in (await resp.json())["channels"] if c["thread"]]

    assert await _until(lambda: _truthy(threads()))
    (thread,) = await threads()
    assert thread["parent"] == channel and "table 1" in thread["name"]
    return str(thread["id"])


async def _truthy(found: Awaitable[list[Any]]) -> bool:
    return bool(await found)


async def test_a_league_table_in_a_thread_is_listed_linked_and_played_there(
    sandbox: Sandbox, http: aiohttp.ClientSession
) -> None:
    alice, bob, channel = ids(sandbox)
    thread = await start_league_night(sandbox, http)
    # the seating post in the channel links the thread; the thread's table is drawn in the thread
    seating = [m for m in await messages(http, alice, channel) if f"<#{thread}>" in m["content"]]
    assert seating and not seating[0]["ephemeral"]

    async def table() -> list[dict[str, Any]]:
        return [m for m in await messages(http, alice, thread) if "My hand" in json.dumps(m["components"])]

    assert await _until(lambda: _truthy(table()))
    live = (await table())[-1]
    r = await call(
        http,
        "/api/click",
        {"user": alice, "message": live["id"], "custom_id": button(live, "My hand")["custom_id"]},
    )
    assert r["error"] is None, r
    await sandbox.fake.settle()
    panel = [m for m in await messages(http, alice, thread) if m["ephemeral"]]
    assert panel and "Table 1" in panel[-1]["content"]
    assert not [m for m in await messages(http, bob, thread) if m["id"] == panel[-1]["id"]]


async def test_each_user_has_a_language_and_the_server_one_a_manager_sets(
    sandbox: Sandbox, http: aiohttp.ClientSession
) -> None:
    alice, bob, channel = ids(sandbox)
    async with http.get("/api/state") as resp:
        state = await resp.json()
    assert {u["locale"] for u in state["users"]} == {"en-US"} and state["guild_locale"] == "en-US"
    assert (
        state["locales"]["pl"] == "Polski" and [u["manager"] for u in state["users"]] == [True] + [False] * 3
    )
    assert (await call(http, "/api/locale", {"user": bob, "locale": "pl"}))["locale"] == "pl"
    await call(http, "/api/locale", {"user": bob, "locale": "xx"}, status=400)
    # Bob's interactions carry his language: the bot answers him in Polish, Alice in English
    await call(http, "/api/slash", {"user": bob, "channel": channel, "command": "spades new"})
    await call(http, "/api/slash", {"user": alice, "channel": channel, "command": "table"})
    await sandbox.fake.settle()
    (bobs,) = [m for m in await messages(http, bob, channel) if m["ephemeral"]]
    assert "Stół 1 jest otwarty" in bobs["content"]
    assert "Stół" not in json.dumps([m for m in await messages(http, alice, channel) if m["ephemeral"]])
    assert {r.payload["locale"] for r in sandbox.fake.interactions.values()} == {"pl", "en-US"}
    # only a member with Manage Server changes the server's language
    await call(http, "/api/guild-locale", {"user": bob, "locale": "cs"}, status=400)
    assert (await call(http, "/api/guild-locale", {"user": alice, "locale": "cs"}))["locale"] == "cs"
    await call(http, "/api/slash", {"user": alice, "channel": channel, "command": "table"})
    assert list(sandbox.fake.interactions.values())[-1].payload["guild_locale"] == "cs"
    assert sandbox.bot is not None and str(sandbox.bot.get_guild(GUILD_ID).preferred_locale) == "cs"


async def test_the_channels_history_threads_and_languages_survive_a_restart(tmp_path: Path) -> None:
    """The fake's public messages, threads, emojis and languages are kept in a file beside the
    database: after a restart the page shows the same history, and the bot edits its own table
    message again (the one it stored) instead of the table's history being gone."""
    config = Config(token="sandbox", database_path=str(tmp_path / "sandbox.db"), time_scale=0.02)
    kept = server.saved.history_path(config.database_path)
    assert kept == tmp_path / "sandbox.discord.json"
    first = Sandbox(lambda: SpadesBot(config), port=0, history_file=kept)
    await first.start()
    try:
        alice, bob, channel = ids(first)
        async with aiohttp.ClientSession(base_url=first.url) as http:
            await call(http, "/api/locale", {"user": bob, "locale": "pl"})
            thread = await start_league_night(first, http)
            await call(http, "/api/slash", {"user": alice, "channel": CHANNEL_2, "command": "spades new"})
            await call(http, "/api/slash", {"user": bob, "channel": CHANNEL_2, "command": "join"})
            await first.fake.settle()
            before = {c: await messages(http, alice, c) for c in (channel, thread, CHANNEL_2)}
        emojis = dict(first.fake.app_emojis)
    finally:
        await first.stop()
    assert kept.is_file() and emojis
    second = Sandbox(lambda: SpadesBot(config), port=0, history_file=kept)
    await second.start()
    try:
        async with aiohttp.ClientSession(base_url=second.url) as http:
            async with http.get("/api/state") as resp:
                state = await resp.json()
            assert [c["id"] for c in state["channels"] if c["thread"]] == [thread]
            assert next(u for u in state["users"] if u["id"] == bob)["locale"] == "pl"
            for where, seen in before.items():
                public = [m for m in seen if not m["ephemeral"]]
                now = [m for m in await messages(http, alice, where) if not m["ephemeral"]]
                assert [m["id"] for m in now[: len(public)]] == [m["id"] for m in public]
                assert [m["interaction"] for m in now[: len(public)]] == [m["interaction"] for m in public]
            # the bot found its card emojis (none uploaded again) and its table message in #spades-2
            assert second.fake.app_emojis.keys() == emojis.keys()
            live_id = next(m["id"] for m in before[CHANNEL_2] if not m["ephemeral"] and m["components"])
            await call(http, "/api/slash", {"user": alice, "channel": CHANNEL_2, "command": "leave"})

            async def edited_in_place() -> bool:
                live = next(m for m in await messages(http, bob, CHANNEL_2) if m["id"] == live_id)
                return f"<@{alice}>" not in live["content"]

            assert await _until(edited_in_place)
        assert second.fake.violations == [] and second.fake.bot_errors == []
    finally:
        await second.stop()
