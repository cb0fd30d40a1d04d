"""The core path: gateway, READY, guilds, command sync, slash commands, components, what users see."""

from __future__ import annotations

import asyncio
import time

import discord
import pytest

from fakediscord import FakeDiscord, FakeDiscordUsageError
from fakediscord.clock import snowflake_time

from .conftest import World
from .demo_bot import DemoBot


async def test_fake_starts_fast_on_loopback() -> None:
    started = time.monotonic()
    async with FakeDiscord() as fake:
        assert time.monotonic() - started < 0.5
        assert fake.base_url.startswith("http://127.0.0.1:")
        assert fake.port > 0


async def test_bot_connects_and_sees_guild_channel_and_members(world: World) -> None:
    bot, fake = world.bot, world.fake
    assert bot.is_ready()
    assert bot.user is not None and bot.user.id == fake.bot_user.id
    guild = bot.get_guild(world.guild.id)
    assert guild is not None and guild.name == "Test server"
    channel = guild.get_channel(world.channel.id)
    assert isinstance(channel, discord.TextChannel) and channel.name == "spades"
    assert guild.me is not None and guild.me.guild_permissions.send_messages
    assert fake.gateway.identify_count == 1
    # login, application info, sync: all through the real HTTP client
    routes = [r.route for r in fake.requests]
    assert routes[:3] == ["/users/@me", "/oauth2/applications/@me", "/applications/{application_id}/commands"]


async def test_command_sync_stores_the_tree(world: World) -> None:
    slash = [c for c in world.fake.commands_for(world.guild) if c["type"] == 1]
    assert sorted((c["name"], c["type"]) for c in world.fake.commands_for(world.guild) if c["type"] != 1) == [
        ("Invite to table", 2),
        ("Quote", 3),
    ]
    demo, admin = sorted(slash, key=lambda c: c["name"])
    assert demo["name"] == "demo" and demo["type"] == 1
    assert admin["name"] == "demo-admin" and admin["default_member_permissions"] == str(1 << 5)
    subs = {o["name"]: o for o in demo["options"]}
    assert {"greet", "table", "hand", "color", "slow"} <= set(subs)
    greet = {o["name"]: o for o in subs["greet"]["options"]}
    assert greet["times"]["min_value"] == 1 and greet["times"]["max_value"] == 5
    assert greet["name"]["required"] is True


async def test_slash_command_with_options_gets_ephemeral_reply(world: World) -> None:
    fake = world.fake
    r = await fake.slash(
        world.alice, world.channel, "demo greet", name="bob", times=2, loud=True, who=world.bob
    )
    assert r.type == 4
    assert r.ephemeral
    assert r.content == "HELLO BOB HELLO BOB AND BOBBY"
    assert r.error is None
    assert fake.ephemeral_messages(world.alice) == [r.message]
    assert fake.ephemeral_messages(world.bob) == []
    assert fake.public_messages(world.channel) == []
    interaction = world.bot.seen[-1]
    assert isinstance(interaction.user, discord.Member)
    assert interaction.user.id == world.alice.id
    assert interaction.guild is not None and interaction.guild.id == world.guild.id
    assert interaction.channel is not None and interaction.channel.id == world.channel.id
    assert interaction.app_permissions.send_messages
    assert interaction.locale == discord.Locale.american_english


async def test_message_ids_are_increasing_snowflakes(world: World) -> None:
    fake = world.fake
    r1 = await fake.slash(world.alice, world.channel, "demo table")
    fake.advance_clock(2)
    r2 = await fake.slash(world.alice, world.channel, "demo table")
    assert r1.message is not None and r2.message is not None
    assert r2.message.id > r1.message.id
    assert snowflake_time(r2.message.id) - snowflake_time(r1.message.id) >= 2


async def test_slash_rejects_what_the_client_would_not_send(world: World) -> None:
    fake, alice, ch = world.fake, world.alice, world.channel
    with pytest.raises(FakeDiscordUsageError, match="no synced slash command"):
        await fake.slash(alice, ch, "nope")
    with pytest.raises(FakeDiscordUsageError, match="no subcommand"):
        await fake.slash(alice, ch, "demo nope")
    with pytest.raises(FakeDiscordUsageError, match="needs option 'name'"):
        await fake.slash(alice, ch, "demo greet")
    with pytest.raises(FakeDiscordUsageError, match="has no option 'ephermal'"):
        await fake.slash(alice, ch, "demo greet", name="x", ephermal=True)
    with pytest.raises(FakeDiscordUsageError, match="expects an integer"):
        await fake.slash(alice, ch, "demo greet", name="x", times="2")
    with pytest.raises(FakeDiscordUsageError, match=r"within 1\.\.5"):
        await fake.slash(alice, ch, "demo greet", name="x", times=6)
    assert fake.interactions == {}


