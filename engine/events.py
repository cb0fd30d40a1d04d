"""Events: what happened, for narration. Each has a ``kind`` and ``to_dict()`` (JSON-safe).

No event ever carries a card that is still hidden in a hand: ``CardsPassed`` gives a count only.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar

from ._json import value_dict
from .bids import Bid


class Event:
    __slots__ = ()
    kind: ClassVar[str] = "event"

    def to_dict(self) -> dict[str, Any]:
        """``{"kind", <each field>}``, cards as text (see ``engine._json``)."""
        return value_dict(self)


@dataclass(frozen=True, slots=True)
class HandDealt(Event):
    kind: ClassVar[str] = "hand_dealt"
    hand_no: int
    dealer: int


@dataclass(frozen=True, slots=True)
class Misdealt(Event):
    """A seat showed a hand without spades and the cards were dealt again."""

    kind: ClassVar[str] = "misdealt"
    seat: int
    hand_no: int


@dataclass(frozen=True, slots=True)
class CardDrawn(Event):
    """Two-player draw: a seat took one card into its hand (which card stays private)."""

    kind: ClassVar[str] = "card_drawn"
    seat: int
    hand_size: int


@dataclass(frozen=True, slots=True)
class Looked(Event):
    kind: ClassVar[str] = "looked"
    seat: int


@dataclass(frozen=True, slots=True)
class BidMade(Event):
    kind: ClassVar[str] = "bid_made"
    seat: int
    bid: Bid


@dataclass(frozen=True, slots=True)
class BiddingDone(Event):
    kind: ClassVar[str] = "bidding_done"
    bids: tuple[Bid, ...]


@dataclass(frozen=True, slots=True)
class CardsPassed(Event):
    kind: ClassVar[str] = "cards_passed"
    seat: int
    count: int


@dataclass(frozen=True, slots=True)
class PassingDone(Event):
    kind: ClassVar[str] = "passing_done"


@dataclass(frozen=True, slots=True)
class CardPlayed(Event):
    kind: ClassVar[str] = "card_played"
    seat: int
    card: int


@dataclass(frozen=True, slots=True)
class SpadesBroken(Event):
    kind: ClassVar[str] = "spades_broken"
    seat: int


@dataclass(frozen=True, slots=True)
class TrickWon(Event):
    """``trick_no`` is 1-based; ``cards`` are (seat, card) in play order."""

    kind: ClassVar[str] = "trick_won"
    seat: int
    trick_no: int
    cards: tuple[tuple[int, int], ...]


@dataclass(frozen=True, slots=True)
class NilScore:
    seat: int
    kind: str  # "nil" | "blind_nil"
    made: bool
    tricks: int
    points: int

    def to_dict(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "kind": self.kind,
            "made": self.made,
            "tricks": self.tricks,
            "points": self.points,
        }


@dataclass(frozen=True, slots=True)
class SideScore:
    """One side's score for one hand. ``bid`` is the contract (nil bids excluded), ``tricks``
    the tricks that count for it (nil bidders' excluded), ``made`` None when the side bid only
    nils, ``bags`` this hand's bags (nil bidders' tricks included)."""

    side: int
    seats: tuple[int, ...]
    bid: int
    blind_bid: int
    tricks: int
    made: bool | None
    contract_points: int
    bags: int
    bag_points: int
    nils: tuple[NilScore, ...]
    nil_points: int
    bag_penalty: int
    bonus_points: int
    total: int
    score_before: int
    score_after: int
    bags_before: int
    bags_after: int
    penalties: int = 0  # how many times the bag limit was reached this hand
    boston: bool = False
    notes: tuple[str, ...] = field(default=())

    def to_dict(self) -> dict[str, Any]:
        return {
            "side": self.side,
            "seats": list(self.seats),
            "bid": self.bid,
            "blind_bid": self.blind_bid,
            "tricks": self.tricks,
            "made": self.made,
            "contract_points": self.contract_points,
            "bags": self.bags,
            "bag_points": self.bag_points,
            "nils": [n.to_dict() for n in self.nils],
            "nil_points": self.nil_points,
            "bag_penalty": self.bag_penalty,
            "bonus_points": self.bonus_points,
            "points": self.total,
            "total": self.total,
            "score_before": self.score_before,
            "score_after": self.score_after,
            "bags_before": self.bags_before,
            "bags_after": self.bags_after,
            "penalties": self.penalties,
            "boston": self.boston,
            "notes": list(self.notes),
        }


@dataclass(frozen=True, slots=True)
class HandScored(Event):
    kind: ClassVar[str] = "hand_scored"
    hand_no: int
    tricks: tuple[int, ...]
    breakdown: tuple[SideScore, ...]
    scores: tuple[int, ...]
    bags: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class GameOver(Event):
    kind: ClassVar[str] = "game_over"
    winner: int | None  # None: a draw (time called on a tie; reason "draw")
    scores: tuple[int, ...]
    # "target" | "boston" | "mercy" | "max_hands" | "sets" | "time" | "overtime" | "bags" | "draw"
    reason: str = "target"


# Interned instances for the hot path (events are immutable values).
CARD_PLAYED: tuple[tuple[CardPlayed, ...], ...] = tuple(
    tuple(CardPlayed(s, c) for c in range(128)) for s in range(6)
)
SPADES_BROKEN: tuple[SpadesBroken, ...] = tuple(SpadesBroken(s) for s in range(6))
LOOKED: tuple[Looked, ...] = tuple(Looked(s) for s in range(6))
_BID_MADE: dict[tuple[int, int], BidMade] = {}


def bid_made(seat: int, bid: Bid) -> BidMade:
    """An interned ``BidMade`` (bids are a small set of values). Keyed by identity, which
    skips hashing the dataclass; the stored event is checked to hold this very bid."""
    key = (seat, id(bid))
    ev = _BID_MADE.get(key)
    if ev is None or ev.bid is not bid:
        if len(_BID_MADE) > 4096:
            _BID_MADE.clear()
        ev = _BID_MADE[key] = BidMade(seat, bid)
    return ev


EVENT_TYPES: dict[str, type[Event]] = {
    cls.kind: cls
    for cls in (
        HandDealt,
        Misdealt,
        CardDrawn,
        Looked,
        BidMade,
        BiddingDone,
        CardsPassed,
        PassingDone,
        CardPlayed,
        SpadesBroken,
        TrickWon,
        HandScored,
        GameOver,
    )
}
