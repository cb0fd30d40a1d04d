"""Cards as ints, hands as int bitmasks, parsing and printing (RULES.md section 6).

A face card is ``suit * 13 + rank`` (suits clubs, diamonds, hearts, spades; ranks 2..A as 0..12),
the jokers are 52 (little) and 53 (big). Two-deck games use a second copy of every card at
``id + 64``; ``face(card)`` maps a copy back to its face.

>>> from engine import SPADES, cards_of, hand_str, mask_of, parse_cards, suit_of
>>> hand = mask_of(parse_cards("AS KS 7s 9H 4H"))
>>> hand_str(hand)
'♠ A K 7   ♥ 9 4'
>>> [suit_of(c) == SPADES for c in cards_of(hand)]
[True, True, True, False, False]
"""

from __future__ import annotations

import re
from collections.abc import Iterable

CLUBS, DIAMONDS, HEARTS, SPADES = 0, 1, 2, 3
SUITS = (CLUBS, DIAMONDS, HEARTS, SPADES)
LITTLE_JOKER = 52
BIG_JOKER = 53
COPY_OFFSET = 64

RANK_CHARS = "23456789TJQKA"
RANK_NAMES = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
SUIT_CHARS = "CDHS"
SUIT_SYMBOLS = ("♣", "♦", "♥", "♠")
SUIT_NAMES = ("clubs", "diamonds", "hearts", "spades")
SUIT_SINGULAR = ("club", "diamond", "heart", "spade")

_SUIT_INPUT = {
    "C": CLUBS,
    "D": DIAMONDS,
    "H": HEARTS,
    "S": SPADES,
    "♣": CLUBS,
    "♧": CLUBS,
    "♦": DIAMONDS,
    "♢": DIAMONDS,
    "♥": HEARTS,
    "♡": HEARTS,
    "♠": SPADES,
    "♤": SPADES,
}
_RANK_INPUT = {name: i for i, name in enumerate(RANK_NAMES)} | {"T": 8, "1": -1}
_JOKERS = {"BJ": BIG_JOKER, "LJ": LITTLE_JOKER, "BIGJOKER": BIG_JOKER, "LITTLEJOKER": LITTLE_JOKER}

FULL_DECK = tuple(range(52))


class CardParseError(ValueError):
    """Text that is not a card; the message says what a card looks like."""

    code = "bad_card"


def face(card: int) -> int:
    """The face id of a card (drops the second-deck copy bit)."""
    return card & 63


def suit_of(card: int) -> int:
    """Natural suit of a card; jokers count as spades."""
    f = card & 63
    return SPADES if f >= 52 else f // 13


def rank_of(card: int) -> int:
    """Rank 0 (two) .. 12 (ace); 13 little joker, 14 big joker."""
    f = card & 63
    return f - 39 if f >= 52 else f % 13


def make_card(rank: int, suit: int) -> int:
    return suit * 13 + rank


