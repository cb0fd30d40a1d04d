"""What a *counted game* is: the one definition the leaderboard, /stats, /history, the game post
and the ratings use (docs/COUNTED_GAMES.md says it for players).

A finished game counts when every seat was held by a person who played most of it themselves: no
seat was a bot, and no person's seat had more than half of its actions taken by the bot standing
in for them (an away or timed-out player). Such a game is between at least two people by
construction. Pure: storage computes it once when the game is saved (``games.counted``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

# more than this share of a seat's actions taken by the bot: the seat was mostly the bot's
MOST_OF_THE_GAME = 0.5


def seat_played_by_person(seat: Mapping[str, Any]) -> bool:
    """A stored seat (``is_bot``, ``bot_share``) that a person played most of themselves."""
    return not seat.get("is_bot") and float(seat.get("bot_share") or 0.0) <= MOST_OF_THE_GAME


def game_counts(seats: Iterable[Mapping[str, Any]]) -> bool:
    """True when the game is counted: at least two seats, each played mostly by a person."""
    seats = list(seats)
    return len(seats) >= 2 and all(seat_played_by_person(s) for s in seats)
