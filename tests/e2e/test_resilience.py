"""Races, restarts and absence: two clicks at once, a restart mid-trick, turn timeouts."""

from __future__ import annotations

import asyncio
import re
import time

import pytest

import engine
from bot.model import MOVED_ON
from bot.sandbox.fake import Message, User
from bot.views import APOLOGY
from tests.e2e.conftest import (
    SeenGame,
    Spades,
    answer_of,
    live_message,
    open_and_start,
    panel_with_a_card,
    playable_cards,
    said,
)


async def _alice_and_bots(spades: Spades, **options: object) -> None:
    alice = spades.users["alice"]
    await spades.open_table(alice, **options)
    await spades.slash(alice, "spades start", fill=True)
    await spades.wait_for(lambda: spades.table().status == "playing", what="the start")


@pytest.mark.both_backends
async def test_two_clicks_at_once_count_once(spades: Spades) -> None:
    alice = spades.users["alice"]
    async with spades.running(time_scale=0.01):
        await _alice_and_bots(spades, play_seconds=600, bid_seconds=600)
        # get alice to her first turn to play
        while not (spades.table().game.phase == "play" and spades.acting_humans()):  # type: ignore[union-attr]
            await spades.wait_turn()
            if spades.table().game.phase != "play":  # type: ignore[union-attr]
                await spades.decide(alice)
        g = spades.table().game
        assert g is not None
        seat = spades.seat_of(alice)
        held_before = engine.count(g.hand(seat))
        card = g.legal_cards(seat)[0]
        panel = await spades.panel(alice)
        cid = spades.card_custom_id(panel, card)
        r1, r2 = await asyncio.gather(
            spades.fake.click(alice, panel, custom_id=cid), spades.fake.click(alice, panel, custom_id=cid)
        )
        answers = sorted(str((r.record.response_data or {}).get("content", "")) for r in (r1, r2))
        assert sum(a.startswith(MOVED_ON) for a in answers) == 1, answers
        assert sum(a.startswith(f"You played {engine.card_pretty(card)}.") for a in answers) == 1, answers
        g = spades.table().game
        assert g is not None
        assert engine.count(g.hand(seat)) == held_before - 1  # exactly one card left her hand


@pytest.mark.both_backends
async def test_restart_mid_trick_loses_nothing_and_old_buttons_work(spades: Spades) -> None:
    alice = spades.users["alice"]
    async with spades.running(time_scale=0.01):
        await _alice_and_bots(spades, play_seconds=600, bid_seconds=600)
        # play until it is alice's turn with cards already on the trick
        while True:
            await spades.wait_turn()
            g = spades.table().game
            assert g is not None
            if g.phase == "play" and g.view(spades.seat_of(alice)).current_trick:
                break
            await spades.decide(alice)
        panel = await spades.panel(alice)
        await spades.settle()
        t = spades.table()
        before = t.game.to_dict()  # type: ignore[union-attr]
        table_id, stamp = t.id, t.stamp
        card = t.game.legal_cards(spades.seat_of(alice))[0]  # type: ignore[union-attr]
        cid = spades.card_custom_id(panel, card)
    # a new bot process on the same database file
    async with spades.running(time_scale=0.01):
        t = spades.table()
        assert t.id == table_id and t.stamp == stamp and t.status == "playing"
        assert t.game is not None and t.game.to_dict() == before
        r = await spades.fake.click(alice, panel, custom_id=cid)  # a button from before the restart
        assert "You played" in str((r.record.response_data or {}).get("content", ""))
        await spades.wait_for(lambda: spades.table().stamp > stamp + 1, what="the bots after the restart")
        spades.check_public()


