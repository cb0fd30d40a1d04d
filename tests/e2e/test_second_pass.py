"""The bot's second pass through the fake Discord: timers of the nil exchange, house rules, leaving
mid-game, the hand panel's header, and a QA sweep (two tables, strangers, absurd input)."""

from __future__ import annotations

import asyncio
import contextlib
import re
import time

import engine
from fakediscord import Stopwatch, User
from tests.e2e.harness import (
    Spades,
    TableTurns,
    live_message,
    open_and_start,
    panel_cards,
    play,
    said,
    stored_game,
    stored_seat,
    wait_stored,
)

COUNTDOWN = re.compile(r"<t:(\d+):R>")
TRICK = re.compile(r"\nHand (\d+) · trick (\d+) of 13 · ")
NOT_A_CARD = "is not a card: write a rank (A, K, Q, J, 10 to 2) and then a suit letter (S, H, D or C)."


async def _four_humans(spades: Spades, **options: object) -> list[User]:
    users = [spades.users[n] for n in ("alice", "bob", "carol", "dave")]
    await spades.open_table(users[0], play_seconds=600, bid_seconds=600, **options)
    for u in users[1:]:
        r = await spades.fake.click(u, spades.live(), label="Join")
        assert (await said(r)).startswith("You took seat"), await said(r)
    await spades.fake.click(users[0], spades.live(), label="Start")
    return users


async def test_one_partners_pass_does_not_restart_the_others_timer(spades: Spades) -> None:
    async with spades.running(speed=20):
        await _four_humans(spades)
        tid = spades.table_id
        assert tid is not None
        (nil_bidder,) = await spades.wait_turn()  # the first to bid, as the table message and her panel say
        first = spades.seat_of(nil_bidder)
        panel = await spades.panel(nil_bidder)
        r = await spades.fake.click(nil_bidder, panel, label="Bid blind nil")
        assert r.type == 7 and "You bid blind nil. Good luck!" in (r.content or "")
        for _ in range(3):
            (u,) = await spades.wait_turn()
            nil = u is spades.user_at((first + 1) % 4)
            r = await spades.slash(u, "bid", bid="0" if nil else "3")
            assert await said(r) == ("You bid Nil." if nil else "You bid 3.")
        partner = spades.user_at((first + 2) % 4)
        assert partner is not None
        # the exchange: the table message names the two partners, with one countdown
        await spades.wait_for(
            lambda: (
                "passing cards for nil" in spades.live().content
                and {u.id for u in spades.acting_humans()} == {nil_bidder.id, partner.id}
            ),
            what="the exchange",
        )
        await spades.settle()
        deadline = COUNTDOWN.findall(spades.live().content)
        assert len(deadline) == 1
        stored = await spades.stored_model(tid)
        assert stored.deadline is not None and [str(int(stored.deadline))] == deadline
        panel = await spades.panel(partner)
        assert "**Pass 3 cards** to your partner: pick below." in panel.content
        sel = next(s for s in panel.selects if ":p:" in s["custom_id"])
        give = [o["value"] for o in sel["options"][:3]]
        r = await spades.fake.select(partner, panel, custom_id=sel["custom_id"], values=give)
        assert "Cards passed." in (r.content or "")
        # only the blind nil bidder is still to pass, on the clock she had (as shown, as stored)
        await spades.wait_for(
            lambda: [u.id for u in spades.acting_humans()] == [nil_bidder.id], what="the pass shown"
        )
        await spades.settle()
        assert COUNTDOWN.findall(spades.live().content) == deadline  # her clock kept running
        after = await spades.stored_model(tid)
        assert after.deadline == stored.deadline and after.stamp > stored.stamp


