"""Races, restarts and absence: two clicks at once, a restart mid-trick, turn timeouts.

The tests play from the players' panels and read what Discord shows (the table message, panels,
answers, notes in the channel) and what is stored (on a connection of its own). One harness call
still looks inside the bot, on purpose: ``spades.settle`` waits until the bot owes no edit (nothing
on Discord tells that an edit is still due, and a "nothing changed" check made before it would pass
for nothing). ``check_public`` (also run by ``spades.slash``) compares public messages with the
cards held as stored, the privacy invariant.
"""

from __future__ import annotations

import asyncio
import re
import time

import pytest

import engine
from bot.model import MOVED_ON
from bot.views import APOLOGY
from fakediscord import Message, User
from tests.e2e.harness import (
    CARD_ID,
    SeenGame,
    Spades,
    live_message,
    open_and_start,
    open_seen,
    panel_answer,
    panel_with_a_card,
    playable_cards,
    said,
    stored_game,
    stored_seat,
    stored_seat_of,
    turn_of,
    wait_stored,
)


def _seat(game: SeenGame, user: User) -> int:
    """``user``'s seat (0-based), as the lobby message showed it."""
    return next(seat for seat, uid in game.seats.items() if uid == user.id)


def _cards_on(panel: Message) -> set[int]:
    """Every card the panel shows as a button, playable now or not: the player's hand."""
    return {int(m.group(1)) for b in panel.buttons if (m := CARD_ID.match(b.get("custom_id", "")))}


async def _wait_stored_stamp(spades: Spades, table_id: int, above: int, what: str) -> None:
    """Until the stored stamp of ``table_id`` is above ``above`` (each accepted action bumps it)."""
    await wait_stored(spades, table_id, lambda row: int(row.data["stamp"]) > above, what)


@pytest.mark.both_backends
async def test_two_clicks_at_once_count_once(spades: Spades) -> None:
    alice = spades.users["alice"]
    async with spades.running(speed=100):
        game = await open_and_start(spades, spades.channel, [alice], play_seconds=600, bid_seconds=600)
        panel = await panel_with_a_card(spades, game, alice)  # her first turn to play
        held_before = _cards_on(panel)
        card, cid = playable_cards(panel)[0]
        r1, r2 = await asyncio.gather(
            spades.fake.click(alice, panel, custom_id=cid), spades.fake.click(alice, panel, custom_id=cid)
        )
        answers = sorted(str((r.record.response_data or {}).get("content", "")) for r in (r1, r2))
        assert sum(a.startswith(MOVED_ON) for a in answers) == 1, answers
        assert sum(a.startswith(f"You played {engine.card_pretty(card)}.") for a in answers) == 1, answers
        # exactly one card left her hand: as stored, and as her panel shows it
        stored = await stored_game(spades, game.table_id)
        assert set(engine.cards_of(stored.hand(_seat(game, alice)))) == held_before - {card}
        assert _cards_on(await _my_hand(spades, game, alice)) == held_before - {card}


@pytest.mark.both_backends
async def test_restart_mid_trick_loses_nothing_and_old_buttons_work(spades: Spades) -> None:
    alice = spades.users["alice"]
    async with spades.running(speed=100):
        game = await open_and_start(spades, spades.channel, [alice], play_seconds=600, bid_seconds=600)
        # play until it is alice's turn with cards already on the trick (her panel says who played what)
        panel = await panel_with_a_card(spades, game, alice)
        while "\nTrick: you …" in panel.content:  # she leads: play and wait for her next turn
            await spades.fake.click(alice, panel, custom_id=playable_cards(panel)[0][1])
            panel = await panel_with_a_card(spades, game, alice)
        await spades.settle()
        shown, hand = _table_text(spades, game), panel.content
        card, cid = playable_cards(panel)[0]
    stamp = await _stored_stamp(spades, game.table_id)
    # a new bot process on the same database file
    async with spades.running(speed=100):
        await spades.settle()
        assert _table_text(spades, game) == shown  # the table as it was
        fresh = await _my_hand(spades, game, alice)
        assert fresh.content == hand and fresh.buttons == panel.buttons  # her hand and turn as they were
        r = await spades.fake.click(alice, panel, custom_id=cid)  # a button from before the restart
        assert (await said(r)).startswith(f"You played {engine.card_pretty(card)}."), await said(r)
        await _wait_stored_stamp(spades, game.table_id, stamp + 1, "the bots after the restart")
        await spades.check_public()


