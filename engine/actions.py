"""Actions as values: what a seat may do (``Game.legal_actions``) and ``Game.apply(action)``."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from ._json import value_dict
from .bids import Bid
from .cards import parse_card


@dataclass(frozen=True, slots=True)
class Action:
    kind: ClassVar[str] = "action"
    seat: int

    def to_dict(self) -> dict[str, Any]:
        """``{"kind", "seat", <the action's field>}``, cards as text (see ``engine._json``)."""
        return value_dict(self)


@dataclass(frozen=True, slots=True)
class Look(Action):
    kind: ClassVar[str] = "look"


@dataclass(frozen=True, slots=True)
class BidAction(Action):
    kind: ClassVar[str] = "bid"
    bid: Bid


@dataclass(frozen=True, slots=True)
class PassAction(Action):
    kind: ClassVar[str] = "pass"
    cards: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class PlayAction(Action):
    kind: ClassVar[str] = "play"
    card: int


@dataclass(frozen=True, slots=True)
class DrawAction(Action):
    """Two-player draw: keep the top card (and discard the next) or discard it (keep the next)."""

    kind: ClassVar[str] = "draw"
    keep: bool


@dataclass(frozen=True, slots=True)
class MisdealAction(Action):
    """Show a hand without spades and call for a redeal (``misdeal_no_spades``)."""

    kind: ClassVar[str] = "misdeal"


# Interned instances for the hot path (actions are immutable values, so sharing is safe).
PLAY_ACTIONS: tuple[tuple[PlayAction, ...], ...] = tuple(
    tuple(PlayAction(s, c) for c in range(128)) for s in range(6)
)
LOOK_ACTIONS: tuple[Look, ...] = tuple(Look(s) for s in range(6))
MISDEAL_ACTIONS: tuple[MisdealAction, ...] = tuple(MisdealAction(s) for s in range(6))
DRAW_ACTIONS: tuple[tuple[DrawAction, DrawAction], ...] = tuple(
    (DrawAction(s, True), DrawAction(s, False)) for s in range(6)
)
_BID_ACTIONS: dict[tuple[int, int], BidAction] = {}


def bid_action(seat: int, bid: Bid) -> BidAction:
    """An interned ``BidAction``, keyed by the bid's identity (bids are interned by ``Bid.of``;
    the stored action is checked to hold this very bid)."""
    key = (seat, id(bid))
    a = _BID_ACTIONS.get(key)
    if a is None or a.bid is not bid:
        if len(_BID_ACTIONS) > 4096:
            _BID_ACTIONS.clear()
        a = _BID_ACTIONS[key] = BidAction(seat, bid)
    return a


def action_from_dict(d: dict[str, Any]) -> Action:
    """Inverse of ``Action.to_dict`` (card texts refer to first-deck copies)."""
    kind, seat = d["kind"], int(d["seat"])
    if kind == "look":
        return Look(seat)
    if kind == "bid":
        return BidAction(seat, Bid.parse(d["bid"]))
    if kind == "pass":
        return PassAction(seat, tuple(parse_card(c) for c in d["cards"]))
    if kind == "play":
        return PlayAction(seat, parse_card(d["card"]))
    if kind == "draw":
        return DrawAction(seat, bool(d["keep"]))
    if kind == "misdeal":
        return MisdealAction(seat)
    raise ValueError(f"{kind!r} is not an action")
