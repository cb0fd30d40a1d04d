"""Whole games through the fake Discord: real discord.py, real cogs, a real database (SQLite, then
PostgreSQL)."""

from __future__ import annotations

import logging
import re

import pytest

import engine
from tests.e2e.conftest import (
    LIVE_PREFIX,
    Spades,
    answer_of,
    game_posts,
    open_and_start,
    play_from_panel,
    said,
)

pytestmark = pytest.mark.both_backends

CARD_TEXT = re.compile(r"(?<![0-9A-Za-z])(10|[2-9JQKA])[♠♥♦♣]")


async def test_one_human_and_three_bots_play_a_whole_game(
    spades: Spades, caplog: pytest.LogCaptureFixture
) -> None:
    alice = spades.users["alice"]
    caplog.set_level(logging.INFO)
    async with spades.running(time_scale=0.01):
        # alice plays from her panel alone: nothing of the bot's state is read to play or to check
        game = await open_and_start(
            spades, spades.channel, [alice], target=100, play_seconds=600, bid_seconds=600
        )
        stored = await spades.stored_table(game.table_id)
        assert sum(1 for s in stored.data["seats"] if s is not None and s["bot"]) == 3
        actions = await play_from_panel(spades, game, alice)
        assert actions > 0
        hands, final = game_posts(spades, game)
        assert final is not None and final.startswith("🏆")  # the game has a winner
        n = len(hands)
        assert final.endswith(f"after {n} hand{'s' * (n != 1)}.")
        await spades.settle()
        spades.check_public()
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
        assert said(r).startswith(f"**Score sheet · table {t_id}**")
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
        assert (await answer_of(spades, r)) == f"The rematch is already open (table {again})."
        # the finished table leaves memory; its post's buttons read it back from storage
        # (after its few seconds of grace, as in production: nothing of the service is changed)
        # (the one read of the bot's memory here: only it tells when the table has left)
        await spades.wait_for(
            lambda: t_id not in spades.service.tables, what="the old table to leave", timeout=60
        )
        r = await spades.fake.click(spades.users["bob"], game_post, label="Score sheet")
        assert r.ephemeral and said(r).startswith(f"**Score sheet · table {t_id}**")
        r = await spades.fake.click(alice, game_post, label="Rematch")
        assert (await answer_of(spades, r)) == f"The rematch is already open (table {again})."
        r = await spades.fake.click(spades.users["bob"], game_post, label="Leaderboard")
        assert r.ephemeral and r.message is not None and r.message.embeds
    async with spades.stored() as db:
        records = await db.hand_records(t_id)
        assert len(records) == n
        stats = await db.player_stats(spades.guild.id, alice.id)
        assert stats is not None and stats.games == 1 and stats.games_with_bots == 1


async def test_four_humans_play_a_whole_game(spades: Spades) -> None:
    names = ("alice", "bob", "carol", "dave")
    users = [spades.users[n] for n in names]
    async with spades.running(time_scale=0.05):
        await spades.open_table(users[0], target=100, play_seconds=600, bid_seconds=600)
        for u in users[1:]:
            r = await spades.fake.click(u, spades.live(), label="Join")
            assert r.ephemeral
        r = await spades.fake.click(users[0], spades.live(), label="Start")
        assert (await spades.panel_of(r)).ephemeral  # the host's hand, in a private follow-up
        await spades.play_until(lambda: spades.table().status == "finished", humans=users)
        t = spades.table()
        assert t.game is not None and t.game.winner is not None
        assert all(s is not None and not s.bot and s.timeouts == 0 for s in t.seats)  # humans did it all
        await spades.settle()
        spades.check_public()
        assert spades.public_checks > 100
        winners = " + ".join(f"<@{users[s].id}>" for s in t.ruleset.sides[t.game.winner])
        final = [m.content for m in spades.fake.public_messages(spades.channel) if m.content.startswith("🏆")]
        assert len(final) == 1 and winners in final[0]
    async with spades.stored() as db:
        assert len(await db.hand_records(t.id)) == len(t.game.hand_records)
        for u in users:
            stats = await db.player_stats(spades.guild.id, u.id)
            assert stats is not None and stats.games == 1 and stats.games_with_bots == 0


async def test_blind_nil_with_the_card_exchange(spades: Spades) -> None:
    alice = spades.users["alice"]
    async with spades.running(time_scale=0.01):
        await spades.open_table(alice, play_seconds=600, bid_seconds=600)
        await spades.slash(alice, "spades start", fill=True)
        await spades.wait_for(lambda: spades.table().status == "playing", what="the start")
        seat = spades.seat_of(alice)
        # before her turn the panel keeps her cards face down and offers the choice
        panel = await spades.panel(alice)
        assert not any(b["custom_id"].split(":")[2] == "c" for b in panel.buttons)
        assert any(b.get("label") == "Show my cards" for b in panel.buttons)
        await spades.wait_turn()
        g = spades.table().game
        assert g is not None and g.phase == "bid" and not g.has_looked(seat)
        held = engine.cards_of(g.hand(seat))
        panel = await spades.panel(alice)
        assert all(engine.card_pretty(c) not in panel.content for c in held)
        r = await spades.fake.click(alice, panel, label="Bid blind nil")
        assert r.type == 7
        # the exchange: her panel asks for exactly three cards
        await spades.wait_for(
            lambda: spades.table().game.phase == "pass" and bool(spades.acting_humans()),  # type: ignore[union-attr]
            what="the exchange",
        )
        g = spades.table().game
        assert g is not None and g.pass_size(seat) == 3
        panel = await spades.panel(alice)
        sel = next(s for s in panel.selects if ":p:" in s["custom_id"])
        assert sel["min_values"] == sel["max_values"] == 3
        give = [int(o["value"]) for o in sel["options"][-3:]]
        r = await spades.fake.select(alice, panel, custom_id=sel["custom_id"], values=[str(c) for c in give])
        assert "Cards passed." in r.message.content  # type: ignore[union-attr]
        await spades.wait_for(lambda: spades.table().game.phase == "play", what="the play")  # type: ignore[union-attr]
        g = spades.table().game
        assert g is not None
        v = g.view(seat)
        assert v.passed is not None and sorted(engine.cards_of(v.passed)) == sorted(give)
        assert v.received is not None and engine.count(v.received) == 3
        assert all(c not in engine.cards_of(g.hand(seat)) for c in give)
        # play the hand out; the record keeps both passes
        await spades.play_until(
            lambda: spades.table().game.hand_no > 1 or spades.table().status != "playing",  # type: ignore[union-attr]
            humans=[alice],
        )
        record = spades.table().game.hand_records[0]  # type: ignore[union-attr]
        assert [seat, "blind_nil"] in [list(b) for b in record["bids"]]
        passes = {s: cards for s, cards in record["passes"]}
        assert sorted(passes[seat]) == sorted(engine.card_str(c) for c in give)
        assert len(passes) == 2