async def test_house_rules_at_the_table_and_as_server_defaults(spades: Spades) -> None:
    alice, admin = spades.users["alice"], spades.users["admin"]
    async with spades.running():
        # autocomplete: option names (with the preset's value), then values
        ac = await spades.fake.autocomplete(alice, spades.channel, "spades new", "rules", "bag_limit=5 ten")
        # (each option with what it does: bot.lexicon.RULE_BLURBS)
        assert ac == [
            {
                "name": "bag_limit=5 ten_for_200=… (now off) — 10 tricks bid and made score 200",
                "value": "bag_limit=5 ten_for_200=",
            },
            {
                "name": "bag_limit=5 ten_for_value=… (now 200) — "
                "what 10 for 200 scores instead of 200 (e.g. 150)",
                "value": "bag_limit=5 ten_for_value=",
            },
        ]
        ac = await spades.fake.autocomplete(alice, spades.channel, "spades new", "rules", "ten_for_200=")
        assert [c["value"] for c in ac] == ["ten_for_200=on", "ten_for_200=off"]
        ac = await spades.fake.autocomplete(
            alice, spades.channel, "spades new", "rules", "lose_score=", preset="house"
        )
        assert ac[0] == {"name": "lose_score=-200 (preset)", "value": "lose_score=-200"}
        ac = await spades.fake.autocomplete(alice, spades.channel, "spades new", "rules", "")
        assert len(ac) == 25 and all(c["value"].endswith("=") for c in ac)
        # refusals: one line, what was wrong and what is allowed; no table is opened
        for rules, answer in (
            ("foo=1", "`foo` is not a rule. Rules: num_seats, partnerships, "),
            ("bag_limit=lots", "`bag_limit` takes a whole number (or `off`), not `lots`."),
            ("ten_for_200=maybe", "`ten_for_200` is on or off, not `maybe`."),
            ("bag_limit", "`bag_limit` has no value: write options as name=value, e.g. `bag_limit=5`."),
            (
                "whiz=on mirrors=on",
                "Those rules don't go together: whiz and mirrors are two different bidding rules; "
                "choose one.",
            ),
        ):
            r = await spades.slash(alice, "spades new", rules=rules)
            assert r.ephemeral and (await said(r)).startswith(answer), await said(r)
            assert "\n" not in await said(r)
        assert await spades.no_table_in()
        # a table with house rules: the live message says what differs from the preset
        r = await spades.slash(
            alice, "spades new", rules="bag_limit=5 lose_score=-200 ten_for_200=on first_trick_two_clubs=on"
        )
        opened = re.match(r"Table (\d+) is open", await said(r))
        assert opened is not None, await said(r)
        t = await spades.stored_model(int(opened.group(1)))  # the table as stored
        spades.table_id = t.id
        assert t.ruleset.bag_limit == 5 and t.ruleset.lose_score == -200 and t.ruleset.ten_for_200
        assert await said(r) == (
            f"Table {t.id} is open: {t.ruleset.describe()}. You have seat 1; the others press **Join**, "
            "then you press **Start** (empty seats can go to bots)."
        )
        await spades.settle()
        lines = spades.live().content.splitlines()
        assert lines[0] == f"♠ **Spades** · table {t.id} · {t.ruleset.describe()}"
        assert lines[1] == (
            "🏠 House rules: lose_score=-200 · first_trick_two_clubs=on · bag_limit=5 · ten_for_200=on"
        )
        r = await spades.slash(alice, "rules")
        assert "House rules over standard: lose_score=-200 · " in await said(r)
        await spades.slash(alice, "spades abandon")
        r = await spades.fake.click(
            alice, spades.fake.ephemeral_messages(alice)[-1], label="Yes, abandon the table"
        )
        assert (await said(r)).endswith("is abandoned.")
        assert await spades.no_table_in()
        # server defaults: checked against the default preset, shown, used by the next table
        r = await spades.slash(admin, "spades config", rules="whiz=on mirrors=on")
        assert (await said(r)).startswith("Those rules don't go together: ")
        r = await spades.slash(admin, "spades config", rules="bag_limit=5 boston=on")
        assert await said(r) == (
            "Server defaults: preset **standard**, 60 s to play, 90 s to bid, "
            "house rules `bag_limit=5 boston=on`."
        )
        r = await spades.slash(admin, "spades config", preset="mirrors")  # the rules go with it
        assert (await said(r)).startswith("Server defaults: preset **mirrors**")
        t = await spades.open_table(alice)
        assert t.ruleset.name == "mirrors" and t.ruleset.bag_limit == 5 and t.ruleset.boston
        r = await spades.slash(admin, "spades config", rules="none")
        assert await said(r) == "Server defaults: preset **mirrors**, 60 s to play, 90 s to bid."


