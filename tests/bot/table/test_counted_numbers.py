"""One game, the same numbers everywhere: the game post, /leaderboard, /stats, /history (its line and
the score sheet) and league standings agree on who won, by what score (the winner's first), and
whether the game is counted (bot.storage.counted; docs/COUNTED_GAMES.md).

Each game is played through the table service: the humans act as the heuristic bot would, from
their own view of the game, so nobody's seat is played by a bot standing in."""

from __future__ import annotations

import re
from typing import Any

import pytest

import engine
from bot import render
from bot.i18n import render as words
from bot.league.standings import GameResult, PointsRule, standings
from bot.model import Seat, humans_to_act
from bot.render.history import game_line, score_sheet_text
from bot.render.league import result_line
from bot.render.stats import leaderboard_line, stats_embed
from bot.storage import Storage
from engine.bots import get_bot
from tests.bot.table.factories import ALICE, BOB, CAROL, CHANNEL, DAVE, GUILD, make_service, wait_until

ACTIONS = {"BidAction": "bid", "PlayAction": "play", "PassAction": "pass", "DrawAction": "draw"}
NAMES = {ALICE: "Ray", BOB: "Bea", CAROL: "Max", DAVE: "Kit"}


async def _play(storage: Storage, humans: list[int | None]) -> Any:
    """A two-hand standard game with these seats (None: a bot), the humans acting themselves."""
    svc = make_service(storage, speed=10000.0)
    done: list[Any] = []
    svc.on_game_finished(lambda table, game: done.append(table))
    try:
        seats = [Seat(u, NAMES[u]) if u is not None else None for u in humans]
        res = await svc.lifecycle.open_seated(
            guild_id=GUILD,
            channel_id=CHANNEL,
            host_id=ALICE,
            seats=seats,
            ruleset=engine.Ruleset.preset("standard", max_hands=2),
            settings={"play_seconds": 600, "bid_seconds": 600, "bot_level": "easy"},
        )
        assert res.ok and res.table is not None, res.message
        tid = res.table.id

        def someone_or_done() -> bool:
            return bool(done) or bool(humans_to_act(svc.tables[tid]))

        while True:
            await wait_until(someone_or_done, "a human's turn or the game's end", timeout=60)
            if done:
                break
            t = svc.tables[tid]
            assert t.game is not None
            seat = humans_to_act(t)[0]
            user = t.seats[seat].user_id  # type: ignore[union-attr]
            if not t.game.has_looked(seat):
                assert (await svc.play.act(tid, user, "look")).ok
                continue
            action = get_bot("heuristic", 1).act(t.game.view(seat))
            kind = ACTIONS[type(action).__name__]
            arg = {"bid": "bid", "play": "card", "pass": "cards", "draw": "keep"}[kind]
            if kind == "bid" and action.bid.kind == "blind_nil":  # type: ignore[attr-defined]
                kind = "blind"
            res = await svc.play.act(tid, user, kind, getattr(action, arg))
            assert res.ok, res.message
        return done[0]
    finally:
        await svc.close()


@pytest.mark.parametrize(
    "humans", [[ALICE, BOB, CAROL, DAVE], [ALICE, None, CAROL, None]], ids=["people", "bots"]
)
async def test_one_game_has_the_same_numbers_everywhere(storage: Storage, humans: list[int | None]) -> None:
    table = await _play(storage, humans)
    g = table.game
    assert g is not None and g.winner is not None
    counted = None not in humans
    win, lose = g.scores[g.winner], g.scores[1 - g.winner]
    final = f"{win} – {lose}"
    winners = [u for s, u in enumerate(humans) if u is not None and table.ruleset.side_of(s) == g.winner]

    # the game post: the winner and the winning score first; a not-counted game says so
    post = render.game_post(table)
    assert f"win {final} after 2 hands." in post.splitlines()[0]
    assert ("this game is not counted on the leaderboard" in post) is not counted

    # storage decided once
    page = await storage.history.recent_games(GUILD)
    (summary,) = page.games
    assert summary.counted is counted and summary.winner_side == g.winner

    # /history: its line and the game's score sheet
    line = words(game_line(summary), "en")
    assert re.search(rf"🏆 .*{win} – .*{lose}", line), line
    assert ("not counted" in line) is not counted
    sheet = score_sheet_text(summary, await storage.history.game_hands(summary.id))
    assert f"won {final} after 2 hands." in words(sheet, "en")

    # /leaderboard and /stats: the same games and wins, for every person at the table
    board = {p.user_id: p for p in await storage.stats.leaderboard(GUILD, limit=10)}
    assert set(board) == {u for u in humans if u is not None}
    for user, p in board.items():
        won = int(user in winners)
        assert (p.games, p.wins, p.not_counted) == (int(counted), won * int(counted), int(not counted))
        text = leaderboard_line(p, provisional=10)
        assert f"{p.wins} W / {p.games} G" in text
        assert ("win –" in text) is not counted  # no rate over no counted game
        mine = await storage.stats.player(GUILD, user)
        assert mine == p
        fields = {f.name: f.value for f in stats_embed(p, name="x", total=len(board), avatar=None).fields}
        assert fields["Games"] == f"{p.games} ({p.wins} W · {p.losses} L)"
        if counted:
            assert fields["Win rate"] == ("100%" if won else "0%") and fields["Rank"].startswith("#")
        else:
            assert fields["Win rate"] == "–" and fields["Rank"] == "not ranked yet (no counted game)"
            assert fields["🤖 Not counted"].startswith("1 game with bots")

    # league standings (a league scores its own games, bot seats included: the same winner and
    # the same wins for a counted game; docs/COUNTED_GAMES.md)
    sides = tuple(
        tuple(u for s, u in enumerate(humans) if u is not None and table.ruleset.side_of(s) == i)
        for i in (0, 1)
    )
    sides_scores = tuple(int(s["score"]) for s in summary.sides)
    rows = standings([GameResult(1, sides, sides_scores, (0, 0), g.winner)], PointsRule())
    for r in rows:
        assert r.wins == int(r.entrant in winners)
        if counted:
            assert r.wins == board[r.entrant].wins
    result = words(result_line(1, sides, sides_scores, g.winner, True), "en")
    assert re.search(rf"🏆 .*\*\*{win}\*\* vs .*\*\*{lose}\*\*", result), result
