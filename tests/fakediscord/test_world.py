"""The fake's world: threads, roles and permission overwrites, user messages, scheduled events."""

from __future__ import annotations

import asyncio
import datetime as dt

import discord
import pytest

from fakediscord import FakeDiscord, FakeDiscordUsageError
from fakediscord.models import Message

from .conftest import World
from .demo_bot import DemoBot


async def test_commands_and_posts_in_a_thread(world: World) -> None:
    fake = world.fake
    thread = world.channel.add_thread("table-1")
    await fake.settle()
    assert isinstance(world.bot.get_channel(thread.id), discord.Thread)
    await fake.slash(world.alice, thread, "demo greet", name="t")
    interaction = world.bot.seen[-1]
    assert isinstance(interaction.channel, discord.Thread)
    assert interaction.channel.parent_id == world.channel.id
    await fake.slash(world.alice, thread, "demo post")
    await fake.settle()
    assert [m.content for m in fake.public_messages(thread)] == ["second"]
    assert fake.public_messages(world.channel) == []


async def test_member_permissions_and_roles_reach_the_bot(world: World) -> None:
    fake = world.fake
    await fake.slash(world.admin, world.channel, "demo greet", name="a")
    admin_interaction = world.bot.seen[-1]
    assert isinstance(admin_interaction.user, discord.Member)
    assert admin_interaction.permissions.manage_guild
    assert [r.name for r in admin_interaction.user.roles] == ["@everyone", "Manager"]
    await fake.slash(world.alice, world.channel, "demo greet", name="b")
    assert not world.bot.seen[-1].permissions.manage_guild


async def test_overwrites_change_app_permissions_and_answers(world: World) -> None:
    fake = world.fake
    send = discord.Permissions(send_messages=True).value
    world.channel.set_permissions(fake.bot_user, deny=send)
    await fake.settle()
    await fake.slash(world.alice, world.channel, "demo greet", name="x")
    assert not world.bot.seen[-1].app_permissions.send_messages
    await fake.slash(world.alice, world.channel, "demo post")
    await fake.settle()
    (post,) = fake.requests_to("POST", "/channels/{channel_id}/messages")
    assert post.status == 403 and post.response["code"] == 50013
    assert fake.violations == []  # a permission error is the bot's to handle, not a protocol bug
    assert fake.bot_errors  # ... and the demo command did not handle it
    fake.bot_errors.clear()


async def test_hidden_channel_and_missing_permission_for_command(world: World) -> None:
    fake = world.fake
    secret = world.guild.add_text_channel("secret")
    secret.set_permissions(world.guild, deny=discord.Permissions(view_channel=True).value)
    with pytest.raises(FakeDiscordUsageError, match="cannot see"):
        await fake.slash(world.alice, secret, "demo greet", name="x")
    r = await fake.slash(world.admin, world.channel, "demo table")
    assert r.message is not None
    with pytest.raises(FakeDiscordUsageError, match="not a member"):
        outsider = fake.add_user("eve", guild=fake.add_guild("Other"))
        await fake.click(outsider, r.message, label="Join")


async def test_user_messages_reach_the_bot_without_content_intent(world: World) -> None:
    fake = world.fake
    received: asyncio.Queue[discord.Message] = asyncio.Queue()

    async def on_message(message: discord.Message) -> None:
        await received.put(message)

    world.bot.add_listener(on_message)
    msg = await fake.say(world.alice, world.channel, "hello there")
    got = await asyncio.wait_for(received.get(), 2)
    assert got.id == msg.id and got.author.id == world.alice.id
    assert got.content == ""  # message_content is a privileged intent the demo bot does not ask for
    await fake.say(world.alice, world.channel, f"hi {fake.bot_user.mention}")
    got = await asyncio.wait_for(received.get(), 2)
    assert got.content.startswith("hi <@")  # mentions always carry content
    assert [m.author.username for m in fake.public_messages(world.channel)] == ["alice", "alice"]