async def test_a_host_leaving_before_the_start_hands_over_then_closes(spades: Spades) -> None:
    alice, bob, carol = spades.users["alice"], spades.users["bob"], spades.users["carol"]
    async with spades.running():
        t = await spades.open_table(alice)
        await spades.slash(carol, "join", seat=3)
        await spades.slash(bob, "join", seat=4)
        r = await spades.fake.click(alice, spades.live(), label="Leave")
        assert (
            await said(r) == f"You left seat 1. <@{carol.id}> is the host now."
        )  # the next human round the table
        r = await spades.fake.click(bob, spades.live(), label="Start")
        assert await said(r) == f"Only the host (<@{carol.id}>) can start the game."
        r = await spades.slash(carol, "leave")
        assert await said(r) == f"You left seat 3. <@{bob.id}> is the host now."
        r = await spades.slash(bob, "leave")
        assert await said(r) == "You left and the table is closed (nobody else was seated)."
        await spades.wait_for(lambda: "🛑 This table was abandoned." in spades.live().content, what="closed")
        assert await spades.no_table_in()
        assert (await spades.stored_table(t.id)).status == "abandoned"


async def test_leaving_mid_game_hands_the_seat_to_the_bot_until_coming_back(spades: Spades) -> None:
    alice, bob, carol = spades.users["alice"], spades.users["bob"], spades.users["carol"]
    async with spades.running(speed=100):
        t = await spades.open_table(alice, target=100, play_seconds=600, bid_seconds=600)
        await spades.slash(bob, "join", seat=2)
        await spades.slash(alice, "spades start", fill=True)
        await spades.wait_for(lambda: "Hand 1 · " in spades.live().content, what="the start")
        await spades.settle()
        assert [b["label"] for b in spades.live().buttons] == ["My hand", "Rules", "Score sheet", "Leave"]
        # strangers get a specific answer from the table's public buttons
        r = await spades.fake.click(carol, spades.live(), label="Leave")
        assert await said(r) == "You're not seated at this table."
        # leaving asks first
        r = await spades.fake.click(bob, spades.live(), label="Leave")
        assert r.ephemeral and await said(r) == (
            f"Leave table {t.id}? The bot plays your seat for the rest of the game (it still counts in "
            f"your stats); you can come back with **I'm back** or {spades.command('join')}."
        )
        assert (await stored_seat(spades, t.id, 1))["left"] is False  # type: ignore[index]
        confirm = r.message
        assert confirm is not None
        r = await spades.fake.click(bob, confirm, label="Yes, leave: the bot takes my seat")
        assert (
            await said(r) == "You left the game: the bot plays your seat. Press **I'm back** or "
            f"{spades.command('join')} to come back."
        )
        r = await spades.slash(bob, "leave")
        assert (await said(r)).startswith("You already left: the bot plays your seat.")
        await spades.settle()
        texts = [m.content for m in spades.fake.public_messages(spades.channel)]
        assert f"🚪 <@{bob.id}> left table {t.id}: 🤖 the bot plays their seat until they come back." in texts
        assert f"<@{bob.id}> 🚪🤖" in spades.live().content
        assert "I'm back" in [b["label"] for b in spades.live().buttons]
        r = await spades.fake.click(carol, spades.live(), label="I'm back")
        assert await said(r) == "You're not seated at this table."
        # the bot plays bob's turns (his seat's moves, as stored): only alice is ever asked
        acts = (await stored_seat(spades, t.id, 1))["acts"]  # type: ignore[index]

        async def bob_moved_twice() -> bool:
            return (await stored_seat(spades, t.id, 1))["acts"] > acts + 1  # type: ignore[index,no-any-return]

        await play(spades, TableTurns(spades, [alice]), bob_moved_twice)
        # /join brings him back into his old seat
        r = await spades.slash(bob, "join")
        assert (await said(r)).startswith("Welcome back! Seat 2 is yours again.")
        assert not (await stored_seat(spades, t.id, 1))["left"]  # type: ignore[index]
        # and the button too, after leaving again
        r = await spades.slash(bob, "leave")
        r = await spades.fake.click(bob, r.message, label="Yes, leave: the bot takes my seat")  # type: ignore[arg-type]
        await spades.settle()
        r = await spades.fake.click(bob, spades.live(), label="I'm back")
        assert (await said(r)).startswith("Welcome back! The bot hands your seat back to you.")
        # he leaves for good; the game goes on and still counts for him
        r = await spades.slash(bob, "leave")
        await spades.fake.click(bob, r.message, label="Yes, leave: the bot takes my seat")  # type: ignore[arg-type]
        await play(spades, TableTurns(spades, [alice]), spades.over)
        await spades.settle()
        game_post = next(m for m in spades.fake.public_messages(spades.channel) if m.content.startswith("🏆"))
        # a rematch: his seat is free again, and he can't open it himself
        r = await spades.fake.click(bob, game_post, label="Rematch")
        assert await said(r) == (
            "You left that game, so you can't open its rematch: "
            f"{spades.command('spades new')} opens a table."
        )
        r = await spades.fake.click(alice, game_post, label="Rematch")
        answer = await said(r)
        opened = re.match(r"Table (\d+) is open", answer)
        assert opened is not None, answer
        again = await spades.stored_model(int(opened.group(1)))
        assert again.id != t.id and again.status == "open"
        assert again.seats[1] is None and again.seat_of(alice.id) == 0
        assert [s is not None and s.bot for s in again.seats] == [False, False, True, True]
    async with spades.stored() as db:
        stats = await db.stats.player(spades.guild.id, bob.id, humans_only=False)  # (bots filled seats)
        assert stats is not None and stats.games == 1