async def test_public_message_with_persistent_button(world: World) -> None:
    fake = world.fake
    r = await fake.slash(world.alice, world.channel, "demo table")
    assert r.type == 4 and not r.ephemeral
    (msg,) = fake.public_messages(world.channel)
    assert msg is r.message and msg.content == "Table open"
    join = msg.find_component(label="Join")
    assert join["custom_id"] == "demo:join" and not join.get("disabled")
    click = await fake.click(world.bob, msg, label="Join")
    assert click.type == 4 and click.ephemeral
    assert click.content == "Bobby joined"
    assert fake.ephemeral_messages(world.bob) == [click.message]
    assert world.bot.join_view.joined == [world.bob.id]


async def test_clicking_a_disabled_or_missing_button_fails(world: World) -> None:
    fake = world.fake
    r = await fake.slash(world.alice, world.channel, "demo table")
    assert r.message is not None
    with pytest.raises(FakeDiscordUsageError, match="disabled"):
        await fake.click(world.alice, r.message, label="Closed")
    with pytest.raises(LookupError, match="no component"):
        await fake.click(world.alice, r.message, label="Leave")


async def test_select_updates_the_message(world: World) -> None:
    fake = world.fake
    r = await fake.slash(world.alice, world.channel, "demo table")
    assert r.message is not None
    s = await fake.select(world.alice, r.message, custom_id="demo:bid", values=["5"])
    assert s.type == 7
    assert s.message is r.message
    assert r.message.content == "Alice bid 5" and r.message.edits == 1
    with pytest.raises(FakeDiscordUsageError, match="not an option"):
        await fake.select(world.alice, r.message, custom_id="demo:bid", values=["14"])
    with pytest.raises(FakeDiscordUsageError, match=r"takes 1\.\.1 values"):
        await fake.select(world.alice, r.message, custom_id="demo:bid", values=["1", "2"])


async def test_ephemeral_message_buttons_carry_the_viewer(world: World) -> None:
    fake = world.fake
    r = await fake.slash(world.alice, world.channel, "demo hand")
    assert r.ephemeral and r.message is not None
    with pytest.raises(FakeDiscordUsageError, match="cannot see"):
        await fake.click(world.bob, r.message, custom_id="demo:play:AS")
    c = await fake.click(world.alice, r.message, custom_id="demo:play:AS")
    assert c.type == 7 and c.ephemeral and c.message is r.message
    assert r.message.content == "played A♠ (owner=True)"
    assert r.message.components == []
    assert fake.ephemeral_messages(world.alice) == [r.message]


async def test_autocomplete_returns_the_bots_choices(world: World) -> None:
    choices = await world.fake.autocomplete(world.alice, world.channel, "demo color", "color", "n")
    assert [c["value"] for c in choices] == ["nil", "nine"]
    choices = await world.fake.autocomplete(world.alice, world.channel, "demo color", "color", "")
    assert len(choices) == 7


async def test_deferred_response_then_followups(world: World) -> None:
    fake = world.fake
    r = await fake.slash(world.alice, world.channel, "demo slow")
    assert r.type == 5 and r.ephemeral
    await fake.settle()
    assert r.message is not None and not r.message.loading
    assert r.content == "done thinking"
    assert [m.content for m in r.followups] == ["second follow-up"]
    assert [m.content for m in fake.ephemeral_messages(world.alice)] == ["done thinking", "second follow-up"]