async def test_turn_timeouts_hand_the_seat_to_the_bot_then_away(spades: Spades) -> None:
    alice = spades.users["alice"]
    ran_out = f"⏱ <@{alice.id}> ran out of time"
    away = f"💤 <@{alice.id}> missed two turns in a row"

    def texts() -> list[str]:
        return [m.content for m in spades.fake.public_messages(spades.channel)]

    async with spades.running(speed=50):
        # 0.3 s per turn here
        game = await open_and_start(spades, spades.channel, [alice], play_seconds=15, bid_seconds=15)
        await spades.wait_for(
            lambda: any(x.startswith(away) for x in texts()), timeout=30, what="the away notice"
        )
        # one reminder per missed turn, each edited once the bot played: the first says when, the
        # second that she is away (marked at the second turn in a row she missed, not later); no
        # post of their own
        first, second = spades.fake.pings(alice)[:2]
        said_first = [str(h.get("content", "")) for h in first.history]
        assert said_first[0].startswith(f"⏰ <@{alice.id}>, it's your turn"), said_first
        assert re.fullmatch(rf"⏰ <@{alice.id}>: the bot played for you at <t:\d+:t>\.", first.content)
        assert second.content.startswith(away) and len(second.history) == 1
        assert not any(x.startswith(ran_out) for x in texts())
        seat = await stored_seat(spades, game.table_id, _seat(game, alice))
        assert seat is not None and seat["away"]
        reminders = [
            q
            for q in spades.fake.requests_to("POST", "/channels/{channel_id}/messages")
            if (q.json or {}).get("content", "").startswith("⏰")
        ]
        allowed = reminders[0].json["allowed_mentions"]
        assert [int(u) for u in allowed["users"]] == [alice.id] and "users" not in allowed.get("parse", [])
        edits = [
            q
            for q in spades.fake.requests_to("PATCH", "/channels/{channel_id}/messages/{message_id}")
            if q.path.endswith(f"/{first.id}")
        ]
        assert edits and all(q.json["allowed_mentions"] == {"parse": []} for q in edits)  # no ping again
        assert re.findall(r"<@!?(\d+)>", reminders[0].json["content"]) == [str(alice.id)]  # pings her only
        # the bot keeps playing for her; she comes back with the button
        stamp = await _stored_stamp(spades, game.table_id)
        await _wait_stored_stamp(spades, game.table_id, stamp + 2, "the bot playing on")
        assert len(spades.fake.pings(alice)) == 2  # away: no more reminders

        def back_button() -> bool:
            live = live_message(spades, game.channel, game.table_id)
            return live is not None and any(b.get("label") == "I'm back" for b in live.buttons)

        await spades.wait_for(back_button, what="the I'm back button")
        panel = await _my_hand(spades, game, alice)
        assert "💤 You're marked away" in panel.content
        assert any(b.get("label") == "I'm back" for b in panel.buttons)
        live = live_message(spades, game.channel, game.table_id)
        assert live is not None
        r = await spades.fake.click(alice, live, label="I'm back")
        answer = await panel_answer(spades, r)
        # the answer's first version with words (the bot redraws the panel in place as the bots play on)
        first = next(v for v in [*(str(h.get("content", "")) for h in answer.history), answer.content] if v)
        assert first.startswith("Welcome back!"), first
        seat = await stored_seat(spades, game.table_id, _seat(game, alice))
        assert seat is not None and not seat["away"]
        await spades.check_public()


