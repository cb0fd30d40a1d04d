"""The bots' level (server setting, `/spades new` option) and the strong bot thinking off the event
loop: a slow decision at one table does not hold up another table's answers."""

from __future__ import annotations

import re

from tests.e2e.harness import (
    Spades,
    act_from_panel,
    live_message,
    my_hand,
    open_and_start,
    said,
    turn_of,
    wait_stored,
)


async def test_server_level_and_table_option_choose_the_bots(spades: Spades) -> None:
    alice, admin = spades.users["alice"], spades.users["admin"]
    channels = [spades.guild.add_text_channel(f"spades-{i}") for i in range(3)]

    async def level_of_new_table(channel_no: int, **options: object) -> str:
        ch = channels[channel_no]
        r = await spades.fake.slash(alice, ch, "spades new", **options)
        opened = re.search(r"Table (\d+) is open", await said(r))
        assert opened is not None, await said(r)
        row = await spades.stored_table(int(opened.group(1)))  # what is stored (saved before the answer)
        return str(row.data["settings"]["bot_level"])

    async with spades.running():
        assert await level_of_new_table(0) == "strong"  # the default: the strongest within the budget
        r = await spades.fake.slash(admin, spades.channel, "spades config", bots="easy")
        assert "Bots at new tables: easy." in await said(r)
        async with spades.stored() as db:
            assert (await db.settings.guild(spades.guild.id))["bot_level"] == "easy"
        assert await level_of_new_table(1) == "easy"
        assert await level_of_new_table(2, bots="normal") == "normal"  # the table's option wins
        # a table at the chosen level plays: the bots act until alice has to
        game = await open_and_start(spades, spades.channel, [alice], bots="easy")
        await spades.wait_for(lambda: alice.id in (turn_of(spades, game) or ([], ""))[0], what="alice's turn")
        row = await spades.stored_table(game.table_id)
        assert row.status == "playing" and row.data["settings"]["bot_level"] == "easy"


async def test_a_slow_bot_decision_does_not_delay_another_tables_answer(spades: Spades) -> None:
    """At real speed (speed 1) the strong bot searches for most of its human-like pause. While
    it searches at table A, a command at table B in another channel is answered at once: before
    A's decision is done."""
    alice, bob = spades.users["alice"], spades.users["bob"]
    other = spades.guild.add_text_channel("spades-2")
    async with spades.running(speed=1, search_workers_at_start=True) as bot:
        # whether the search workers are up, or a decision is being searched right now, shows
        # nowhere on Discord: the one read of the running bot here (never a change to it)
        thinker = bot.tables.clock.thinker
        # the bot started its search workers at start-up, in the background: ready before any table
        await spades.wait_for(lambda: thinker.ready, timeout=60, what="the search workers")
        game = await open_and_start(
            spades, spades.channel, [alice], bots="strong", play_seconds=600, bid_seconds=600
        )
        # alice plays her turns (as her panel offers them) until a strong bot is thinking
        for _ in range(40):
            await spades.wait_for(
                lambda: thinker.in_flight > 0 or alice.id in (turn_of(spades, game) or ([], ""))[0],
                what="a bot thinking",
            )
            if thinker.in_flight > 0:
                break
            live = live_message(spades, game.channel, game.table_id)
            assert live is not None
            shown = len(live.history)
            if await act_from_panel(spades.fake, alice, await my_hand(spades, game, alice)) is None:
                # the table message still shows the turn she just took: wait for it to move on
                await spades.wait_for(
                    lambda m=live, n=shown: thinker.in_flight > 0 or len(m.history) > n,  # type: ignore[misc]
                    what="the table to move on",
                )
        assert thinker.in_flight > 0
        assert thinker.ready_at_decision[0], "the first decision waited for the workers' start-up"
        before = await spades.stored_table(game.table_id)
        r = await spades.fake.slash(bob, other, "spades new")
        answered_in = (r.record.responded_at or 1e9) - r.record.created
        still_thinking = thinker.in_flight > 0
        assert r.error is None, r.error
        assert "is open" in await said(r)
        assert still_thinking, "the other table's answer waited for the bot's decision"
        assert answered_in < 0.5, answered_in
        # and table A's bot does act, after its pause: its move is stored
        await wait_stored(
            spades, game.table_id, lambda row: row.version > before.version, "the bot's move, stored"
        )