async def test_answered_waits_for_a_deferred_answer(world: World) -> None:
    fake = world.fake
    r = await fake.slash(world.alice, world.channel, "demo remind")  # defers until released
    assert r.type == 5 and not r.has_answered() and r.answer == ""
    with pytest.raises(AssertionError, match="no answer to interaction"):
        await r.answered(timeout=0.2)
    waiting = asyncio.create_task(r.answered())
    await asyncio.sleep(0.1)
    assert not waiting.done()
    world.bot.release.set()
    assert await waiting == "reminder" and r.has_answered()
    # a deferred update: answered once the bot edits the message it deferred
    t = await fake.slash(world.alice, world.channel, "demo table")
    assert t.message is not None and await t.answered() == t.content  # answered at once (type 4)
    d = await fake.click(world.alice, t.message, label="Refresh")
    assert d.type == 6
    assert await d.answered() == "Table open (0 joined)" and d.has_answered()
    with pytest.raises(AssertionError, match="no answer to interaction"):
        await d.answered(timeout=0.2, followup=True)  # an edit, and no follow-up message


async def test_modal_round_trip(world: World) -> None:
    fake = world.fake
    r = await fake.slash(world.alice, world.channel, "demo rename")
    assert r.type == 9 and r.modal is not None and r.modal["title"] == "Rename table"
    with pytest.raises(FakeDiscordUsageError, match="length"):
        await fake.submit_modal(world.alice, r, {"demo:name": "x" * 21})
    s = await fake.submit_modal(world.alice, r, {"demo:name": "Friday"})
    assert s.type == 4 and s.content == "renamed to Friday" and s.ephemeral


async def test_channel_messages_create_and_edit(world: World) -> None:
    fake = world.fake
    await fake.slash(world.alice, world.channel, "demo post")
    await fake.settle()
    (msg,) = fake.public_messages(world.channel)
    assert msg.content == "second" and msg.history[0]["content"] == "first"
    assert msg.author is fake.bot_user
    assert [r.route for r in fake.requests[-2:]] == [
        "/channels/{channel_id}/messages",
        "/channels/{channel_id}/messages/{message_id}",
    ]


async def test_restart_keeps_state_and_persistent_views_work(fake_discord: FakeDiscord) -> None:
    fake = fake_discord
    guild = fake.add_guild()
    channel = guild.add_text_channel("spades")
    alice = fake.add_user("alice")
    async with fake.run_bot(DemoBot(), sync_commands=True):
        r = await fake.slash(alice, channel, "demo table")
    bot2 = DemoBot()
    async with fake.run_bot(bot2):  # no sync: the commands stay registered, as on Discord
        assert r.message is not None
        c = await fake.click(alice, r.message, label="Join")
        assert c.content == "Alice joined"
        assert bot2.join_view.joined == [alice.id]
    assert fake.gateway.identify_count == 2


async def test_result_keeps_the_initial_answer_apart_from_later_edits(world: World) -> None:
    fake = world.fake
    r = await fake.slash(world.alice, world.channel, "demo edits")
    await fake.settle()
    assert r.response_data["content"] == "v1" and r.answer == "v1"
    assert r.content == "v2"  # the message as users last saw it
    slow = await fake.slash(world.alice, world.channel, "demo slow")
    await fake.settle()
    assert slow.response_data == {"flags": 64} and slow.answer == "second follow-up"


async def test_deferred_update_then_edit_original(world: World) -> None:
    fake = world.fake
    r = await fake.slash(world.alice, world.channel, "demo table")
    assert r.message is not None
    await fake.click(world.bob, r.message, label="Join")
    d = await fake.click(world.alice, r.message, label="Refresh")
    assert d.type == 6 and d.message is r.message and r.message.content == "Table open"
    await fake.settle()
    assert r.message.content == "Table open (1 joined)" and r.message.edits == 1


async def test_guild_commands_sync_and_run(fake_discord: FakeDiscord) -> None:
    fake = fake_discord
    guild = fake.add_guild()
    channel = guild.add_text_channel("spades")
    alice = fake.add_user("alice")
    bot = DemoBot()
    async with fake.run_bot(bot):
        assert fake.commands_for(guild) == []
        bot.tree.copy_global_to(guild=discord.Object(guild.id))
        await bot.tree.sync(guild=discord.Object(guild.id))
        assert fake.commands.get(None) is None and "demo" in fake.commands[guild.id]
        r = await fake.slash(alice, channel, "demo greet", name="g")
        assert r.content == "hello g"
        (interaction,) = bot.seen
        assert interaction.data is not None and interaction.data.get("guild_id") == str(guild.id)
        other = fake.add_guild("Other")
        elsewhere = other.add_text_channel("x")
        other.add_member(alice)
        with pytest.raises(FakeDiscordUsageError, match="no synced slash command"):
            await fake.slash(alice, elsewhere, "demo greet", name="g")