async def test_the_hand_panel_says_what_to_do_and_the_table_shows_the_trick(spades: Spades) -> None:
    """Four humans play; at each turn of the play every panel's header says what to do, worked out
    here from what Discord shows alone: the cards on the player's panel, the trick so far (the
    cards the players were seen to play), whether the table message says spades are broken. The
    table message shows the trick in play order, with "…" for whoever plays now."""
    async with spades.running(speed=20):
        users = await _four_humans(spades)
        tid = spades.table_id
        seats = spades.seating()
        assert sorted(seats.values()) == sorted(u.id for u in users)
        seen: set[str] = set()
        trick: list[tuple[int, int]] = []  # (seat, card) of the trick in play, as the players played
        steps = 0
        while not {"waiting", "your", "you"} <= seen and not spades.over():
            steps += 1
            assert steps < 200
            (actor,) = await spades.wait_turn()
            me = spades.seat_of(actor)
            live = spades.live().content
            shown = TRICK.search(live)
            if shown is None:  # the bidding
                await spades.decide(actor)
                continue
            hand_no, trick_no = shown.groups()
            broken = "· spades broken" in live
            for u in users:
                panel = await spades.panel(u)
                head = panel.content.splitlines()[0]
                where = f"**Table {tid}** in <#{spades.channel.id}>"
                prefix = f"{where} · hand {hand_no} · trick {trick_no} of 13 · "
                assert head.startswith(prefix), head
                todo = head[len(prefix) :]
                if u is not actor:
                    assert todo == f"waiting for <@{actor.id}>", head
                    assert not [c for c, _, ok in panel_cards(panel) if ok]  # nothing to play
                    seen.add("waiting")
                    continue
                held = {c for c, _, _ in panel_cards(panel)}
                legal = {c for c, _, ok in panel_cards(panel) if ok}
                suits = {engine.suit_of(c) for c in held}
                if trick:
                    led = engine.suit_of(trick[0][1])
                    if led in suits:
                        expect, may = (
                            f"you must follow {engine.suit_symbol(led)}",
                            {c for c in held if engine.suit_of(c) == led},
                        )
                    else:
                        expect, may = f"no {engine.suit_symbol(led)} left: play any card", held
                elif not broken and engine.SPADES in suits and suits != {engine.SPADES}:
                    expect = "your lead: spades aren't broken"
                    may = {c for c in held if engine.suit_of(c) != engine.SPADES}
                else:
                    expect, may = "your lead", held
                assert todo == expect, (head, trick)
                assert legal == may  # the cards it lets her click are those the rule allows
                seen.add(expect.split(" ")[0])
            # the table message: the trick in play order from its leader, "…" for whoever plays now
            await spades.settle()
            leader = trick[0][0] if trick else me
            played = dict(trick)
            expected = "   ".join(
                f"<@{seats[(leader + k) % 4]}>"
                + (
                    f" {engine.card_pretty(played[(leader + k) % 4])}"
                    if (leader + k) % 4 in played
                    else " …"
                    if (leader + k) % 4 == me
                    else ""
                )
                for k in range(4)
            )
            assert f"\n  {expected}\n➜ <@{actor.id}> to play · bot takes over <t:" in spades.live().content
            await spades.decide(actor)
            assert spades.last_move is not None and spades.last_move[2] is not None
            trick = [*trick, (me, spades.last_move[2])] if len(trick) < 3 else []
        assert {"waiting", "your", "you"} <= seen