async def test_turn_timeouts_hand_the_seat_to_the_bot_then_away(spades: Spades) -> None:
    alice = spades.users["alice"]
    async with spades.running(time_scale=0.02):
        await _alice_and_bots(spades, play_seconds=15, bid_seconds=15)  # 0.3 s per turn here
        seat = spades.seat_of(alice)
        await spades.wait_for(
            lambda: spades.table().seats[seat].away,
            timeout=30,  # type: ignore[union-attr]
            what="alice marked away",
        )

        def texts() -> list[str]:
            return [m.content for m in spades.fake.public_messages(spades.channel)]

        await spades.wait_for(lambda: any(x.startswith("💤") for x in texts()), what="the away notice")
        assert any(x.startswith(f"⏰ <@{alice.id}>, it's your turn") for x in texts())
        assert any(x.startswith(f"⏱ <@{alice.id}> ran out of time") for x in texts())
        assert any(x.startswith(f"💤 <@{alice.id}> missed two turns in a row") for x in texts())
        reminders = [
            q
            for q in spades.fake.requests_to("POST", "/channels/{channel_id}/messages")
            if (q.json or {}).get("content", "").startswith("⏰")
        ]
        allowed = reminders[0].json["allowed_mentions"]
        assert [int(u) for u in allowed["users"]] == [alice.id] and "users" not in allowed.get("parse", [])
        pinged = spades.fake.pings(alice)
        assert pinged and all(m.content.startswith("⏰") for m in pinged)
        assert re.findall(r"<@!?(\d+)>", reminders[0].json["content"]) == [str(alice.id)]  # pings her only
        # the bot keeps playing for her; she comes back with the button
        stamp = spades.table().stamp
        await spades.wait_for(lambda: spades.table().stamp > stamp + 2, what="the bot playing on")
        await spades.wait_for(
            lambda: any(b.get("label") == "I'm back" for b in spades.live().buttons),
            what="the I'm back button",
        )
        if spades.table().status == "playing" and spades.table().game.has_looked(seat):  # type: ignore[union-attr]
            panel = await spades.panel(alice)
            assert "💤 You're marked away" in panel.content
            assert any(b.get("label") == "I'm back" for b in panel.buttons)
        r = await spades.fake.click(alice, spades.live(), label="I'm back")
        assert (await spades.panel_of(r)).content.startswith("Welcome back!")
        assert not spades.table().seats[seat].away  # type: ignore[union-attr]
        spades.check_public()


async def test_an_open_hand_panel_wakes_up_when_the_turn_comes(spades: Spades) -> None:
    alice = spades.users["alice"]
    async with spades.running(time_scale=0.05):
        await _alice_and_bots(spades, play_seconds=600, bid_seconds=600)
        seat = spades.seat_of(alice)
        await spades.wait_turn()
        await spades.decide(alice)  # her bid (or her look, then her bid)
        await spades.wait_turn()
        if spades.table().game.phase != "play":  # type: ignore[union-attr]
            await spades.decide(alice)
        await spades.wait_turn()
        g = spades.table().game
        assert g is not None and g.phase == "play"
        panel = await spades.panel(alice)
        await spades.decide(alice, panel)  # plays a card: the panel is updated in place ...
        assert not any(not b.get("disabled") for b in panel.buttons if ":c:" in b["custom_id"])
        await spades.wait_turn()  # ... and when her turn comes again, the same panel wakes up
        await spades.wait_for(
            lambda: any(not b.get("disabled") for b in panel.buttons if ":c:" in b["custom_id"]),
            what="the panel refresh",
        )
        legal = {spades.card_custom_id(panel, c) for c in spades.table().game.legal_cards(seat)}  # type: ignore[union-attr]
        enabled = {b["custom_id"] for b in panel.buttons if ":c:" in b["custom_id"] and not b.get("disabled")}
        assert enabled == legal
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
    async with spades.running(time_scale=0.01):
        game = await _to_alices_play_turn(spades)
    before = await _stored_stamp(spades, game.table_id)
    spades.faults.save_error = "unexpected"
    async with spades.running(time_scale=0.01):
        await spades.settle()
        panel = await _my_hand(spades, game, alice)
        card, custom_id = playable_cards(panel)[0]
        shown = _table_text(spades, game)
        r = await spades.fake.click(alice, panel, custom_id=custom_id)
        assert r.ephemeral and said(r) == APOLOGY
        assert engine.card_pretty(card) not in said(r)
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
    async with spades.running(time_scale=0.01):
        game = await _to_alices_play_turn(spades)
    table_id = game.table_id
    before = await _stored_stamp(spades, table_id)
    spades.faults.save_error = "storage"
    async with spades.running(time_scale=0.01):
        await spades.settle()
        panel = await _my_hand(spades, game, alice)
        card, custom_id = playable_cards(panel)[0]
        shown = _table_text(spades, game)
        r = await spades.fake.click(alice, panel, custom_id=custom_id)
        answer = await answer_of(spades, r)
        # the panel is redrawn under the plain answer (the player's own, private)
        sorry = "⚠️ Sorry, I couldn't save that just now; nothing changed. Please try again.\n"
        assert answer.startswith(sorry)
        await spades.settle()
        assert _table_text(spades, game) == shown  # nothing moved on the table
        failed = [rec for rec in caplog.records if rec.getMessage() == f"saving table {table_id} failed"]
        assert failed and "disk I/O error" in str(failed[0].exc_info[1])  # type: ignore[index]
    assert await _stored_stamp(spades, table_id) == before
    spades.faults.save_error = None
    async with spades.running(time_scale=0.01):  # the fault gone, the same click goes through
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
    async with spades.running(time_scale=0.01):
        game = await _to_alices_play_turn(spades)
    async with spades.running(time_scale=0.01):
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
    turn = 6.0  # 60 s turns at time scale 0.1

    def timeouts() -> int:
        note = f"⏱ <@{alice.id}> ran out of time"
        return sum(m.content.startswith(note) for m in spades.fake.public_messages(spades.channel))

    async with spades.running(time_scale=0.1):
        await _alice_and_bots(spades, play_seconds=60, bid_seconds=60)
        await spades.wait_turn()
        table_id = spades.table().id
        assert alice in spades.acting_humans()
    before = timeouts()
    async with spades.stored() as db:  # what is stored: the turn's deadline (unix seconds)
        row = await db.get_table(table_id)
    assert row is not None and row.status == "playing"
    deadline = row.data["deadline"]
    assert deadline is not None and deadline > time.time(), "alice's turn ran out before the restart"
    await spades.wait_for(lambda: time.time() > deadline, timeout=turn + 5, what="the stored deadline")
    started = time.monotonic()
    async with spades.running(time_scale=0.1):
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
    async with spades.running(time_scale=0.01):
        await spades.open_table(alice, play_seconds=600, bid_seconds=600)
        first = spades.live()
        spades.fake.fail_next("PATCH", edit_route, status=404)
        r = await spades.slash(bob, "join")
        assert said(r).startswith("You took seat")
        await spades.settle()
        second = spades.live()  # re-posted at the bottom: the lost one is not edited forever
        assert second.id != first.id and f"<@{bob.id}>" in second.content
        spades.fake.fail_next("PATCH", edit_route, status=403)
        spades.fake.fail_next("POST", post_route, status=403)
        r = await spades.slash(carol, "join")
        assert said(r).startswith("You took seat")  # the action counts whatever the channel does
        await spades.settle()
        logged = caplog.text
        assert f"editing message {second.id} failed: 403" in logged
        assert f"posting in channel {spades.channel.id} failed: 403" in logged
        r = await spades.slash(alice, "table")  # the next change (or /table) puts it back
        await spades.settle()
        live = spades.live()
        assert f"<@{carol.id}>" in live.content and f"<@{bob.id}>" in live.content
        assert spades.table().seat_of(carol.id) is not None


