"""Shared helpers for the engine tests: fixed deals written as text."""

from engine import Game, Ruleset, parse_card

# Seat 0: seven top spades + 7H QH + 2C 3C + 2D 3D; seat 1: the low spades + AH KH JH ...
DEAL = [
    "AS KS QS JS 10S 9S 8S 7H QH 2C 3C 2D 3D",
    "7S 6S 5S 4S 3S 2S AH KH JH 4C 5C 4D 5D",
    "10H 9H 8H 6H 5H 4H 3H 2H 6C 7C 8C 6D 7D",
    "9C 10C JC QC KC AC 8D 9D 10D JD QD KD AD",
]


def cards(text: str) -> list[int]:
    return [parse_card(t) for t in text.split()]


def game_from(deal: list[str], rs: Ruleset | str = "standard", dealer: int = 3, **kw: object) -> Game:
    return Game.from_deal(rs, [cards(h) for h in deal], dealer=dealer, **kw)  # type: ignore[arg-type]


def bid_all(g: Game, bids: list[int | str]) -> None:
    """Bid in turn order starting with the seat to act."""
    for b in bids:
        seat = g.to_act
        assert seat is not None
        g.bid(seat, b)