async def test_scheduled_events_round_trip(fake_discord: FakeDiscord) -> None:
    fake = fake_discord
    guild = fake.add_guild()
    intents = discord.Intents.default()
    async with fake.run_bot(DemoBot(intents=intents)) as bot:
        g = bot.get_guild(guild.id)
        assert g is not None
        start = dt.datetime.fromtimestamp(fake.clock.now(), dt.UTC) + dt.timedelta(days=1)
        event = await g.create_scheduled_event(
            name="League night",
            start_time=start,
            end_time=start + dt.timedelta(hours=3),
            entity_type=discord.EntityType.external,
            location="#spades",
            privacy_level=discord.PrivacyLevel.guild_only,
            description="Weekly league",
        )
        assert event.name == "League night" and event.location == "#spades"
        (stored,) = guild.scheduled_events.values()
        assert stored.name == "League night"
        fetched = await g.fetch_scheduled_event(event.id)
        assert fetched.start_time == start
        edited = await event.edit(name="League night 2")
        assert edited.name == "League night 2" and stored.name == "League night 2"
        assert [e.name for e in await g.fetch_scheduled_events()] == ["League night 2"]
        await event.delete()
        assert guild.scheduled_events == {}
        with pytest.raises(discord.HTTPException) as err:
            await g.create_scheduled_event(
                name="Past",
                start_time=start - dt.timedelta(days=2),
                end_time=start,
                entity_type=discord.EntityType.external,
                location="x",
                privacy_level=discord.PrivacyLevel.guild_only,
            )
        assert err.value.code == 50035 and "past" in str(err.value)
        (violation,) = fake.take_violations()
        assert violation.kind == "invalid_body"


async def test_deleted_messages_disappear_for_users(world: World) -> None:
    fake = world.fake
    r = await fake.slash(world.alice, world.channel, "demo table")
    msg = r.message
    assert isinstance(msg, Message)
    channel = world.bot.get_channel(world.channel.id)
    assert isinstance(channel, discord.TextChannel)
    await channel.get_partial_message(msg.id).delete()
    assert msg.deleted and fake.public_messages(world.channel) == []
    with pytest.raises(FakeDiscordUsageError, match="deleted"):
        await fake.click(world.alice, msg, label="Join")
    with pytest.raises(discord.NotFound):
        await channel.fetch_message(msg.id)


async def test_roles_members_and_channels_change_under_the_bot(fake_discord: FakeDiscord) -> None:
    fake = fake_discord
    guild = fake.add_guild()
    channel = guild.add_text_channel("spades")
    doomed = guild.add_text_channel("old")
    thread = doomed.add_thread("t")
    alice = fake.add_user("alice")
    async with fake.run_bot(
        DemoBot(intents=discord.Intents.default() | discord.Intents(members=True))
    ) as bot:
        g = bot.get_guild(guild.id)
        assert g is not None
        dealer = guild.add_role("Dealer", permissions=discord.Permissions(manage_messages=True).value)
        guild.set_roles(alice, [dealer])
        await fake.settle()
        member = g.get_member(alice.id)
        assert member is not None and [r.name for r in member.roles] == ["@everyone", "Dealer"]
        assert member.guild_permissions.manage_messages
        guild.remove_channel(doomed)
        await fake.settle()
        assert g.get_channel(doomed.id) is None and g.get_thread(thread.id) is None
        with pytest.raises(FakeDiscordUsageError, match="was deleted"):
            await fake.slash(alice, doomed, "demo greet", name="x")
        guild.remove_member(alice)
        await fake.settle()
        assert g.get_member(alice.id) is None
        with pytest.raises(FakeDiscordUsageError, match="not a member"):
            await fake.slash(alice, channel, "demo greet", name="x")


