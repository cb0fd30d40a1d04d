"""/leaderboard and /stats through the fake Discord, after games played through it.

Every game these tests count is played through the bot as users would: a host opens a table in a
channel, players /join, the host starts it (bots fill the empty seats when asked), and each human
either plays from the private panel's buttons or, as a player who walks away does, lets the turn
timer hand the seat to the bot (the product's own TIME_SCALE keeps that fast). The expected
numbers come from an independent model built from what the channel showed (who sat where, the hand
posts, the game post), never from the storage code under test.
"""

from __future__ import annotations

import asyncio
import re
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from bot.render.stats import BOTS_HAVE_NO_STATS, EMPTY_SERVER, PAGE_SIZE, WRONG_SERVER
from fakediscord import Message, User
from tests.e2e.harness import PanelTurns, SeenGame, Spades, game_posts, open_and_start, play, said

# Games played to the leaderboard on SQLite only: the same SQL on PostgreSQL is tested in tests/bot/storage/
# (every storage test runs on both), the full stack on PostgreSQL in test_resilience.py's restarts
# and test_shard_ownership.py.

MENTION = re.compile(r"<@(\d+)>")
SIDE_LINE = re.compile(r"^Team (\d+): bid (.+?), took (\d+)(?:: (.*))?$")
BOARD_LINE = re.compile(
    r"<@(\d+)> · (\d+) W / (\d+) G(?: \(🤖 (\d+)\))? · win [^·]+ · "
    r"bids (?:–|[^(]+\((\d+)/(\d+)\)) · nils (\d+)/(\d+)"
)
NILS = ("Nil", "Blind nil")
SIDES = ((0, 2), (1, 3))  # partners sit opposite (the standard rules these tables play)
FAST = {"play_seconds": 15, "bid_seconds": 15, "bots": "easy", "rules": "max_hands=1"}


# ---- the model: what the channel showed ------------------------------------------------------------


@dataclass
class Record:
    games: int = 0  # games between people only (the board's default count)
    wins: int = 0
    all_games: int = 0  # every game, bots or not (the board with bots:True)
    all_wins: int = 0
    with_bots: int = 0
    hands: int = 0
    contracts_bid: int = 0
    contracts_made: int = 0
    nils_tried: int = 0
    nils_made: int = 0


@dataclass
class Model:
    players: dict[int, Record] = field(default_factory=dict)

    def of(self, uid: int) -> Record:
        return self.players.setdefault(uid, Record())

    def add_game(self, seats: dict[int, int], with_bots: bool, hand_posts: list[str], game_post: str) -> None:
        """One finished game: ``seats`` (seat index -> user id of the people; the rest are bots),
        its hand posts and its final post, as the channel showed them."""
        winners = {int(u) for u in MENTION.findall(game_post)} if game_post.startswith("🏆") else set()
        for uid in seats.values():
            rec = self.of(uid)
            won = uid in winners
            rec.all_games += 1
            rec.all_wins += won
            rec.with_bots += with_bots
            if not with_bots:
                rec.games += 1
                rec.wins += won
        for post in hand_posts:
            sides = [m for line in post.splitlines() if (m := SIDE_LINE.match(line))]
            assert len(sides) == 2, post
            for m in sides:
                side = SIDES[int(m.group(1)) - 1]
                bids = m.group(2).split(" + ")
                parts = m.group(4) or ""
                contract = re.search(r"contract \d+ (made|set)", parts)
                for seat, bid in zip(side, bids, strict=True):
                    person = seats.get(seat)
                    if person is None:  # a bot's seat
                        continue
                    rec = self.of(person)
                    rec.hands += 1
                    if bid in NILS:
                        rec.nils_tried += 1
                        rec.nils_made += bool(re.search(rf"nil by <@{person}> made", parts))
                    elif contract is not None:
                        rec.contracts_bid += 1
                        rec.contracts_made += contract.group(1) == "made"

    def ranking(self, sort: str, *, bots: bool = False) -> list[int]:
        """The order the leaderboard's help states (ties by user id), from this model alone."""

        def key(uid: int) -> tuple[Any, ...]:
            r = self.players[uid]
            games, wins = (r.all_games, r.all_wins) if bots else (r.games, r.wins)
            pct = Fraction(wins, games) if games else Fraction(-1)  # no games: last (NULLS LAST)
            acc = Fraction(r.contracts_made, r.contracts_bid) if r.contracts_bid else Fraction(-1)
            return {
                "wins": (-wins, -pct, -games, uid),
                "win_pct": (-pct, -games, -wins, uid),
                "games": (-games, -wins, uid),
                "bid_accuracy": (-acc, -r.contracts_bid, uid),
            }[sort]

        return sorted(self.players, key=key)

    def line(self, uid: int, *, bots: bool = False) -> tuple[int, ...]:
        """What a leaderboard line should say: W, G, 🤖, contracts made/bid, nils made/tried."""
        r = self.players[uid]
        games, wins = (r.all_games, r.all_wins) if bots else (r.games, r.wins)
        return (wins, games, r.with_bots, r.contracts_made, r.contracts_bid, r.nils_made, r.nils_tried)


