"""The easy bot: the heuristic bot with a beginner's mistakes.

It bids the heuristic's bid give or take a trick, never bids nil or blind nil on its own, and on
about one card in four plays any legal card instead of the heuristic's choice. A relaxed partner
for new players; deterministic under a seed like every bot.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..actions import Action, BidAction
from ..view import View
from .heuristic import HeuristicBot
from .knowledge import Knowledge


class EasyBot(HeuristicBot):
    name = "easy"

    def __init__(self, seed: int | str | None = None, *, blunder: float = 0.25, **options: Any) -> None:
        """``blunder``: chance per card of a random legal card instead of the heuristic's."""
        super().__init__(seed, **options)
        self.blunder = blunder

    def _bid(self, view: View, legal: Sequence[Action]) -> Action:
        base = super()._bid(view, legal)
        numbered = [a for a in legal if isinstance(a, BidAction) and a.bid.kind == "tricks"]
        if not isinstance(base, BidAction) or not numbered:
            return base
        rng = self.rng_for(view)
        n = base.bid.n if base.bid.kind == "tricks" else 1
        want = max(1, n + rng.choice((-1, 0, 0, 1)))
        return min(numbered, key=lambda a: (abs(a.bid.n - want), a.bid.n))

    def _look_or_blind(self, view: View, legal: Sequence[Action]) -> Action:
        return next(
            (a for a in legal if not (isinstance(a, BidAction) and a.bid.kind == "blind_nil")), legal[0]
        )

    def _play_card(self, view: View, k: Knowledge, cards: list[int]) -> int:
        rng = self.rng_for(view)
        if rng.random() < self.blunder:
            return rng.choice(sorted(cards))
        return self._choose_card(k, cards)
