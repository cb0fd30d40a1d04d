"""The expert bot: the heuristic bot, with its card play checked by Monte-Carlo search.

Bidding, passing, blind nil and the two-player draw are the heuristic bot's. For each card to
play it samples the hidden hands from what its seat knows (``Game.from_view``: hand sizes, voids
shown, cards passed), plays every legal card in each sampled world and finishes the hand with
every seat playing the heuristic's card (``Game.playout`` with a policy), then scores the hand for
its side (``hand_totals``: contracts, bags and their penalty, nils). The same worlds and the same
roll-out draws serve every candidate card (common random numbers), so the comparison between
cards is fair. It keeps the heuristic's card unless another card is better on average by
``margin`` points, and it leaves nil play (bidding, covering or setting a nil still alive) to the
heuristic, whose nil rules the roll-outs cannot improve on in a few dozen samples.

Search is capped at ``time_limit`` seconds per decision (after ``min_worlds`` worlds); with the
defaults a decision takes ~5-35 ms. It is deterministic under a seed except when the time cap
cuts a search short (it depends on the machine's speed). Strength: ``bench/README.md``.
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from typing import Any

from ..cards import SPADES, bits
from ..game import Game
from ..ruleset import Ruleset, tables
from ..view import View
from .heuristic import HeuristicBot, forced_candidates
from .knowledge import Knowledge, card_tables


def greedy_policy(g: Game, seat: int, mask: int) -> int:
    """A fast roll-out policy (a few µs): nil bidders duck with their highest losing card;
    others lead a sure winner or their lowest card, win a trick as cheaply as they can unless
    a teammate already wins it, and otherwise throw their lowest card."""
    if mask & (mask - 1) == 0:
        return mask.bit_length() - 1
    t = tables(g.rs)
    suit, power = t.suit, t.power
    bid = g.bids[seat]
    ducking = bid is not None and bid.is_nil and g.tricks[seat] == 0
    cards = bits(mask)
    trick = g.trick
    if not trick:
        if ducking or _contract_made(g, seat):
            return min(cards, key=power.__getitem__)
        # a card no unplayed card of its suit beats (held by someone else) is a sure winner
        # unless trumped; lead the highest such, else the lowest card
        outside = t.deck_mask & ~g.played & ~g.hands[seat]
        top_out: dict[int, int] = {}
        for c in sorted(cards, key=power.__getitem__, reverse=True):
            s = suit[c]
            top = top_out.get(s)
            if top is None:
                top = -1
                m = outside & t.suit_masks[s]
                while m:
                    low = m & -m
                    p = power[low.bit_length() - 1]
                    if p > top:
                        top = p
                    m ^= low
                top_out[s] = top
            if power[c] > top:
                return c
        return min(cards, key=power.__getitem__)
    win_seat, win = trick[0]
    for s_, c in trick[1:]:
        if (suit[c] == suit[win] and power[c] > power[win]) or (suit[c] == SPADES and suit[win] != SPADES):
            win_seat, win = s_, c
    wsuit, wpow = suit[win], power[win]
    winners = [
        c for c in cards if (suit[c] == wsuit and power[c] > wpow) or (suit[c] == SPADES and wsuit != SPADES)
    ]
    losers = [c for c in cards if c not in winners]
    if ducking:
        if losers:
            return max(losers, key=power.__getitem__)
        return min(cards, key=power.__getitem__)
    rs = g.rs
    if _contract_made(g, seat):
        # every further trick is a bag: duck with the highest card that loses
        if losers:
            return max(losers, key=power.__getitem__)
        return min(cards, key=power.__getitem__)
    mate_wins = (
        rs.partnerships
        and rs.side_of(win_seat) == rs.side_of(seat)
        and not ((b := g.bids[win_seat]) is not None and b.is_nil)
    )
    if winners and not mate_wins:
        return min(winners, key=power.__getitem__)
    return min(losers or cards, key=power.__getitem__)


def distinct_cards(view: View, cards: list[int], keep: int) -> list[int]:
    """One card per group of equivalent cards: cards of one suit with no card between them
    that another seat may still hold (holding Q J 10 with the K out, any of the three does the
    same). ``keep`` represents its group; the others are represented by their lowest card."""
    ct = card_tables(view.ruleset)
    # A card another seat may still hold separates two of mine, and so does a card in the
    # current trick (7 and 9 are not equal on a trick the 8 is winning: one wins, one ducks).
    in_trick = 0
    for _, c in view.current_trick:
        in_trick |= 1 << c
    others = (ct.deck_mask & ~view.played & ~(view.hand or 0)) | in_trick
    order = sorted(cards, key=lambda c: (ct.suit[c], ct.power[c], c))
    groups: list[list[int]] = []
    for c in order:
        if groups:
            prev = groups[-1][-1]
            if ct.suit[prev] == ct.suit[c] and not (ct.above[prev] & ct.below[c] & others):
                groups[-1].append(c)
                continue
        groups.append([c])
    return [keep if keep in grp else grp[0] for grp in groups]


def _contract_made(g: Game, seat: int) -> bool:
    """Whether the seat's side has taken the tricks its non-nil bids promised."""
    rs = g.rs
    side = rs.side_of(seat)
    bid = took = 0
    for s in range(g.n):
        if rs.side_of(s) == side:
            b = g.bids[s]
            if b is not None and not b.is_nil:
                bid += b.n
                took += g.tricks[s]
    return bid > 0 and took >= bid


