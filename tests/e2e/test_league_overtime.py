"""A league round's time is called during a hand, and the scores are level after it: the league's
time call breaks the tie (``overtime``: one more hand decides; ``bags``: the fewer bags win), end
to end.

Four humans play every turn from their own panels with a fixed script under the harness's deal
seed (7): a fixed bid per hand and always their lowest legal card (by rank, then card number).
Every player plays the same script, so the result does not depend on who sits where. The scripts
were found by playing them on ``engine.Game.new(ruleset, seed=7, fair=True)``, the game
``bot/table/lifecycle.py`` deals a table under the test deal seed: with everyone bidding 4 the
first hand sets both sides (-80 to -80) and an overtime hand bid at 3 each goes to one side (-17 to
-140); under ``bag_value=0`` everyone bidding 2 makes both sides 40 with 3 bags against 2.

The tests move the bot's clock forward a little after every move, so the round's time (5 minutes)
runs out in the middle of the first hand while no turn timer does (two minutes a turn here: nobody
is absent, no seat is played by a bot).
"""

from __future__ import annotations

import asyncio
import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

import pytest

import engine
from bot.storage.league_rows import Result
from fakediscord import InteractionResult, Message, User
from tests.e2e.harness import (
    CARD_ID,
    PanelTurns,
    SeenGame,
    Spades,
    panel_cards,
    panel_choice,
    said,
    stored_game,
)
from tests.e2e.leagues import (
    advance_to,
    checkin_posts,
    create,
    first_start,
    posts_with,
    running,
    stored_leagues,
    the_one_table,
)

SPEED = 10.0  # the bot's clock: a 120 s turn timer is 12 s of this process's time
TURN_SECONDS = 120
STEP = 10.0  # the bot's clock moved after each move until time is called (the round lasts 300 s)


def lowest_card(panel: Message) -> str:
    """The custom id of the lowest card the panel lets its player play (the script's card)."""
    legal = [(c, cid) for c, cid, ok in panel_cards(panel) if ok and CARD_ID.match(cid)]
    assert legal, "no playable card on the panel"
    return min(legal, key=lambda x: (engine.rank_of(x[0]), x[0]))[1]


async def scripted_player(
    spades: Spades, game: SeenGame, user: User, called: asyncio.Event, bids_of: dict[int, str]
) -> Counter[str]:
    """``user`` plays the script from their own panel until the game post (``bids_of``: their bid
    in hand 1, 2, ...); the moves made, by kind. Until time is called (``called``) the bot's clock
    moves ``STEP`` seconds after each move."""
    seat = PanelTurns(spades, game, user)
    moves: Counter[str] = Counter()
    while (turn := await seat.next(lambda: False)) is not None:
        _, panel = turn
        choice = panel_choice(panel)
        assert choice is not None
        kind, component = choice
        r: InteractionResult
        if kind == "bid":
            want = bids_of[moves["bid"] + 1]  # the script's bid in this hand
            assert want in [str(o["value"]) for o in component["options"]], component["options"]
            r = await spades.fake.select(user, panel, custom_id=str(component["custom_id"]), values=[want])
        elif kind == "card":
            r = await spades.fake.click(user, panel, custom_id=lowest_card(panel))
        else:  # the cards are dealt face down (blind nil is offered): a look first
            assert kind == "look", kind
            r = await spades.fake.click(user, panel, custom_id=str(component["custom_id"]))
        assert r.error is None, r.error
        seat.acted(user, r, kind)
        moves[kind] += 1
        if not called.is_set():
            # the bot's clock only: the fake Discord's times the interactions other players may
            # have in flight (their panels), which a jump would make late
            assert spades.clock is not None
            spades.clock.advance(STEP)
    return moves


@dataclass
class Played:
    """A scripted night's one table once its game is over and the night's results are posted."""

    game: engine.Game  # as stored
    moves: list[Counter[str]]  # each player's moves, by kind
    notices: Callable[[str], list[Message]]  # the table thread's posts that contain a text
    side_of: dict[int, int]  # player -> side, as seated
    result: Result  # the table's result, as stored
    post: str  # the night's results post


