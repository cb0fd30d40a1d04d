"""/history pages, /replay navigation and refusals, "forget me" cancelled: through the fake Discord."""

from __future__ import annotations

import asyncio
import re

from fakediscord import Channel, Message
from tests.e2e.harness import (
    PanelTurns,
    Spades,
    live_message,
    open_and_start,
    play,
    said,
    wait_stored,
)


async def play_one_hand_game(spades: Spades, channel: Channel | None = None) -> int:
    """Alice and three bots play a one-hand game from her panel (in ``channel``, default the test's
    channel), to its game post; the table."""
    alice = spades.users["alice"]
    game = await open_and_start(
        spades,
        channel or spades.channel,
        [alice],
        rules="max_hands=1",
        play_seconds=600,
        bid_seconds=600,
        bots="easy",
    )
    await play(spades, PanelTurns(spades, game, alice))
    await wait_stored(spades, game.table_id, lambda row: row.status == "finished", "the game stored")
    await spades.fake.settle()
    return game.table_id


def labels(msg: Message) -> list[tuple[str, bool]]:
    return [(str(b.get("label")), bool(b.get("disabled"))) for b in msg.buttons]


async def test_history_pages_replay_navigation_and_refusals(spades: Spades) -> None:
    fake = spades.fake
    alice, bob = spades.users["alice"], spades.users["bob"]
    async with spades.running(speed=100):
        r = await fake.slash(bob, spades.channel, "history")
        assert r.ephemeral
        empty = await said(r)
        assert empty == f"📜 **Finished games** · <#{spades.channel.id}>\nNo finished games yet."
        assert r.message is not None and r.message.buttons == [] and r.message.selects == []
        r = await fake.slash(bob, spades.channel, "replay", game=5)
        assert r.ephemeral and await said(r) == (
            f"There is no finished game #5 in this server. {spades.command('history')} lists this "
            "server's games."
        )

        # nine games, three at a time: Alice plays in three channels at once (a server's history
        # lists every channel's games)
        channels = [spades.channel, *(spades.guild.add_text_channel(f"spades-{i}") for i in (2, 3))]

        async def three_games(channel: Channel) -> list[int]:
            return [await play_one_hand_game(spades, channel) for _ in range(3)]

        tables = [t for batch in await asyncio.gather(*map(three_games, channels)) for t in batch]
        assert len(set(tables)) == 9
        async with spades.stored() as db:
            games = (await db.history.recent_games(spades.guild.id, limit=20)).games
        ids = [g.id for g in games]
        assert len(ids) == 9  # newest first

        # /replay game: suggests the reader's latest games (Alice played them all), else the
        # server's (Bob played none); typing a number narrows them
        for who in (alice, bob):
            offered = await fake.autocomplete(who, spades.channel, "replay", "game", "")
            assert [c["value"] for c in offered] == ids, who.username
        typed = await fake.autocomplete(alice, spades.channel, "replay", "game", f"#{ids[4]}")
        assert ids[4] in [c["value"] for c in typed] and len(typed) < len(ids)

        # page 1 of 2: eight games, ◀ disabled, the position, ▶
        r = await fake.slash(bob, spades.channel, "history", where="server")
        text = await said(r)
        assert text.startswith("📜 **Finished games** · this server · page 1 of 2 (9 games)")
        assert [int(x) for x in re.findall(r"`#(\d+)`", text)] == ids[:8]
        msg = r.message
        assert msg is not None and msg.ephemeral
        assert labels(msg) == [("◀", True), ("1 / 2", True), ("▶", False)]
        (sel,) = msg.selects
        assert [o["value"] for o in sel["options"]] == [str(i) for i in ids[:8]]
        # ▶: page 2, in place, with the oldest game
        c = await fake.click(bob, msg, label="▶")
        assert c.error is None
        await spades.wait_for(lambda: "page 2 of 2" in msg.content, what="page 2")
        assert [int(x) for x in re.findall(r"`#(\d+)`", msg.content)] == ids[8:]
        assert labels(msg) == [("◀", False), ("2 / 2", True), ("▶", True)]
        # the oldest game's score sheet from page 2
        (sel,) = msg.selects
        r2 = await fake.select(bob, msg, custom_id=sel["custom_id"], values=[str(ids[8])])
        assert (await said(r2)).startswith(f"📊 **Game #{ids[8]}**")
        c = await fake.click(bob, msg, label="◀")
        await spades.wait_for(lambda: "page 1 of 2" in msg.content, what="page 1 again")

        # a player's games: Alice played them all, Bob none
        r = await fake.slash(bob, spades.channel, "history", player=alice)
        assert (await said(r)).startswith(f"📜 **Finished games** · <@{alice.id}> · page 1 of 2")
        r = await fake.slash(bob, spades.channel, "history", player=bob)
        assert await said(r) == f"📜 **Finished games** · <@{bob.id}>\nNo finished games yet."

        # /replay of a one-hand game: no other hand to go to; Scoring, back to the deal, Verify deal
        first = ids[-1]
        r = await fake.slash(bob, spades.channel, "replay", game=first)
        text = await said(r)
        assert text.startswith(f"🔁 **Replay · game #{first} · hand 1 of 1**") and "**As dealt**" in text
        replay = r.message
        assert replay is not None and replay.ephemeral
        nav = dict(labels(replay))
        assert nav["Deal"] and nav["Previous"] and not nav["Next"] and not nav["Scoring"]
        assert nav["Next hand"]  # disabled: the game had one hand
        await fake.click(bob, replay, label="Scoring")
        await spades.wait_for(lambda: "**Scoring**" in replay.content, what="the scoring step")
        nav = dict(labels(replay))
        assert nav["Next"] and nav["Scoring"] and not nav["Previous"]
        await fake.click(bob, replay, label="Deal")
        await spades.wait_for(lambda: "**As dealt**" in replay.content, what="the deal again")
        c = await fake.click(bob, replay, label="Verify deal")
        verdict = await said(c)
        assert verdict.startswith(f"✅ **Hand 1 at table {games[-1].table_id}**: OK")
        r = await fake.slash(bob, spades.channel, "replay", game=first, hand=2)
        assert await said(r) == f"Game #{first} has hands 1–1: pick one of those."

        # forget me, cancelled: nothing changes
        r = await fake.slash(alice, spades.channel, "spades forgetme")
        assert r.message is not None
        c = await fake.click(alice, r.message, label="Cancel")
        assert await said(c) == "Nothing was changed: your data stays."
        async with spades.stored() as db:
            assert await db.stats.player(spades.guild.id, alice.id) is not None
    assert fake.take_violations() == []


