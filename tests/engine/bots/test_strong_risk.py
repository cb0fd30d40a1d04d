"""The strong bot's values: the contract first, then the bags; set risk in bidding."""

from __future__ import annotations

import random

from engine import Game, Phase, parse_cards
from engine.bots.heuristic import HeuristicBot
from engine.bots.strong import StrongBot, _set_bid, _side_made

DEAL = [
    "AS KS QS JS 10S 3D AH KH QH JH 10H 9H 8H",
    "7C AC QC 10C 9C 8C 2S 3S 4S AD KD QD JD",
    "JC 2C 3C 4C 5C 6C 2H 3H 4H 5H 6H 7H 2D",
    "KC 5S 6S 7S 8S 9S 4D 5D 6D 7D 8D 9D 10D",
]


def bid_game(bids: list[str]) -> Game:
    g = Game.from_deal("standard", [parse_cards(h) for h in DEAL], dealer=3)
    for b in bids:
        assert g.to_act is not None
        g.bid(g.to_act, b)
    return g


def test_set_bid_agrees_with_the_engines_scoring() -> None:
    """`_set_bid` reads a played-out searched world (bids and tricks stay after scoring): it
    must say set exactly when the engine's own breakdown does."""
    g = bid_game(["7", "4", "2", "3"])
    seen = set()
    for seed in range(30):
        world = Game.from_view(g.view(0), rng=random.Random(seed))
        world.playout(random.Random(seed))
        lh = world.last_hand
        assert lh is not None
        for part in lh["breakdown"]:
            expected = part["bid"] if part["made"] is False else 0
            assert _set_bid(world, part["side"]) == expected
            seen.add(part["made"])
    assert seen == {True, False}  # both outcomes were checked


def test_pick_never_takes_a_card_set_in_more_deals() -> None:
    bot = StrongBot(1)
    values = [[0.0, 0.0, 0.0, 0.0], [40.0, 50.0, 45.0, 60.0]]
    assert bot._pick(values, 0, 4) == 1  # better by far on its value alone
    assert bot._pick(values, 0, 4, sets=[0, 1]) == 0  # but set in one more sampled deal
    assert bot._pick(values, 0, 4, sets=[1, 1]) == 1


def test_bag_debt_counts_in_the_value() -> None:
    """A world in which the side took bags is worth less with the debt counted."""
    g = bid_game(["1", "1", "1", "1"])  # every trick beyond one a seat is a bag
    view = g.view(0)
    bot = StrongBot(1)
    world = Game.from_view(view, rng=random.Random(3))
    world.playout(random.Random(3))
    lh = world.last_hand
    assert lh is not None
    mine = next(p for p in lh["breakdown"] if p["side"] == 0)
    theirs = next(p for p in lh["breakdown"] if p["side"] == 1)
    plain = bot._value(view, world, 0.0)
    full = bot._value(view, world, 1.0)
    # 10 bags = -100: each bag carried counts -10 on top of its +1
    assert full == plain - 10 * mine["bags"] + 10 * theirs["bags"]
    assert mine["bags"] != theirs["bags"]


def test_set_risk_is_counted_only_while_bidding() -> None:
    g = bid_game(["7", "4", "6", "3"])  # 13 bid by side 0 of 13 tricks: set nearly always
    view = g.view(0)
    bot = StrongBot(1, set_risk=10.0, search_short_made=0.0)  # the set risk alone
    for seed in range(10):
        world = Game.from_view(view, rng=random.Random(seed))
        world.playout(random.Random(seed))
        if _set_bid(world, 0):
            break
    else:  # pragma: no cover - the deal makes 13 tricks very unlikely
        raise AssertionError("never set")
    in_play = bot._value(view, world, 0.0)
    bot._set_risk = bot.set_risk  # as `_bid_compare` does
    assert bot._value(view, world, 0.0) == in_play - 10.0 * 13


def test_bags_are_debt_in_card_play_only_once_made_or_safe() -> None:
    """Before the contract is made the plain value decides (the debt share only where every
    sampled deal makes it, `safe_debt`); once it is made the debt counts (`play_debt`)."""
    seen: list[tuple[float, float]] = []

    class Spy(StrongBot):
        def _compare(self, view, options, base, start, worlds, penalties=None):  # type: ignore[no-untyped-def]
            seen.append((self._debt, self._safe_debt))
            return super()._compare(view, options, base, start, worlds, penalties)

    g = bid_game(["1", "1", "1", "1"])
    bot = Spy(1, worlds=3, min_worlds=3, time_limit=None, play_debt=1.0, safe_debt=0.5)
    model = HeuristicBot(1)
    assert g.to_act == 0 and not _side_made(g.view(0), 0)
    g.apply(bot.act(g.view(0)))
    assert seen == [(0.0, 0.5)]
    while not (_side_made(g.view(0), 0) and g.to_act in (0, 2)):
        assert g.to_act is not None and g.phase is Phase.PLAY
        g.apply(model.act(g.view(g.to_act)))
    seen.clear()
    bot.act(g.view(g.to_act))
    assert seen == [(1.0, 0.0)]
    assert bot._debt == 1.0 and bot._safe_debt == 0.0  # restored after each search


def test_set_risk_is_halved_when_far_behind() -> None:
    g = bid_game([])
    bot = StrongBot(1, set_risk=12.0)
    assert bot.bid_set_risk(g.view(0)) == 12.0
    g.scores = [100, 300]  # side 0 trails by 200
    assert bot.bid_set_risk(g.view(0)) == 6.0
    assert bot.bid_set_risk(g.view(1)) == 12.0
