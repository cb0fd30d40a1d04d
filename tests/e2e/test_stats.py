"""/leaderboard and /stats through the fake Discord: empty server, pages, sort, restart, real games."""

from __future__ import annotations

import re
from typing import Any

from bot.storage import FinishedGame, Storage
from cogs.stats import BOTS_HAVE_NO_STATS, EMPTY_SERVER, PAGE_SIZE
from tests.e2e.conftest import Spades, said
from tests.fakediscord import Message

MENTION = re.compile(r"<@(\d+)>")


async def seed_games(storage: Storage, guild_id: int, games: list[tuple[list[int | None], int]]) -> None:
    """Store finished games as the table service would at game end (each in its own channel)."""
    for n, (seats, winner) in enumerate(games):
        row = await storage.create_table(guild_id, 900_000 + n, seats[0] or 1, {})
        row.status = "finished"
        players = [
            {"seat": s, "side": s % 2, "user_id": u, "is_bot": u is None, "name": f"p{u}"}
            for s, u in enumerate(seats)
        ]
        game = FinishedGame(
            table_id=row.id, guild_id=guild_id, channel_id=row.channel_id, game_no=1, ruleset="standard",
            hands=5, winner_side=winner, started_at=1_700_000_000 + n, finished_at=1_700_000_600 + n,
            sides=[{"seats": [0, 2], "score": 500, "bags": 2}, {"seats": [1, 3], "score": 300, "bags": 4}],
            players=players,
        )  # fmt: skip
        await storage.save_table(row, game=game)


def ranked_ids(message: Message) -> list[int]:
    description = message.embeds[0]["description"]
    return [int(m) for m in MENTION.findall(description)]


def button(message: Message, label: str) -> dict[str, Any]:
    return next(b for b in message.buttons if b.get("label") == label)


async def test_empty_server_is_answered_helpfully(spades: Spades) -> None:
    alice, bob = spades.users["alice"], spades.users["bob"]
    async with spades.running():
        r = await spades.slash(alice, "leaderboard")
        assert r.ephemeral and said(r) == EMPTY_SERVER
        r = await spades.slash(alice, "stats")
        assert r.ephemeral and said(r).startswith("You have no finished hands in this server yet.")
        r = await spades.fake.slash(alice, spades.channel, "stats", options={"user": bob})
        assert r.ephemeral and said(r).startswith(f"<@{bob.id}> has no finished hands in this server yet.")
        r = await spades.fake.slash(alice, spades.channel, "stats", options={"user": spades.fake.bot_user})
        assert r.ephemeral and said(r) == BOTS_HAVE_NO_STATS
        assert spades.fake.public_messages(spades.channel) == []  # nothing posted for the channel


async def test_pages_sort_and_buttons_survive_a_restart(spades: Spades) -> None:
    alice = spades.users["alice"]
    guild_id = spades.guild.id
    # 23 players: user k plays k+1 games... keep it simple: player i wins i of its games
    players = [10_000 + i for i in range(23)]
    games: list[tuple[list[int | None], int]] = []
    for i, uid in enumerate(players):
        wins, losses = i % 7, 1 + i % 3
        games += [([uid, None, None, None], 0)] * wins + [([uid, None, None, None], 1)] * losses
    async with spades.running() as bot:
        await seed_games(bot.storage, guild_id, games)
        expected = [p.user_id for p in await bot.storage.leaderboard(guild_id, sort="wins", limit=100)]
        assert sorted(expected) == players

        r = await spades.slash(alice, "leaderboard")
        assert not r.ephemeral and r.message is not None
        board = r.message
        assert ranked_ids(board) == expected[:PAGE_SIZE]
        assert "page 1/3" in board.embeds[0]["footer"]["text"]
        assert "🤖" in board.embeds[0]["description"]  # every game had bots: marked
        assert button(board, "◀")["disabled"] is True and not button(board, "▶").get("disabled")

        r = await spades.fake.click(alice, board, label="▶")
        assert r.type == 7 and r.message is board  # edited in place
        assert ranked_ids(board) == expected[PAGE_SIZE : 2 * PAGE_SIZE]
        assert "page 2/3" in board.embeds[0]["footer"]["text"]
        assert "**11.**" in board.embeds[0]["description"]

    async with spades.running():  # a new process: the old message's buttons still work
        r = await spades.fake.click(alice, board, label="▶")
        assert r.type == 7
        assert ranked_ids(board) == expected[2 * PAGE_SIZE :]
        assert len(ranked_ids(board)) == 3
        assert button(board, "▶")["disabled"] is True and not button(board, "◀").get("disabled")

        sort = next(s for s in board.selects if s["custom_id"].startswith("lbsort:"))
        r = await spades.fake.select(alice, board, custom_id=sort["custom_id"], values=["win_pct"])
        assert r.type == 7
        pct = [p.user_id for p in await spades.service.bot.storage.leaderboard(guild_id, "win_pct", 100)]
        assert pct != expected and ranked_ids(board) == pct[:PAGE_SIZE]
        assert "Sorted by win %" in board.embeds[0]["footer"]["text"]
        assert "page 1/3" in board.embeds[0]["footer"]["text"]

        r = await spades.slash(alice, "leaderboard", sort="games")
        games_order = [
            p.user_id for p in await spades.service.bot.storage.leaderboard(guild_id, "games", 100)
        ]
        assert r.message is not None and ranked_ids(r.message) == games_order[:PAGE_SIZE]
        await spades.fake.settle()