async def test_bot_creates_threads(world: World) -> None:
    fake = world.fake
    channel = world.bot.get_channel(world.channel.id)
    assert isinstance(channel, discord.TextChannel)
    r = await fake.slash(world.alice, world.channel, "demo table")
    assert r.message is not None
    thread = await channel.get_partial_message(r.message.id).create_thread(name="Table 1 chat")
    assert thread.id == r.message.id and thread.parent_id == world.channel.id
    fake_thread = world.guild.channels[thread.id]
    assert fake_thread.is_thread and fake_thread.name == "Table 1 chat"
    with pytest.raises(discord.HTTPException) as err:
        await channel.get_partial_message(r.message.id).create_thread(name="again")
    assert err.value.code == 160004
    public = await channel.create_thread(name="side", type=discord.ChannelType.public_thread)
    await fake.slash(world.alice, world.guild.channels[public.id], "demo post")
    await fake.settle()
    assert [m.content for m in fake.public_messages(world.guild.channels[public.id])] == ["second"]
    secret = await channel.create_thread(name="secret", type=discord.ChannelType.private_thread)
    assert secret.type == discord.ChannelType.private_thread
    world.channel.set_permissions(fake.bot_user, deny=discord.Permissions(create_private_threads=True).value)
    with pytest.raises(discord.Forbidden):
        await channel.create_thread(name="secret 2", type=discord.ChannelType.private_thread)


async def test_reactions_both_ways(fake_discord: FakeDiscord) -> None:
    fake = fake_discord
    guild = fake.add_guild()
    channel = guild.add_text_channel("spades")
    alice = fake.add_user("alice")
    intents = discord.Intents.default()
    async with fake.run_bot(DemoBot(intents=intents), sync_commands=True) as bot:
        added: asyncio.Queue[discord.RawReactionActionEvent] = asyncio.Queue()

        async def on_raw_reaction_add(event: discord.RawReactionActionEvent) -> None:
            await added.put(event)

        bot.add_listener(on_raw_reaction_add)
        r = await fake.slash(alice, channel, "demo table")
        assert r.message is not None
        ch = bot.get_channel(channel.id)
        assert isinstance(ch, discord.TextChannel)
        await ch.get_partial_message(r.message.id).add_reaction("♠")
        assert r.message.reactions == {"♠": [fake.bot_user.id]}
        await fake.react(alice, r.message, "♠")
        event = await asyncio.wait_for(added.get(), 2)
        while event.user_id != alice.id:
            event = await asyncio.wait_for(added.get(), 2)
        assert str(event.emoji) == "♠" and event.message_id == r.message.id
        fetched = await ch.fetch_message(r.message.id)
        assert [(str(x.emoji), x.count, x.me) for x in fetched.reactions] == [("♠", 2, True)]
        await ch.get_partial_message(r.message.id).remove_reaction("♠", discord.Object(fake.bot_user.id))
        await fake.unreact(alice, r.message, "♠")
        assert r.message.reactions == {}


async def test_direct_messages_both_ways(world: World) -> None:
    fake = world.fake
    r = await fake.slash(world.alice, world.channel, "demo dmme")
    await fake.settle()
    assert r.content == "Check your DMs"
    (dm,) = fake.dm_messages(world.alice)
    assert dm.content == "Your turn" and dm.author is fake.bot_user and not dm.ephemeral
    assert fake.public_messages(world.channel) == []
    with pytest.raises(FakeDiscordUsageError, match="cannot see"):
        await fake.click(world.bob, dm, label="Play now")
    c = await fake.click(world.alice, dm, label="Play now")
    assert c.type == 7 and dm.content == "Played from DMs" and dm.components == []
    (interaction,) = world.bot.dm_view.clicks
    assert interaction.guild is None and isinstance(interaction.channel, discord.DMChannel)
    assert interaction.user.id == world.alice.id and not isinstance(interaction.user, discord.Member)

    received: asyncio.Queue[discord.Message] = asyncio.Queue()

    async def on_message(message: discord.Message) -> None:
        await received.put(message)

    world.bot.add_listener(on_message)
    await fake.dm(world.alice, "ok thanks")
    got = await asyncio.wait_for(received.get(), 2)
    assert got.content == "ok thanks" and got.guild is None  # DMs carry content without the intent
    assert [m.content for m in fake.dm_messages(world.alice)] == ["Played from DMs", "ok thanks"]


