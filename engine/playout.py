"""The card loop of ``Game.playout`` for the common decks: one deck, no jokers, no high deuces.

There a card id is ``suit * 13 + rank`` and its strength within its suit is its rank, so each
suit of a hand is a 13-bit lane of the hand's mask. The loop keeps every seat's cards as four
short lists of card ids (ascending, read from ``IDS``), so following suit is one ``pop`` from one
list: no mask arithmetic, no (seat, card) tuples, no per-card suit or power look-ups. Spades
(ids 39..51) are the last suit, so ids order the cards of a trick as the rules do once the led
suit is known: one comparison with the winning card so far resolves a card. Every seat
holds the same number of cards at the start of a trick, so a seat that may play any card picks
among that many without counting them.

It draws exactly what the general loop (``Game._playout_random``) draws: one
``rng.random()`` per card with more than one legal choice, the card
``legal_cards(seat)[int(rng.random() * k)]`` (ascending ids: suits in id order, ranks ascending),
none when only one card is legal; the game is left as ``play`` would leave it.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from math import floor
from typing import Protocol

from .ruleset import Ruleset, Tables


class PlayoutGame(Protocol):
    """What this loop reads and writes of an ``engine.game.Game`` (a structural type, so this
    module does not import ``engine.game``, which imports it)."""

    rs: Ruleset
    _t: Tables
    n: int
    hands: list[int]
    plays: list[int]
    tricks: list[int]
    trick_winners: list[int]
    trick: list[tuple[int, int]]
    last_trick: tuple[tuple[int, int], ...] | None
    played: int
    broken: bool
    trick_no: int
    leader: int | None
    to_act: int | None
    _first_lead: int

    def _finish_hand(self, quiet: bool = False) -> object: ...


LANE = 0x1FFF  # the 13 ranks of one suit


def _lane_table() -> tuple[tuple[int, ...], ...]:
    """``table[lane]``: the ranks (0 = two .. 12 = ace) set in a 13-bit lane, ascending."""
    table: list[tuple[int, ...]] = [()] * (LANE + 1)
    for v in range(1, LANE + 1):
        low = v & -v
        table[v] = (low.bit_length() - 1, *table[v ^ low])
    return tuple(table)


RANKS = _lane_table()
# IDS[suit][lane]: the card ids (13 * suit + rank) set in the suit's 13-bit lane, ascending
IDS = (RANKS, *(tuple(tuple(13 * suit + r for r in ranks) for ranks in RANKS) for suit in (1, 2, 3)))


@lru_cache(maxsize=8)
def _seat_tables(n: int) -> tuple[list[tuple[int, ...]], list[tuple[int, ...]]]:
    """For ``n`` seats: ``after[4 * seat]``, 4 * each seat after it in a trick it leads, and
    ``order[seat]``, the seats of a trick it leads."""
    after = [tuple((i + 4 * j) % (4 * n) for j in range(1, n)) for i in range(4 * n)]
    order = [tuple((s + j) % n for j in range(n)) for s in range(n)]
    return after, order


def fits(g: PlayoutGame) -> bool:
    """Whether the rest of ``g``'s hand can go through ``random_tricks``: the deck is plain (one
    deck, no jokers or high deuces), a trick is about to be led (not the first trick under the
    two-of-clubs rule) and every seat holds one card per trick left."""
    rs = g.rs
    if rs.decks != 1 or rs.jokers or rs.deuces_high or g.trick:
        return False
    if g._first_lead >= 0 and g.trick_no == 0:
        return False
    left = g._t.hand_size - g.trick_no
    return left > 0 and list(map(int.bit_count, g.hands)).count(left) == g.n


def random_tricks(g: PlayoutGame, rnd: Callable[[], float]) -> None:
    """Play the rest of the hand with uniform random legal cards (``fits(g)`` must hold), then
    score it as ``play`` does (``_finish_hand(quiet=True)``)."""
    n = g.n
    hands = g.hands
    clubs, diamonds, hearts, spades = IDS
    # lists[4 * seat + suit]: the seat's card ids in that suit, ascending
    lists: list[list[int]] = []
    dealt = 0
    for h in hands:
        dealt |= h
        lists += (
            [*clubs[h & LANE]],
            [*diamonds[h >> 13 & LANE]],
            [*hearts[h >> 26 & LANE]],
            [*spades[h >> 39]],
        )
    after, order = _seat_tables(n)
    must_break = g.rs.spades_must_be_broken
    broken = g.broken
    plays = g.plays
    play = plays.append
    winners: list[int] = []  # each trick's winner
    won = winners.append
    left = g._t.hand_size - g.trick_no  # cards each seat holds
    at = 4 * g.to_act  # type: ignore[operator]  # in the PLAY phase one seat is always to act
    lead_at = at
    while left:
        lead_at = at
        # the lead: any card, but no spade before they are broken while it holds another suit
        k = left
        if must_break and not broken:
            k -= len(lists[at + 3])
            if not k:
                k = left
        i = floor(rnd() * k) if k > 1 else 0
        cards = lists[at]
        m = len(cards)
        if i < m:
            led = 0
        else:
            i -= m
            cards = lists[at + 1]
            m = len(cards)
            if i < m:
                led = 1
            else:
                i -= m
                cards = lists[at + 2]
                m = len(cards)
                if i < m:
                    led = 2
                else:
                    i -= m
                    cards = lists[at + 3]
                    led = 3
                    broken = True
        # The winning card so far: card ids order the cards of one suit by rank and every spade
        # (39..51) above every other card, so once a spade trumps the trick no card of the led
        # suit beats it, and only a spade discard can beat the card so far.
        high = cards.pop(i)
        play(high)
        win = at
        for at in after[lead_at]:
            cards = lists[at + led]
            if cards:  # follow suit
                k = len(cards)
                c = cards.pop(floor(rnd() * k)) if k > 1 else cards.pop()
                play(c)
                if c > high:
                    high = c
                    win = at
            else:  # void in the led suit: any card (it holds ``left`` cards)
                i = floor(rnd() * left) if left > 1 else 0
                cards = lists[at]
                m = len(cards)
                if i < m:
                    play(cards.pop(i))
                else:
                    i -= m
                    cards = lists[at + 1]
                    m = len(cards)
                    if i < m:
                        play(cards.pop(i))
                    else:
                        i -= m
                        cards = lists[at + 2]
                        m = len(cards)
                        if i < m:
                            play(cards.pop(i))
                        else:
                            c = lists[at + 3].pop(i - m)
                            play(c)
                            broken = True
                            if c > high:
                                high = c
                                win = at
        won(win >> 2)
        at = win
        left -= 1
    # write back what ``play`` would have left
    tricks = g.tricks
    count = winners.count
    for s in range(n):
        tricks[s] += count(s)
    g.trick_winners += winners
    g.last_trick = tuple(zip(order[lead_at >> 2], plays[-n:], strict=True))
    hands[:] = [0] * n
    g.played |= dealt
    g.broken = broken
    g.trick_no = g._t.hand_size
    g.leader = g.to_act = at >> 2
    g._finish_hand(quiet=True)