def board_lines(message: Message) -> dict[int, tuple[int, ...]]:
    out = {}
    for text in message.embeds[0]["description"].splitlines():
        m = BOARD_LINE.search(text)
        assert m is not None, text
        uid, *numbers = m.groups()
        out[int(uid)] = tuple(int(n or 0) for n in numbers)
    return out


def ranked_ids(message: Message) -> list[int]:
    description = message.embeds[0]["description"]
    return [int(m) for m in MENTION.findall(description)]


def button(message: Message, label: str) -> dict[str, Any]:
    return next(b for b in message.buttons if b.get("label") == label)


# ---- playing through Discord ---------------------------------------------------------------------


async def finish(spades: Spades, game: SeenGame, model: Model, timeout: float = 60.0) -> None:
    """Wait for the game post, then add what the channel showed to ``model``."""
    await spades.wait_for(lambda: game_posts(spades, game)[1] is not None, timeout, "the game post")
    hands, final = game_posts(spades, game)
    assert final is not None and hands
    model.add_game(game.seats, game.with_bots, hands, final)


async def play_rounds(spades: Spades, rounds: list[list[list[User]]]) -> Model:
    """Each round's tables run at once, one channel each; every human lets the timer play."""
    model = Model()
    channels = [spades.guild.add_text_channel(f"table-{n}") for n in range(max(map(len, rounds)))]
    await spades.fake.settle()
    for tables in rounds:
        games = [await open_and_start(spades, channels[n], humans, **FAST) for n, humans in enumerate(tables)]
        for game in games:
            await finish(spades, game, model)
    return model


async def test_empty_server_is_answered_helpfully(spades: Spades) -> None:
    alice, bob = spades.users["alice"], spades.users["bob"]
    async with spades.running():
        r = await spades.slash(alice, "leaderboard")
        assert r.ephemeral and await said(r) == spades.mentioned(EMPTY_SERVER)
        r = await spades.slash(alice, "stats")
        assert r.ephemeral and (await said(r)).startswith("You have no finished hands in this server yet.")
        r = await spades.fake.slash(alice, spades.channel, "stats", options={"user": bob})
        assert r.ephemeral and (await said(r)).startswith(
            f"<@{bob.id}> has no finished hands in this server yet."
        )
        r = await spades.fake.slash(alice, spades.channel, "stats", options={"user": spades.fake.bot_user})
        assert r.ephemeral and await said(r) == spades.mentioned(BOTS_HAVE_NO_STATS)
        assert spades.fake.public_messages(spades.channel) == []  # nothing posted for the channel


