"""What a *counted game* is: the one definition the leaderboard, /stats, /history and the game post
use (docs/COUNTED_GAMES.md says it for players).

A finished game counts when every seat was held by a person: no seat was a bot. A person's seat the
bot played for them while they were away, or after they left, still counts for them and for
everyone else: leaving a losing game does not erase the loss, nor the opponents' win. (Ratings keep
their own, per-seat rule: a seat the bot played for most of the game is not rated for its player,
``bot.league.ratings``.)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

# the same rule over a stored row of ``games`` or ``game_players`` (each row carries ``with_bots``:
# any bot seat in its game)
COUNTED_SQL = "with_bots = 0"


def game_counts(seats: Iterable[Mapping[str, Any]]) -> bool:
    """True when the game is counted: at least two seats, none of them a bot's."""
    seats = list(seats)
    return len(seats) >= 2 and not any(s.get("is_bot") for s in seats)
