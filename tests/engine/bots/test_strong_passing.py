"""The nil exchange: sampled deals in the passing phase, and passes chosen by evaluating them."""

from __future__ import annotations

import dataclasses
import random

from engine import Game, Phase, parse_cards
from engine.actions import PassAction
from engine.bots.strong import StrongBot
from engine.game import tables
from engine.ruleset import Ruleset

HANDS = [
    "AS KS 3C 4C 5C 2D 3D 4D 2H 3H 4H 5H 6H",  # seat 0 bids nil
    "QS JS 10S 6C 7C 8C 5D 6D 7D 7H 8H 9H 10H",
    "9S 8S 7S AC KC QC AD KD QD AH KH QH JH",  # its partner
    "6S 5S 4S 3S 2S 2C 9C 10C JC 8D 9D 10D JD",
]


def card(text: str) -> int:
    return parse_cards(text)[0]


def passing() -> Game:
    rs = dataclasses.replace(Ruleset.preset("standard"), nil_pass=2)
    g = Game.from_deal(rs, [parse_cards(h) for h in HANDS], dealer=3)
    for seat, b in enumerate(["nil", "3", "5", "3"]):
        g.bid(seat, b)
    assert g.phase is Phase.PASS and g.seats_to_act() == [0, 2]
    return g


def test_sampled_deals_in_the_exchange_deal_a_seat_that_gave_its_hand_from_before() -> None:
    g = passing()
    g.pass_cards(2, [card("7S"), card("8S")])  # the partner gave first: what it gave is hidden
    v = g.view(0)
    assert v.hand_sizes[2] == 11
    deck = tables(g.rs).deck_mask
    for seed in range(20):
        w = Game.from_view(v, random.Random(seed))
        assert w.phase is Phase.PASS and w.seats_to_act() == [0, 2]
        assert w.hands[0] == g.hands[0]
        assert [h.bit_count() for h in w.hands] == [13, 13, 13, 13]
        union = 0
        for h in w.hands:
            assert not union & h
            union |= h
        assert union == deck
        w.pass_cards(0, [card("AS"), card("KS")])
        w.pass_cards(2, sorted(c for c in range(128) if w.hands[2] >> c & 1)[:2])
        assert w.phase is Phase.PLAY and all(h.bit_count() == 13 for h in w.hands)


def test_the_evaluation_passes_the_nil_bidders_high_spades_away() -> None:
    """Compared over sampled deals against a pass of two low clubs (given as the default, so the
    other must win by the bot's margin), giving the ace and king of spades to the partner wins."""
    g = passing()
    v = g.view(0)
    bot = StrongBot(3, worlds=8, time_limit=None)
    low = PassAction(0, tuple(sorted((card("3C"), card("4C")))))
    high = PassAction(0, tuple(sorted((card("AS"), card("KS")))))

    def start(w: Game, opt: PassAction) -> None:
        w.apply(opt)

    assert bot._bid_compare(v, [low, high], low, start, [0.0, 0.0]) == high
    # and the bot's own choice gives them away
    chosen = bot.act(v)
    assert isinstance(chosen, PassAction)
    assert set(chosen.cards) == {card("AS"), card("KS")}


def test_candidates_are_legal_passes_of_the_right_size() -> None:
    g = passing()
    for seat in (0, 2):
        v = g.view(seat)
        base = StrongBot(1).model.act(v)
        assert isinstance(base, PassAction)
        cands = StrongBot.pass_candidates(v, seat, base.cards)
        assert cands
        for c in cands:
            assert len(set(c)) == 2 and all(g.hands[seat] >> x & 1 for x in c)
