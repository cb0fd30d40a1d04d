"""What one seat (or a spectator) may know. Built by ``Game.view(seat)`` / ``Game.public_view()``."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .bids import Bid
from .cards import card_str, cards_of

if TYPE_CHECKING:
    from .actions import Action
    from .ruleset import Ruleset


def seated_plays(
    plays: Sequence[int], first_leader: int | None, trick_winners: Sequence[int], n: int
) -> list[tuple[int, int]]:
    """``(seat, card)`` for each card in ``plays`` (one hand, in order): the first trick is led by
    ``first_leader``, each later one by the winner of the trick before; seats play in turn."""
    out: list[tuple[int, int]] = []
    if not plays:
        return out
    if first_leader is None:
        raise ValueError("cards were played but nobody led the first trick")
    leader = first_leader
    for i, c in enumerate(plays):
        k = i % n
        if k == 0 and i:
            leader = trick_winners[i // n - 1]
        out.append(((leader + k) % n, c))
    return out


@dataclass(frozen=True)
class View:
    """A snapshot for one seat. ``hand`` is a bitmask (None until the seat looked, and always None
    for spectators); nothing here reveals another seat's cards.

    >>> from engine import Game, hand_str
    >>> game = Game.new("standard", seed=7, dealer=0)
    >>> game.view(1).hand is None  # blind nil is still open: the cards are face down
    True
    >>> _ = game.look(1)
    >>> hand_str(game.view(1).hand)
    '♠ J 10 9 8 5 3   ♥ Q   ♣ 9 8 6 5   ♦ 9 7'
    >>> game.view(2).hand is None, game.public_view().hand, game.view(1).hand_sizes
    (True, None, (13, 13, 13, 13))
    """

    seat: int | None
    ruleset: Ruleset
    phase: str
    hand_no: int
    dealer: int
    to_act: int | None
    seats_to_act: tuple[int, ...]
    hand: int | None
    looked: bool
    hand_sizes: tuple[int, ...]
    bids: tuple[Bid | None, ...]
    tricks: tuple[int, ...]
    trick_no: int  # completed tricks this hand (the current trick is trick_no + 1)
    current_trick: tuple[tuple[int, int], ...]
    leader: int | None
    last_trick: tuple[tuple[int, int], ...] | None
    last_trick_winner: int | None
    trick_winners: tuple[int, ...]
    played: int
    spades_broken: bool
    scores: tuple[int, ...]
    bags: tuple[int, ...]
    winner: int | None
    passed: int | None = None
    received: int | None = None
    pass_size: int = 0
    drawn_card: int | None = None
    draw_discards: int = 0  # two-player: cards this seat saw go to the discard pile
    legal: list[Action] = field(default_factory=list)
    legal_cards: tuple[int, ...] = ()
    tricks_per_hand: int = 13
    last_hand: dict[str, Any] | None = None  # the previous hand's HandScored, as a dict
    plays: tuple[int, ...] = ()  # every card played this hand, in order
    first_leader: int | None = None  # who led the first trick of this hand

    @property
    def history(self) -> tuple[tuple[int, int], ...]:
        """Every (seat, card) played this hand, in order."""
        return tuple(seated_plays(self.plays, self.first_leader, self.trick_winners, self.ruleset.num_seats))

    @property
    def sides(self) -> tuple[tuple[int, ...], ...]:
        return self.ruleset.sides

    @property
    def num_seats(self) -> int:
        return self.ruleset.num_seats

    @property
    def led_suit(self) -> int | None:
        if not self.current_trick:
            return None
        from .ruleset import tables

        return tables(self.ruleset).suit[self.current_trick[0][1]]

    def hand_cards(self) -> list[int]:
        return cards_of(self.hand) if self.hand else []

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe form (cards as text)."""
        return {
            "seat": self.seat,
            "ruleset": self.ruleset.to_dict(),
            "phase": str(self.phase),
            "hand_no": self.hand_no,
            "dealer": self.dealer,
            "to_act": self.to_act,
            "seats_to_act": list(self.seats_to_act),
            "hand": None if self.hand is None else [card_str(c) for c in cards_of(self.hand)],
            "looked": self.looked,
            "hand_sizes": list(self.hand_sizes),
            "bids": [None if b is None else b.to_json() for b in self.bids],
            "tricks": list(self.tricks),
            "trick_no": self.trick_no,
            "current_trick": [[s, card_str(c)] for s, c in self.current_trick],
            "leader": self.leader,
            "last_trick": None if self.last_trick is None else [[s, card_str(c)] for s, c in self.last_trick],
            "last_trick_winner": self.last_trick_winner,
            "trick_winners": list(self.trick_winners),
            "played": [card_str(c) for c in cards_of(self.played)],
            "spades_broken": self.spades_broken,
            "scores": list(self.scores),
            "bags": list(self.bags),
            "winner": self.winner,
            "passed": None if self.passed is None else [card_str(c) for c in cards_of(self.passed)],
            "received": None if self.received is None else [card_str(c) for c in cards_of(self.received)],
            "pass_size": self.pass_size,
            "drawn_card": None if self.drawn_card is None else card_str(self.drawn_card),
            "legal": [a.to_dict() for a in self.legal],
        }
