"""Whole games through the fake Discord: real discord.py, real cogs, a real SQLite file."""

from __future__ import annotations

from bot.storage import Storage
from tests.e2e.conftest import Spades


async def test_one_human_and_three_bots_play_a_whole_game(spades: Spades) -> None:
    alice = spades.users["alice"]
    async with spades.running(time_scale=0.01):
        t = await spades.open_table(alice, target=100, play_seconds=600, bid_seconds=600)
        r = await spades.slash(alice, "spades start", fill=True)
        assert r.ephemeral
        await spades.wait_for(lambda: spades.table().status == "playing", what="the start")
        t = spades.table()
        assert sum(1 for s in t.seats if s is not None and s.bot) == 3
        actions = await spades.play_until(lambda: spades.table().status == "finished", humans=[alice])
        assert actions > 0
        t = spades.table()
        assert t.game is not None and t.game.winner is not None
        await spades.fake.settle()
        spades.check_public()
        texts = [m.content for m in spades.fake.public_messages(spades.channel)]
        assert any(x.startswith("🏆") for x in texts)
        assert sum(1 for x in texts if x.startswith("📋 **Hand")) == len(t.game.hand_records)
        game_post = next(m for m in spades.fake.public_messages(spades.channel) if m.content.startswith("🏆"))
        assert any(b.get("label") == "Rematch" for b in game_post.buttons)
    db = await Storage.open(spades.db_path)
    try:
        records = await db.hand_records(t.id)
        assert len(records) == len(t.game.hand_records)
        stats = await db.player_stats(spades.guild.id, alice.id)
        assert stats is not None and stats.games == 1 and stats.games_with_bots == 1
    finally:
        await db.close()
