"""/leaderboard and /stats through the fake Discord: empty server, pages, sort, restart, real games."""

from __future__ import annotations

import re
from fractions import Fraction
from typing import Any

import pytest

from bot.sandbox.fake import Message, User
from bot.storage import FinishedGame, Storage
from cogs.stats import BOTS_HAVE_NO_STATS, EMPTY_SERVER, PAGE_SIZE, WRONG_SERVER
from tests.e2e.conftest import Spades, said

pytestmark = pytest.mark.both_backends

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


def model_ranking(record: dict[int, tuple[int, int]], sort: str) -> list[int]:
    """The ranking as the leaderboard's help states it, from the seeded (wins, games) per player:
    an independent model, never the storage query under test."""

    def key(uid: int) -> tuple[Any, ...]:
        wins, games = record[uid]
        pct = Fraction(wins, games)
        return {
            "wins": (-wins, -pct, -games, uid),
            "win_pct": (-pct, -games, -wins, uid),
            "games": (-games, -wins, uid),
        }[sort]

    return sorted(record, key=key)


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
    record: dict[int, tuple[int, int]] = {}
    for i, uid in enumerate(players):
        wins, losses = i % 7, 1 + i % 3
        others = [players[(i + k) % len(players)] for k in (1, 2, 3)]
        # wins at tables of four people (they count), losses with three bots (marked, not counted)
        games += [([uid, *others], 0)] * wins + [([uid, None, None, None], 1)] * losses
    # the model: only games between people count; seats 0 and 2 are side 0
    for seats, winner in games:
        if None in seats:
            continue
        for s, u in enumerate(seats):
            assert u is not None
            w, g = record.get(u, (0, 0))
            record[u] = (w + (s % 2 == winner), g + 1)
    expected = model_ranking(record, "wins")
    assert sorted(expected) == players
    async with spades.running() as bot:
        await seed_games(bot.storage, guild_id, games)

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
        pct = model_ranking(record, "win_pct")
        assert pct != expected and ranked_ids(board) == pct[:PAGE_SIZE]
        assert "Sorted by win %" in board.embeds[0]["footer"]["text"]
        assert "page 1/3" in board.embeds[0]["footer"]["text"]

        r = await spades.slash(alice, "leaderboard", sort="games")
        games_order = model_ranking(record, "games")
        assert r.message is not None and ranked_ids(r.message) == games_order[:PAGE_SIZE]
        await spades.settle()


async def play_a_game(spades: Spades, host: User, others: list[User]) -> int:
    """Open a short table in the channel, seat ``others`` on the other team, fill with bots, play it out."""
    t = await spades.open_table(host, target=50, play_seconds=600, bid_seconds=600)
    for user in others:
        r = await spades.slash(user, "join", team=2)
        assert said(r).startswith("You took seat")
    await spades.slash(host, "spades start", fill=True)
    await spades.wait_for(lambda: spades.table().status == "playing", what="the start")
    await spades.play_until(lambda: spades.table().status == "finished", humans=[host, *others])
    await spades.settle()
    return t.id


async def test_leaderboard_and_stats_after_real_games(spades: Spades) -> None:
    alice, bob, carol = spades.users["alice"], spades.users["bob"], spades.users["carol"]
    async with spades.running(time_scale=0.01) as bot:
        first = await play_a_game(spades, alice, [bob])  # alice (team 1) against bob (team 2), 2 bots
        second = await play_a_game(spades, alice, [])  # alice with three bots
        storage = bot.storage

        # what the finished games say, from the stored records (not from the stats tables)
        records = {tid: await storage.hand_records(tid) for tid in (first, second)}
        games = await storage.finished_games(spades.guild.id)
        assert [g["table_id"] for g in games] == [second, first] and all(g["with_bots"] for g in games)
        alice_wins = sum(1 for g in games for p in g["players"] if p["user_id"] == alice.id and p["won"])
        bob_won = any(p["won"] for g in games for p in g["players"] if p["user_id"] == bob.id)

        r = await spades.slash(carol, "leaderboard")
        assert not r.ephemeral and r.message is not None
        board = r.message
        assert set(ranked_ids(board)) == {alice.id, bob.id}  # bots never on the board; carol never played
        text = board.embeds[0]["description"]
        alice_line = next(line for line in text.splitlines() if f"<@{alice.id}>" in line)
        # both games had bots: the board does not count them as wins or games (one human with three
        # bots must not farm the top spot), it only marks them
        assert "0 W / 0 G (🤖 2)" in alice_line
        assert board.buttons == []  # one page: no ◀ ▶
        assert "page 1/1" in board.embeds[0]["footer"]["text"]

        r = await spades.slash(alice, "stats")
        assert r.ephemeral and r.message is not None  # a personal lookup stays private
        fields = {f["name"]: f["value"] for f in r.message.embeds[0]["fields"]}
        assert fields["Games"] == f"2 ({alice_wins} W · {2 - alice_wins} L)"
        assert fields["🤖 Games with bots"] == "2 of 2 (they count)"
        hands = len(records[first]) + len(records[second])
        assert fields["Bags"].endswith(f"in {hands} hands)")
        alice_seat = 0  # the host sits in seat 1
        nil_bids = sum(
            1
            for recs in records.values()
            for rec in recs
            for seat, bid in rec["bids"]
            if seat == alice_seat and bid in ("nil", "blind_nil")
        )
        assert fields["Nils"].endswith(f"made of {nil_bids}")
        mine = await storage.player_stats(spades.guild.id, alice.id)
        assert mine is not None and mine.hands == hands and mine.contracts_bid == hands - nil_bids

        r = await spades.fake.slash(carol, spades.channel, "stats", options={"user": bob, "share": True})
        assert not r.ephemeral and r.message is not None
        assert r.message.embeds[0]["fields"][1]["value"].startswith(f"1 ({int(bob_won)} W")

        r = await spades.slash(carol, "leaderboard", sort="bid_accuracy")
        order = [
            p.user_id for p in await storage.leaderboard(spades.guild.id, "bid_accuracy", humans_only=True)
        ]
        assert r.message is not None and ranked_ids(r.message) == order

        # another server has its own (empty) leaderboard
        other = spades.fake.add_guild("Other club")
        lounge = other.add_text_channel("lounge")
        other.add_member(alice)
        await spades.settle()
        r = await spades.fake.slash(alice, lounge, "leaderboard")
        assert r.ephemeral and said(r) == EMPTY_SERVER