# ---- QA sweep -----------------------------------------------------------------------------------


async def test_absurd_play_and_bid_input_is_answered_and_harmless(spades: Spades) -> None:
    alice, bob = spades.users["alice"], spades.users["bob"]
    async with spades.running(speed=50):
        t = await spades.open_table(alice, play_seconds=600, bid_seconds=600)
        await spades.slash(alice, "spades start", fill=True)
        assert await spades.wait_turn() == [alice]
        junk = {
            "A" * 100: "`AAAAAAAAAAAAAAAAAAAA…`",
            "@everyone": "`@everyone`",
            f"<@{bob.id}> <@&1>": f"`<@{bob.id}>"[:21] + "…`",
            "🂡🔥♠️": "`🂡🔥♠️`",
            "```x```\nAS": "`'''x''' AS`",
            "   ": "A blank",
        }
        stamp = (await spades.stored_model(t.id)).stamp
        # what she may bid before looking, in the standard rules (docs/RULES.md)
        legal = ", ".join([*(str(n) for n in range(1, 14)), "Nil", "Blind nil"])
        for text, quoted in junk.items():
            r = await spades.slash(alice, "play", card=text)
            assert r.ephemeral and await said(r) == f"{quoted} {NOT_A_CARD}"
            r = await spades.slash(alice, "bid", bid=text)
            assert r.ephemeral and await said(r) == f"{quoted} is not a bid. Allowed now: {legal}."
        assert (await spades.stored_model(t.id)).stamp == stamp  # nothing changed
        assert spades.fake.pings(bob) == [] and spades.fake.pings(alice) == []
        # during play the answer also says what may be played
        await play(
            spades,
            TableTurns(spades, [alice]),
            lambda: (turn := spades.turn()) is not None and turn[1] == "play",
        )
        assert await spades.wait_turn() == [alice]
        legal = [c for c, _, ok in panel_cards(spades.turn_panels[alice.id]) if ok]  # as her panel shows
        assert legal
        r = await spades.slash(alice, "play", card="@everyone")
        assert await said(r) == (f"`@everyone` {NOT_A_CARD} You can play {engine.pretty_list(legal)}.")


async def test_strangers_get_a_specific_answer_from_public_buttons(spades: Spades) -> None:
    alice, erin = spades.users["alice"], spades.users["erin"]
    async with spades.running():
        await spades.open_table(alice, play_seconds=600, bid_seconds=600)
        r = await spades.fake.click(erin, spades.live(), label="Start")
        assert r.ephemeral and await said(r) == f"Only the host (<@{alice.id}>) can start the game."
        r = await spades.fake.click(erin, spades.live(), label="Leave")
        assert r.ephemeral and await said(r) == "You're not seated at this table."
        await spades.slash(alice, "spades start", fill=True)
        await spades.wait_for(lambda: "Hand 1 · " in spades.live().content, what="the start")
        await spades.settle()
        r = await spades.fake.click(erin, spades.live(), label="My hand")
        assert r.ephemeral and await said(r) == "You're not playing at this table."
        r = await spades.fake.click(erin, spades.live(), label="Leave")
        assert r.ephemeral and await said(r) == "You're not seated at this table."
        r = await spades.fake.click(erin, spades.live(), label="Rules")
        assert r.ephemeral and (await said(r)).startswith(f"**Rules at table {spades.table_id}**")