async def test_an_open_hand_panel_wakes_up_when_the_turn_comes(spades: Spades) -> None:
    alice = spades.users["alice"]
    async with spades.running(speed=20):
        game = await open_and_start(spades, spades.channel, [alice], play_seconds=600, bid_seconds=600)
        panel = await panel_with_a_card(spades, game, alice)
        await spades.fake.click(alice, panel, custom_id=playable_cards(panel)[0][1])
        assert not playable_cards(panel)  # she played: the panel is updated in place ...
        # ... and when her turn comes again, the same panel wakes up
        await spades.wait_for(lambda: bool(playable_cards(panel)), what="the panel refresh")
        stored = await stored_game(spades, game.table_id)  # her turn: nothing moves until she acts
        assert {c for c, _ in playable_cards(panel)} == set(stored.legal_cards(_seat(game, alice)))
        assert "**Your turn**" in panel.content


async def _to_alices_play_turn(spades: Spades) -> SeenGame:
    """alice (with three bots) plays from her panel until it offers her a card to play."""
    alice = spades.users["alice"]
    game = await open_and_start(spades, spades.channel, [alice], play_seconds=600, bid_seconds=600)
    await panel_with_a_card(spades, game, alice)
    await spades.settle()
    return game


async def _stored_stamp(spades: Spades, table_id: int) -> int:
    return int((await spades.stored_table(table_id)).data["stamp"])


async def _my_hand(spades: Spades, game: SeenGame, user: User) -> Message:
    """``user`` clicks "My hand" on the table message: a fresh panel."""
    live = live_message(spades, game.channel, game.table_id)
    assert live is not None
    r = await spades.fake.click(user, live, label="My hand")
    return await spades.panel_of(r)  # (an update of the table message, the panel in a follow-up)


def _table_text(spades: Spades, game: SeenGame) -> str:
    live = live_message(spades, game.channel, game.table_id)
    assert live is not None
    return live.content


async def test_an_unexpected_failure_still_answers_and_changes_nothing(
    spades: Spades, caplog: pytest.LogCaptureFixture
) -> None:
    """A bug in the save path (the product's fault injection, FAULT_SAVE_ERROR=unexpected):
    the click still gets the apology, nothing changes, and the log keeps the cause."""
    alice = spades.users["alice"]
    async with spades.running(speed=100):
        game = await _to_alices_play_turn(spades)
    before = await _stored_stamp(spades, game.table_id)
    spades.faults.save_error = "unexpected"
    async with spades.running(speed=100):
        await spades.settle()
        panel = await _my_hand(spades, game, alice)
        card, custom_id = playable_cards(panel)[0]
        shown = _table_text(spades, game)
        r = await spades.fake.click(alice, panel, custom_id=custom_id)
        assert r.ephemeral and await said(r) == APOLOGY
        assert engine.card_pretty(card) not in await said(r)
        await spades.settle()
        assert _table_text(spades, game) == shown  # nothing moved on the table
        assert card in dict(playable_cards(await _my_hand(spades, game, alice)))  # still hers to play
        assert any("FAULT_SAVE_ERROR=unexpected" in (rec.exc_text or "") or
                   (rec.exc_info and "FAULT_SAVE_ERROR" in str(rec.exc_info[1]))
                   for rec in caplog.records), "the cause is not in the log"  # fmt: skip
    assert await _stored_stamp(spades, game.table_id) == before


