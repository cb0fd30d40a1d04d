"""What the bids say about the hidden hands (`engine.bots.inference`): the strong bot's sampled
deals give a seat that bid high the strong hand it bid on, and a nil bidder a hand fit for nil,
where `Game.from_view` alone deals every hidden hand alike."""

from __future__ import annotations

import dataclasses
import random
import statistics

import pytest

from engine import Game, parse_cards
from engine.bids import Bid
from engine.bots.heuristic import estimate_tricks, nil_danger
from engine.bots.inference import bid_likelihood, original_hands, sample_world, seat_log_weight, spade_counts
from engine.cards import SPADES
from engine.ruleset import PRESETS, Ruleset, tables
from engine.view import View


def bid_view(bids: list[str], seed: str = "inference") -> View:
    """Seat 0's view in the play phase after the four ``bids`` (seats 0-3) and one trick."""
    g = Game.new("standard", seed=seed)
    while g.phase == "bid":
        seat = g.seats_to_act()[0]
        g.bid(seat, bids[seat])
    for _ in range(4):
        seat = g.seats_to_act()[0]
        g.play(seat, min(g.legal_cards(seat)))
    return g.view(0)


def sampled(view: View, draws: int, k: int = 150) -> list[list[int]]:
    rng = random.Random(7)
    out = []
    for _ in range(k):
        w = sample_world(view, rng, draws, 1.0)
        assert w.hands[0] == view.hand
        assert [h.bit_count() for h in w.hands] == list(view.hand_sizes)
        out.append(original_hands(w, view))
    return out


def test_a_high_bidder_is_dealt_the_strong_hand_it_bid_on() -> None:
    view = bid_view(["3", "6", "3", "1"])
    plain = [estimate_tricks(h[1], view.ruleset) for h in sampled(view, 1)]
    read = [estimate_tricks(h[1], view.ruleset) for h in sampled(view, 8)]
    low = [estimate_tricks(h[3], view.ruleset) for h in sampled(view, 8)]
    # from_view alone: an average hand (about 3.3 tricks); with the bids read: near 6 and near 1
    assert statistics.mean(plain) < 4.0
    assert statistics.mean(read) > statistics.mean(plain) + 1.2
    assert statistics.mean(low) < statistics.mean(plain) - 0.8


def test_a_nil_bidder_is_rarely_dealt_an_ace_or_a_high_spade() -> None:
    view = bid_view(["3", "nil", "4", "4"])
    rs = view.ruleset

    def risky(hands: list[list[int]]) -> float:
        return sum(nil_danger(h[1], rs) > 3 for h in hands) / len(hands)

    assert risky(sampled(view, 8)) < risky(sampled(view, 1)) - 0.3


def test_a_hand_that_fits_the_bids_weighs_more() -> None:
    view = bid_view(["3", "6", "3", "nil"])
    rng = random.Random(3)
    worlds = [Game.from_view(view, rng=rng) for _ in range(300)]
    weights = [bid_likelihood(w, view, 1.0) for w in worlds]
    assert all(0.0 <= x <= 1.0 for x in weights)
    hands = [original_hands(w, view) for w in worlds]
    fits = [
        x
        for x, h in zip(weights, hands, strict=True)
        if estimate_tricks(h[1], view.ruleset) >= 5 and nil_danger(h[3], view.ruleset) <= 2
    ]
    misfits = [
        x
        for x, h in zip(weights, hands, strict=True)
        if estimate_tricks(h[1], view.ruleset) <= 2 or nil_danger(h[3], view.ruleset) >= 5
    ]
    assert fits and misfits
    assert min(fits) > max(misfits)


def test_seats_yet_to_bid_say_nothing() -> None:
    g = Game.new("standard", seed="blind")
    view = g.view(0)  # nobody has bid
    rng = random.Random(1)
    w = Game.from_view(view, rng=random.Random(1))
    assert bid_likelihood(w, view, 1.0) == 1.0
    # no bid to read: the draw is from_view's own, card for card
    assert sample_world(view, rng, 8, 1.0).hands == w.hands


