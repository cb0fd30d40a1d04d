"""Whole games through the fake Discord: real discord.py, real cogs, a real database (SQLite, then
PostgreSQL)."""

from __future__ import annotations

import logging
import re

import pytest

import engine
from bot.model import Table
from tests.e2e.harness import (
    LIVE_PREFIX,
    PanelTurns,
    Spades,
    TableTurns,
    game_posts,
    open_and_start,
    panel_cards,
    play,
    said,
    shown_cards,
    stored_game,
    wait_stored,
)

# Whole games on SQLite only: the same SQL on PostgreSQL is tested in tests/bot/storage/
# (every storage test runs on both), the full stack on PostgreSQL in test_resilience.py's restarts
# and test_shard_ownership.py.

CARD_TEXT = re.compile(r"(?<![0-9A-Za-z])(10|[2-9JQKA])[♠♥♦♣]")


async def test_one_human_and_three_bots_play_a_whole_game(
    spades: Spades, caplog: pytest.LogCaptureFixture
) -> None:
    alice = spades.users["alice"]
    caplog.set_level(logging.INFO)
    async with spades.running(speed=100):
        # alice plays from her panel alone: nothing of the bot's state is read to play or to check
        game = await open_and_start(
            spades, spades.channel, [alice], target=100, play_seconds=600, bid_seconds=600
        )
        stored = await spades.stored_table(game.table_id)
        assert sum(1 for s in stored.data["seats"] if s is not None and s["bot"]) == 3
        actions = await play(spades, PanelTurns(spades, game, alice))
        assert actions > 0
        hands, final = game_posts(spades, game)
        assert final is not None and final.startswith("🏆")  # the game has a winner
        n = len(hands)
        result, note = final.splitlines()
        assert result.endswith(f"after {n} hand{'s' * (n != 1)}.")
        assert note == "🤖 Bots played: this game is not counted on the leaderboard or in /stats."
        await spades.settle()
        await spades.check_public()
        texts = [m.content for m in spades.fake.public_messages(spades.channel)]
        assert any(x.startswith("🏆") for x in texts)
        assert sum(1 for x in texts if x.startswith("📋 **Hand")) == n
        lives = [x for x in texts if x.startswith(LIVE_PREFIX)]
        assert len(lives) == 1 and "🏆" in lives[0]  # one live message, reposted below each hand post
        assert not any(CARD_TEXT.search(x) for x in texts if x.startswith(("📋", "🏆", "⏰", "⏱", "💤")))
        game_post = next(m for m in spades.fake.public_messages(spades.channel) if m.content.startswith("🏆"))
        assert any(b.get("label") == "Rematch" for b in game_post.buttons)
        # no log line at INFO or above ever names a card
        for rec in caplog.records:
            if rec.levelno >= logging.INFO:
                assert not CARD_TEXT.search(rec.getMessage()), rec.getMessage()
        # [ Leaderboard ]: the server's first page, only for the one who clicked
        assert [b.get("label") for b in game_post.buttons] == ["Rematch", "Leaderboard", "Score sheet"]
        r = await spades.fake.click(spades.users["bob"], game_post, label="Leaderboard")
        assert r.ephemeral and r.message is not None and r.error is None
        board = r.message.embeds[0]
        assert board["title"] == "🏆 Leaderboard · Spades club"
        # a game with bots is marked on the board but not counted as a win or a game
        assert board["description"].startswith(f"**1.** <@{alice.id}> · 0 W / 0 G (🤖 1) · ")
        assert board["footer"]["text"].startswith("Sorted by wins · page 1/1 · 1 player · ")
        assert not any(m.embeds for m in spades.fake.public_messages(spades.channel))
        # /score right after the game: the finished game's sheet
        t_id = game.table_id
        r = await spades.slash(spades.users["bob"], "score")
        assert (await said(r)).startswith(f"**Score sheet · table {t_id}**")
        # a rematch: same seats, a new table, dealt at once (its table message says whose turn)
        r = await spades.fake.click(alice, game_post, label="Rematch")

        def rematch() -> int | None:
            for m in spades.fake.public_messages(spades.channel):
                found = re.search(r"table (\d+) ", m.content)
                if (
                    m.content.startswith(LIVE_PREFIX)
                    and found
                    and int(found.group(1)) != t_id
                    and "➜" in m.content
                ):
                    return int(found.group(1))
            return None

        await spades.wait_for(lambda: rematch() is not None, what="the rematch")
        again = rematch()
        names = [
            [s and s["name"] for s in (await spades.stored_table(k)).data["seats"]] for k in (t_id, again)
        ]
        assert names[0] == names[1] and None not in names[0]
        r = await spades.fake.click(alice, game_post, label="Rematch")
        assert (await said(r)) == f"The rematch is already open (table {again})."
        # the finished table leaves memory; its post's buttons read it back from storage
        # (after its few seconds of grace, as in production: nothing of the service is changed)
        # (a deliberate read of the bot's memory, the test's subject: only it tells when the table
        # has left; it changes nothing)
        await spades.wait_for(
            lambda: t_id not in spades.service.tables, what="the old table to leave", timeout=60
        )
        r = await spades.fake.click(spades.users["bob"], game_post, label="Score sheet")
        assert r.ephemeral and (await said(r)).startswith(f"**Score sheet · table {t_id}**")
        r = await spades.fake.click(alice, game_post, label="Rematch")
        assert (await said(r)) == f"The rematch is already open (table {again})."
        r = await spades.fake.click(spades.users["bob"], game_post, label="Leaderboard")
        assert r.ephemeral and r.message is not None and r.message.embeds
    async with spades.stored() as db:
        records = await db.games.hand_records(t_id)
        assert len(records) == n
        stats = await db.stats.player(spades.guild.id, alice.id)  # a game with bots: not counted
        assert stats is not None and stats.games == 0 and stats.not_counted == 1