async def test_replaying_a_hand_of_a_game_still_on(spades: Spades) -> None:
    fake = spades.fake
    alice, bob = spades.users["alice"], spades.users["bob"]
    # turn timers of 600 s are 30 s here: Alice, who stops at the second hand's bidding, keeps the
    # game there while the first hand's post is on its way (it is drawn and sent apart from the game)
    async with spades.running(speed=20):
        game = await open_and_start(spades, spades.channel, [alice], play_seconds=600, bid_seconds=600)

        def hand_post() -> Message | None:
            posts = fake.public_messages(spades.channel)
            return next((m for m in posts if m.content.startswith("📋 **Hand 1**")), None)

        def second_hand() -> bool:
            live = live_message(spades, spades.channel, game.table_id)
            return live is not None and "Hand 2 ·" in live.content

        await play(spades, PanelTurns(spades, game, alice), lambda: hand_post() is not None or second_hand())
        assert hand_post() is not None or second_hand(), "the game ended first"
        await spades.wait_for(lambda: hand_post() is not None, 20.0, "the first hand's post")
        post = hand_post()
        assert post is not None and (await spades.stored_table(game.table_id)).status == "playing"
        r = await fake.click(bob, post, label="Replay hand")
        text = await said(r)
        assert text.startswith(f"🔁 **Replay · table {game.table_id} (game in progress) · hand 1 of 1**")
        replay = r.followups[-1] if r.followups else r.message
        assert replay is not None and replay.ephemeral
        # the names are the table's seats; hand 2 is not over, so it can't be opened yet
        assert "Alice" in text
        nav = dict(labels(replay))
        assert nav["Next hand"]
        async with spades.stored() as db:
            assert (await db.history.recent_games(spades.guild.id)).games == []  # nothing finished yet
        r = await fake.slash(bob, spades.channel, "history")
        assert await said(r) == f"📜 **Finished games** · <#{spades.channel.id}>\nNo finished games yet."
    assert fake.take_violations() == []
