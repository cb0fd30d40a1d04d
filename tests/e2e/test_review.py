"""Review my hand, through the fake Discord: a player finishes a hand and has it reviewed by the
strong bot, in a message only they see; someone who was not at the table is refused."""

from __future__ import annotations

import re

from engine import card_pretty
from engine.bids import Bid
from engine.record import hand_replay
from fakediscord import Message
from tests.e2e.harness import PanelTurns, Spades, open_and_start, play, said, stored_seat_of


async def test_a_player_reviews_their_hand_and_an_onlooker_is_refused(spades: Spades) -> None:
    fake = spades.fake
    alice, bob = spades.users["alice"], spades.users["bob"]
    async with spades.running(speed=200):
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