async def test_four_humans_play_a_whole_game(spades: Spades) -> None:
    """Four humans play a game to 100 from their own panels (whose turn from the table message, each
    move chosen from what the player's panel shows); the winners are those the stored game names."""
    names = ("alice", "bob", "carol", "dave")
    users = [spades.users[n] for n in names]
    async with spades.running(speed=20):
        await spades.open_table(users[0], target=100, play_seconds=600, bid_seconds=600)
        for u in users[1:]:
            r = await spades.fake.click(u, spades.live(), label="Join")
            assert r.ephemeral
        r = await spades.fake.click(users[0], spades.live(), label="Start")
        assert (await spades.panel_of(r)).ephemeral  # the host's hand, in a private follow-up
        moves = await play(spades, TableTurns(spades, users), spades.over)
        tid = spades.table_id
        assert tid is not None
        row = await wait_stored(spades, tid, lambda row: row.status == "finished", "the finished game stored")
        t = Table.from_row(row)
        assert t.game is not None and t.game.winner is not None
        assert all(s is not None and not s.bot and s.timeouts == 0 for s in t.seats)  # humans did it all
        assert moves >= 52  # at least a whole hand of cards, each a click on a panel
        await spades.settle()
        await spades.check_public()
        assert spades.public_checks > 100
        seats = spades.seating()
        winners = " + ".join(f"<@{seats[s]}>" for s in t.ruleset.sides[t.game.winner])
        final = [m.content for m in spades.fake.public_messages(spades.channel) if m.content.startswith("🏆")]
        assert len(final) == 1 and winners in final[0]
        hands = [m for m in spades.fake.public_messages(spades.channel) if m.content.startswith("📋 **Hand")]
    async with spades.stored() as db:
        assert len(await db.games.hand_records(tid)) == len(hands) > 0
        for u in users:
            stats = await db.stats.player(spades.guild.id, u.id)
            assert stats is not None and stats.games == 1 and stats.not_counted == 0


async def test_blind_nil_with_the_card_exchange(spades: Spades) -> None:
    alice = spades.users["alice"]
    async with spades.running(speed=100):
        t = await spades.open_table(alice, play_seconds=600, bid_seconds=600)
        await spades.slash(alice, "spades start", fill=True)
        await spades.wait_for(lambda: "Hand 1 · " in spades.live().content, what="the start")
        seat = spades.seat_of(alice)
        # before her turn the panel keeps her cards face down and offers the choice
        panel = await spades.panel(alice)
        assert not any(b["custom_id"].split(":")[2] == "c" for b in panel.buttons)
        assert any(b.get("label") == "Show my cards" for b in panel.buttons)
        assert await spades.wait_turn() == [alice]
        held = engine.cards_of((await stored_game(spades, t.id)).hand(seat))  # her cards, as stored
        assert len(held) == 13
        panel = await spades.panel(alice)
        assert "Your cards are face down." in panel.content
        assert all(engine.card_pretty(c) not in panel.content for c in held)
        r = await spades.fake.click(alice, panel, label="Bid blind nil")
        assert r.type == 7
        # the exchange: her panel asks for exactly three cards
        await spades.wait_for(
            lambda: "passing cards for nil" in spades.live().content, what="the exchange on the table message"
        )
        assert await spades.wait_turn() == [alice]
        panel = await spades.panel(alice)
        sel = next(s for s in panel.selects if ":p:" in s["custom_id"])
        assert sel["min_values"] == sel["max_values"] == 3
        give = [int(o["value"]) for o in sel["options"][-3:]]
        assert sorted(int(o["value"]) for o in sel["options"]) == sorted(held)  # her hand, now shown
        r = await spades.fake.select(alice, panel, custom_id=sel["custom_id"], values=[str(c) for c in give])
        assert "Cards passed." in r.message.content  # type: ignore[union-attr]
        await spades.wait_for(lambda: "· trick 1 of 13" in spades.live().content, what="the play")
        # what she sees: three cards received, the three given gone from her hand
        panel = await spades.panel(alice)
        received_line = next(x for x in panel.content.splitlines() if x.startswith("You received: "))
        received = shown_cards(received_line)
        mine = {c for c, _, _ in panel_cards(panel)}
        assert len(received) == 3 and set(received) <= mine and not mine & set(give)
        # and as stored
        v = (await stored_game(spades, t.id)).view(seat)
        assert v.passed is not None and sorted(engine.cards_of(v.passed)) == sorted(give)
        assert v.received is not None and sorted(engine.cards_of(v.received)) == sorted(received)
        # play the hand out; the record keeps both passes
        await play(
            spades,
            TableTurns(spades, [alice]),
            lambda: "Hand 2 · " in spades.live().content or spades.over(),
        )
    async with spades.stored() as db:
        record = (await db.games.hand_records(t.id))[0]
    assert [seat, "blind_nil"] in [list(b) for b in record["bids"]]
    passes = {s: cards for s, cards in record["passes"]}
    assert sorted(passes[seat]) == sorted(engine.card_str(c) for c in give)
    assert len(passes) == 2
