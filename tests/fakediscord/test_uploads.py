"""The fake checks file uploads and application emojis as Discord does, and keeps what was sent."""

from __future__ import annotations

import base64
import io
import json

import aiohttp
import discord
import pytest
from PIL import Image

from fakediscord.uploads import MAX_EMOJI_BYTES

from .conftest import World


def png(w: int = 8, h: int = 6, color: tuple[int, int, int] = (200, 10, 10)) -> bytes:
    buf = io.BytesIO()
    Image.new("RGB", (w, h), color).save(buf, format="PNG")
    return buf.getvalue()


async def test_files_are_kept_with_their_real_type_and_size(world: World) -> None:
    channel = world.bot.get_partial_messageable(world.channel.id)
    data = png(40, 30)
    sent = await channel.send(
        "look",
        files=[
            discord.File(io.BytesIO(data), filename="table.png"),
            discord.File(io.BytesIO(b"{}"), filename="x.json"),
        ],
    )
    msg = world.fake.messages[sent.id]
    pic, js = msg.attachments
    assert pic["filename"] == "table.png" and pic["content_type"] == "image/png"
    assert (pic["width"], pic["height"], pic["size"]) == (40, 30, len(data))
    assert world.fake.attachment_bytes(pic) == data
    assert js["content_type"] == "application/json" and "width" not in js
    # discord.py sees the attachment as Discord would describe it
    assert sent.attachments[0].width == 40 and sent.attachments[0].content_type == "image/png"
    # an edit that keeps only the first attachment drops the second
    await sent.edit(attachments=[sent.attachments[0]])
    assert [a["filename"] for a in msg.attachments] == ["table.png"]


async def raw_multipart(world: World, fields: list[tuple[str, bytes, str | None]]) -> tuple[int, dict]:
    form = aiohttp.FormData()
    for name, value, filename in fields:
        if filename is None:
            form.add_field(name, value.decode(), content_type="application/json")
        else:
            form.add_field(name, value, filename=filename, content_type="application/octet-stream")
    url = f"{world.fake.base_url}/channels/{world.channel.id}/messages"
    async with aiohttp.ClientSession() as s, s.post(url, data=form, headers={"Authorization": "Bot x"}) as r:
        return r.status, await r.json()


async def test_multipart_mistakes_are_refused(world: World) -> None:
    payload = json.dumps({"content": "hi", "attachments": [{"id": 1, "filename": "a.png"}]}).encode()
    status, body = await raw_multipart(world, [("payload_json", payload, None), ("files[0]", png(), "a.png")])
    assert status == 400 and body["code"] == 50035 and "no files[1] was uploaded" in json.dumps(body)
    status, body = await raw_multipart(
        world, [("payload_json", b'{"content": "x"}', None), ("picture", png(), "a.png")]
    )
    assert status == 400 and "files[n]" in json.dumps(body)
    head = ("payload_json", b'{"content": "x"}', None)
    many = [head] + [(f"files[{i}]", b"x", f"{i}.txt") for i in range(11)]
    status, body = await raw_multipart(world, many)
    assert status == 400 and "10 or fewer" in json.dumps(body)
    big = [head, ("files[0]", b"0" * (10 * 1024 * 1024 + 1), "big.txt")]
    status, body = await raw_multipart(world, big)
    assert status == 413 and body["code"] == 40005
    assert {v.kind for v in world.fake.violations} >= {"invalid_body"}
    world.fake.violations.clear()  # expected: these requests were wrong on purpose


async def test_application_emojis(world: World) -> None:
    bot = world.bot
    assert await bot.fetch_application_emojis() == []
    ace = await bot.create_application_emoji(name="card_AS", image=png(128, 128))
    assert ace.name == "card_AS" and ace.id in world.fake.app_emojis
    assert world.fake.app_emoji_images[ace.id][:8] == b"\x89PNG\r\n\x1a\n"
    assert [e.name for e in await bot.fetch_application_emojis()] == ["card_AS"]
    with pytest.raises(discord.HTTPException) as dup:
        await bot.create_application_emoji(name="card_AS", image=png())
    assert dup.value.code == 50035 and "unique" in str(dup.value)
    with pytest.raises(discord.HTTPException) as bad_name:
        await bot.create_application_emoji(name="card A♠", image=png())
    assert "letters, digits and underscores" in str(bad_name.value)
    with pytest.raises(discord.HTTPException) as not_image:
        await bot.http.create_application_emoji(
            bot.application_id, "card_KS", "data:image/png;base64," + base64.b64encode(b"hello").decode()
        )
    assert "not an image" in str(not_image.value)
    huge = png(2000, 2000)
    huge += b"\0" * max(0, MAX_EMOJI_BYTES + 1 - len(huge))
    with pytest.raises(discord.HTTPException) as too_big:
        await bot.create_application_emoji(name="card_QS", image=huge)
    assert "256 kb" in str(too_big.value)
    world.fake.violations.clear()

    # a button may show the application's emoji; an unknown custom emoji is refused
    channel = bot.get_partial_messageable(world.channel.id)
    view = discord.ui.View()
    view.add_item(
        discord.ui.Button(label="A♠", emoji=discord.PartialEmoji(name="card_AS", id=ace.id), custom_id="x")
    )
    sent = await channel.send("hand", view=view)
    button = world.fake.messages[sent.id].components[0]["components"][0]
    assert str(button["emoji"]["id"]) == str(ace.id) and button["label"] == "A♠"
    wrong = discord.ui.View()
    wrong.add_item(
        discord.ui.Button(label="K♠", emoji=discord.PartialEmoji(name="card_KS", id=123456789), custom_id="y")
    )
    with pytest.raises(discord.HTTPException) as unknown:
        await channel.send("hand", view=wrong)
    assert unknown.value.code == 50035 and "Invalid emoji" in str(unknown.value)
    world.fake.violations.clear()

    await ace.delete()
    assert await bot.fetch_application_emojis() == []


async def test_the_cdn_serves_emojis_and_attachments_and_emoji_ids_come_back_as_strings(world: World) -> None:
    bot = world.bot
    image = png(64, 64)
    ace = await bot.create_application_emoji(name="card_AS", image=image)
    channel = bot.get_partial_messageable(world.channel.id)
    view = discord.ui.View()
    view.add_item(
        discord.ui.Button(label="A♠", emoji=discord.PartialEmoji(name="card_AS", id=ace.id), custom_id="x")
    )
    sent = await channel.send(
        "hand", view=view, file=discord.File(io.BytesIO(b'{"a": 1}'), filename="deal.json")
    )
    msg = world.fake.messages[sent.id]
    # Discord returns snowflakes as strings: a client reading JSON numbers (a browser) keeps every digit
    assert msg.components[0]["components"][0]["emoji"]["id"] == str(ace.id)
    (attachment,) = msg.attachments
    path = attachment["url"].removeprefix("https://cdn.discordapp.com/")
    base = f"http://127.0.0.1:{world.fake.port}"
    async with aiohttp.ClientSession() as s:
        async with s.get(f"{base}/emojis/{ace.id}.png") as r:
            assert r.status == 200 and r.content_type == "image/png" and await r.read() == image
        async with s.get(f"{base}/{path}") as r:
            assert r.status == 200 and r.content_type == "application/json" and await r.read() == b'{"a": 1}'
        async with s.get(f"{base}/emojis/123.png") as r:
            assert r.status == 404
    assert world.fake.cdn_file(f"attachments/{world.channel.id}/999/deal.json") is None
    assert world.fake.violations == []
