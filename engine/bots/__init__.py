"""Bots that fill empty seats: ``get_bot(name, seed) -> Bot``; ``bot.act(view) -> Action``.

A bot sees exactly what its seat may know (a `View`) and returns one of ``view.legal`` (or, for
a card pass, a `PassAction` of ``view.pass_size`` cards from its hand). Bots do no I/O and are
deterministic under a seed: the same seed and the same view give the same action.
"""

from __future__ import annotations

import hashlib
import random
import secrets
from abc import ABC, abstractmethod
from typing import Any

from ..actions import Action
from ..view import View


def seed_to_int(seed: int | str | None) -> int:
    """A stable 64-bit integer for any seed (str seeds hash the same in every process)."""
    if seed is None:
        return secrets.randbits(64)
    if isinstance(seed, int) and not isinstance(seed, bool):
        return seed & ((1 << 64) - 1)
    digest = hashlib.blake2b(str(seed).encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big")


class Bot(ABC):
    """A seat-filler. ``act`` must return a legal action for whatever the view's phase asks."""

    name: str = "bot"

    def __init__(self, seed: int | str | None = None) -> None:
        self.seed = seed_to_int(seed)

    @abstractmethod
    def act(self, view: View) -> Action:
        """The action to take in ``view`` (raises ValueError if the seat has nothing to do)."""

    def rng_for(self, view: View) -> random.Random:
        """A generator that depends only on the seed and the view, so `act` stays a pure function.

        (Tuples of ints hash identically in every process, unlike strings.)"""
        key = (
            self.seed,
            view.seat if view.seat is not None else -1,
            view.hand_no,
            view.trick_no,
            len(view.current_trick),
            view.hand or 0,
            view.played,
            len(view.legal),
            view.dealer,
            *view.scores,
        )
        return random.Random(hash(key))

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name}>"


def get_bot(name: str, seed: int | str | None = None, **options: Any) -> Bot:
    """A bot by name (see `BOT_NAMES`); raises ValueError for an unknown name.

    A bot answers a seat's view with one of its legal actions, the same one under the same seed:

    >>> from engine import Game
    >>> game = Game.new("standard", seed=7, dealer=0)
    >>> _ = game.look(1)
    >>> action = get_bot("heuristic", seed=1).act(game.view(1))
    >>> action, action in game.view(1).legal, get_bot("heuristic", seed=1).act(game.view(1)) == action
    (BidAction(seat=1, bid=Bid(kind='tricks', n=4)), True, True)
    """
    key = name.strip().lower()
    if key == "random":
        from .random_bot import RandomBot

        return RandomBot(seed)
    if key == "heuristic":
        from .heuristic import HeuristicBot

        return HeuristicBot(seed, **options)
    if key == "expert":
        from .expert import ExpertBot

        return ExpertBot(seed, **options)
    if key == "easy":
        from .easy import EasyBot

        return EasyBot(seed, **options)
    if key == "normal":
        from .heuristic import HeuristicBot

        bot = HeuristicBot(seed, **{"last_rules": True, **options})
        bot.name = "normal"
        return bot
    if key == "strong":
        from .strong import StrongBot

        return StrongBot(seed, **options)
    raise ValueError(f'"{name}" is not a bot; choose one of {", ".join(BOT_NAMES)}')


#: The levels offered to players, weakest first: ``easy`` (the heuristic with a beginner's
#: mistakes), ``normal`` (the heuristic) and ``strong`` (search over sampled deals).
LEVELS: list[str] = ["easy", "normal", "strong"]

BOT_NAMES: list[str] = ["heuristic", "random", "expert", *LEVELS]

__all__ = ["BOT_NAMES", "LEVELS", "Bot", "get_bot", "seed_to_int"]
