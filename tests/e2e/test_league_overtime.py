"""A league round's time is called during a hand, and the scores are level after it: the league's
time call breaks the tie (``overtime``: one more hand decides; ``bags``: the fewer bags win, equal
bags are a draw), end to end.

Four humans play every turn from their own panels with a fixed script under the harness's deal
seed (7): every player bids 4 in the first hand and 3 in the next, and always plays their lowest
legal card. Under that seed the first hand sets both sides (-80 to -80: a tie whoever sits where,
since everyone plays the same script), and the overtime hand goes to one side (-17 to -140). The
tests move the clocks forward a little after every move, so the round's time (5 minutes) runs out
in the middle of the first hand while no turn timer does (two minutes a turn here: nobody is
absent, nobody's seat is played by a bot).
"""

from __future__ import annotations

import asyncio
import re
from collections import Counter
from datetime import timedelta

import engine
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
STEP = 10.0  # the clocks moved after each move until time is called (the round lasts 300 s)
BIDS = {1: "4", 2: "3"}  # the script's bid in the first hand and in the next


def lowest_card(panel: Message) -> str:
    """The custom id of the lowest card the panel lets its player play (the script's card)."""
    legal = [(c, cid) for c, cid, ok in panel_cards(panel) if ok and CARD_ID.match(cid)]
    assert legal, "no playable card on the panel"
    return min(legal, key=lambda x: (engine.rank_of(x[0]), x[0]))[1]


async def scripted_player(spades: Spades, game: SeenGame, user: User, called: asyncio.Event) -> Counter[str]:
    """``user`` plays the script from their own panel until the game post; the moves made, by kind. Until
    time is called (``called``) the clocks move ``STEP`` seconds after each move."""
    seat = PanelTurns(spades, game, user)
    bids = 0
    moves: Counter[str] = Counter()
    while (turn := await seat.next(lambda: False)) is not None:
        _, panel = turn
        choice = panel_choice(panel)
        assert choice is not None
        kind, component = choice
        r: InteractionResult
        if kind == "bid":
            bids += 1
            values = [str(o["value"]) for o in component["options"]]
            assert BIDS[bids] in values, values
            r = await spades.fake.select(
                user, panel, custom_id=str(component["custom_id"]), values=[BIDS[bids]]
            )
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


async def test_a_tie_at_time_plays_one_overtime_hand_that_decides(spades: Spades) -> None:
    players = [spades.fake.add_user(f"ot{i}") for i in range(4)]
    async with running(spades, speed=SPEED):
        answer = await create(
            spades, rounds=1, round_minutes=5, target=500, weeks=2,
            bid_seconds=TURN_SECONDS, play_seconds=TURN_SECONDS,
        )  # fmt: skip
        assert "is set" in answer and "a tie plays one overtime hand" in answer, answer
        first = await first_start(spades)
        advance_to(spades, first - timedelta(minutes=30))
        await spades.wait_for(lambda: bool(checkin_posts(spades)), what="the check-in post")
        post = checkin_posts(spades)[0]
        for p in players:
            assert "checked in" in await said(await spades.fake.click(p, post, label="Check in"))
        night, table = await the_one_table(spades, first)
        assert table.table_id is not None and table.channel_id is not None
        thread = spades.guild.channels[table.channel_id]
        game = SeenGame(thread, table.table_id, 0, {}, with_bots=False)

        def notices(text: str) -> list[Message]:
            return [m for m in spades.fake.public_messages(thread) if text in m.content]

        called = asyncio.Event()
        hand_at_call: list[int] = []

        async def watch_the_call() -> None:
            await spades.wait_for(lambda: bool(notices("**last hand**")), timeout=120, what="the last hand")
            called.set()
            stored = await stored_game(spades, table.table_id)  # type: ignore[arg-type]
            hand_at_call.append(stored.hand_no)
            assert not stored.over and stored.time_call == "overtime"

        watcher = asyncio.create_task(watch_the_call())
        moves = await asyncio.gather(*(scripted_player(spades, game, p, called) for p in players))
        await watcher
        # time was called in the first hand, while it was being played (not between hands)
        assert hand_at_call == [1]
        (last_hand,) = notices("**last hand**")
        assert "a tie plays one overtime hand" in last_hand.content
        # the first hand ended level: the overtime hand was announced, dealt and played
        (overtime,) = notices("one **overtime hand** decides")
        assert overtime.id > last_hand.id
        # two hands: each player bid twice and played 26 cards
        assert [(m["bid"], m["card"]) for m in moves] == [(2, 26)] * 4
        final = await stored_game(spades, table.table_id)
        assert final.over and final.end_reason == "overtime" and final.hand_no == 2
        first_hand, _ = final.hand_records
        assert first_hand["result"]["scores"] == [-80, -80]  # the tie at time
        assert final.winner == 1 and list(final.scores) == [-140, -17]
        winners = {
            s["user_id"]
            for i, s in enumerate((await spades.stored_table(table.table_id)).data["seats"])
            if i % 2 == 1
        }

        await spades.wait_for(lambda: bool(posts_with(spades, "night 1 results")), what="the night's results")
        async with stored_leagues(spades) as store:
            (result,) = await store.rounds.night_results(night.id)
        assert result.complete and result.winner_side == 1 and list(result.scores) == [-140, -17]
        (results_post,) = posts_with(spades, "night 1 results")
        assert "as it stood" not in results_post.content and "a draw" not in results_post.content
        won = results_post.content.split("🏆 ")[1].split("**")[0]
        assert {int(u) for u in re.findall(r"<@(\d+)>", won)} == winners
        assert "**-17**" in results_post.content and "**-140**" in results_post.content
    assert spades.fake.take_violations() == []
