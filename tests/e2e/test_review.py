"""Review my hand, through the fake Discord: a player finishes a hand and has it reviewed by the
strong bot, in a message only they see; someone who was not at the table is refused."""

from __future__ import annotations

import re
from datetime import timedelta

from engine import card_pretty
from engine.bids import Bid
from engine.record import hand_replay
from fakediscord import Message
from tests.e2e import leagues
from tests.e2e.harness import PanelTurns, Spades, open_and_start, play, said, stored_seat_of


async def test_a_player_reviews_their_hand_and_an_onlooker_is_refused(spades: Spades) -> None:
    fake = spades.fake
    alice, bob = spades.users["alice"], spades.users["bob"]
    # (SEARCH_NICE=0: the review's worker at the bot's priority, so a machine saturated by other
    # work, which an idle-class worker would wait behind indefinitely, still gives it its share)
    async with spades.running(speed=200, search_nice=0):
        game = await open_and_start(
            spades, spades.channel, [alice], target=100, play_seconds=600, bid_seconds=600
        )

        def hand_post() -> Message | None:
            posts = [
                m
                for m in fake.public_messages(spades.channel)
                if m.content.startswith("📋 ") and f"· table {game.table_id}\n" in m.content
            ]
            return posts[0] if posts else None

        await play(spades, PanelTurns(spades, game, alice), until=lambda: hand_post() is not None)
        post = hand_post()
        assert post is not None
        assert "Review my hand" in [b.get("label") for b in post.buttons]
        seat = await stored_seat_of(spades, game.table_id, alice)
        assert seat is not None
        async with spades.stored() as db:
            (record, *_) = await db.games.hand_records(game.table_id)
        bid = Bid.parse(dict(record["bids"])[seat])

        # Bob was not at the table: refused, in a message only he sees
        r = await fake.click(bob, post, label="Review my hand")
        text = await said(r)
        assert text == "Only the players who played hand 1 can review it."
        answer = r.followups[-1] if r.followups else r.message
        assert answer is not None and answer.ephemeral

        # Alice played it: her bid beside the strong bot's, and the plays it would have changed
        r = await fake.click(alice, post, label="Review my hand")
        assert r.error is None
        text = await said(r)
        answer = r.followups[-1] if r.followups else r.message
        assert answer is not None and answer.ephemeral
        assert text.startswith(f"🧭 **Review of your hand · table {game.table_id} · hand 1**"), text
        assert f"**Bid:** you bid {bid.label}" in text, text
        mine = [card_pretty(c) for c in _seat_cards(record, seat)]
        shown = re.findall(r"• Trick (\d+): you played (\S+), the bot would have played (\S+) \(", text)
        assert len(shown) <= 3
        for trick, played, other in shown:
            assert 1 <= int(trick) <= 13 and played in mine and other in mine and played != other
        if not shown:
            assert "the bot would have played all 13 of your cards as you did" in text, text
        assert post.history == []  # the public post itself never changed
        await spades.check_public()

        # /stats now shows how near her bids were to the bot's, over her one reviewed hand
        r = await spades.slash(alice, "stats")
        assert r.ephemeral and r.message is not None
        fields = {f["name"]: f["value"] for f in r.message.embeds[0]["fields"]}
        within = "1 of 1" if f"you bid {bid.label}, as the strong bot would have" in text else None
        accuracy = fields["Bids against the bot"]
        assert accuracy.endswith("reviewed hand)") and (within is None or f"({within} " in accuracy), accuracy


def _seat_cards(record: dict, seat: int) -> list[int]:
    """The cards ``seat`` played in the hand of ``record``."""

    return [c for t in hand_replay(record).tricks for s, c in t.plays if s == seat]


async def test_a_league_nights_hands_are_reviewed_once_the_night_is_over(spades: Spades) -> None:
    """A league table's finished hand: its player is refused with the reason while the night goes
    on, an onlooker is refused as at any table, and once the night is over the player has it."""
    players = [spades.fake.add_user(f"rv{i}") for i in range(4)]
    async with leagues.running(spades, search_nice=0):
        # a long round (the bot clock runs 50 times faster): the night goes on after the first hand
        await leagues.create(spades, rounds=1, round_minutes=120, weeks=2, bid_seconds=40, play_seconds=20)
        first = await leagues.first_start(spades)
        leagues.advance_to(spades, first - timedelta(minutes=30))
        await spades.wait_for(lambda: bool(leagues.checkin_posts(spades)), what="the check-in post")
        post = leagues.checkin_posts(spades)[0]
        for p in players:
            await said(await spades.fake.click(p, post, label="Check in"))
        night, table = await leagues.the_one_table(spades, first)
        assert table.table_id is not None and table.channel_id is not None
        where = spades.guild.channels[table.channel_id]  # the table's thread
        player = spades.fake.users[table.players[0]]

        def first_hand() -> Message | None:
            posts = [
                m
                for m in spades.fake.public_messages(where)
                if m.content.startswith("📋 ") and f"· table {table.table_id}\n" in m.content
            ]
            return posts[0] if posts else None

        # nobody plays: the turn timers hand each turn to the bot, a hand's worth
        await spades.wait_for(lambda: first_hand() is not None, timeout=60, what="the first hand's post")
        hand = first_hand()
        assert hand is not None
        r = await spades.fake.click(player, hand, label="Review my hand")
        assert await said(r) == (
            "League night 1 is still going: its hands can be reviewed once the night is over."
        )
        assert (r.followups[-1] if r.followups else r.message).ephemeral  # type: ignore[union-attr]
        assert (await leagues.stored_night(spades, night.number)).status == "playing"
        r = await spades.fake.click(spades.users["bob"], hand, label="Review my hand")
        assert await said(r) == "Only the players who played hand 1 can review it."

        # time is called, the hand in progress played out: the night is over
        leagues.advance(spades, minutes=121)
        await spades.wait_for(
            lambda: bool(leagues.posts_with(spades, "night 1 results")),
            timeout=60,
            what="the night's results",
        )
        assert (await leagues.stored_night(spades, night.number)).status == "finished"
        r = await spades.fake.click(player, hand, label="Review my hand")
        text = await said(r)
        assert text.startswith(f"🧭 **Review of your hand · table {table.table_id} · hand 1**"), text
        assert (r.followups[-1] if r.followups else r.message).ephemeral  # type: ignore[union-attr]
    assert spades.fake.take_violations() == []
