"""What the bids say about the hidden hands: sampled deals weighted by how well each seat's
hand fits the bid it made.

`Game.from_view` deals the hidden cards consistently with what play has shown (voids, the cards
passed, a nil bidder's ducks) but knows nothing of the bidding: a seat that bid 6 gets as
average a hand as one that bid 1, and a nil bidder is dealt aces as often as anyone. A player
reads the bids; `sample_world` does the same by sampling importance resampling: it draws
``draws`` deals and keeps one with probability proportional to `bid_likelihood`, so the kept
deals follow the bids (each seat's hand near the bid a hand like it is bid with) without a
hand ever being rejected outright.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable

from ..bids import Bid
from ..cards import SPADES, bits
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


def sample_world(view: View, rng: random.Random, draws: int, spread: float, steps: int = 0) -> Game:
    """A deal consistent with what ``view.seat`` knows, the hidden hands following the bids
    (``draws`` deals drawn, one kept in proportion to `bid_likelihood`; ``draws`` 1 or a
    ``spread`` of 0: `Game.from_view` alone), then ``steps`` swaps of `refine`."""
    if spread <= 0 or not _read_bids(view):
        return Game.from_view(view, rng=rng)
    world = Game.from_view(view, rng=rng, candidates=draws, weigh=_weigher(view, spread))
    return refine(world, view, rng, steps, spread)


def freedom(view: View) -> tuple[list[int], list[int]]:
    """Per seat, the cards it may hold as far as play has shown (not a suit it failed to follow;
    only spades after leading one before they were broken) and the cards known to be in its hand
    (the cards this seat passed to its partner): what `refine` may move and where."""
    rs = view.ruleset
    t = tables(rs)
    n = rs.num_seats
    allowed = [t.deck_mask] * n
    fixed = [0] * n
    partner = rs.partner_of(view.seat or 0)
    if view.passed and partner is not None:
        fixed[partner] = view.passed & ~view.played
    history = view.history
    broken = False
    for i in range(0, len(history), n):
        trick = history[i:i + n]
        led_seat, led = trick[0]
        led_suit = t.suit[led]
        if led_suit == SPADES and not broken and rs.spades_must_be_broken:
            allowed[led_seat] &= t.suit_masks[SPADES]
        for s_, c in trick:
            if t.suit[c] != led_suit:
                allowed[s_] &= ~t.suit_masks[led_suit]
            if t.suit[c] == SPADES:
                broken = True
    return allowed, fixed


def refine(world: Game, view: View, rng: random.Random, steps: int, spread: float) -> Game:
    """``world`` moved toward the bids by ``steps`` Metropolis swaps of one hidden card between
    two other seats (only swaps that play allows; kept with the ratio of `seat_log_weight`s), so
    that a nil bidder sheds the aces and high spades a uniform deal gives it and a high bidder
    gains the honours (sampling importance resampling alone rarely finds a hand fit for nil)."""
    me = view.seat
    rs = view.ruleset
    first_lead_fixed = view.trick_no == 0 and rs.first_trick_two_clubs  # by who holds the two
    if steps <= 0 or view.phase != "play" or view.hand is None or first_lead_fixed:
        return world
    seats = [s for s in range(rs.num_seats) if s != me and world.hands[s]]
    if len(seats) < 2:
        return world
    allowed, fixed = freedom(view)
    played = played_by(view)
    hands = world.hands
    bids = view.bids
    logw = {s: (seat_log_weight(hands[s] | played[s], bid, rs, spread)
                if (bid := bids[s]) is not None and not bid.is_blind else 0.0) for s in seats}
    for _ in range(steps):
        a, b = rng.sample(seats, 2)
        xs = hands[a] & ~fixed[a] & allowed[b]
        ys = hands[b] & ~fixed[b] & allowed[a]
        if not xs or not ys:
            continue
        x = 1 << rng.choice(bits(xs))
        y = 1 << rng.choice(bits(ys))
        ha = hands[a] ^ x ^ y
        hb = hands[b] ^ y ^ x
        ba, bb = bids[a], bids[b]
        la = seat_log_weight(ha | played[a], ba, rs, spread) if ba is not None and not ba.is_blind else 0.0
        lb = seat_log_weight(hb | played[b], bb, rs, spread) if bb is not None and not bb.is_blind else 0.0
        delta = la + lb - logw[a] - logw[b]
        if delta >= 0 or rng.random() < math.exp(delta):
            hands[a], hands[b] = ha, hb
            logw[a], logw[b] = la, lb
    for s in seats:
        world.dealt[s] = hands[s] | played[s]
    return world

