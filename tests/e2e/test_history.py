"""History, replays, fair deals, pictures, card emojis and "your data", through the fake Discord."""

from __future__ import annotations

import io
import json
import re

import discord
from PIL import Image

from bot.pictures import GOLD, TABLE_SIZE, seat_box, side_color
from bot.storage import FORMER_PLAYER
from engine.fair import SHORT_LEN, commitment
from engine.verify import verify
from fakediscord import Message
from tests.e2e.harness import (
    LIVE_PREFIX,
    PanelTurns,
    SeenGame,
    Spades,
    live_message,
    my_hand,
    open_and_start,
    play,
    said,
    wait_stored,
)

COMMITTED = re.compile(r"🔐 deal `([0-9a-f]{16})`")


def near(px: tuple[int, ...], color: tuple[int, int, int], tol: int = 16) -> bool:
    return all(abs(a - b) <= tol for a, b in zip(px[:3], color, strict=True))


def image(spades: Spades, attachment: dict) -> Image.Image:
    data = spades.fake.attachment_bytes(attachment)
    assert attachment["content_type"] == "image/png" and len(data) < 100_000
    img = Image.open(io.BytesIO(data))
    img.load()
    assert (attachment["width"], attachment["height"]) == img.size
    return img.convert("RGB")


def hand_posts(spades: Spades) -> list[Message]:
    return [m for m in spades.fake.public_messages(spades.channel) if m.content.startswith("📋 **Hand")]


def commitments_shown(spades: Spades) -> dict[int, str]:
    """Every hand's commitment as the table message showed it (any version of it, by hand; a
    table message posted again below later posts, and so deleted, was seen too)."""
    shown: dict[int, str] = {}
    for m in [m for m in spades.channel.messages if not m.ephemeral]:
        for text in [*(h.get("content", "") for h in m.history), m.content]:
            hand = re.search(r"Hand (\d+)", text)
            found = COMMITTED.search(text)
            if hand and found and text.startswith(LIVE_PREFIX):
                shown.setdefault(int(hand.group(1)), found.group(1))
    return shown


def live_text(spades: Spades, game: SeenGame) -> str:
    live = live_message(spades, game.channel, game.table_id)
    return live.content if live is not None else ""