async def test_leaderboard_pages_sorts_and_bot_games_after_games_played(spades: Spades) -> None:
    """Twelve people play six one-hand games in two rounds (tables side by side in their own
    channels; two of the games have bots in the empty seats); the board then matches the model on
    every page, sort and count, its buttons work after a restart, and a button carried into another
    server is refused."""
    p = [spades.fake.add_user(f"p{i:02d}", guild=spades.guild) for i in range(12)]
    rounds = [
        [p[0:4], p[4:8], p[8:12]],
        [[p[0], p[4], p[8], p[5]], [p[1]], [p[2], p[9]]],  # the last two with bots
    ]
    async with spades.running(speed=500):
        model = await play_rounds(spades, rounds)
        assert sorted(model.players) == sorted(u.id for u in p)
        assert sum(r.with_bots for r in model.players.values()) == 3  # p1, p2 and p9
        await spades.settle()

        alice = spades.users["alice"]  # never played: she only looks
        r = await spades.slash(alice, "leaderboard")
        assert not r.ephemeral and r.message is not None
        board = r.message
        expected = model.ranking("wins")
        assert ranked_ids(board) == expected[:PAGE_SIZE]
        assert board_lines(board) == {u: model.line(u) for u in expected[:PAGE_SIZE]}
        footer = board.embeds[0]["footer"]["text"]
        assert "page 1/2" in footer and "(not counted)" in footer  # games with bots are only marked
        assert button(board, "◀")["disabled"] is True and not button(board, "▶").get("disabled")

        r = await spades.fake.click(alice, board, label="▶")
        assert r.type == 7 and r.message is board  # edited in place
        assert ranked_ids(board) == expected[PAGE_SIZE:]
        assert "**11.**" in board.embeds[0]["description"]
        assert button(board, "▶")["disabled"] is True and not button(board, "◀").get("disabled")

    async with spades.running(speed=500):  # a new process: the old message's buttons still work
        r = await spades.fake.click(alice, board, label="◀")
        assert r.type == 7 and ranked_ids(board) == expected[:PAGE_SIZE]
        for sort in ("win_pct", "games"):
            select = next(s for s in board.selects if s["custom_id"].startswith("lbsort:"))
            r = await spades.fake.select(alice, board, custom_id=select["custom_id"], values=[sort])
            assert r.type == 7
            assert ranked_ids(board) == model.ranking(sort)[:PAGE_SIZE], sort
            assert "page 1/2" in board.embeds[0]["footer"]["text"]
        assert "Sorted by games played" in board.embeds[0]["footer"]["text"]

        r = await spades.slash(alice, "leaderboard", sort="bid_accuracy")
        assert r.message is not None and ranked_ids(r.message) == model.ranking("bid_accuracy")[:PAGE_SIZE]

        # bots:True counts every game; the next page and a new sort keep counting them
        r = await spades.slash(alice, "leaderboard", bots=True)
        assert r.message is not None
        board = r.message
        assert "W/G count every game" in board.embeds[0]["footer"]["text"]
        every = model.ranking("wins", bots=True)
        assert ranked_ids(board) == every[:PAGE_SIZE]
        assert board_lines(board) == {u: model.line(u, bots=True) for u in every[:PAGE_SIZE]}
        r = await spades.fake.click(alice, board, label="▶")
        assert r.type == 7 and "W/G count every game" in board.embeds[0]["footer"]["text"]
        assert board_lines(board) == {u: model.line(u, bots=True) for u in every[PAGE_SIZE:]}
        select = next(s for s in board.selects if s["custom_id"].startswith("lbsort:"))
        r = await spades.fake.select(alice, board, custom_id=select["custom_id"], values=["games__all"])
        assert r.type == 7 and "Sorted by games played" in board.embeds[0]["footer"]["text"]
        assert "W/G count every game" in board.embeds[0]["footer"]["text"]
        assert ranked_ids(board) == model.ranking("games", bots=True)[:PAGE_SIZE]

        # the board's custom_ids carry its server: the same interaction from another server (a
        # crafted client, a copied message) is answered privately and never shows or edits it
        shown = board.embeds[0]["description"]
        other = spades.fake.add_guild("Other club")
        lounge = other.add_text_channel("lounge")
        other.add_member(alice)
        await spades.settle()
        sort_id = next(s["custom_id"] for s in board.selects if s["custom_id"].startswith("lbsort:"))
        for data in ({"custom_id": button(board, "◀")["custom_id"], "component_type": 2},
                     {"custom_id": sort_id, "component_type": 3, "values": ["games"]}):  # fmt: skip
            # (the fake's own interaction builder: no client would show another server's button)
            r = await spades.fake._component_interaction(alice, lounge, board, data)
            assert r.ephemeral and await said(r) == spades.mentioned(WRONG_SERVER), data
            assert board.embeds[0]["description"] == shown  # the board did not move
        assert spades.fake.public_messages(lounge) == []
        r = await spades.fake.slash(alice, lounge, "leaderboard")  # that server has its own (empty) board
        assert r.ephemeral and await said(r) == spades.mentioned(EMPTY_SERVER)