async def test_abandon_mid_hand_then_a_new_table_in_the_same_channel(spades: Spades) -> None:
    alice = spades.users["alice"]
    async with spades.running(speed=50):
        old = await spades.open_table(alice, play_seconds=600, bid_seconds=600)
        await spades.slash(alice, "spades start", fill=True)
        await play(
            spades,
            TableTurns(spades, [alice]),
            lambda: (m := TRICK.search(spades.live().content)) is not None and int(m.group(2)) > 1,
        )
        r = await spades.slash(alice, "spades abandon")
        r = await spades.fake.click(alice, r.message, label="Yes, abandon the table")  # type: ignore[arg-type]
        assert await said(r) == f"Table {old.id} is abandoned."
        stored = await spades.stored_table(old.id)
        assert stored.status == "abandoned"
        await spades.settle()
        old_live = next(
            m for m in spades.fake.public_messages(spades.channel) if f"· table {old.id} ·" in m.content
        )
        assert old_live.content.endswith("🛑 This table was abandoned.") and old_live.buttons == []
        versions = len(old_live.history)
        new = await spades.open_table(alice, play_seconds=600, bid_seconds=600)
        assert new.id != old.id and new.status == "open"
        await spades.slash(alice, "spades start", fill=True)

        async def new_table_moved() -> bool:
            return (await spades.stored_model(new.id)).stamp > 8

        await play(spades, TableTurns(spades, [alice]), new_table_moved)
        # the old table's bots and timers stopped: nothing changed it, as stored or as shown
        again = await spades.stored_table(old.id)
        assert again.status == "abandoned" and again.data["stamp"] == stored.data["stamp"]
        assert len(old_live.history) == versions and not old_live.deleted
        texts = [m.content for m in spades.fake.public_messages(spades.channel)]
        assert f"🛑 Table {old.id} was abandoned by <@{alice.id}>." in texts


async def test_two_tables_in_two_channels_with_one_player_at_both(spades: Spades) -> None:
    """alice sits at a table in each of two channels (bob at the second). Whoever's turn the table
    message shows types /bid or /play in that channel (what the command's autocomplete offers); each of
    alice's actions counts at the table of the channel she typed in, and only there (as stored)."""
    alice, bob = spades.users["alice"], spades.users["bob"]
    other = spades.guild.add_text_channel("spades-2")
    async with spades.running(speed=50):
        options = {"play_seconds": 600, "bid_seconds": 600}
        g1 = await open_and_start(spades, spades.channel, [alice], **options)
        g2 = await open_and_start(spades, other, [bob, alice], **options)
        t1, t2 = g1.table_id, g2.table_id
        assert t1 != t2
        games = {t1: g1, t2: g2}

        async def acts() -> dict[int, int]:
            """alice's actions at each table, as stored (her seat's counter)."""
            out = {}
            for tid in games:
                seats = (await spades.stored_table(tid)).data["seats"]
                out[tid] = next(s["acts"] for s in seats if s and s["user_id"] == alice.id)
            return out

        done = {t1: 0, t2: 0}
        seen: dict[int, tuple[int, int]] = {}  # table -> the table message version last looked at
        progress = Stopwatch()
        while min(done.values()) < 6:
            assert not progress.past(60), f"no turn to take for 60 s; done {done}"
            for tid, game in games.items():
                live = live_message(spades, game.channel, tid)
                if live is None or (live.id, len(live.history)) == seen.get(tid):
                    continue
                seen[tid] = (live.id, len(live.history))
                turn = re.search(r"➜ (.+) to (bid|play)", live.content)
                user = next((u for u in (alice, bob) if turn and f"<@{u.id}>" in turn.group(1)), None)
                if turn is None or user is None:
                    continue
                # what is legal now, as the command box's autocomplete offers it (no message stays open)
                kind = turn.group(2)
                offered = await spades.fake.autocomplete(
                    user, game.channel, kind, "bid" if kind == "bid" else "card", ""
                )
                legal = [str(c["value"]) for c in offered]
                if not legal:
                    continue  # the table message is a moment behind: look again
                before = await acts()
                if kind == "play":
                    card = engine.parse_card(legal[0])
                    r = await spades.fake.slash(user, game.channel, "play", card=legal[0])
                    assert await said(r) == f"You played {engine.card_pretty(card)}."
                else:
                    r = await spades.fake.slash(
                        user, game.channel, "bid", bid="3" if "3" in legal else legal[0]
                    )
                    assert (await said(r)).startswith("You bid "), await said(r)
                progress = Stopwatch()
                if user is alice:  # her action counted at this table only
                    after = await acts()
                    assert after[tid] == before[tid] + 1
                    assert all(after[k] == before[k] for k in games if k != tid)
                    done[tid] += 1
            with contextlib.suppress(AssertionError):  # until a table message changes
                await asyncio.sleep(0)  # (always let the bot run between two looks)
                await spades.wait_for(
                    lambda: any(
                        (m := live_message(spades, g.channel, k)) is not None
                        and (m.id, len(m.history)) != seen.get(k)
                        for k, g in games.items()
                    ),
                    timeout=0.5,
                )
        channels = {t1: spades.channel, t2: other}
        # her hand panel at each table is that table's, in that channel
        for tid, channel in channels.items():
            live = [m for m in spades.fake.public_messages(channel) if f"· table {tid} ·" in m.content][-1]
            r = await spades.fake.click(alice, live, label="My hand")
            assert (await said(r)).startswith(f"**Table {tid}** in <#{channel.id}> · hand 1")
        assert not any(f"table {t2} " in m.content for m in spades.fake.public_messages(spades.channel))
        assert not any(f"table {t1} " in m.content for m in spades.fake.public_messages(other))