def card_str(card: int) -> str:
    """ASCII form used in records: ``AS``, ``10H``, ``BJ``."""
    f = card & 63
    if f == BIG_JOKER:
        return "BJ"
    if f == LITTLE_JOKER:
        return "LJ"
    if not 0 <= f < 52:
        raise ValueError(f"{card} is not a card id")
    return RANK_NAMES[f % 13] + SUIT_CHARS[f // 13]


def card_pretty(card: int) -> str:
    """Display form with a suit symbol: ``A♠``, ``10♥``; jokers as ``BJ🃏``."""
    f = card & 63
    if f == BIG_JOKER:
        return "Big 🃏"
    if f == LITTLE_JOKER:
        return "Little 🃏"
    return RANK_NAMES[f % 13] + SUIT_SYMBOLS[f // 13]


def suit_name(suit: int) -> str:
    return SUIT_NAMES[suit]


def suit_symbol(suit: int) -> str:
    return SUIT_SYMBOLS[suit]


_RANKS_AND_SUITS = "ranks are 2-10, J, Q, K, A and suits S, H, D, C (or ♠ ♥ ♦ ♣)"
_CARD_RE = re.compile(r"^(10|[2-9TJQKA1]|\d+|[A-Z]+?)([CDHS♣♧♦♢♥♡♠♤])$")


def parse_card(text: str) -> int:
    """Parse ``AS``, ``10h``, ``T♥``, ``QD``, ``BJ``, ``LJ`` (case-insensitive, spaces ignored).

    >>> parse_card("10h"), parse_card("T♥"), parse_card("as")
    (34, 34, 51)
    >>> card_str(parse_card("10h")), card_pretty(parse_card("qs"))
    ('10H', 'Q♠')
    >>> parse_card("11H")
    Traceback (most recent call last):
    ...
    engine.cards.CardParseError: "11H" is not a card; ranks are 2-10, J, Q, K, A and suits S, ...
    """
    if not isinstance(text, str):
        raise CardParseError(f"{text!r} is not a card")
    raw = "".join(text.split()).upper()
    if raw in _JOKERS:
        return _JOKERS[raw]
    shown = text.strip() or text
    if not raw:
        raise CardParseError("An empty text is not a card; write a card like AS, 10H, QD or 2C")
    m = _CARD_RE.match(raw)
    if m is None:
        if raw[-1] not in _SUIT_INPUT:
            raise CardParseError(
                f'"{shown}" is not a card; a card is a rank (2-10, J, Q, K, A) then a suit '
                "(S, H, D, C or ♠ ♥ ♦ ♣), e.g. AS or 10H"
            )
        raise CardParseError(f'"{shown}" is not a card; {_RANKS_AND_SUITS}')
    rank_text, suit_text = m.groups()
    rank = _RANK_INPUT.get(rank_text)
    if rank is None or rank < 0:
        raise CardParseError(f'"{shown}" is not a card; {_RANKS_AND_SUITS}')
    return make_card(rank, _SUIT_INPUT[suit_text])


def parse_cards(text: str | Iterable[str]) -> list[int]:
    """Parse several cards separated by spaces or commas (or an iterable of card texts).

    >>> parse_cards("AS, KH 10d") == parse_cards(["AS", "KH", "10D"]) == [51, 37, 21]
    True
    """
    items = text.replace(",", " ").split() if isinstance(text, str) else list(text)
    return [parse_card(t) for t in items]


def mask_of(cards: Iterable[int]) -> int:
    """A hand's bitmask (``1 << card`` for each card).

    >>> mask_of([0, 2]) == 0b101
    True
    >>> count(mask_of(parse_cards("2C 3C 2C")))
    2
    """
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def bits(mask: int) -> list[int]:
    """Card ids in a mask, ascending id order (fast; no display sort)."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


_DISPLAY_SUIT_ORDER = {SPADES: 0, HEARTS: 1, CLUBS: 2, DIAMONDS: 3}


def display_key(card: int) -> tuple[int, int, int]:
    """Sort key: jokers, spades, hearts, clubs, diamonds; high to low; first deck before second."""
    f = card & 63
    if f >= 52:
        return (-1, -f, card)
    return (_DISPLAY_SUIT_ORDER[f // 13], -(f % 13), card)


def cards_of(mask: int) -> list[int]:
    """Card ids in a mask, in display order (spades, hearts, clubs, diamonds; high to low).

    >>> [card_str(c) for c in cards_of(mask_of(parse_cards("2D KH AS 10C")))]
    ['AS', 'KH', '10C', '2D']
    """
    return sorted(bits(mask), key=display_key)


def count(mask: int) -> int:
    return mask.bit_count()


def join_words(words: list[str], last: str = "and") -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    if not words:
        return ""
    if len(words) == 1:
        return words[0]
    return ", ".join(words[:-1]) + f" {last} " + words[-1]


def pretty_list(cards: Iterable[int]) -> str:
    """Cards low to high within a suit, as a sentence: ``7♥ and Q♥``.

    >>> pretty_list(parse_cards("QH 7H 2C"))
    '2♣, 7♥ and Q♥'
    """
    ordered = sorted(cards, key=lambda c: (suit_of(c), rank_of(c), c))
    return join_words([card_pretty(c) for c in ordered])


def hand_str(mask: int) -> str:
    """One line per hand grouped by suit: ``♠ A K 7 ♥ 9 4 ♣ J 6``."""
    groups: dict[int, list[str]] = {}
    jokers: list[str] = []
    for c in cards_of(mask):
        f = c & 63
        if f >= 52:
            jokers.append("BJ" if f == BIG_JOKER else "LJ")
        else:
            groups.setdefault(f // 13, []).append(RANK_NAMES[f % 13])
    parts = [" ".join(jokers)] if jokers else []
    for s in (SPADES, HEARTS, CLUBS, DIAMONDS):
        if s in groups:
            parts.append(SUIT_SYMBOLS[s] + " " + " ".join(groups[s]))
    return "   ".join(parts)