async def test_closed_dms_answer_50007(world: World) -> None:
    fake = world.fake
    shy = fake.add_user("shy")
    shy.dms_open = False
    r = await fake.slash(shy, world.channel, "demo dmme")
    assert r.content == "I cannot DM you (50007)"
    assert fake.dm_messages(shy) == [] and fake.violations == []


async def test_replies_and_allowed_mentions_from_the_channel_api(world: World) -> None:
    fake = world.fake
    channel = world.bot.get_channel(world.channel.id)
    assert isinstance(channel, discord.TextChannel)
    first = await channel.send("table open")
    only_bob = discord.AllowedMentions(users=[discord.Object(world.bob.id)], roles=False, everyone=False)
    reply = await first.reply(
        f"{world.alice.mention} and {world.bob.mention}: seats left", allowed_mentions=only_bob
    )
    stored = fake.message(reply.id)
    assert stored.type == 19 and stored.message_reference is not None
    assert stored.message_reference["message_id"] == str(first.id)
    assert reply.reference is not None and reply.reference.message_id == first.id
    assert fake.pings(world.bob) == [stored] and fake.pings(world.alice) == []
    assert fake.violations == []


async def test_bot_removed_from_a_guild(world: World) -> None:
    fake = world.fake
    removed: asyncio.Queue[discord.Guild] = asyncio.Queue()

    async def on_guild_remove(guild: discord.Guild) -> None:
        await removed.put(guild)

    world.bot.add_listener(on_guild_remove)
    fake.remove_guild(world.guild)
    gone = await asyncio.wait_for(removed.get(), 2)
    assert gone.id == world.guild.id and world.bot.get_guild(world.guild.id) is None
    channel = world.bot.get_partial_messageable(world.channel.id)
    with pytest.raises(discord.NotFound):
        await channel.send("anyone?")
    with pytest.raises(FakeDiscordUsageError, match="not in a known guild"):
        await fake.slash(world.alice, world.channel, "demo greet", name="x")


async def test_scheduled_event_status_follows_discords_transitions(fake_discord: FakeDiscord) -> None:
    """An external event begins by itself at its start; an active one cannot be cancelled, only
    completed; a completed one is final. "Interested" members are read through the API."""
    fake = fake_discord
    guild = fake.add_guild()
    alice = fake.add_user("alice", guild=guild)
    async with fake.run_bot(DemoBot(intents=discord.Intents.default())) as bot:
        g = bot.get_guild(guild.id)
        assert g is not None
        start = dt.datetime.fromtimestamp(fake.clock.now(), dt.UTC) + dt.timedelta(hours=1)
        event = await g.create_scheduled_event(
            name="League night",
            start_time=start,
            end_time=start + dt.timedelta(hours=2),
            entity_type=discord.EntityType.external,
            location="#spades",
            privacy_level=discord.PrivacyLevel.guild_only,
        )
        (stored,) = guild.scheduled_events.values()
        stored.mark_interested(alice)
        users = [u async for u in (await g.fetch_scheduled_event(event.id)).users()]
        assert [u.id for u in users] == [alice.id]
        fake.advance_clock(minutes=61)
        fetched = await g.fetch_scheduled_event(event.id)
        assert fetched.status == discord.EventStatus.active
        with pytest.raises(discord.HTTPException, match="cannot go from 2 to 4"):
            await fetched.edit(status=discord.EventStatus.cancelled)
        await fetched.end()
        assert stored.status == 3
        with pytest.raises(discord.HTTPException, match="can no longer be updated"):
            await fetched.edit(name="again")
        assert len(fake.take_violations()) == 2