async def test_fair_deals_pictures_history_replay_and_your_data(spades: Spades) -> None:
    fake = spades.fake
    alice, bob = spades.users["alice"], spades.users["bob"]
    async with spades.running(speed=100, card_emojis=True):
        await spades.wait_for(lambda: len(fake.app_emojis) == 54, what="the card emojis")
        seen = await open_and_start(
            spades, spades.channel, [alice], target=100, play_seconds=600, bid_seconds=600
        )
        row = await wait_stored(
            spades, seen.table_id, lambda row: row.status == "playing", "the start, stored"
        )
        # the live message commits to the deal (the key as stored) before anyone bids; the key
        # itself is nowhere
        seed, salt = row.data["game"]["deal_key"]
        first = f"🔐 deal `{commitment(seed, salt)[:SHORT_LEN]}`"
        await spades.wait_for(lambda: first in live_text(spades, seen), what="the commitment shown")
        for m in fake.public_messages(spades.channel):
            for text in [*(h.get("content", "") for h in m.history), m.content]:
                assert seed not in text and salt not in text

        # the hand panel: card faces as application emojis, the text label kept
        panel = await my_hand(spades, seen, alice)
        if any(b.get("label") == "Show my cards" for b in panel.buttons):  # blind nil was possible
            await fake.click(alice, panel, label="Show my cards")
        cards = [b for b in panel.buttons if str(b.get("custom_id", "")).split(":")[2:3] == ["c"]]
        assert cards and all(b.get("label") for b in cards)
        for b in cards:
            emoji = b.get("emoji") or {}
            assert int(emoji["id"]) in fake.app_emojis
            assert fake.app_emojis[int(emoji["id"])]["name"] == "card_" + emoji["name"][5:]

        # forget me is refused while seated; nothing changes
        r = await fake.slash(alice, spades.channel, "spades forgetme")
        assert r.message is not None
        r = await fake.click(alice, r.message, label="Yes, forget me")
        assert "You're seated at table" in await said(r)

        # Alice (from her panel) and three bots play to 100, to the game post
        await play(spades, PanelTurns(spades, seen, alice))
        await wait_stored(spades, seen.table_id, lambda row: row.status == "finished", "the end")
        await fake.settle()
        await spades.check_public()
        commitments = commitments_shown(spades)
        async with spades.stored() as db:
            records = await db.games.hand_records(seen.table_id)  # the hands as stored, in order
            page = await db.history.recent_games(spades.guild.id)
        (game,) = page.games
        assert game.table_id == seen.table_id and game.winner_side is not None
        posts = hand_posts(spades)
        assert len(posts) == len(records) >= 1

        # every hand's key hashes to the commitment shown before that hand; the short hand post
        # leaves the key to Verify deal (below)
        for post, rec in zip(posts, records, strict=True):
            fair = rec["fair"]
            assert fair["seed"] not in post.content and fair["salt"] not in post.content
            shown = commitments[rec["hand_no"]]
            assert commitment(fair["seed"], fair["salt"]).startswith(shown)
            assert [b.get("label") for b in post.buttons] == ["Replay hand", "Verify deal", "Review my hand"]
            (pic,) = post.attachments
            assert pic["filename"] == f"hand-{rec['hand_no']}.png"
        # a picture of the table after hand 1: the seats in their sides' colours
        img = image(spades, posts[0].attachments[0])
        assert img.size == TABLE_SIZE
        for seat in range(4):
            box = seat_box(seat, 4)
            assert near(img.getpixel((box[0] + 4, (box[1] + box[3]) // 2)), side_color(seat % 2))
        # the game post: the final table (the winners framed in gold) and the score chart
        game_post = next(m for m in fake.public_messages(spades.channel) if m.content.startswith("🏆"))
        assert [a["filename"] for a in game_post.attachments] == ["game.png", "scores.png"]
        final = image(spades, game_post.attachments[0])
        for seat in range(4):
            box = seat_box(seat, 4)
            framed = near(final.getpixel((box[0] - 2, (box[1] + box[3]) // 2)), GOLD)
            assert framed == (seat % 2 == game.winner_side)
        chart = image(spades, game_post.attachments[1])
        assert chart.size[0] > chart.size[1]

        # Verify deal under hand 1: the verdict, and the record to check by oneself
        r = await fake.click(bob, posts[0], label="Verify deal")
        text = await said(r)
        assert text.startswith(
            f"✅ **Hand 1 at table {seen.table_id}**: OK: hand 1 was dealt from the committed seed"
        )
        fair = records[0]["fair"]
        assert f"Revealed seed `{fair['seed']}` and salt `{fair['salt']}`." in text
        assert "python -m engine" not in text  # the command line is in docs/HAND_RECORD.md
        answer = r.followups[-1] if r.followups else r.message
        assert answer is not None and answer.ephemeral
        (record_file,) = answer.attachments
        record = json.loads(fake.attachment_bytes(record_file))
        assert verify(record, commitment_seen=commitments[1]).ok
        assert not verify(record, commitment_seen="0" * 16).ok
        assert posts[0].history == []  # the public post itself never changed

        # Replay hand 1 from its post, trick by trick to the scoring
        r = await fake.click(bob, posts[0], label="Replay hand")
        first = await said(r)
        assert first.startswith("🔁 **Replay · game #") and "**As dealt**" in first
        replay = r.followups[-1] if r.followups else r.message
        assert replay is not None and replay.ephemeral
        # hand 1 has no hand before it: the disabled button names none ("Hand 0" did)
        back = next(b for b in replay.buttons if b.get("custom_id", "").endswith(":hp"))
        assert back.get("label") == "Previous hand" and back.get("disabled")
        assert not any(b.get("label") == "Hand 0" for b in replay.buttons)
        ahead = next(b for b in replay.buttons if b.get("custom_id", "").endswith(":hn"))
        assert ahead.get("label") == "Hand 2" and not ahead.get("disabled")
        steps = 0
        while any(b.get("label") == "Next" and not b.get("disabled") for b in replay.buttons):
            c = await fake.click(bob, replay, label="Next")
            assert c.error is None
            steps += 1
            if steps == 1:
                assert "**Trick 1 of 13**" in replay.content and "_Held before this trick:_" in replay.content
        assert steps == 14 and "**Scoring**" in replay.content
        assert records[0]["fair"]["seed"] in replay.content
        c = await fake.click(bob, replay, label="Previous")
        assert "**Trick 13 of 13**" in replay.content
        c = await fake.click(bob, replay, label="Deal")
        assert "**As dealt**" in replay.content

        # /history: this channel's games; a game opens its score sheet and chart
        r = await fake.slash(bob, spades.channel, "history")
        listing = await said(r)
        assert f"`#{game.id}`" in listing and r.ephemeral
        msg = r.message
        assert msg is not None
        sel = next(s for s in msg.selects if s["custom_id"].startswith("hisel:"))
        r = await fake.select(bob, msg, custom_id=sel["custom_id"], values=[str(game.id)])
        sheet = await said(r)
        assert sheet.startswith(f"📊 **Game #{game.id}**")
        sheet_msg = r.followups[-1] if r.followups else r.message
        assert sheet_msg is not None and sheet_msg.attachments[0]["filename"] == f"game-{game.id}-scores.png"
        hands = next(s for s in sheet_msg.selects if s["custom_id"] == f"hig:{game.id}")
        r = await fake.select(bob, sheet_msg, custom_id=hands["custom_id"], values=[str(len(records))])
        assert f"hand {len(records)} of {len(records)}" in await said(r)
        last = r.followups[-1] if r.followups else r.message
        assert last is not None
        ahead = next(b for b in last.buttons if b.get("custom_id", "").endswith(":hn"))
        assert ahead.get("label") == "Next hand" and ahead.get("disabled")  # no hand after the last
        back = next(b for b in last.buttons if b.get("custom_id", "").endswith(":hp"))
        assert back.get("label") == f"Hand {len(records) - 1}" and not back.get("disabled")
        # /replay by number; wrong hands and other servers' games are refused
        r = await fake.slash(bob, spades.channel, "replay", game=game.id, hand=1)
        assert (await said(r)).startswith(f"🔁 **Replay · game #{game.id} · hand 1 of")
        r = await fake.slash(bob, spades.channel, "replay", game=game.id, hand=len(records) + 1)
        assert await said(r) == f"Game #{game.id} has hands 1–{len(records)}: pick one of those."
        other = fake.add_guild("Other club")
        elsewhere = other.add_text_channel("cards")
        other.add_member(bob)
        await fake.settle()
        r = await fake.slash(bob, elsewhere, "replay", game=game.id)
        assert "played in another server" in await said(r) and r.ephemeral
        r = await fake.slash(bob, elsewhere, "history", where="server")
        assert "No finished games yet." in await said(r)

        # your data: a JSON file only Alice sees
        r = await fake.slash(alice, spades.channel, "spades mydata")
        text = await said(r)
        assert text.startswith("Here is everything this bot keeps about you: 1 finished game")
        export_msg = r.followups[-1] if r.followups else r.message
        assert export_msg is not None and export_msg.ephemeral
        (export_file,) = export_msg.attachments
        assert export_file["filename"] == f"spades-mydata-{alice.id}.json"
        export = json.loads(fake.attachment_bytes(export_file))
        assert export["user_id"] == alice.id and [g["game_id"] for g in export["games"]] == [game.id]
        assert len(export["hands"]) == len(records)

        # forget me, now that the game is over
        r = await fake.slash(alice, spades.channel, "spades forgetme")
        assert r.ephemeral and "Forget me?" in await said(r)
        assert r.message is not None
        c = await fake.click(alice, r.message, label="Yes, forget me")
        done = await said(c)
        assert done.startswith("Done. Your seat in 1 finished game now shows *a former player*")
        async with spades.stored() as db:
            assert await db.stats.player(spades.guild.id, alice.id) is None
            kept = await db.history.game(game.id)
            assert kept is not None and kept.sides == game.sides
            alice_seat = next(i for i, uid in seen.seats.items() if uid == alice.id)
            assert kept.players[alice_seat].name == FORMER_PLAYER
        r = await fake.slash(bob, spades.channel, "history")
        assert FORMER_PLAYER in await said(r) or "a former player" in await said(r)
        r = await fake.slash(alice, spades.channel, "spades mydata")
        await said(r)
        export_msg = r.followups[-1] if r.followups else r.message
        assert export_msg is not None
        assert json.loads(fake.attachment_bytes(export_msg.attachments[0]))["games"] == []


async def test_text_buttons_and_text_posts_when_discord_refuses_emojis_and_files(spades: Spades) -> None:
    """The emoji list is full: the card buttons stay text. The channel denies Attach Files: the
    hand's post goes out without its picture rather than not at all."""
    fake = spades.fake
    spades.channel.set_permissions(fake.bot_user, deny=discord.Permissions(attach_files=True).value)
    # the application already has Discord's maximum of 2000 emojis (none of them cards)
    for i in range(2000):
        fake.app_emojis[10_000 + i] = {
            "id": str(10_000 + i),
            "name": f"other_{i}",
            "roles": [],
            "require_colons": True,
            "managed": False,
            "animated": False,
            "available": True,
        }
    alice = spades.users["alice"]
    async with spades.running(speed=100, card_emojis=True):
        await spades.wait_for(
            lambda: any(r.path.endswith("/emojis") and r.method == "POST" for r in fake.requests),
            what="an upload attempt",
        )
        seen = await open_and_start(spades, spades.channel, [alice], play_seconds=600, bid_seconds=600)
        panel = await my_hand(spades, seen, alice)
        if any(b.get("label") == "Show my cards" for b in panel.buttons):
            await fake.click(alice, panel, label="Show my cards")
        cards = [b for b in panel.buttons if str(b.get("custom_id", "")).split(":")[2:3] == ["c"]]
        assert cards and all(b.get("label") and not b.get("emoji") for b in cards)
        await play(spades, PanelTurns(spades, seen, alice), lambda: bool(hand_posts(spades)))
        assert hand_posts(spades), "the game ended first"
        await fake.settle()
        post = hand_posts(spades)[0]
        assert post.attachments == [] and post.content.startswith("📋 **Hand 1** · table ")
        refused = [r for r in fake.requests if r.files and r.status == 403]
        assert refused and all(r.response["code"] == 50013 for r in refused)
    uploads = [r for r in fake.requests if r.method == "POST" and r.path.endswith("/emojis")]
    assert len(uploads) == 1 and uploads[0].status == 400  # stopped at the first refusal
    assert len(fake.app_emojis) == 2000
    fake.violations.clear()  # the refused upload is the point of this test
