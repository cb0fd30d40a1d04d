"""Races, restarts and absence: two clicks at once, a restart mid-trick, turn timeouts."""

from __future__ import annotations

import asyncio
import re

import pytest

import engine
from bot.model import MOVED_ON
from bot.views import APOLOGY
from tests.e2e.conftest import Spades, said


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
        assert r.ephemeral
        assert (r.content or "").startswith("Welcome back!")
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


async def test_an_unexpected_failure_still_answers_and_changes_nothing(
    spades: Spades, monkeypatch: pytest.MonkeyPatch
) -> None:
    alice = spades.users["alice"]
    async with spades.running(time_scale=0.01):
        await _alice_and_bots(spades, play_seconds=600, bid_seconds=600)
        await spades.wait_turn()
        panel = await spades.panel(alice)
        before = spades.table().stamp

        async def boom(*args: object, **kwargs: object) -> None:
            raise RuntimeError("unexpected")

        monkeypatch.setattr(spades.service.play, "act", boom)
        button = next(b for b in panel.buttons if not b.get("disabled")) if panel.buttons else None
        if button is not None:
            r = await spades.fake.click(alice, panel, custom_id=button["custom_id"])
        else:
            sel = panel.selects[0]
            r = await spades.fake.select(
                alice, panel, custom_id=sel["custom_id"], values=[sel["options"][0]["value"]]
            )
        assert r.ephemeral and said(r) == APOLOGY
        assert spades.table().stamp == before


async def test_a_slow_database_defers_then_answers(spades: Spades) -> None:
    """When saving takes long, the click is acknowledged in time and the panel updated afterwards."""
    alice = spades.users["alice"]
    async with spades.running(time_scale=0.01):
        await _alice_and_bots(spades, play_seconds=600, bid_seconds=600)
        while spades.table().game.phase != "play" or not spades.acting_humans():  # type: ignore[union-attr]
            await spades.wait_turn()
            if spades.table().game.phase != "play":  # type: ignore[union-attr]
                await spades.decide(alice)
        seat = spades.seat_of(alice)
        card = spades.table().game.legal_cards(seat)[0]  # type: ignore[union-attr]
        panel = await spades.panel(alice)
        spades.faults.storage_write_delay = 1.5  # the bot's own fault injection: a slow disk
        r = await spades.fake.click(alice, panel, custom_id=spades.card_custom_id(panel, card))
        assert r.type == 6  # acknowledged before the work was done (the panel is updated in place)
        await spades.wait_for(
            lambda: panel.content.startswith(f"You played {engine.card_pretty(card)}."),
            what="the panel update",
        )
        spades.faults.storage_write_delay = 0


@pytest.mark.both_backends
async def test_turn_timers_survive_a_restart(spades: Spades) -> None:
    alice = spades.users["alice"]
    async with spades.running(time_scale=0.1):  # 1.5 s turns
        await _alice_and_bots(spades, play_seconds=15, bid_seconds=15)
        await spades.wait_turn()
        t = spades.table()
        deadline, stamp = t.deadline, t.stamp
        assert deadline is not None
    async with spades.running(time_scale=0.1):
        t = spades.table()
        assert t.deadline == deadline and t.stamp == stamp  # the clock was stored, not restarted
        await spades.wait_for(
            lambda: any(
                m.content.startswith(f"⏱ <@{alice.id}> ran out of time")
                for m in spades.fake.public_messages(spades.channel)
            ),
            timeout=10,
            what="the timeout after the restart",
        )
        assert spades.table().stamp > stamp