async def test_leaderboard_counts_bot_games_only_when_asked(spades: Spades) -> None:
    alice = spades.users["alice"]
    guild_id = spades.guild.id
    players = [20_000 + i for i in range(12)]
    # each player wins once at a table of people and loses twice with three bots
    games: list[tuple[list[int | None], int]] = []
    for i, uid in enumerate(players):
        games += [([uid, *(players[(i + k) % 12] for k in (1, 2, 3))], 0)]
        games += [([uid, None, None, None], 1)] * 2
    async with spades.running() as bot:
        await seed_games(bot.storage, guild_id, games)
        r = await spades.slash(alice, "leaderboard")
        board = r.message
        assert board is not None and "(not counted)" in board.embeds[0]["footer"]["text"]
        line = board.embeds[0]["description"].splitlines()[0]
        assert " / 4 G (🤖 2)" in line  # 4 games with people; the 2 with bots are marked, not counted
        r = await spades.slash(alice, "leaderboard", bots=True)
        board = r.message
        assert board is not None and "W/G count every game" in board.embeds[0]["footer"]["text"]
        assert " / 6 G (🤖 2)" in board.embeds[0]["description"].splitlines()[0]
        r = await spades.fake.click(alice, board, label="▶")  # the next page keeps counting them
        assert r.type == 7 and "W/G count every game" in board.embeds[0]["footer"]["text"]
        sort = next(s for s in board.selects if s["custom_id"].startswith("lbsort:"))
        r = await spades.fake.select(alice, board, custom_id=sort["custom_id"], values=["games__all"])
        assert r.type == 7 and "Sorted by games played" in board.embeds[0]["footer"]["text"]
        assert "W/G count every game" in board.embeds[0]["footer"]["text"]


async def test_a_leaderboard_button_from_another_server_is_refused(spades: Spades) -> None:
    """A custom_id carries its server; an interaction from another server that carries it (a
    crafted client, a copied message) is answered privately and never shows or edits the board."""
    alice = spades.users["alice"]
    players = [20_000 + i for i in range(PAGE_SIZE + 2)]  # two pages
    games: list[tuple[list[int | None], int]] = [([uid, None, None, None], 0) for uid in players]
    async with spades.running() as bot:
        await seed_games(bot.storage, spades.guild.id, games)
        r = await spades.slash(alice, "leaderboard")
        assert r.message is not None
        board = r.message
        shown = board.embeds[0]["description"]
        other = spades.fake.add_guild("Other club")
        lounge = other.add_text_channel("lounge")
        other.add_member(alice)
        await spades.settle()
        sort_id = next(s["custom_id"] for s in board.selects if s["custom_id"].startswith("lbsort:"))
        for data in ({"custom_id": button(board, "▶")["custom_id"], "component_type": 2},
                     {"custom_id": sort_id, "component_type": 3, "values": ["games"]}):
            r = await spades.fake._component_interaction(alice, lounge, board, data)
            assert r.ephemeral and said(r) == WRONG_SERVER, data
            assert board.embeds[0]["description"] == shown  # the board did not move
        assert spades.fake.public_messages(lounge) == []
