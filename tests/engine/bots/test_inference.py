"""What play shows about the hidden hands feeds the sampled deals (`Game.from_view`): voids,
a nil bidder's following (it ducks with its highest card under the winner, and goes over only
when it holds nothing under), and discards (a nil bidder throws its highest card of a suit,
a seat playing for its contract its lowest)."""

from __future__ import annotations

import random

import pytest

from engine import Game, parse_cards
from engine.game import tables

REST = {
    2: "3H 4H 10C JC QC KC AC 10D JD QD KD AD 5S",
    3: "6H 7H 8H 10H JH QH AH 6S 7S 8S 9S 10S JS",
}


def after_first_trick(hand0: str, hand1: str, plays: list[str], bid1: str) -> Game:
    hands = [parse_cards(h) for h in (hand0, hand1, REST[2], REST[3])]
    g = Game.from_deal("standard", hands, dealer=3)
    for seat, b in enumerate(["4", bid1, "3", "4"]):
        g.bid(seat, b)
    for seat, card in enumerate(plays):
        g.play(seat, parse_cards(card)[0])
    return g


def cards(text: str) -> int:
    mask = 0
    for c in parse_cards(text):
        mask |= 1 << c
    return mask


def seat1_samples(g: Game, k: int = 40) -> list[int]:
    v = g.view(2)
    out = []
    for seed in range(k):
        w = Game.from_view(v, random.Random(seed))
        assert [h.bit_count() for h in w.hands] == [h.bit_count() for h in g.hands]
        assert w.hands[2] == g.hands[2]
        out.append(w.hands[1])
    return out


HAND0 = "KH 9H AS KS QS 2C 3C 4C 5C 6C 7C 8C 9C"
HAND1 = "2H 5H 2D 3D 4D 5D 6D 7D 8D 9D 2S 3S 4S"


def test_a_nil_that_ducked_holds_nothing_between_its_card_and_the_winner() -> None:
    between = cards("6H 7H 8H 9H 10H JH QH")
    g = after_first_trick(HAND0, HAND1, ["KH", "5H", "3H", "AH"], "nil")
    assert all(h & between == 0 for h in seat1_samples(g))
    # the same play by a seat that bid tricks says nothing: those cards do reach it
    g = after_first_trick(HAND0, HAND1, ["KH", "5H", "3H", "AH"], "2")
    assert any(h & between for h in seat1_samples(g))


def test_a_nil_that_went_over_held_nothing_under() -> None:
    hand0 = "9H 2H AS KS QS 2C 3C 4C 5C 6C 7C 8C 9C"
    hand1 = "KH 5H 2D 3D 4D 5D 6D 7D 8D 9D 2S 3S 4S"
    under = cards("2H 5H 6H 7H 8H")
    g = after_first_trick(hand0, hand1, ["9H", "KH", "3H", "AH"], "nil")
    assert all(h & under == 0 for h in seat1_samples(g))
    g = after_first_trick(hand0, hand1, ["9H", "KH", "3H", "AH"], "2")
    assert any(h & under for h in seat1_samples(g))


def test_an_impossible_inference_gives_way() -> None:
    """When only the unlikely cards are left for the nil bidder it still gets them (the
    inference is a preference, the voids are facts): the deal stays whole."""
    g = after_first_trick(HAND0, HAND1, ["KH", "5H", "3H", "AH"], "nil")
    hearts = tables(g.rs).suit_masks[2]
    # play on until the hidden cards left are few: every sample still deals every card once
    rng = random.Random(1)
    while g.trick_no < 11 and g.to_act is not None:
        g.play(g.to_act, rng.choice(g.legal_cards(g.to_act)))
    if g.to_act is None:
        return
    v = g.view(2)
    for seed in range(10):
        w = Game.from_view(v, random.Random(seed))
        union = 0
        for h in w.hands:
            assert not union & h
            union |= h
        assert union | w.played == tables(g.rs).deck_mask
    assert hearts  # (the suit exists in this preset)


def test_weigh_keeps_one_of_the_candidate_deals_by_its_weight() -> None:
    g = after_first_trick(HAND0, HAND1, ["KH", "5H", "3H", "AH"], "2")
    v = g.view(2)
    ace = cards("8C")
    assert ace & (g.hands[0] | g.hands[1])  # hidden from seat 2: seats 0 and 1 may hold it
    kept = []
    for seed in range(40):
        w = Game.from_view(
            v, random.Random(seed), candidates=30, weigh=lambda hands: 1.0 if hands[1] & ace else 0.0
        )
        assert [h.bit_count() for h in w.hands] == [h.bit_count() for h in g.hands]
        kept.append(w.hands[1] & ace)
    assert all(kept)  # a deal of weight 0 is never kept while one of weight 1 was drawn
    # one candidate, or no weight: from_view's own draw, card for card
    plain = Game.from_view(v, random.Random(3))
    assert Game.from_view(v, random.Random(3), candidates=1, weigh=lambda hands: 0.0).hands == plain.hands
    assert Game.from_view(v, random.Random(3), candidates=9).hands == plain.hands


DISCARD_DEAL = [
    "2C 3C 4C 5C 6C 7C 8C 9C AS KS QS JS 10S",
    "5D 6D 7D 8D 9D 10D 2H 3H 4H 5H 6H 7H 8H",  # no clubs: it discards on the club lead
    "10C JC QC KC AC 9H 10H JH QH KH AH 2S 3S",
    "2D 3D 4D JD QD KD AD 4S 5S 6S 7S 8S 9S",
]


def after_a_discard(bids: list[str], discard: str) -> Game:
    g = Game.from_deal("standard", [parse_cards(h) for h in DISCARD_DEAL], dealer=3)
    for seat, b in enumerate(bids):
        g.bid(seat, b)
    for seat, card in enumerate(["2C", discard, "AC", "4S"]):
        g.play(seat, parse_cards(card)[0])
    return g


@pytest.mark.parametrize(
    ("bids", "discard", "ruled_out", "silent_bids"),
    [
        # a seat playing for its contract throws its lowest: no lower diamond; with its partner's
        # nil it may be covering, and its discard says nothing
        (["4", "3", "4", "3"], "5D", "2D 3D 4D", ["4", "3", "4", "nil"]),
        # a nil bidder throws its highest: no higher diamond; the same discard by a seat that bid
        # tricks says the opposite, so the higher cards reach it
        (["4", "nil", "4", "3"], "10D", "JD QD KD AD", ["4", "3", "4", "3"]),
    ],
)
def test_a_discard_rules_out_the_cards_it_would_have_thrown_first(
    bids: list[str], discard: str, ruled_out: str, silent_bids: list[str]
) -> None:
    out = cards(ruled_out)
    assert all(h & out == 0 for h in seat1_samples(after_a_discard(bids, discard)))
    assert any(h & out for h in seat1_samples(after_a_discard(silent_bids, discard)))