async def test_a_bot_turn_that_cannot_be_saved_is_retried_until_it_can(
    spades: Spades, caplog: pytest.LogCaptureFixture
) -> None:
    """Alice's turn runs out while every save fails (FAULT_SAVE_ERROR=storage): the bot's move
    for her is retried, never half-applied; once the database works again it goes through."""
    alice = spades.users["alice"]
    note = f"⏱ <@{alice.id}> ran out of time; the bot acted for them."

    def timeouts() -> int:
        return sum(m.content == note for m in spades.fake.public_messages(spades.channel))

    async with spades.running(time_scale=0.01):
        # 6 s turns at this scale; alice never acts
        game = await open_and_start(spades, spades.channel, [alice], play_seconds=600, bid_seconds=600)
        await spades.wait_for(lambda: f"➜ <@{alice.id}> to " in _table_text(spades, game), what="her turn")
    table_id = game.table_id
    before = await _stored_stamp(spades, table_id)
    spades.faults.save_error = "storage"
    async with spades.running(time_scale=0.01):

        def failures() -> int:
            return sum(1 for rec in caplog.records if rec.getMessage() == f"saving table {table_id} failed")

        await spades.wait_for(lambda: failures() >= 2, timeout=30, what="the bot's move to be retried")
        await spades.settle()
        assert timeouts() == 0 and f"➜ <@{alice.id}> to " in _table_text(spades, game)  # nothing half-applied
    assert await _stored_stamp(spades, table_id) == before
    spades.faults.save_error = None
    async with spades.running(time_scale=0.01):
        await spades.wait_for(lambda: timeouts() == 1, timeout=30, what="the move once saved")
    assert await _stored_stamp(spades, table_id) > before
