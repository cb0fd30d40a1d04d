"""Every refusal is ephemeral and says exactly what was wrong (through the fake Discord)."""

from __future__ import annotations

import engine
from tests.e2e.harness import Spades, panel_cards, panel_choice, panel_trick, said


async def test_seating_refusals(spades: Spades) -> None:
    alice, bob, carol, dave, erin = (spades.users[n] for n in ("alice", "bob", "carol", "dave", "erin"))
    async with spades.running():
        await spades.open_table(alice, play_seconds=600, bid_seconds=600)
        r = await spades.slash(bob, "spades new")
        assert r.ephemeral
        assert (await said(r)).startswith("This channel already has a live table")
        for u in (bob, carol, dave):
            r = await spades.fake.click(u, spades.live(), label="Join")
            assert r.ephemeral and (await said(r)).startswith("You took seat"), await said(r)
        r = await spades.fake.click(erin, spades.live(), label="Join")
        assert r.ephemeral and await said(r) == "This table is full (4/4)."
        r = await spades.slash(bob, "spades start")
        assert r.ephemeral and await said(r) == f"Only the host (<@{alice.id}>) can start the game."
        r = await spades.slash(bob, "spades abandon")
        assert r.ephemeral and (await said(r)).startswith(
            f"Only the host (<@{alice.id}>) or someone with Manage Server"
        )
        r = await spades.fake.click(alice, spades.live(), label="Start")
        assert (await spades.panel_of(r)).ephemeral  # her hand, in a private follow-up
        await spades.wait_for(lambda: any(b.get("label") == "My hand" for b in spades.live().buttons))
        r = await spades.slash(erin, "join")
        assert (
            r.ephemeral
            and await said(r) == "This game has already started. You can watch, and join the next one."
        )
        r = await spades.slash(erin, "play", card="AS")
        assert r.ephemeral and await said(r) == "You're not playing at this table."
        r = await spades.slash(erin, "bid", bid="3")
        assert r.ephemeral and await said(r) == "You're not playing at this table."
        r = await spades.slash(bob, "leave")
        assert r.ephemeral and (await said(r)).startswith(
            f"Leave table {spades.table_id}? The bot plays your seat"
        )


async def test_bid_and_play_refusals(spades: Spades) -> None:
    users = [spades.users[n] for n in ("alice", "bob", "carol", "dave")]
    alice = users[0]
    async with spades.running():
        await spades.open_table(alice, play_seconds=600, bid_seconds=600)
        for u in users[1:]:
            await spades.fake.click(u, spades.live(), label="Join")
        await spades.fake.click(alice, spades.live(), label="Start")
        actor = (await spades.wait_turn())[0]
        idle = next(u for u in users if u is not actor)

        # not your turn, and whose it is
        r = await spades.slash(idle, "bid", bid="3")
        assert r.ephemeral and await said(r) == f"It's <@{actor.id}>'s turn, not yours."
        # autocomplete offers only legal bids, and nothing to someone waiting: in the standard rules
        # 1 to 13, nil, and blind nil before looking (docs/RULES.md)
        choices = await spades.fake.autocomplete(actor, spades.channel, "bid", "bid", "")
        assert [c["value"] for c in choices] == [*(str(n) for n in range(1, 14)), "nil", "blind_nil"]
        assert await spades.fake.autocomplete(idle, spades.channel, "bid", "bid", "") == []
        # a bid out of range, and blind nil once the cards were seen
        r = await spades.slash(actor, "bid", bid="14")
        assert r.ephemeral and await said(r) == "Bids go from 0 (nil) to 13."
        r = await spades.slash(actor, "bid", bid="lots")
        assert r.ephemeral and (await said(r)).startswith("`lots` is not a bid. Allowed now: ")
        panel = await spades.panel(actor)
        r = await spades.fake.click(actor, panel, label="Show my cards")
        r = await spades.slash(actor, "bid", bid="blind nil")
        assert (
            r.ephemeral
            and await said(r) == "You've already looked at your cards, so you can't bid blind nil."
        )

        # during the play: every player's cards as their own panel shows them, what may be played
        # as the player whose turn it is sees it (the enabled card buttons), the trick from the
        # table message
        seen: set[str] = set()
        while seen != {"must_follow", "not_broken", "not_held", "turn"} and not spades.over():
            acting = await spades.wait_turn()
            if not acting:
                break
            actor = acting[0]
            panel = spades.turn_panels.get(actor.id) or await spades.panel(actor)
            if panel_choice(panel) is not None and panel_choice(panel)[0] == "card":  # type: ignore[index]
                hand = [c for c, _, _ in panel_cards(panel)]
                legal = {c for c, _, ok in panel_cards(panel) if ok}
                illegal = [c for c in hand if c not in legal]
                trick = panel_trick(panel)
                broken = "· spades broken" in spades.live().content
                choices = await spades.fake.autocomplete(actor, spades.channel, "play", "card", "")
                assert sorted(c["value"] for c in choices) == sorted(engine.card_str(c) for c in legal)
                if "turn" not in seen:
                    idle = next(u for u in users if u is not actor)
                    theirs = [c for c, _, _ in panel_cards(await spades.panel(idle))]
                    r = await spades.slash(idle, "play", card=engine.card_str(theirs[0]))
                    assert await said(r) == f"It's <@{actor.id}>'s turn, not yours."
                    seen.add("turn")
                if "not_held" not in seen:
                    other = next(u for u in users if u is not actor)
                    not_mine = next(c for c, _, _ in panel_cards(await spades.panel(other)))
                    assert not_mine not in hand
                    r = await spades.slash(actor, "play", card=engine.card_str(not_mine))
                    # another player holds it: the refusal names no card (it named this one)
                    assert r.ephemeral and await said(r) == "That card is not in your hand."
                    seen.add("not_held")
                if illegal and trick and "must_follow" not in seen:
                    led = engine.suit_of(trick[0])
                    assert all(engine.suit_of(c) == led for c in legal)  # (following is the rule)
                    r = await spades.slash(actor, "play", card=engine.card_str(illegal[0]))
                    text = await said(r)
                    assert r.ephemeral and text.startswith(
                        f"You must follow {engine.suit_name(led)}: you hold "
                    ), text
                    assert all(engine.card_pretty(c) in text for c in legal)
                    seen.add("must_follow")
                if illegal and not trick and not broken and "not_broken" not in seen:
                    assert all(engine.suit_of(c) == engine.SPADES for c in illegal)  # (the lead rule)
                    r = await spades.slash(actor, "play", card=engine.card_str(illegal[0]))
                    assert r.ephemeral and (await said(r)).startswith("Spades aren't broken yet: lead a "), (
                        await said(r)
                    )
                    seen.add("not_broken")
            await spades.decide(actor)
        assert seen == {"must_follow", "not_broken", "not_held", "turn"}