async def scripted_night(spades: Spades, bids: dict[int, str], time_call: str, **options: Any) -> Played:
    """A one-round league night of four humans playing the script (``bids``: their bid in hand 1,
    2, ...) with ``time_call``; the round's time is called during the first hand (asserted)."""
    players = [spades.fake.add_user(f"ot{i}") for i in range(4)]
    answer = await create(
        spades, rounds=1, round_minutes=5, target=500, weeks=2, time_call=time_call,
        bid_seconds=TURN_SECONDS, play_seconds=TURN_SECONDS, **options,
    )  # fmt: skip
    assert "is set" in answer, answer
    first = await first_start(spades)
    advance_to(spades, first - timedelta(minutes=30))
    await spades.wait_for(lambda: bool(checkin_posts(spades)), what="the check-in post")
    post = checkin_posts(spades)[0]
    for p in players:
        assert "checked in" in await said(await spades.fake.click(p, post, label="Check in"))
    night, table = await the_one_table(spades, first)
    assert table.table_id is not None and table.channel_id is not None
    table_id = table.table_id
    thread = spades.guild.channels[table.channel_id]
    game = SeenGame(thread, table_id, 0, {}, with_bots=False)

    def notices(text: str) -> list[Message]:
        return [m for m in spades.fake.public_messages(thread) if text in m.content]

    called = asyncio.Event()
    hand_at_call: list[int] = []

    async def watch_the_call() -> None:
        await spades.wait_for(lambda: bool(notices("**last hand**")), timeout=120, what="the last hand")
        called.set()
        stored = await stored_game(spades, table_id)
        hand_at_call.append(stored.hand_no)
        assert not stored.over and stored.time_call == time_call

    watcher = asyncio.create_task(watch_the_call())
    moves = await asyncio.gather(*(scripted_player(spades, game, p, called, bids) for p in players))
    await watcher
    # time was called in the first hand, while it was being played (not between hands)
    assert hand_at_call == [1]
    seats = (await spades.stored_table(table_id)).data["seats"]
    await spades.wait_for(lambda: bool(posts_with(spades, "night 1 results")), what="the night's results")
    async with stored_leagues(spades) as store:
        (result,) = await store.rounds.night_results(night.id)
    (results_post,) = posts_with(spades, "night 1 results")
    return Played(
        await stored_game(spades, table_id),
        list(moves),
        notices,
        {s["user_id"]: i % 2 for i, s in enumerate(seats)},
        result,
        results_post.content,
    )


def winners_in(post: str) -> set[int]:
    """The players the results post marks as the winners (🏆: their side's mentions)."""
    won = post.split("🏆 ")[1].split("**")[0]
    return {int(u) for u in re.findall(r"<@(\d+)>", won)}


@pytest.mark.both_backends
async def test_a_tie_at_time_plays_one_overtime_hand_that_decides(spades: Spades) -> None:
    """The league's default time call (``overtime``): every player bids 4 in the called hand (both
    sides set: -80 to -80) and 3 in the overtime hand, which one side wins."""
    async with running(spades, speed=SPEED):
        played = await scripted_night(spades, {1: "4", 2: "3"}, "overtime")
        (last_hand,) = played.notices("**last hand**")
        assert "a tie plays one overtime hand" in last_hand.content
        # the first hand ended level: the overtime hand was announced, dealt and played
        (overtime,) = played.notices("one **overtime hand** decides")
        assert overtime.id > last_hand.id
        # two hands: each player bid twice and played 26 cards
        assert [(m["bid"], m["card"]) for m in played.moves] == [(2, 26)] * 4
        final = played.game
        assert final.over and final.end_reason == "overtime" and final.hand_no == 2
        first_hand, _ = final.hand_records
        assert first_hand["result"]["scores"] == [-80, -80]  # the tie at time
        assert final.winner == 1 and list(final.scores) == [-140, -17]
        # the overtime hand's result is the table's: as stored, and in the night's results post
        result = played.result
        assert result.complete and result.winner_side == 1 and list(result.scores) == [-140, -17]
        assert "as it stood" not in played.post and "a draw" not in played.post
        assert winners_in(played.post) == {u for u, side in played.side_of.items() if side == 1}
        assert "**-17**" in played.post and "**-140**" in played.post
        # the table's game post, in its thread: the overtime hand's winners, after two hands
        (over,) = [m for m in played.notices("🏆 ") if m.content.startswith("🏆 ")]
        assert "win -17 – -140 after 2 hands" in over.content, over.content
        assert all(f"<@{u}>" in over.content for u, side in played.side_of.items() if side == 1)
    assert spades.fake.take_violations() == []


@pytest.mark.both_backends
async def test_a_tie_at_time_goes_to_the_fewer_bags(spades: Spades) -> None:
    """``time_call:bags`` with bags worth no points (``bag_value=0``; at a bag a point a level score
    means level bags): every player bids 2 in the called hand, both sides make it, 40 to 40, one
    side with 3 bags and the other with 2; no more hand is dealt and the fewer bags win."""
    async with running(spades, speed=SPEED):
        played = await scripted_night(spades, {1: "2"}, "bags", rules="bag_value=0")
        (last_hand,) = played.notices("**last hand**")
        assert "a tie goes to the side with fewer bags" in last_hand.content
        assert played.notices("overtime hand") == []
        assert [(m["bid"], m["card"]) for m in played.moves] == [(1, 13)] * 4  # one hand
        final = played.game
        assert final.over and final.end_reason == "bags" and final.hand_no == 1
        assert list(final.scores) == [40, 40] and list(final.bags) == [3, 2] and final.winner == 1
        result = played.result
        assert result.complete and result.winner_side == 1 and list(result.scores) == [40, 40]
        assert list(result.bags) == [3, 2]
        assert "a draw" not in played.post
        assert winners_in(played.post) == {u for u, side in played.side_of.items() if side == 1}
        (over,) = [m for m in played.notices("🏆 ") if m.content.startswith("🏆 ")]
        assert "win 40 – 40 after 1 hand" in over.content, over.content
        assert all(f"<@{u}>" in over.content for u, side in played.side_of.items() if side == 1)
    assert spades.fake.take_violations() == []
