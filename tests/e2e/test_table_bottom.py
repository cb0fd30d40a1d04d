"""Where players look (issue 28): whenever the game waits for a human, the live table is the newest
message of the channel and the player's hand panel the newest ephemeral message they got, below
the latest hand post. Through the fake Discord, on SQLite, reading only what Discord shows."""

from __future__ import annotations

import re

from fakediscord import Message
from tests.e2e.harness import (
    LIVE_PREFIX,
    PanelTurns,
    Spades,
    act_from_panel,
    game_posts,
    live_message,
    my_hand,
    my_turn_on,
    open_and_start,
    panel_choice,
    play,
    said,
    version_of,
)

MOVED = "⬇️ Your hand moved to a newer message below."


async def test_the_table_and_the_panel_stay_at_the_bottom_for_a_whole_game(spades: Spades) -> None:
    """One human and three bots play a game; the human opens her panel once (My hand) and plays
    from whatever panel is newest. At every one of her turns the table is the channel's last
    message and her newest ephemeral message is her panel, below the latest hand post."""
    alice = spades.users["alice"]
    channel = spades.channel
    async with spades.running(speed=100):
        game = await open_and_start(spades, channel, [alice], target=100, play_seconds=600, bid_seconds=600)
        await my_hand(spades, game, alice)  # the one My hand of the game
        acted_on: tuple[int, int] | None = None
        turns = 0

        def over() -> bool:
            return game_posts(spades, game)[1] is not None

        def newest_panel() -> Message | None:
            mine = spades.fake.ephemeral_messages(alice, channel)
            return mine[-1] if mine else None

        def her_turn_shown() -> bool:  # (her panel says so: it follows the table card by card)
            panel = newest_panel()
            return panel is not None and version_of(panel) != acted_on and my_turn_on(panel)

        def at_bottom() -> bool:
            public = spades.fake.public_messages(channel)
            return bool(public) and public[-1] is live_message(spades, channel, game.table_id)

        while not over():
            await spades.wait_for(lambda: over() or her_turn_shown(), timeout=30, what="alice's turn")
            if over():
                break
            # the table moves below the posts that came since, in its debounce (not at once)
            await spades.wait_for(at_bottom, timeout=10, what="the live table at the bottom")
            public = spades.fake.public_messages(channel)
            assert public[-1].content.startswith(LIVE_PREFIX)
            panel = newest_panel()
            assert panel is not None and panel.ephemeral and panel_choice(panel) is not None
            hand_posts = [m for m in public if m.content.startswith("📋 ")]
            if hand_posts:  # her panel is below the latest hand's result, not above it
                assert panel.id > hand_posts[-1].id, "the panel was not sent again after the hand post"
            acted = await act_from_panel(spades.fake, alice, panel)
            assert acted is not None
            # (a look shows the cards in place: the bid is asked in that same version)
            acted_on = None if acted[1] == "look" else version_of(panel)
            turns += 1
        hands, final = game_posts(spades, game)
        assert final is not None and len(hands) >= 2 and turns >= 14 * len(hands)  # a bid and 13 cards
        mine = spades.fake.ephemeral_messages(alice, channel)
        moved = [m for m in mine if m.content == MOVED]
        # a fresh panel at every new hand (she never pressed My hand again); the old ones say where
        # the hand went and offer nothing
        assert len(moved) >= len(hands) - 1
        assert all(not m.buttons and not m.selects for m in moved)
        assert not any(m.content.startswith("📋") for m in mine)
        # the live table was posted again only when other posts had come below it
        live_posts = [m for m in channel.messages if not m.ephemeral and m.content.startswith(LIVE_PREFIX)]
        others = [m for m in channel.messages if not m.ephemeral and not m.content.startswith(LIVE_PREFIX)]
        assert len(live_posts) <= len(others) + 1
        await spades.settle()
        await spades.check_public()


async def test_a_hand_post_is_short_and_the_deal_key_is_behind_verify(spades: Spades) -> None:
    """A hand post is a header and one line per team, with Replay hand and Verify deal; the seed
    and salt show only in the Verify deal answer, and the verify command line nowhere in Discord."""
    alice = spades.users["alice"]
    async with spades.running(speed=200):
        game = await open_and_start(
            spades, spades.channel, [alice], target=100, play_seconds=600, bid_seconds=600
        )

        def hand_post() -> Message | None:
            posts = [
                m
                for m in spades.fake.public_messages(spades.channel)
                if m.content.startswith("📋 ") and f"· table {game.table_id}\n" in m.content
            ]
            return posts[0] if posts else None

        await play(spades, PanelTurns(spades, game, alice), until=lambda: hand_post() is not None)
        post = hand_post()
        assert post is not None
        lines = post.content.splitlines()
        assert len(lines) == 3, post.content  # the header, one line per team
        assert all(re.search(r"→ [+-]\d+ \(-?\d+ → -?\d+\)$", x) for x in lines[1:]), post.content
        assert not re.search(r"seed|salt|engine verify", post.content)
        assert [b.get("label") for b in post.buttons] == ["Replay hand", "Verify deal", "Review my hand"]
        r = await spades.fake.click(spades.users["bob"], post, label="Verify deal")
        text = await said(r)
        assert r.ephemeral and "Revealed seed `" in text and "and salt `" in text
        assert "python -m engine" not in text and "docs/HAND_RECORD.md" in text
        everything = [m.content for m in spades.fake.bot_messages()]
        assert not any("python -m engine verify" in x for x in everything)


async def test_my_hand_again_retires_the_older_panel(spades: Spades) -> None:
    """A player presses My hand twice: the first panel is edited to say where the hand went and
    offers nothing more (no stale panel to click); the second one holds the hand and its buttons."""
    alice = spades.users["alice"]
    channel = spades.channel
    async with spades.running(speed=100):
        game = await open_and_start(spades, channel, [alice], target=100, play_seconds=600, bid_seconds=600)
        first = await my_hand(spades, game, alice)
        assert first.ephemeral and (first.buttons or first.selects)
        second = await my_hand(spades, game, alice)
        assert second.id != first.id

        def retired() -> bool:
            return first.content == MOVED and not first.buttons and not first.selects

        await spades.wait_for(retired, timeout=10, what="the first panel saying where the hand went")
        assert second.content != MOVED and (second.buttons or second.selects)
        mine = spades.fake.ephemeral_messages(alice, channel)
        assert [m for m in mine if m.buttons or m.selects] == [second]
        await spades.settle()
        await spades.check_public()
