"""What the bids say about the hidden hands: sampled deals weighted by how well each seat's
hand fits the bid it made.

`Game.from_view` deals the hidden cards consistently with what play has shown (voids, the cards
passed, a nil bidder's ducks) but knows nothing of the bidding: a seat that bid 6 gets as
average a hand as one that bid 1, and a nil bidder is dealt aces as often as anyone. A player
reads the bids; `world_sampler` does the same by sampling importance resampling: it draws
``draws`` deals and keeps one with probability proportional to `bid_likelihood`, so the kept
deals follow the bids (each seat's hand near the bid a hand like it is bid with) without a
hand ever being rejected outright.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable

from ..bids import Bid
from ..cards import SPADES
from ..game import Game
from ..ruleset import Ruleset, tables
from ..view import View
from .heuristic import estimate_tricks, nil_danger

NIL_SAFE = 2.0
"""The `nil_danger` up to which a hand fits a nil bid fully (the heuristic bids nil up to 1.8,
2.3 behind a strong partner)."""

NIL_WEIGHT = 2.0
"""How fast a nil bidder's hand loses weight per point of `nil_danger` above `NIL_SAFE` (a
hand with a bare ace besides a safe nil's ~1.5 points keeps e^-5, under 1 % of its weight)."""


def played_by(view: View) -> list[int]:
    """The cards each seat has played this hand."""
    played = [0] * view.ruleset.num_seats
    for seat, card in view.history:
        played[seat] |= 1 << card
    return played


def original_hands(world: Game, view: View) -> list[int]:
    """Each seat's cards of this hand in ``world``: what it holds and what it played."""
    return [h | p for h, p in zip(world.hands, played_by(view), strict=True)]


SHAPE_MISS = 6.0
"""In whiz and mirrors a numbered bid is the bidder's spade count: the log weight a sampled hand
loses per spade it holds too many or too few (soft, as the nil exchange can change the count)."""


def seat_log_weight(hand: int, bid: Bid, rs: Ruleset, spread: float, bias: float = 0.15) -> float:
    """The log of how well one seat's ``hand`` (all its cards of the hand) fits its ``bid`` (see
    `bid_likelihood`). Where the rules shape the bids the model follows them: in whiz and
    mirrors a number is the spade count (and a nil in mirrors no spade); a board forces numbers
    up and suicide forces a nil, so those say nothing."""
    if rs.mirrors or (rs.whiz and bid.kind == "tricks"):
        spades = (hand & tables(rs).suit_masks[SPADES]).bit_count()
        return -SHAPE_MISS * abs(spades - bid.n)
    if (rs.board and bid.kind == "tricks") or (rs.suicide and bid.kind == "nil"):
        return 0.0
    if bid.kind == "nil":
        excess = nil_danger(hand, rs) - NIL_SAFE
        return -NIL_WEIGHT * excess if excess > 0 else 0.0
    expected = max(1, math.floor(estimate_tricks(hand, rs) + bias))
    z = (bid.n - expected) / spread
    return -z * z / 2


def _read_bids(view: View) -> list[tuple[int, Bid]]:
    """The other seats' bids that say something of their hands (not blind, not yet to come)."""
    return [(s, b) for s, b in enumerate(view.bids) if s != view.seat and b is not None and not b.is_blind]


def _weigher(view: View, spread: float) -> Callable[[list[int]], float]:
    """`bid_likelihood` of the cards held in a deal (``hands``, per seat), for `Game.from_view`."""
    rs = view.ruleset
    read = _read_bids(view)
    played = played_by(view)

    def weigh(hands: list[int]) -> float:
        return math.exp(sum(seat_log_weight(hands[s] | played[s], b, rs, spread) for s, b in read))

    return weigh


def bid_likelihood(world: Game, view: View, spread: float) -> float:
    """How well the hands of ``world`` fit the bids the other seats made (1: every hand as
    expected): for a numbered bid a normal curve of width ``spread`` tricks around the bid a
    hand like it is bid with (the trick estimate plus a little, rounded down as players round a
    little down); for a nil, a hand more dangerous than `NIL_SAFE` loses weight quickly (an ace or
    a high spade makes a nil bid unlikely). Blind bids say nothing of the hand."""
    return _weigher(view, spread)(world.hands)


def world_sampler(view: View, draws: int, spread: float) -> Callable[[random.Random], Game]:
    """``sampler(rng)``: a deal consistent with what ``view.seat`` knows, the hidden hands
    following the bids (``draws`` deals drawn, one kept in proportion to `bid_likelihood`;
    ``draws`` 1, a ``spread`` of 0 or no bid to read: `Game.from_view` alone). Built once per
    decision: what the bids and the play so far say is read once, not for every sampled deal."""
    counts = spade_counts(view)
    if spread <= 0 or draws <= 1 or not _read_bids(view):
        return lambda rng: Game.from_view(view, rng=rng, spades=counts)
    weigh = _weigher(view, spread)
    return lambda rng: Game.from_view(view, rng=rng, candidates=draws, weigh=weigh, spades=counts)


def spade_counts(view: View) -> list[int | None] | None:
    """Per seat, the spades it holds now when its bid says so (whiz: a number; mirrors: a
    number or nil, no spade), less those it played; None where unknown, or for a side that
    exchanged cards for a nil (the count changed). None when the rules make no bid a count."""
    rs = view.ruleset
    if not (rs.whiz or rs.mirrors):
        return None
    exchange = (rs.nil_pass or rs.blind_nil_pass) and rs.partner_of(0) is not None
    played = played_by(view)
    spades = tables(rs).suit_masks[SPADES]
    counts: list[int | None] = []
    for seat, bid in enumerate(view.bids):
        side = rs.sides[rs.side_of(seat)]
        swapped = exchange and any((b := view.bids[m]) is not None and b.is_nil for m in side)
        if seat == view.seat or bid is None or swapped or not (rs.mirrors or bid.kind == "tricks"):
            counts.append(None)
        else:
            counts.append(bid.n - (played[seat] & spades).bit_count())
    return counts


def sample_world(view: View, rng: random.Random, draws: int, spread: float) -> Game:
    """One deal of `world_sampler`."""
    return world_sampler(view, draws, spread)(rng)
