"""What a bot can work out from its own view: card strength, unseen cards, trick state, risks.

Everything here reads the engine's per-ruleset tables (`engine.ruleset.tables`: effective suit and
power of every card id) and the view; no rule is re-implemented. Masks are ints (``1 << card``).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from ..cards import SPADES
from ..ruleset import Ruleset, tables, winning_play
from ..view import View

TRUMP = SPADES


@dataclass(frozen=True)
class CardTables:
    """Per-ruleset lookups a bot needs on every decision (cached)."""

    suit: tuple[int, ...]  # effective suit per card id
    power: tuple[int, ...]  # strength inside the effective suit; trumps >= 100
    suit_masks: tuple[int, ...]  # the deck's cards per effective suit
    deck_mask: int
    above: tuple[int, ...]  # per card: mask of the deck's cards of its suit that beat it
    below: tuple[int, ...]  # per card: mask of the deck's cards of its suit it beats
    first_wins: bool  # two identical cards: the first played wins


@lru_cache(maxsize=64)
def card_tables(rs: Ruleset) -> CardTables:
    t = tables(rs)
    first_wins = rs.six_player_first_wins
    above = [0] * 128
    below = [0] * 128
    for c in t.deck:
        s, p = t.suit[c], t.power[c]
        for d in t.deck:
            if d == c or t.suit[d] != s:
                continue
            if t.power[d] > p:
                above[c] |= 1 << d
            elif t.power[d] < p:
                below[c] |= 1 << d
    return CardTables(t.suit, t.power, t.suit_masks, t.deck_mask, tuple(above), tuple(below), first_wins)


def beats(ct: CardTables, card: int, best: int) -> bool:
    """Whether ``card`` played after ``best`` takes the lead of the trick from it: one step of
    `engine.ruleset.winning_play` (tests hold the two to the same answers)."""
    s, bs = ct.suit[card], ct.suit[best]
    if s == bs:
        p, bp = ct.power[card], ct.power[best]
        return p > bp or (p == bp and not ct.first_wins)
    return s == TRUMP


def trick_winner(ct: CardTables, trick: tuple[tuple[int, int], ...]) -> tuple[int, int] | None:
    """(seat, card) currently winning the trick, or None for an empty trick."""
    if not trick:
        return None
    return winning_play(trick, ct.suit, ct.power, not ct.first_wins)


@lru_cache(maxsize=4096)
def _p_none(u: int, k: int, h: int) -> float:
    """Chance that ``h`` cards drawn from ``u`` unseen ones miss all ``k`` of one suit."""
    p = 1.0
    for i in range(min(h, u)):
        p *= max(0.0, (u - k - i) / (u - i))
        if p == 0.0:
            break
    return p


@lru_cache(maxsize=256)
def _seat_info(rs: Ruleset, seat: int) -> tuple[int, tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
    side = rs.side_of(seat)
    return (
        side,
        tuple(rs.teammates(seat)),
        tuple(rs.sides[side]),
        tuple(s for s in range(rs.num_seats) if rs.side_of(s) != side),
    )


@lru_cache(maxsize=1024)
def _after_info(
    rs: Ruleset, seat: int, played: int
) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
    n = rs.num_seats
    _, _, _, opponents = _seat_info(rs, seat)
    after = tuple((seat + i) % n for i in range(1, n - played))
    return (after, tuple(s for s in after if s in opponents), tuple(s for s in after if s not in opponents))


class Knowledge:
    """Derived facts for one decision of one seat; built once per `act` call."""

    def __init__(self, view: View) -> None:
        self.view = view
        rs = view.ruleset
        self.rs = rs
        self.ct = ct = card_tables(rs)
        self.seat = seat = view.seat if view.seat is not None else 0
        self.n = rs.num_seats
        self.hand = view.hand or 0
        trick = view.current_trick
        trick_mask = 0
        for _, c in trick:
            trick_mask |= 1 << c
        self.trick_mask = trick_mask
        self.played = view.played | trick_mask
        # Cards not in my hand and not yet seen played (in two-player also the cards out of play).
        self.unseen = ct.deck_mask & ~self.hand & ~self.played
        self.unseen_count = self.unseen.bit_count()
        self.my_side, self.teammates, self.side_seats, self.opponents = _seat_info(rs, seat)
        self.tricks_left = view.tricks_per_hand - view.trick_no
        # Seats still to play to this trick after me, in order.
        self.after, self.opps_after, self.mates_after = _after_info(rs, seat, len(trick))
        if trick:
            self.winner: tuple[int, int] | None = winning_play(trick, ct.suit, ct.power, not ct.first_wins)
            self.led_suit: int | None = ct.suit[trick[0][1]]
        else:
            self.winner = None
            self.led_suit = None
        self._voids: dict[int, set[int]] | None = None

    @property
    def voids(self) -> dict[int, set[int]]:
        """Suits each seat has shown to be out of (built on first use)."""
        if self._voids is None:
            self._voids = self._known_voids()
        return self._voids

    # -- bids and contracts ---------------------------------------------------------------
    def is_nil(self, seat: int) -> bool:
        b = self.view.bids[seat]
        return b is not None and b.is_nil

    def alive_nil(self, seat: int) -> bool:
        """A nil bidder that has not taken a trick yet."""
        return self.is_nil(seat) and self.view.tricks[seat] == 0

    def side_need(self, side: int) -> int:
        """Tricks the side still needs for its contract (nil bidders' tricks do not count)."""
        bid = took = 0
        for s in self.rs.sides[side]:
            b = self.view.bids[s]
            if b is None or b.is_nil:
                continue
            bid += b.n
            took += self.view.tricks[s]
        return bid - took

    def side_overtricks(self, side: int) -> int:
        """Bags the side has taken this hand so far (nil bidders' tricks included)."""
        bid = took = 0
        for s in self.rs.sides[side]:
            b = self.view.bids[s]
            if b is not None and not b.is_nil:
                bid += b.n
            took += self.view.tricks[s]
        return max(0, took - bid)

    # -- unseen cards and risks -----------------------------------------------------------
    def unseen_in(self, suit: int) -> int:
        return self.unseen & self.ct.suit_masks[suit]

    def higher_unseen(self, card: int) -> int:
        """Unseen cards of the same suit that would beat ``card`` played before them."""
        m = self.ct.above[card]
        if not self.ct.first_wins:
            # A later identical copy wins too.
            twin = card ^ 64
            if self.ct.deck_mask >> twin & 1:
                m |= 1 << twin
        return m & self.unseen

    def _known_voids(self) -> dict[int, set[int]]:
        """Suits each seat has shown to be out of (current and last trick only)."""
        voids: dict[int, set[int]] = {}
        ct = self.ct
        for trick in (self.view.current_trick, self.view.last_trick or ()):
            if not trick:
                continue
            led = ct.suit[trick[0][1]]
            for s, c in trick[1:]:
                if ct.suit[c] != led:
                    voids.setdefault(s, set()).add(led)
        for s in range(self.n):
            for suit in range(4):
                if not self.unseen_in(suit):
                    voids.setdefault(s, set()).add(suit)
        return voids

    def p_void(self, seat: int, suit: int) -> float:
        """Rough chance that ``seat`` holds no card of ``suit`` (hypergeometric estimate)."""
        if suit in self.voids.get(seat, ()):
            return 1.0
        u = self.unseen_count
        if u <= 0:
            return 1.0
        return _p_none(u, self.unseen_in(suit).bit_count(), self.view.hand_sizes[seat])

    def p_holds_trump(self, seat: int) -> float:
        return 1.0 - self.p_void(seat, TRUMP)

    def p_survives(self, card: int, seats: tuple[int, ...]) -> float:
        """Chance that ``card``, if it is winning this trick, is not beaten by any of ``seats``.

        A trump on a trick of another suit (a ruff) is only beaten by a seat that is also out of
        the led suit and holds a higher trump; otherwise higher cards of the suit and ruffs count."""
        if not seats:
            return 1.0
        suit = self.ct.suit[card]
        led = self.led_suit if self.led_suit is not None else suit
        u = max(1, self.unseen_count)
        higher = self.higher_unseen(card).bit_count()
        if suit == TRUMP and led != TRUMP:
            p = 1.0
            for s in seats:
                p_higher = 1.0 - (1.0 - min(1.0, self.view.hand_sizes[s] / u)) ** higher
                p *= 1.0 - self.p_void(s, led) * p_higher
            return p
        hold = sum(self.view.hand_sizes[s] for s in seats)
        frac = min(1.0, hold / u)
        p = (1.0 - frac) ** higher
        if suit != TRUMP and self.unseen_in(TRUMP):
            for s in seats:
                # The seat can trump only when void in the suit and holding a trump.
                p *= 1.0 - self.p_void(s, suit) * self.p_holds_trump(s)
        return p
