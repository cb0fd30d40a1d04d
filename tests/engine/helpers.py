"""Shared helpers for the engine tests: fixed deals written as text, games played by a bot."""

from pathlib import Path
from typing import Any

from engine import (
    PRESETS,
    Game,
    Ruleset,
    parse_card,
)
from engine.bots import get_bot

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


VARIANTS = {
    **PRESETS,
    "first-trick-2c": Ruleset.preset("standard", first_trick_two_clubs=True),
    "misdeal-nil-pass": Ruleset.preset("standard", misdeal_no_spades=True, nil_pass=2),
    "board": Ruleset.preset("classic-online", board=4),
    "blind-bids": Ruleset.preset("standard", blind_bids=True, blind_bid_min_deficit=0),
    "all-deuces-jokers": Ruleset.preset("deuces-high", deuces_high_all=True, jokers=True),
    "six-last-wins": Ruleset.preset("six-player", six_player_first_wins=False),
    "cutthroat-jokers": Ruleset.preset("cutthroat", jokers=True),
    "mercy-max": Ruleset.preset("short", lose_score=-100, max_hands=2, ten_for_200=True, boston=True),
    "no-nil": Ruleset.preset("classic-online", nil_allowed=False, spades_must_be_broken=False),
    "set-twice-ten-150": Ruleset.preset("standard", set_limit=2, ten_for_200=True, ten_for_value=150),
}


ROOT = Path(__file__).resolve().parents[2]


SUITS_DEAL = [
    ["AS", "KS", "QS", "JS", "10S", "9S", "8S", "7S", "6S", "5S", "4S", "3S", "2S"],
    ["AH", "KH", "QH", "JH", "10H", "9H", "8H", "7H", "6H", "5H", "4H", "3H", "2H"],
    ["AC", "KC", "QC", "JC", "10C", "9C", "8C", "7C", "6C", "5C", "4C", "3C", "2C"],
    ["AD", "KD", "QD", "JD", "10D", "9D", "8D", "7D", "6D", "5D", "4D", "3D", "2D"],
]


def suits_record() -> dict[str, Any]:
    """Seat 0 holds every spade and leads them from the bottom; everyone else discards."""
    plays = []
    for i in range(13):
        plays += [SUITS_DEAL[0][12 - i], SUITS_DEAL[1][12 - i], SUITS_DEAL[2][12 - i], SUITS_DEAL[3][12 - i]]
    return {
        "format": "spades-hand/1",
        "ruleset": "classic-online",
        "dealer": 3,
        "deal": SUITS_DEAL,
        "bids": [[0, 13], [1, 1], [2, "nil"], [3, 2]],
        "plays": plays,
        "before": {"scores": [120, 86], "bags": [3, 7]},
    }


def play(preset: str, seed: int, hands: int | None = None, bot: str = "random") -> Game:
    """A fair game of ``preset`` that ``bot`` plays for every seat, for ``hands`` hands (or to its end)."""
    g = Game.new(preset, seed=seed, fair=True)
    b = get_bot(bot, seed=seed)
    while not g.over and (hands is None or len(g.hand_records) < hands):
        g.apply(b.act(g.view(g.seats_to_act()[0])))
    return g