def hand_value(rs: Ruleset, seat: int, before: Sequence[int], after: Sequence[int]) -> float:
    """The hand's points for ``seat``'s side minus the mean of the other sides' points."""
    side = rs.side_of(seat)
    deltas = [a - b for a, b in zip(after, before, strict=True)]
    others = [d for i, d in enumerate(deltas) if i != side]
    return deltas[side] - (sum(others) / len(others) if others else 0.0)


class ExpertBot(HeuristicBot):
    name = "expert"

    def __init__(
        self,
        seed: int | str | None = None,
        *,
        worlds: int = 16,
        min_worlds: int = 1,
        time_limit: float = 0.03,
        margin: float = 2.0,
        rollout: str = "heuristic",
        **options: Any,
    ) -> None:
        """``worlds``: sampled deals per decision (at most); ``min_worlds``: searched even past
        ``time_limit`` (seconds per decision); ``margin``: points per hand by which another
        card must beat the heuristic's on average; ``rollout``: ``"heuristic"`` (every seat
        plays the heuristic's card in the roll-outs, ~0.5 ms each) or ``"greedy"``
        (`greedy_policy`, ~20x faster but weaker: measured worse than the heuristic alone).
        Other options go to `HeuristicBot`."""
        if rollout not in ("heuristic", "greedy"):
            raise ValueError(f'rollout must be "heuristic" or "greedy", not {rollout!r}')
        super().__init__(seed, **options)
        self.worlds = worlds
        self.min_worlds = min(min_worlds, worlds)
        self.time_limit = time_limit
        self.margin = margin
        self.rollout = rollout

    def _play_card(self, view: View, k: Knowledge, cards: list[int]) -> int:
        cards = forced_candidates(k, cards)
        base = self._choose_card(k, cards)
        if any(k.alive_nil(s) for s in range(k.n)):
            # Nil play (bidding it, covering it, setting it) is the heuristic's specialty; the
            # greedy roll-outs model it poorly (measured: fewer nils made when searching).
            return base
        return self.search(view, cards, base)

    def _heuristic_policy(self, g: Game, seat: int, mask: int) -> int:
        """Roll-out policy: the heuristic's card for ``seat`` from its view of the sampled world."""
        if mask & (mask - 1) == 0:
            return mask.bit_length() - 1
        return self._choose_card(Knowledge(g.view(seat)), bits(mask))

    def search(self, view: View, cards: list[int], base: int) -> int:
        """The card to play: ``base`` (the heuristic's) unless sampling finds a better one."""
        rs = view.ruleset
        seat = view.seat
        assert seat is not None
        rng = self.rng_for(view)
        deadline = time.perf_counter() + self.time_limit
        cards = distinct_cards(view, cards, base)
        if len(cards) == 1:
            return base
        totals = dict.fromkeys(cards, 0.0)
        policy = self._heuristic_policy if self.rollout == "heuristic" else greedy_policy
        n = 0
        last = 0.0  # how long the previous world took: stop before one would overrun the cap
        for _ in range(self.worlds):
            t0 = time.perf_counter()
            if n >= self.min_worlds and t0 + last > deadline:
                break
            world = Game.from_view(view, rng=rng)
            roll = rng.getrandbits(64)
            for c in cards:
                g = world.clone()
                g.play_fast(c)
                g.playout(random.Random(roll), policy=policy)
                totals[c] += hand_value(rs, seat, view.scores, g.scores)
            n += 1
            last = time.perf_counter() - t0
        best = max(cards, key=lambda c: (totals[c], c == base))
        if n >= 2 and totals[best] - totals[base] > self.margin * n:
            return best
        return base
