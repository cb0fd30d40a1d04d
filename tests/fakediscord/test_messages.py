"""Message features end to end: embeds, files, components v2, response edits, and the fake's own
payloads checked against Discord's spec."""

from __future__ import annotations

import datetime as dt
import time

import discord

from fakediscord import validation

from .conftest import World


async def test_embed_and_file(world: World) -> None:
    r = await world.fake.slash(world.alice, world.channel, "demo rich")
    msg = r.message
    assert r.type == 4 and msg is not None
    (embed,) = msg.embeds
    assert embed["title"] == "Scores" and embed["fields"][0] == {"inline": True, "name": "Bags", "value": "3"}
    assert "Us 120 - Them 80" in msg.text and "Hand 4" in msg.text
    (attachment,) = msg.attachments
    assert attachment["filename"] == "hand.txt" and attachment["size"] == len(b"hand record")
    (request,) = world.fake.requests_to("POST", "/interactions/{interaction_id}/{interaction_token}/callback")
    assert request.files == ["hand.txt"]


async def test_components_v2_buttons_inside_containers(world: World) -> None:
    fake = world.fake
    r = await fake.slash(world.alice, world.channel, "demo layout")
    msg = r.message
    assert msg is not None and msg.flags & (1 << 15)
    assert msg.text == "## Table 1\nNorth: empty"
    c = await fake.click(world.bob, msg, label="Sit")
    assert c.content == "Bobby sat North" and c.ephemeral


async def test_original_response_and_followup_edits(world: World) -> None:
    fake = world.fake
    r = await fake.slash(world.alice, world.channel, "demo edits")
    # the command makes six requests one after another: on a loaded machine a gap between two can
    # outlast the fake's quiet period, so wait for its last step (the original deleted) itself
    end = time.monotonic() + 15
    while not (r.message is not None and r.message.deleted) and time.monotonic() < end:
        await fake.settle()
    original = r.message
    assert original is not None and original.deleted
    assert [h["content"] for h in original.history] == ["v1"] and original.content == "v2"
    (follow,) = r.followups
    assert follow.content == "f2" and follow.edits == 1 and not follow.deleted
    assert fake.public_messages(world.channel) == [follow]


async def test_every_response_the_fake_sends_matches_the_spec(world: World) -> None:
    """Self-check: the fake's REST answers are valid Discord responses (so the bot is not tested
    against shapes Discord never sends)."""
    fake, bot = world.fake, world.bot
    thread = world.channel.add_thread("t")
    for command in ("demo rich", "demo layout", "demo edits", "demo slow", "demo post", "demo table"):
        await fake.slash(world.alice, world.channel, command)
        await fake.settle()
    r = await fake.slash(world.alice, world.channel, "demo hand")
    assert r.message is not None
    await fake.click(world.alice, r.message, label="Play A♠")
    await fake.autocomplete(world.alice, world.channel, "demo color", "color", "n")
    await fake.slash(world.alice, thread, "demo post")
    await fake.settle()
    guild = bot.get_guild(world.guild.id)
    assert guild is not None
    start = dt.datetime.fromtimestamp(fake.clock.now(), dt.UTC) + dt.timedelta(days=1)
    await guild.create_scheduled_event(
        name="League",
        start_time=start,
        end_time=start + dt.timedelta(hours=1),
        entity_type=discord.EntityType.external,
        location="#spades",
        privacy_level=discord.PrivacyLevel.guild_only,
    )
    await guild.fetch_scheduled_events()
    await bot.fetch_channel(world.channel.id)
    await bot.fetch_channel(thread.id)
    await guild.fetch_member(world.alice.id)
    await bot.fetch_user(world.alice.id)
    await bot.fetch_guild(guild.id)
    await guild.fetch_roles()
    await guild.fetch_channels()
    await bot.tree.fetch_commands()
    channel = bot.get_channel(world.channel.id)
    assert isinstance(channel, discord.TextChannel)
    history = [m async for m in channel.history(limit=10)]
    assert [m.id for m in history] == [m.id for m in reversed(fake.public_messages(world.channel))][:10]
    first = channel.get_partial_message(history[-1].id)
    await first.create_thread(name="from a message")
    await channel.create_thread(name="standalone", type=discord.ChannelType.public_thread)
    await first.add_reaction("♠")
    reacted = await channel.fetch_message(first.id)
    assert [u.id async for u in reacted.reactions[0].users()] == [fake.bot_user.id]

    checked = 0
    for request in fake.requests:
        if request.route and 200 <= request.status < 300 and request.response is not None:
            errors = validation.validate_response(
                request.method, request.route, request.status, request.response
            )
            assert errors == [], (request, errors)
            checked += 1
    assert checked >= 25


def test_json_copy_is_an_equal_independent_copy_of_any_payload() -> None:
    """The fake copies every stored edit with `json_copy`: JSON data through orjson's round trip,
    anything that would not come back equal through `copy.deepcopy`."""
    from fakediscord.models.messages import json_copy

    components = [
        {
            "type": 1,
            "components": [
                {
                    "type": 2,
                    "label": "A♠",
                    "custom_id": "sp:1:c:0:51",
                    "emoji": {"id": "1", "name": "c"},
                    "disabled": False,
                }
            ],
        }
    ]
    copied = json_copy(components)
    assert copied == components
    copied[0]["components"][0]["label"] = "changed"
    assert components[0]["components"][0]["label"] == "A♠"  # deep: the original is untouched
    odd = {"t": (1, 2), "big": 2**70, "f": 1.5}
    kept = json_copy(odd)
    assert kept == odd and isinstance(kept["t"], tuple) and kept is not odd
    assert json_copy({1: [2]}) == {1: [2]}  # a key that is not text
    nan = json_copy([float("nan")])
    assert nan[0] != nan[0]  # NaN stays NaN (orjson would write null)
