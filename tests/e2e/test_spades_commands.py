"""/spades config, sync, addbot and abandon, and the table commands with no table or before the
start: each answer is ephemeral and specific, and what is stored follows it."""

from __future__ import annotations

from typing import Any

from tests.e2e.conftest import Spades, answer_of
from tests.fakediscord import InteractionResult, User

NO_TABLE = "There is no Spades table in this channel. Open one with `/spades new`."


async def ask(spades: Spades, user: User, command: str, **options: Any) -> tuple[InteractionResult, str]:
    r = await spades.fake.slash(user, spades.channel, command, options=options)
    text = await answer_of(spades, r)
    assert r.ephemeral, f"/{command} answered in public: {text!r}"
    return r, text


async def test_server_defaults_by_spades_config(spades: Spades) -> None:
    admin, alice = spades.users["admin"], spades.users["alice"]
    async with spades.running():
        _, text = await ask(spades, alice, "spades config", preset="standard", play_seconds=30)
        assert text == "Only members with Manage Server can change the server's settings."
        _, text = await ask(spades, admin, "spades config", preset="nonsense")
        assert text.startswith("Unknown preset `nonsense`. Presets: ") and "classic-online" in text
        _, text = await ask(spades, admin, "spades config", rules="bag_limit=banana")
        assert text == "`bag_limit` takes a whole number (or `off`), not `banana`."
        async with spades.stored() as db:
            assert not (await db.guild_settings(spades.guild.id)).get("play_seconds")

        _, text = await ask(
            spades,
            admin,
            "spades config",
            preset="standard",
            play_seconds=30,
            bid_seconds=45,
            rules="bag_limit=5",
            bots="easy",
            language="pl",
        )
        assert text == (
            "Server defaults: preset **standard**, 30 s to play, 45 s to bid, house rules `bag_limit=5`. "
            "Bots at new tables: easy. Public messages: Polski."
        )
        async with spades.stored() as db:
            settings = await db.guild_settings(spades.guild.id)
        assert (settings["play_seconds"], settings["bid_seconds"], settings["bot_level"]) == (30, 45, "easy")
        assert settings["options"] == {"bag_limit": 5} and settings["language"] == "pl"
        # no option: the current defaults, unchanged
        assert (await ask(spades, admin, "spades config"))[1] == text
        # `none` clears the house rules; `auto` follows the server's Discord language again
        _, text = await ask(spades, admin, "spades config", rules="none", language="auto")
        assert text == (
            "Server defaults: preset **standard**, 30 s to play, 45 s to bid. Bots at new tables: easy. "
            "Public messages follow the server's language (now English)."
        )
        async with spades.stored() as db:
            settings = await db.guild_settings(spades.guild.id)
        assert settings["options"] == {} and settings.get("language") is None
        # a new table takes the server's defaults
        table = await spades.open_table(alice)
        assert (table.settings["play_seconds"], table.settings["bid_seconds"]) == (30, 45)
    assert spades.fake.take_violations() == []


async def test_sync_is_for_managers(spades: Spades) -> None:
    async with spades.running():
        _, text = await ask(spades, spades.users["alice"], "spades sync")
        assert text == "Only the bot's owner or members with Manage Server can sync commands."
        _, text = await ask(spades, spades.users["admin"], "spades sync")
        assert text == "Commands synced."
    assert spades.fake.take_violations() == []


async def test_table_commands_without_a_table_and_before_the_start(spades: Spades) -> None:
    admin, alice, bob = (spades.users[n] for n in ("admin", "alice", "bob"))
    async with spades.running():
        for command, options in [
            ("spades addbot", {}),
            ("spades abandon", {}),
            ("hand", {}),
            ("rules", {}),
            ("score", {}),
            ("table", {}),
            ("bid", {"bid": "3"}),
            ("play", {"card": "AS"}),
            ("leave", {}),
        ]:
            assert (await ask(spades, alice, command, **options))[1] == NO_TABLE, command

        await spades.open_table(alice)
        host = f"<@{alice.id}>"
        assert (await ask(spades, bob, "spades addbot"))[1] == f"Only the host ({host}) can add bots."
        assert (await ask(spades, alice, "spades addbot", seat=8))[1] == "Seats are numbered 1 to 4."
        _, text = await ask(spades, alice, "spades addbot", seat=2)
        assert text.startswith("🤖 ") and text.endswith(" sits in seat 2.")
        seat = spades.table().seats[1]
        assert seat is not None and seat.bot
        assert (await ask(spades, alice, "spades addbot", seat=2))[1] == "Seat 2 is taken. Free seats: 3, 4."
        _, text = await ask(spades, bob, "join", seat=2)
        assert text.startswith("Seat 2 is taken by 🤖") and text.endswith("Free seats: 3, 4.")
        _, text = await ask(spades, bob, "join", team=2)
        assert text.startswith("You took seat 4 (team 2, partner: 🤖")
        assert spades.table().seat_of(bob.id) == 3
        assert (await ask(spades, bob, "leave"))[1] == "You left seat 4."
        assert spades.table().seat_of(bob.id) is None

        _, text = await ask(spades, alice, "rules")
        assert text.startswith(f"**Rules at table {spades.table().id}**: standard: to 500")
        assert "team 1 = seats 1 + 3" in text
        tid = spades.table().id
        assert (await ask(spades, alice, "score"))[1] == f"No hand has finished at table {tid} yet."
        before = len(spades.fake.public_messages(spades.channel))
        assert (await ask(spades, alice, "table"))[1] == "Here's the table, at the bottom of the channel."
        await spades.settle()
        assert spades.fake.public_messages(spades.channel)[-1].content.startswith("♠ **Spades**")
        assert len(spades.fake.public_messages(spades.channel)) >= before
        not_started = "The game hasn't started yet: the host presses **Start**."
        assert (await ask(spades, alice, "bid", bid="3"))[1] == not_started
        assert (await ask(spades, alice, "hand"))[1] == not_started

        # abandon: refused to others, asked first, then done
        _, text = await ask(spades, bob, "spades abandon")
        assert text == f"Only the host ({host}) or someone with Manage Server can abandon this table."
        r, text = await ask(spades, alice, "spades abandon")
        assert text == f"Abandon table {tid}? The game so far is not counted."
        assert spades.service.in_channel(spades.channel.id) is not None  # only asked so far
        assert r.message is not None
        c = await spades.fake.click(alice, r.message, label="Yes, abandon the table")
        assert await answer_of(spades, c) == f"Table {tid} is abandoned."
        assert spades.service.in_channel(spades.channel.id) is None
        assert (await ask(spades, admin, "spades abandon"))[1] == NO_TABLE

        # a server manager may abandon someone else's table
        await spades.open_table(bob)
        tid = spades.table().id
        r, text = await ask(spades, admin, "spades abandon")
        assert text == f"Abandon table {tid}? The game so far is not counted."
        assert r.message is not None
        c = await spades.fake.click(admin, r.message, label="Yes, abandon the table")
        assert await answer_of(spades, c) == f"Table {tid} is abandoned."
        assert spades.service.in_channel(spades.channel.id) is None
    assert spades.fake.take_violations() == []