def bid_out(preset: str, seed: str, tricks: int = 0) -> Game:
    """A game of ``preset`` with every seat's first legal bid made, and ``tricks`` tricks played
    (each seat's first legal card)."""
    g = Game.new(preset, seed=seed)
    while g.phase != "play":
        seat = g.seats_to_act()[0]
        if g.looked[seat]:
            g.bid(seat, g.legal_bids(seat)[0])
        else:
            g.look(seat)
    while g.trick_no < tricks or g.trick:
        seat = g.to_act
        assert seat is not None
        g.play(seat, g.legal_cards(seat)[0])
    return g


@pytest.mark.parametrize(("preset", "tricks"), [("mirrors", 0), ("whiz", 0), ("mirrors", 5), ("whiz", 7)])
def test_in_whiz_and_mirrors_a_bid_is_the_spade_count(preset: str, tricks: int) -> None:
    """A number (in mirrors a nil too) is the bidder's spade count at the deal: every sampled
    deal gives each seat exactly that many, less the spades it played (a fact, like a void);
    without the counts the draws miss them."""
    g = bid_out(preset, f"{preset}-count", tricks)
    view = g.view(0)
    spades = tables(view.ruleset).suit_masks[SPADES]
    counted = [
        s
        for s in (1, 2, 3)
        if (b := view.bids[s]) is not None and (preset == "mirrors" or b.kind == "tricks")
    ]
    assert counted

    def miss(world: Game) -> int:
        hands = original_hands(world, view)
        return sum(abs((hands[s] & spades).bit_count() - (view.bids[s] or Bid.NIL).n) for s in counted)

    rng = random.Random(4)
    assert all(miss(sample_world(view, rng, draws, 1.0)) == 0 for draws in (1, 8) for _ in range(30))
    assert sum(miss(Game.from_view(view, rng=rng)) for _ in range(30)) > 0
    # every card is still dealt once, and each counted seat holds the spades it really holds now
    w = sample_world(view, rng, 8, 1.0)
    assert [h.bit_count() for h in w.hands] == [h.bit_count() for h in g.hands]
    assert all((w.hands[s] & spades).bit_count() == (g.hands[s] & spades).bit_count() for s in counted)


def test_a_side_that_exchanged_cards_for_a_nil_has_no_known_count() -> None:
    rs = dataclasses.replace(PRESETS["whiz"], nil_pass=2)
    view = dataclasses.replace(bid_out("whiz", "whiz-count").view(0), ruleset=rs)
    counts = spade_counts(view)
    assert counts is not None and counts[0] is None
    for s in (1, 2, 3):
        side = rs.sides[rs.side_of(s)]
        nil_side = any((b := view.bids[m]) is not None and b.is_nil for m in side)
        assert (counts[s] is None) == (nil_side or (view.bids[s] or Bid.NIL).is_nil)
    assert spade_counts(bid_out("standard", "std").view(0)) is None


def test_a_board_or_suicide_forced_bid_says_nothing_of_the_hand() -> None:
    weak = sum(1 << c for c in parse_cards("2C 3C 4C 5C 6C 2D 3D 4D 5D 2H 3H 4H 5H"))
    strong = sum(1 << c for c in parse_cards("AS KS QS JS AH KH AD KD AC KC QC JC 10C"))
    standard = Ruleset(name="standard")
    assert seat_log_weight(weak, Bid.tricks(6), standard, 1.0) < -5  # a 6 bid on nothing: unlikely
    assert seat_log_weight(strong, Bid.NIL, standard, 1.0) < -20
    board = dataclasses.replace(standard, board=4)  # the side's second bidder may have to raise
    assert seat_log_weight(weak, Bid.tricks(6), board, 1.0) == 0.0
    suicide = PRESETS["suicide"]  # one of each side must bid nil, whatever it holds
    assert seat_log_weight(strong, Bid.NIL, suicide, 1.0) == 0.0
