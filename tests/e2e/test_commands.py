"""The smaller commands and buttons: rules, score sheet, repost, bots, fill-and-start, abandon."""

from __future__ import annotations

import re

from bot.model import NO_TABLE
from tests.e2e.harness import LIVE_PREFIX, Spades, said


async def test_without_a_table_commands_say_how_to_open_one(spades: Spades) -> None:
    alice = spades.users["alice"]
    async with spades.running():
        for command in ("hand", "rules", "score", "table", "leave"):
            r = await spades.slash(alice, command)
            assert r.ephemeral and await said(r) == spades.mentioned(NO_TABLE), command


async def test_seating_bots_fill_and_start(spades: Spades) -> None:
    alice, bob = spades.users["alice"], spades.users["bob"]
    async with spades.running():
        await spades.open_table(alice, play_seconds=600, bid_seconds=600)
        r = await spades.slash(alice, "spades addbot", seat=3)
        assert (await said(r)).startswith("🤖 ") and (await said(r)).endswith("sits in seat 3.")
        r = await spades.slash(alice, "spades addbot", seat=3)
        assert await said(r) == "Seat 3 is taken. Free seats: 2, 4."
        r = await spades.slash(bob, "join", team=2)
        assert (await said(r)).startswith("You took seat 2 (team 2, partner: ")
        r = await spades.slash(bob, "leave")
        assert await said(r) == "You left seat 2."
        r = await spades.fake.click(alice, spades.live(), label="Start")
        assert await said(r) == (
            "2 seats are empty (2, 4). Wait for players, or fill the empty seats with bots and start."
        )
        offer = r.message
        assert offer is not None and offer.ephemeral
        r = await spades.fake.click(alice, offer, label="Fill empty seats with bots and start")
        await spades.wait_for(lambda: "Hand 1 · " in spades.live().content, what="the start")
        seats = (await spades.stored_table(spades.shown_table())).data["seats"]
        assert [s is not None and s["bot"] for s in seats] == [False, True, True, True]
        await spades.settle()
        live = spades.live()
        assert "Hand 1 · bidding" in live.content
        assert [b["label"] for b in live.buttons] == ["My hand", "Rules", "Score sheet", "Leave"]


async def test_rules_score_repost_and_abandon(spades: Spades) -> None:
    alice, bob, admin = spades.users["alice"], spades.users["bob"], spades.users["admin"]
    async with spades.running():
        await spades.open_table(alice, target=250, play_seconds=600, bid_seconds=600)
        r = await spades.slash(bob, "rules")
        assert r.ephemeral and "The first side to 250 points wins" in await said(r)
        r = await spades.fake.click(bob, spades.live(), label="Rules")
        assert r.ephemeral and "The first side to 250 points wins" in await said(r)
        await spades.slash(alice, "spades start", fill=True)
        await spades.wait_for(lambda: "Hand 1 · " in spades.live().content, what="the start")
        r = await spades.slash(bob, "score")
        assert await said(r) == f"No hand has finished at table {spades.table_id} yet."
        await spades.settle()
        old = spades.live()
        r = await spades.slash(bob, "table")
        assert await said(r) == "Here's the table, at the bottom of the channel."
        await spades.wait_for(lambda: spades.live() is not old and old.deleted, what="the repost")
        assert spades.fake.public_messages(spades.channel)[-1] is spades.live()
        lives = [m for m in spades.fake.public_messages(spades.channel) if m.content.startswith(LIVE_PREFIX)]
        assert len(lives) == 1
        # abandon: the host is asked to confirm; an admin may too; others may not
        r = await spades.slash(bob, "spades abandon")
        assert (await said(r)).startswith("Only the host")
        r = await spades.slash(admin, "spades abandon")
        assert await said(r) == f"Abandon table {spades.table_id}? The game so far is not counted."
        confirm = r.message
        assert confirm is not None
        r = await spades.fake.click(admin, confirm, label="Yes, abandon the table")
        assert (await said(r)) == f"Table {spades.table_id} is abandoned."
        assert await spades.no_table_in()
        await spades.settle()
        assert any(m.content.startswith("🛑 Table") for m in spades.fake.public_messages(spades.channel))
        r = await spades.slash(bob, "spades new")
        assert (await said(r)).startswith("Table ")  # the channel is free again


async def test_server_defaults_from_spades_config(spades: Spades) -> None:
    alice, admin = spades.users["alice"], spades.users["admin"]
    async with spades.running():
        r = await spades.slash(alice, "spades config", preset="classic-online")
        assert await said(r) == "Only members with Manage Server can change the server's settings."
        # the same spellings `/spades new` accepts, stored under the preset's own name
        r = await spades.slash(admin, "spades config", preset="Classic Online", play_seconds=30)
        assert await said(r) == "Server defaults: preset **classic-online**, 30 s to play, 90 s to bid."
        r = await spades.slash(admin, "spades config", preset="no such rules")
        assert (await said(r)).startswith("Unknown preset `no such rules`. Presets: ")
        t = await spades.open_table(alice)
        assert t.ruleset.name == "classic-online" and t.settings["play_seconds"] == 30
        r = await spades.slash(alice, "rules")
        assert "Blind nil" not in await said(r)  # the online rules have none


async def test_forced_command_sync_is_for_admins(spades: Spades) -> None:
    alice, admin = spades.users["alice"], spades.users["admin"]
    async with spades.running():
        r = await spades.slash(alice, "spades sync")
        assert await said(r) == "Only the bot's owner or members with Manage Server can sync commands."
        before = len(spades.fake.requests_to("PUT", "/applications/{application_id}/commands"))
        r = await spades.slash(admin, "spades sync")
        assert (await said(r)) == "Commands synced."
        assert len(spades.fake.requests_to("PUT", "/applications/{application_id}/commands")) == before + 1


async def test_a_table_in_a_thread_and_one_per_channel(spades: Spades) -> None:
    alice, bob = spades.users["alice"], spades.users["bob"]
    thread = spades.channel.add_thread("friday-game")
    async with spades.running():
        await spades.open_table(alice)
        r = await spades.fake.slash(bob, thread, "spades new", target=200)
        assert (await said(r)).startswith("Table ")  # a thread is its own place
        await spades.settle()
        live = [m for m in spades.fake.public_messages(thread) if m.content.startswith(LIVE_PREFIX)]
        assert len(live) == 1 and "to 200" in live[0].content
        r = await spades.fake.click(alice, live[0], label="Join")
        assert (await said(r)).startswith("You took seat 2")
        tables = [re.search(r"table (\d+) ", m.content) for m in (live[0], spades.live())]
        assert tables[0] and tables[1] and tables[0].group(1) != tables[1].group(1)  # two tables