async def test_a_failing_database_refuses_the_action_and_changes_nothing(
    spades: Spades, caplog: pytest.LogCaptureFixture
) -> None:
    """Every save fails (FAULT_SAVE_ERROR=storage): the player is told plainly, the table is
    as it was, and the log names the table and the real cause."""
    alice = spades.users["alice"]
    async with spades.running(speed=100):
        game = await _to_alices_play_turn(spades)
    table_id = game.table_id
    before = await _stored_stamp(spades, table_id)
    spades.faults.save_error = "storage"
    async with spades.running(speed=100):
        await spades.settle()
        panel = await _my_hand(spades, game, alice)
        card, custom_id = playable_cards(panel)[0]
        shown = _table_text(spades, game)
        r = await spades.fake.click(alice, panel, custom_id=custom_id)
        answer = await said(r)
        # the panel is redrawn under the plain answer (the player's own, private)
        sorry = "⚠️ Sorry, I couldn't save that just now; nothing changed. Please try again.\n"
        assert answer.startswith(sorry)
        await spades.settle()
        assert _table_text(spades, game) == shown  # nothing moved on the table
        failed = [rec for rec in caplog.records if rec.getMessage() == f"saving table {table_id} failed"]
        assert failed and "disk I/O error" in str(failed[0].exc_info[1])  # type: ignore[index]
    assert await _stored_stamp(spades, table_id) == before
    spades.faults.save_error = None
    async with spades.running(speed=100):  # the fault gone, the same click goes through
        panel = await _my_hand(spades, game, alice)
        r = await spades.fake.click(alice, panel, custom_id=dict(playable_cards(panel))[card])
        await spades.wait_for(
            lambda: panel.content.startswith(f"You played {engine.card_pretty(card)}."), what="the play"
        )
    assert await _stored_stamp(spades, table_id) == before + 1


async def test_a_slow_database_defers_then_answers(spades: Spades) -> None:
    """When saving takes longer than the defer threshold (FAULT_STORAGE_WRITE_DELAY), the click is
    acknowledged in time and the panel updated afterwards."""
    alice = spades.users["alice"]
    async with spades.running(speed=100):
        game = await _to_alices_play_turn(spades)
    async with spades.running(speed=100):
        panel = await _my_hand(spades, game, alice)
        card, custom_id = playable_cards(panel)[0]
        spades.faults.storage_write_delay = 2.5  # every write from now on (read at each one)
        r = await spades.fake.click(alice, panel, custom_id=custom_id)
        assert r.type == 6  # acknowledged before the work was done (the panel is updated in place)
        await spades.wait_for(
            lambda: panel.content.startswith(f"You played {engine.card_pretty(card)}."),
            what="the panel update",
            timeout=30,
        )
        spades.faults.storage_write_delay = 0


@pytest.mark.both_backends
async def test_turn_timers_survive_a_restart(spades: Spades) -> None:
    """A turn's deadline is stored: when it passes while the bot is down, the restarted bot acts
    for the absent player at once, not a fresh full turn after it came back.

    No step depends on how fast the machine is: the bot stops well inside alice's turn, the test
    waits (bot down) until the stored deadline has passed, and a restarted clock would take a whole
    turn more than the bound checked."""
    alice = spades.users["alice"]
    turn = 6.0  # 60 s turns at speed 10

    def timeouts() -> int:
        note = f"⏱ <@{alice.id}> ran out of time"
        return sum(m.content.startswith(note) for m in spades.fake.public_messages(spades.channel))

    async with spades.running(speed=10):
        game = await open_and_start(spades, spades.channel, [alice], play_seconds=60, bid_seconds=60)
        await spades.wait_for(lambda: turn_of(spades, game) == ([alice.id], "bid"), what="her turn to bid")
        table_id = game.table_id
    before = timeouts()
    async with spades.stored() as db:  # what is stored: the turn's deadline (unix seconds, the bot's clock)
        row = await db.tables.get(table_id)
    assert row is not None and row.status == "playing"
    deadline = row.data["deadline"]
    clock = spades.clock_at(10)  # (the bot's: it keeps running while the bot is down)
    assert deadline is not None and deadline > clock.now(), "alice's turn ran out before the restart"
    await spades.wait_for(lambda: clock.now() > deadline, timeout=turn + 5, what="the stored deadline")
    started = time.monotonic()
    async with spades.running(speed=10):
        await spades.wait_for(lambda: timeouts() > before, timeout=30, what="the timeout after the restart")
        assert time.monotonic() - started < turn, "the restarted bot gave alice a new full turn"