async def test_settle_waits_for_an_edit_the_bot_still_owes_after_a_stall(spades: Spades) -> None:
    """Why ``test_seating_bots_fill_and_start`` failed once: on a loaded machine the process can
    stall past the fake's quiet period while the live message's (debounced) edit is due, and
    ``fake.settle()`` then returns with the old version in place. ``spades.settle()`` waits for it."""
    alice = spades.users["alice"]
    async with spades.running():
        await spades.open_table(alice, play_seconds=600, bid_seconds=600)
        await spades.settle()
        r = await spades.slash(alice, "spades start", fill=True)
        assert r.error is None, r.error
        time.sleep(0.3)  # a stall (the process descheduled) while the edit is due
        await spades.settle()
        assert "\nHand 1 · bidding\n" in spades.live().content


async def test_when_everyone_left_the_bots_finish_the_game_and_it_counts(spades: Spades) -> None:
    alice = spades.users["alice"]
    async with spades.running(speed=1):  # real pauses: bots would take a second a card
        t = await spades.open_table(alice, target=50, play_seconds=600, bid_seconds=600)
        await spades.slash(alice, "spades start", fill=True)
        await spades.wait_for(lambda: "Hand 1 · " in spades.live().content, what="the start")
        r = await spades.slash(alice, "leave")
        r = await spades.fake.click(alice, r.message, label="Yes, leave: the bot takes my seat")  # type: ignore[arg-type]
        await spades.wait_for(
            lambda: any(m.content.startswith("🏆") for m in spades.fake.public_messages(spades.channel)),
            timeout=60,
            what="the game post",
        )
        await wait_stored(spades, t.id, lambda row: row.status == "finished", "the finished game stored")
        await spades.settle()
        texts = [m.content for m in spades.fake.public_messages(spades.channel)]
        assert (
            f"🚪 <@{alice.id}> left table {t.id}: the bots finish the game (it counts for everyone)." in texts
        )
        assert any(x.startswith("🏆") for x in texts)
    async with spades.stored() as db:
        stats = await db.stats.player(spades.guild.id, alice.id, humans_only=False)  # (a game with bots)
        assert stats is not None and stats.games == 1


# ---- the harness reads turns and seats as the channel shows them ----------------------------------


async def test_the_harness_seats_a_join_just_before_the_start_and_waits_out_a_late_turn(
    spades: Spades,
) -> None:
    """Two cases the harness must get right from what Discord shows alone: bob joins just before
    the start (the lobby message may never list him: his own "You took seat N" answer does), and
    right after alice moves, the table message can still name her (a version drawn before her
    move): ``wait_turn`` returns her only when her panel says it is her turn again, which the
    stored game confirms."""
    alice, bob = spades.users["alice"], spades.users["bob"]
    async with spades.running(speed=10 / 3):
        t = await spades.open_table(alice, play_seconds=600, bid_seconds=600)
        r = await spades.slash(bob, "join")
        assert (await said(r)).startswith("You took seat 2")
        await spades.slash(alice, "spades start", fill=True)
        stored = await spades.stored_model(t.id)
        assert spades.seat_of(bob) == stored.seat_of(bob.id) == 1
        assert spades.seat_of(alice) == stored.seat_of(alice.id) == 0
        for _ in range(6):
            acting = await spades.wait_turn()
            if not acting:
                break
            game = await stored_game(spades, t.id)
            assert game.to_act is not None and {spades.seat_of(u) for u in acting} == {game.to_act}
            await spades.decide(acting[0])
