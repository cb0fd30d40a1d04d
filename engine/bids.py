"""Bids: a number of tricks, nil, blind nil, or a blind bid ("blind 6")."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import ClassVar, Literal

BidKind = Literal["tricks", "nil", "blind_nil", "blind"]
_KINDS = ("tricks", "nil", "blind_nil", "blind")


class BidParseError(ValueError):
    """A text that is no bid. ``reason`` says why (``unknown``: not a bid at all, ``negative``,
    ``blind_zero``: ``blind 0``; ``invalid`` for the others) and ``text`` is what was given."""

    code = "bad_bid"

    def __init__(self, message: str, reason: str = "invalid", text: str = "") -> None:
        super().__init__(message)
        self.reason = reason
        self.text = text


@dataclass(frozen=True, slots=True)
class Bid:
    """``kind`` and ``n`` (tricks promised; 0 for the nil kinds). Instances are interned by
    ``Bid.of`` so comparisons and hashing are cheap.

    >>> bid = Bid.parse("blind 6")
    >>> bid, bid.label, str(bid), bid.is_blind, bid.is_nil
    (Bid(kind='blind', n=6), 'Blind 6', 'blind 6', True, False)
    >>> Bid.parse("blind nil") is Bid.BLIND_NIL, Bid.parse("nil").is_nil
    (True, True)
    >>> [Bid.parse(x).to_json() for x in (4, "4", "nil", "blind 6")]
    [4, 4, 'nil', 'blind 6']
    >>> Bid.parse("lots")
    Traceback (most recent call last):
    ...
    engine.bids.BidParseError: "lots" is not a bid; bid a number of tricks (like 4), nil, ...
    """

    kind: BidKind
    n: int = 0

    NIL: ClassVar[Bid]
    BLIND_NIL: ClassVar[Bid]

    def __post_init__(self) -> None:
        if self.kind not in _KINDS:
            raise BidParseError(f"{self.kind!r} is not a kind of bid")
        if not isinstance(self.n, int) or isinstance(self.n, bool) or self.n < 0:
            raise BidParseError(f"{self.n!r} is not a number of tricks")
        if self.kind in ("nil", "blind_nil") and self.n != 0:
            raise BidParseError("A nil bid promises no tricks")
        if self.kind == "blind" and self.n < 1:
            raise BidParseError("A blind bid promises at least 1 trick")

    @staticmethod
    def of(kind: BidKind, n: int = 0) -> Bid:
        key = (kind, n)
        b = _CACHE.get(key)
        if b is None:
            b = _CACHE[key] = Bid(kind, n)
        return b

    @staticmethod
    def tricks(n: int) -> Bid:
        return Bid.of("tricks", n)

    @property
    def is_nil(self) -> bool:
        """Nil or blind nil: the bidder promises no trick and is scored on its own."""
        return self.kind == "nil" or self.kind == "blind_nil"

    @property
    def is_blind(self) -> bool:
        """Made without looking at the cards (blind nil or a blind bid)."""
        return self.kind == "blind_nil" or self.kind == "blind"

    @property
    def label(self) -> str:
        if self.kind == "tricks":
            return str(self.n)
        if self.kind == "nil":
            return "Nil"
        if self.kind == "blind_nil":
            return "Blind nil"
        return f"Blind {self.n}"

    def __str__(self) -> str:
        if self.kind == "tricks":
            return str(self.n)
        if self.kind == "blind":
            return f"blind {self.n}"
        return self.kind

    def to_json(self) -> int | str:
        """HAND_RECORD form: an int, ``"nil"``, ``"blind_nil"`` or ``"blind 6"``."""
        return self.n if self.kind == "tricks" else str(self)

    @staticmethod
    def from_json(value: int | str | Bid) -> Bid:
        return Bid.parse(value)

    @staticmethod
    def parse(value: int | str | Bid) -> Bid:
        """``5``, ``"5"``, ``"0"`` (a trick bid of 0; the game reads it as nil when nil is
        allowed), ``"nil"``, ``"blind_nil"``, ``"blind nil"``, ``"double nil"``, ``"blind 6"``."""
        if isinstance(value, Bid):
            return value
        if isinstance(value, bool):
            raise BidParseError(f"{value!r} is not a bid")
        if isinstance(value, int):
            if value < 0:
                raise BidParseError(f"{value} is not a bid; bids are 0 or more tricks, nil or blind nil")
            return Bid.of("tricks", value)
        if not isinstance(value, str):
            raise BidParseError(f"{value!r} is not a bid")
        if value.strip().startswith("-"):
            raise BidParseError(
                f'"{value.strip()}" is not a bid; bids are 0 or more tricks or nil', "negative", value.strip()
            )
        text = " ".join(value.replace("_", " ").replace("-", " ").lower().split())
        if text in _WORDS:
            return _WORDS[text]
        if text.isdigit():
            return Bid.of("tricks", int(text))
        m = _BLIND_RE.match(text)
        if m:
            n = int(m.group(1))
            if n < 1:
                raise BidParseError(
                    f'"{value}" is not a bid; a blind bid promises at least 1 trick', "blind_zero", value
                )
            return Bid.of("blind", n)
        raise BidParseError(
            f'"{value.strip()}" is not a bid; bid a number of tricks (like 4), nil, blind nil '
            "or a blind number (like blind 6)",
            "unknown",
            value.strip(),
        )


_CACHE: dict[tuple[str, int], Bid] = {}
Bid.NIL = Bid.of("nil")
Bid.BLIND_NIL = Bid.of("blind_nil")
_WORDS = {
    "nil": Bid.NIL,
    "nill": Bid.NIL,
    "n": Bid.NIL,
    "blind nil": Bid.BLIND_NIL,
    "blindnil": Bid.BLIND_NIL,
    "bn": Bid.BLIND_NIL,
    "double nil": Bid.BLIND_NIL,
    "blind nill": Bid.BLIND_NIL,
}
_BLIND_RE = re.compile(r"^(?:blind|b) ?(\d+)$")
