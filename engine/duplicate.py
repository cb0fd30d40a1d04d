"""Duplicate rounds: every table of a round plays the same deals, and sides are compared by
matchpoints across the tables.

- **The same deals.** A round's deal seed is derived from the night's secret seating seed
  (``engine.seating_record``) and the round number (``round_seed``); every table of the round
  starts ``Game.new(ruleset, seed=<round seed>, salt=<round salt>, dealer=0, fair=True)``
  (``new_game``), so hand ``n`` of every table is dealt from the same committed key
  (``engine.fair.derived_key``): the same cards to the same seats. The seed is as secret as the
  night's seed until the night is over; then anyone can re-derive every deal.
- **Matchpoints.** In each hand, a side scores 1 for each other table whose side in the same
  direction (the same side index: seats 0+2, or 1+3) it outscored in that hand, 0.5 for each it
  tied, 0 for each that outscored it. Only tables that played the hand are compared. A hand's
  score is what the side's total moved in it (bag penalties included).

Pure: no I/O.
"""

from __future__ import annotations

import hashlib
from collections.abc import Hashable, Mapping, Sequence
from typing import Any, TypeVar

from .game import Game
from .ruleset import Ruleset

K = TypeVar("K", bound=Hashable)


def round_seed(night_seed: str, round_no: int) -> str:
    """The deal seed every table of round ``round_no`` shares (64 hex digits)."""
    return hashlib.sha256(f"spades-duplicate/1\n{night_seed}\n{round_no}".encode()).hexdigest()


def round_salt(round_no: int) -> str:
    return f"duplicate-round-{round_no}"


def new_game(ruleset: Ruleset | str, night_seed: str, round_no: int) -> Game:
    """A table's game of a duplicate round: the round's deals, the same dealer at every table."""
    return Game.new(
        ruleset, seed=round_seed(night_seed, round_no), salt=round_salt(round_no), dealer=0, fair=True
    )


def hand_scores(records: Sequence[Any]) -> list[list[int]]:
    """Each hand's points by side (``result.scores`` minus ``before.scores``), in hand order, from
    a game's hand records (``docs/HAND_RECORD.md``)."""
    out: list[list[int]] = []
    for r in sorted(records, key=lambda r: int(r["hand_no"])):
        before = r.get("before", {}).get("scores") or [0] * len(r["result"]["scores"])
        out.append([int(a) - int(b) for a, b in zip(r["result"]["scores"], before, strict=True)])
    return out


def matchpoints(tables: Mapping[K, Sequence[Sequence[int]]]) -> dict[tuple[K, int], float]:
    """Matchpoints of each ``(table, side)``: ``tables[t][h][s]`` is the points side ``s`` of table
    ``t`` scored in hand ``h`` (hand 0 first). Every side of every table is in the answer (0.0 if
    it had nobody to compare with)."""
    out: dict[tuple[K, int], float] = {}
    for t, hands in tables.items():
        for hand in hands:
            for s in range(len(hand)):
                out.setdefault((t, s), 0.0)
    n_hands = max((len(h) for h in tables.values()), default=0)
    for h in range(n_hands):
        played = {t: hands[h] for t, hands in tables.items() if h < len(hands)}
        for t, scores in played.items():
            for s, mine in enumerate(scores):
                for u, theirs in played.items():
                    if u == t or s >= len(theirs):
                        continue
                    if mine > theirs[s]:
                        out[(t, s)] += 1.0
                    elif mine == theirs[s]:
                        out[(t, s)] += 0.5
    return out


def top(n_tables: int, n_hands: int) -> float:
    """The most matchpoints a side can score: beating every other table in every hand."""
    return float(max(0, n_tables - 1) * n_hands)


__all__ = ["hand_scores", "matchpoints", "new_game", "round_salt", "round_seed", "top"]
