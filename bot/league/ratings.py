"""Skill ratings with OpenSkill (Plackett-Luce): every finished game between humans updates them.

- Partnership games rate the partners as one team; solo presets rank every seat.
- Bots are never rated. A seat a bot played for most of the game (``bot_share > 0.5``: the human was
  away, timed out or left) is not rated for that human either. Both still take part in the game as a
  fixed, average-strength player whose rating nobody keeps, so a human partnered with a bot is rated
  against the real opposition.
- A human who played most but not all of the game is rated with a weight equal to their share.
- A game is rated only when at least two sides have a rated human (one human and three bots is
  practice, not a rated game).
- The ranking order is the conservative rating ``mu - 3 sigma``; a player with fewer than
  ``PROVISIONAL_GAMES`` rated games is shown as provisional.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from openskill.models import PlackettLuce

PROVISIONAL_GAMES = 10
MOST_OF_THE_GAME = 0.5

_MODEL = PlackettLuce()
DEFAULT_MU: float = _MODEL.mu
DEFAULT_SIGMA: float = _MODEL.sigma


@dataclass(frozen=True)
class Rating:
    mu: float = DEFAULT_MU
    sigma: float = DEFAULT_SIGMA
    games: int = 0

    @property
    def conservative(self) -> float:
        """The rating the leaderboard sorts by: skill we are ~99% sure the player has."""
        return self.mu - 3 * self.sigma

    @property
    def provisional(self) -> bool:
        return self.games < PROVISIONAL_GAMES

    def display(self) -> str:
        mark = "?" if self.provisional else ""
        return f"{self.conservative:.1f}{mark}"


@dataclass(frozen=True)
class SeatResult:
    user_id: int | None
    is_bot: bool = False
    bot_share: float = 0.0  # the share of the game's actions a bot took for this seat

    @property
    def rated(self) -> bool:
        return not self.is_bot and self.user_id is not None and self.bot_share <= MOST_OF_THE_GAME


@dataclass(frozen=True)
class RatedGame:
    """One finished game: the seats of each side, the sides' final scores and the winning side."""

    sides: Sequence[Sequence[SeatResult]]
    scores: Sequence[int]
    winner: int | None = None


def ranks(scores: Sequence[int], winner: int | None) -> list[int]:
    """1 for the winner, then by score (equal scores share a rank); lower is better."""
    order = sorted(range(len(scores)), key=lambda i: (0 if i == winner else 1, -scores[i]))
    out = [0] * len(scores)
    rank = 0
    prev: tuple[int, int] | None = None
    for pos, i in enumerate(order):
        key = (0 if i == winner else 1, -scores[i])
        if key != prev:
            rank = pos + 1
            prev = key
        out[i] = rank
    return out


def rated_players(game: RatedGame) -> list[int]:
    """The humans this game rates ([] when it is not a rated game)."""
    sides_with_humans = sum(1 for side in game.sides if any(s.rated for s in side))
    if sides_with_humans < 2:
        return []
    return [s.user_id for side in game.sides for s in side if s.rated and s.user_id is not None]


def rate_game(game: RatedGame, current: dict[int, Rating]) -> dict[int, Rating]:
    """The new ratings of the humans the game rates (missing players start at the default)."""
    rated = set(rated_players(game))
    if not rated:
        return {}
    if len(game.sides) != len(game.scores):
        raise ValueError("one score per side")
    teams = []
    weights = []
    for side in game.sides:
        team = []
        w = []
        for seat in side:
            if seat.rated and seat.user_id is not None:
                r = current.get(seat.user_id, Rating())
                team.append(_MODEL.rating(mu=r.mu, sigma=r.sigma))
                w.append(max(1.0 - seat.bot_share, 0.5))
            else:
                team.append(_MODEL.rating())  # a stand-in of average strength, never kept
                w.append(1.0)
        teams.append(team)
        weights.append(w)
    new = _MODEL.rate(teams, ranks=[float(r) for r in ranks(game.scores, game.winner)], weights=weights)
    out: dict[int, Rating] = {}
    for side, new_team in zip(game.sides, new, strict=True):
        for seat, fresh in zip(side, new_team, strict=True):
            if seat.rated and seat.user_id is not None:
                old = current.get(seat.user_id, Rating())
                out[seat.user_id] = Rating(mu=float(fresh.mu), sigma=float(fresh.sigma), games=old.games + 1)
    return out


def rate_games(games: Sequence[RatedGame], start: dict[int, Rating] | None = None) -> dict[int, Rating]:
    """Rate games in order, from ``start`` (a fresh pool by default)."""
    ratings = dict(start or {})
    for g in games:
        ratings.update(rate_game(g, ratings))
    return ratings


def leaderboard(ratings: dict[int, Rating]) -> list[tuple[int, Rating]]:
    """Players by conservative rating, best first (ties on more games, then user id)."""
    return sorted(ratings.items(), key=lambda kv: (-kv[1].conservative, -kv[1].games, kv[0]))


def rate_stored(
    seats: Sequence[Any], scores: Sequence[int], winner: int | None, current: dict[int, Any]
) -> dict[int, Any]:
    """The storage's rater (``bot.storage.leagues.GameRater``): seats with ``side``, ``user_id``,
    ``is_bot``, ``bot_share``; ratings with ``mu``, ``sigma``, ``games``. Returns new ratings of the
    same stored type as the current ones (a :class:`Rating` when the player had none)."""
    sides: list[list[SeatResult]] = [[] for _ in scores]
    for s in seats:
        if 0 <= s.side < len(sides):
            sides[s.side].append(SeatResult(s.user_id, s.is_bot, s.bot_share))
    start = {u: Rating(r.mu, r.sigma, r.games) for u, r in current.items()}
    new = rate_game(RatedGame(sides, list(scores), winner), start)
    out: dict[int, Any] = {}
    for uid, r in new.items():
        kind = type(current[uid]) if uid in current else None
        out[uid] = kind(r.mu, r.sigma, r.games) if kind is not None else r
    return out