async def test_channel_post_and_edit_failures_are_logged_and_recovered(
    spades: Spades, caplog: pytest.LogCaptureFixture
) -> None:
    """Discord refuses the live message's edit (deleted by a moderator: 404; a permission taken
    away: 403) and the re-post (403): each is logged with its status, the table message comes back
    at the bottom of the channel once Discord accepts it again, and the game goes on."""
    alice, bob, carol = spades.users["alice"], spades.users["bob"], spades.users["carol"]
    edit_route = "/channels/{channel_id}/messages/{message_id}"
    post_route = "/channels/{channel_id}/messages"
    async with spades.running(speed=100):
        table_id = await open_seen(spades, alice, play_seconds=600, bid_seconds=600)

        def live() -> Message:
            msg = live_message(spades, spades.channel, table_id)
            assert msg is not None
            return msg

        first = live()
        spades.fake.fail_next("PATCH", edit_route, status=404)
        r = await spades.slash(bob, "join")
        assert (await said(r)).startswith("You took seat")
        # re-posted at the bottom: the lost one is not edited forever
        await spades.wait_for(lambda: f"<@{bob.id}>" in live().content, what="the table message again")
        second = live()
        assert second.id != first.id
        spades.fake.fail_next("PATCH", edit_route, status=403)
        spades.fake.fail_next("POST", post_route, status=403)
        r = await spades.slash(carol, "join")
        assert (await said(r)).startswith("You took seat")  # the action counts whatever the channel does
        await spades.settle()
        logged = caplog.text
        assert f"editing message {second.id} failed: 403" in logged
        assert f"posting in channel {spades.channel.id} failed: 403" in logged
        assert f"<@{carol.id}>" not in live().content  # Discord refused both
        r = await spades.slash(alice, "table")  # the next change (or /table) puts it back
        await spades.wait_for(lambda: f"<@{carol.id}>" in live().content, what="the table message back")
        assert f"<@{bob.id}>" in live().content and live().id != second.id
        assert await stored_seat_of(spades, table_id, carol) is not None


async def test_a_bot_turn_that_cannot_be_saved_is_retried_until_it_can(
    spades: Spades, caplog: pytest.LogCaptureFixture
) -> None:
    """Alice's turn runs out while every save fails (FAULT_SAVE_ERROR=storage): the bot's move
    for her is retried, never half-applied; once the database works again it goes through."""
    alice = spades.users["alice"]
    note = f"⏱ <@{alice.id}> ran out of time; the bot acted for them."

    def timeouts() -> int:
        return sum(m.content == note for m in spades.fake.public_messages(spades.channel))

    async with spades.running(speed=100):
        # 6 s turns at this scale; alice never acts
        game = await open_and_start(spades, spades.channel, [alice], play_seconds=600, bid_seconds=600)
        await spades.wait_for(lambda: f"➜ <@{alice.id}> to " in _table_text(spades, game), what="her turn")
    table_id = game.table_id
    before = await _stored_stamp(spades, table_id)
    spades.faults.save_error = "storage"
    async with spades.running(speed=100):

        def failures() -> int:
            return sum(1 for rec in caplog.records if rec.getMessage() == f"saving table {table_id} failed")

        await spades.wait_for(lambda: failures() >= 2, timeout=30, what="the bot's move to be retried")
        await spades.settle()
        assert timeouts() == 0 and f"➜ <@{alice.id}> to " in _table_text(spades, game)  # nothing half-applied
    assert await _stored_stamp(spades, table_id) == before
    spades.faults.save_error = None
    async with spades.running(speed=100):
        await spades.wait_for(lambda: timeouts() == 1, timeout=30, what="the move once saved")
    assert await _stored_stamp(spades, table_id) > before