async def test_leaderboard_and_stats_after_games_played_from_the_panel(spades: Spades) -> None:
    """alice and bob play their seats from their private panels (alice against bob, two bots),
    then alice plays with three bots; /stats and /leaderboard match what the posts showed."""
    alice, bob, carol = spades.users["alice"], spades.users["bob"], spades.users["carol"]
    model = Model()
    options = {"target": 50, "play_seconds": 600, "bid_seconds": 600, "bots": "easy"}
    async with spades.running(speed=100):
        for humans in ([alice, bob], [alice]):
            game = await open_and_start(spades, spades.channel, humans, **options)
            played = await asyncio.gather(*(play(spades, PanelTurns(spades, game, u)) for u in humans))
            assert all(played)
            await finish(spades, game, model)
            await spades.settle()
        assert model.of(alice.id).all_games == 2 and model.of(bob.id).all_games == 1

        r = await spades.slash(carol, "leaderboard")
        assert not r.ephemeral and r.message is not None
        board = r.message
        assert set(ranked_ids(board)) == {alice.id, bob.id}  # bots never on the board; carol never played
        # both games had bots: the board does not count them as wins or games (one human with three
        # bots must not farm the top spot), it only marks them
        assert board_lines(board) == {u: model.line(u) for u in (alice.id, bob.id)}
        assert model.line(alice.id)[:3] == (0, 0, 2)
        assert board.buttons == []  # one page: no ◀ ▶
        assert "page 1/1" in board.embeds[0]["footer"]["text"]

        r = await spades.slash(alice, "stats")
        assert r.ephemeral and r.message is not None  # a personal lookup stays private
        fields = {f["name"]: f["value"] for f in r.message.embeds[0]["fields"]}
        mine = model.of(alice.id)
        # the same counted games as the board (docs/COUNTED_GAMES.md): none, so no rate and no rank
        assert fields["Games"] == "0 (0 W · 0 L)"
        assert fields["Win rate"] == "–" and fields["Rank"] == "not ranked yet (no counted game)"
        assert fields["🤖 Not counted"] == "2 games with bots (not in games, wins or rank)"
        assert fields["Bags"].endswith(f"in {mine.hands} hand{'s' * (mine.hands != 1)})")
        assert fields["Nils"] == f"{mine.nils_made} made of {mine.nils_tried}"
        if mine.contracts_bid:
            assert fields["Bid accuracy"].endswith(
                f"({mine.contracts_made}/{mine.contracts_bid} contracts made)"
            )

        r = await spades.fake.slash(carol, spades.channel, "stats", options={"user": bob, "share": True})
        assert not r.ephemeral and r.message is not None
        fields = {f["name"]: f["value"] for f in r.message.embeds[0]["fields"]}
        assert fields["Games"] == "0 (0 W · 0 L)" and fields["🤖 Not counted"].startswith("1 game with bots")

        r = await spades.slash(carol, "leaderboard", sort="bid_accuracy")
        assert r.message is not None and ranked_ids(r.message) == model.ranking("bid_accuracy")
