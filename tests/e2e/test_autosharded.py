"""`python -m bot` runs discord.py's AutoShardedBot: without SHARD_COUNT, every shard Discord
recommends in this one process (and this process holds every guild's lease)."""

from __future__ import annotations

from bot.client import ShardedSpadesBot, make_bot
from bot.config import Config
from tests.e2e.conftest import Spades, answer_of


async def test_one_process_runs_every_shard_and_plays(spades: Spades) -> None:
    config = Config(token="x", database_path=spades.db_path, time_scale=0.02, deal_seed=7)
    bot = make_bot(config)
    assert isinstance(bot, ShardedSpadesBot)
    async with spades.fake.run_bot(bot):
        spades.bot = bot
        assert bot.shard_count == 1 and bot.shard_keeper is not None and bot.shard_keeper.held == {0}
        r = await spades.slash(spades.users["alice"], "spades new")
        assert "is open" in await answer_of(spades, r)
        assert "1 live tables" in bot.health_line() and "shards 0 of 1" in bot.health_line()
        spades.bot = None
