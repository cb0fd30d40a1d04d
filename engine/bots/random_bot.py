"""The baseline: a uniformly random legal action (a random pass of the right size)."""

from __future__ import annotations

from ..actions import Action, PassAction
from ..cards import bits
from ..view import View
from . import Bot


class RandomBot(Bot):
    name = "random"

    def act(self, view: View) -> Action:
        if not view.legal:
            raise ValueError("This seat has nothing to do now")
        rng = self.rng_for(view)
        choice = view.legal[rng.randrange(len(view.legal))]
        if isinstance(choice, PassAction) and len(choice.cards) != view.pass_size:
            cards = bits(view.hand or 0)
            return PassAction(choice.seat, tuple(sorted(rng.sample(cards, view.pass_size))))
        return choice
