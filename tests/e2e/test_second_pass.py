"""The bot's second pass through the fake Discord: timers of the nil exchange, house rules, leaving
mid-game, the hand panel's header, and a QA sweep (two tables, strangers, absurd input)."""

from __future__ import annotations

import re

from tests.e2e.conftest import Spades, said
from tests.fakediscord import User

COUNTDOWN = re.compile(r"<t:(\d+):R>")


async def _four_humans(spades: Spades, **options: object) -> list[User]:
    users = [spades.users[n] for n in ("alice", "bob", "carol", "dave")]
    await spades.open_table(users[0], play_seconds=600, bid_seconds=600, **options)
    for u in users[1:]:
        r = await spades.fake.click(u, spades.live(), label="Join")
        assert said(r).startswith("You took seat"), said(r)
    await spades.fake.click(users[0], spades.live(), label="Start")
    await spades.wait_turn()
    return users


async def test_one_partners_pass_does_not_restart_the_others_timer(spades: Spades) -> None:
    async with spades.running(time_scale=0.05):
        await _four_humans(spades)
        t = spades.table()
        assert t.game is not None
        first = t.game.to_act
        assert first is not None
        nil_bidder = spades.user_at(first)
        assert nil_bidder is not None
        panel = await spades.panel(nil_bidder)
        r = await spades.fake.click(nil_bidder, panel, label="Bid blind nil")
        assert r.type == 7 and "You bid blind nil. Good luck!" in (r.content or "")
        for _ in range(3):
            await spades.wait_turn()
            (u,) = spades.acting_humans()
            r = await spades.slash(u, "bid", bid="0" if u is spades.user_at((first + 1) % 4) else "3")
            assert said(r) == ("You bid Nil." if u is spades.user_at((first + 1) % 4) else "You bid 3.")
        await spades.wait_for(lambda: spades.table().game.phase == "pass", what="the exchange")  # type: ignore[union-attr]
        await spades.fake.settle()
        t = spades.table()
        deadline = t.deadline
        assert deadline is not None and sorted(t.seats_to_act()) == sorted([first, (first + 2) % 4])
        live = spades.live().content
        assert COUNTDOWN.findall(live) == [str(int(deadline))]
        partner = spades.user_at((first + 2) % 4)
        assert partner is not None
        panel = await spades.panel(partner)
        assert "**Pass 3 cards** to your partner: pick below." in panel.content
        sel = next(s for s in panel.selects if ":p:" in s["custom_id"])
        give = [o["value"] for o in sel["options"][:3]]
        r = await spades.fake.select(partner, panel, custom_id=sel["custom_id"], values=give)
        assert "Cards passed." in (r.content or "")
        await spades.wait_for(lambda: spades.table().stamp > t.stamp, what="the pass")
        await spades.fake.settle()
        after = spades.table()
        assert after.seats_to_act() == [first]
        assert after.deadline == deadline  # the blind nil bidder's clock kept running
        assert COUNTDOWN.findall(spades.live().content) == [str(int(deadline))]
