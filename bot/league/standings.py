"""League standings: points per game, tiebreaks, attendance and an optional dropped worst week.

An *entrant* is what the standings rank: a player (rotating partners, solo) or a team (fixed
partners). A game gives each side's entrants league points (configurable: by default 2 for a win, 1
for a loss by at most 50 points, 0 otherwise). Ties in points are broken by

1. head to head: the points earned in games against the other entrants tied on points;
2. point differential: the side's score minus the average of its opponents', summed over games;
3. fewest bags;
4. then the entrant id, so the order is stable (and the standings say the tie is unbroken).

An entrant in a game's ``forfeits`` (a no-show under the league's attendance rule,
``bot.league.attendance``) gets a loss worth ``loss`` points instead of the game's result (no score
difference, no bags); one in ``skipped`` has the game not recorded at all. Their partners' result
stands. An entrant in ``conceded`` (an organiser awarded the table to the other side, ``/league-season
forfeit``) gets the same forfeit loss, counted as a forfeit rather than a no-show.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from bot.i18n import Text, _, _n, join

from .errors import LeagueInputError

Entrant = Hashable

#: what the standings rank by (``PointsRule.ranking``): league points (the tiebreaks above), the
#: game points scored over the season, or league points per game played
POINTS = "points"
GAME_POINTS = "game_points"
PER_GAME = "per_game"
RANKINGS = (POINTS, GAME_POINTS, PER_GAME)
#: a duplicate league ranks by matchpoints (``bot.league.duplicate``; not a ranking to choose)
MATCHPOINTS = "matchpoints"
MAX_MIN_NIGHTS = 52


class PointsError(LeagueInputError):
    """A league points setting that does not make sense (the message says what is allowed)."""


@dataclass(frozen=True)
class PointsRule:
    """League points for one game. A *close loss* is a loss by at most ``close_margin`` game points."""

    win: int = 2
    close_loss: int = 1
    loss: int = 0
    draw: int = 1
    bye: int = 0
    close_margin: int = 50
    drop_worst_week: bool = False
    ranking: str = POINTS  # RANKINGS
    min_nights: int = 0  # nights played (or sat out on a bye) to be ranked and champion

    def __post_init__(self) -> None:
        if self.ranking not in RANKINGS:
            raise PointsError(_("Rank by league points, game points or points per game."), "bad_ranking")
        if not 0 <= self.min_nights <= MAX_MIN_NIGHTS:
            raise PointsError(
                _(
                    "The nights needed to be ranked are 0 to %(max)s (you gave %(n)s).",
                    max=MAX_MIN_NIGHTS,
                    n=self.min_nights,
                ),
                "min_nights_range",
            )
        for name in ("win", "close_loss", "loss", "draw", "bye"):
            v = getattr(self, name)
            if not 0 <= v <= 10:
                raise PointsError(
                    _("League points are 0 to 10 per game (%(name)s was %(value)s).", name=name, value=v),
                    "points_range",
                )
        if not self.win > self.loss:
            raise PointsError(_("A win must be worth more league points than a loss."), "win_over_loss")
        if not self.loss <= self.close_loss <= self.win:
            raise PointsError(_("A close loss is worth between a loss and a win."), "close_loss_between")
        if not 0 <= self.close_margin <= 1000:
            raise PointsError(_("The close-loss margin is 0 to 1000 game points."), "close_margin_range")

    def to_dict(self) -> dict[str, Any]:
        return {k: getattr(self, k) for k in self.__dataclass_fields__}

    @classmethod
    def from_dict(cls, d: dict[str, Any] | None) -> PointsRule:
        d = d or {}
        return cls(**{k: d[k] for k in cls.__dataclass_fields__ if k in d})

    def describe(self) -> Text:
        text: Text = _(
            "win %(win)s, loss by ≤%(margin)s %(close)s, loss %(loss)s",
            win=self.win,
            margin=self.close_margin,
            close=self.close_loss,
            loss=self.loss,
        )
        if self.bye:
            text = join(text, _(", bye %(bye)s", bye=self.bye), sep="")
        if self.drop_worst_week:
            text = join(text, _("; each entrant's worst week is dropped"), sep="")
        if self.ranking == GAME_POINTS:
            text = join(text, _("; ranked by game points"), sep="")
        elif self.ranking == PER_GAME:
            text = join(text, _("; ranked by league points per game"), sep="")
        if self.min_nights:
            text = join(
                text,
                _n(
                    "; ranked after %(n)s night",
                    "; ranked after %(n)s nights",
                    self.min_nights,
                ),
                sep="",
            )
        return text


@dataclass(frozen=True)
class GameResult:
    """One finished (or time-called) league game.

    ``sides[i]`` are the entrants who played side ``i`` (bot seats left out), ``scores[i]`` and
    ``bags[i]`` its final score and bags. ``winner`` is the winning side, or None for a tie at the top
    when time was called.
    """

    night: int
    sides: tuple[tuple[Entrant, ...], ...]
    scores: tuple[int, ...]
    bags: tuple[int, ...]
    winner: int | None
    forfeits: frozenset[Entrant] = frozenset()  # no-shows: a forfeit loss
    skipped: frozenset[Entrant] = frozenset()  # no-shows: no game recorded
    as_sub: frozenset[Entrant] = frozenset()  # credited as a substitute
    conceded: frozenset[Entrant] = frozenset()  # forfeited by an organiser's decision: a forfeit loss

    def __post_init__(self) -> None:
        if not len(self.sides) == len(self.scores) == len(self.bags):
            raise ValueError("sides, scores and bags must have one entry per side")
        if self.winner is not None and not 0 <= self.winner < len(self.sides):
            raise ValueError("winner is not a side")


def game_points(game: GameResult, rule: PointsRule) -> list[int]:
    """League points per side of one game."""
    if game.winner is None:
        top = max(game.scores)
        leaders = [i for i, s in enumerate(game.scores) if s == top]
        return [
            rule.draw if i in leaders else (rule.close_loss if top - s <= rule.close_margin else rule.loss)
            for i, s in enumerate(game.scores)
        ]
    best = game.scores[game.winner]
    out = []
    for i, s in enumerate(game.scores):
        if i == game.winner:
            out.append(rule.win)
        elif best - s <= rule.close_margin:
            out.append(rule.close_loss)
        else:
            out.append(rule.loss)
    return out


@dataclass
class Row:
    entrant: Entrant
    points: int = 0
    games: int = 0
    wins: int = 0
    close_losses: int = 0
    losses: int = 0
    draws: int = 0
    point_diff: float = 0.0
    bags: int = 0
    byes: int = 0
    no_shows: int = 0  # games lost by forfeit or not recorded under the no-show rule
    forfeit_losses: int = 0  # tables an organiser awarded to the other side (``GameResult.conceded``)
    sub_games: int = 0  # games played as a substitute
    nights: set[int] = field(default_factory=set)
    week_points: dict[int, int] = field(default_factory=dict)
    dropped: int | None = None  # the night whose points were dropped
    head_to_head: int = 0
    scored: int = 0  # game points scored over the season
    matchpoints: float = 0.0  # duplicate leagues: the season's matchpoints
    rank: int = 0  # 0: not ranked (fewer nights than the league's minimum)
    tied: bool = False  # still level after every tiebreak

    @property
    def ranked(self) -> bool:
        return self.rank > 0

    @property
    def per_game(self) -> float:
        """League points (the ranking total) per game played."""
        return self.total / self.games if self.games else 0.0

    @property
    def total(self) -> int:
        """The ranking total: points, minus the dropped week's."""
        return self.points - (self.week_points.get(self.dropped, 0) if self.dropped is not None else 0)

    def attendance(self, held: int) -> str:
        return f"{len(self.nights)}/{held}" if held else "0/0"


def standings(
    games: Iterable[GameResult],
    rule: PointsRule,
    *,
    entrants: Iterable[Entrant] = (),
    byes: Iterable[tuple[int, Entrant]] = (),
    nights_held: Sequence[int] = (),
    matchpoints: Mapping[Entrant, float] | None = None,
) -> list[Row]:
    """Rank every entrant (also those who have not played yet) by the rules in the module doc;
    with ``matchpoints`` (a duplicate league's) by them first, then as the rule says."""
    games = list(games)
    rows: dict[Entrant, Row] = {}

    def row(e: Entrant) -> Row:
        if e not in rows:
            rows[e] = Row(e)
        return rows[e]

    for e in entrants:
        row(e)
    for g in games:
        pts = game_points(g, rule)
        n = len(g.sides)
        for i, side in enumerate(g.sides):
            others = [g.scores[j] for j in range(n) if j != i]
            diff = g.scores[i] - (sum(others) / len(others) if others else 0)
            for e in side:
                r = row(e)
                if e in g.skipped:
                    r.no_shows += 1
                    continue
                if e in g.forfeits or e in g.conceded:
                    if e in g.conceded:
                        r.forfeit_losses += 1
                    else:
                        r.no_shows += 1
                    r.points += rule.loss
                    r.games += 1
                    r.losses += 1  # (not a night attended)
                    r.week_points[g.night] = r.week_points.get(g.night, 0) + rule.loss
                    continue
                if e in g.as_sub:
                    r.sub_games += 1
                r.points += pts[i]
                r.games += 1
                r.point_diff += diff
                r.scored += g.scores[i]
                r.bags += g.bags[i]
                r.nights.add(g.night)
                r.week_points[g.night] = r.week_points.get(g.night, 0) + pts[i]
                if g.winner is None:
                    if pts[i] == rule.draw and g.scores[i] == max(g.scores):
                        r.draws += 1
                    else:
                        r.losses += 1
                elif i == g.winner:
                    r.wins += 1
                elif pts[i] == rule.close_loss and g.scores[g.winner] - g.scores[i] <= rule.close_margin:
                    r.close_losses += 1
                else:
                    r.losses += 1
    for night, e in byes:
        r = row(e)
        r.byes += 1
        r.points += rule.bye
        r.nights.add(night)
        r.week_points[night] = r.week_points.get(night, 0) + rule.bye

    held = sorted(set(nights_held) | {g.night for g in games})
    if rule.drop_worst_week and len(held) >= 2:
        for r in rows.values():
            # a missed night is a 0-point week: dropping it is what lets a player miss one night
            worst = min(held, key=lambda night: (r.week_points.get(night, 0), night))
            r.dropped = worst

    mode = rule.ranking
    if matchpoints is not None:
        mode = MATCHPOINTS
        for e, mp in matchpoints.items():
            row(e).matchpoints = mp

    def key(r: Row) -> tuple[Any, ...]:
        tiebreaks = (-r.head_to_head, -r.point_diff, r.bags)
        if mode == MATCHPOINTS:
            return (-r.matchpoints, -r.total, *tiebreaks)
        if mode == GAME_POINTS:
            return (-r.scored, -r.total, *tiebreaks)
        if mode == PER_GAME:
            return (-round(r.per_game, 9), -r.total, *tiebreaks)
        return (-r.total, *tiebreaks)

    # head to head inside each group tied on what ranks them
    by_total: dict[tuple[Any, ...], list[Row]] = defaultdict(list)
    for r in rows.values():
        by_total[key(r)[: 1 if mode == POINTS else 2]].append(r)
    for group in by_total.values():
        if len(group) < 2:
            continue
        tied = {r.entrant for r in group}
        for g in games:
            pts = game_points(g, rule)
            for i, side in enumerate(g.sides):
                opponents = {e for j, s in enumerate(g.sides) if j != i for e in s}
                if not opponents & tied:
                    continue
                for e in side:
                    if e in tied and e not in g.skipped:
                        lost = e in g.forfeits or e in g.conceded
                        rows[e].head_to_head += rule.loss if lost else pts[i]

    def eligible(r: Row) -> bool:
        return len(r.nights) >= rule.min_nights

    # entrants short of the league's minimum of nights follow, unranked (rank 0)
    ordered = sorted(rows.values(), key=lambda r: (not eligible(r), *key(r), str(r.entrant)))
    for i, r in enumerate(ordered):
        if not eligible(r):
            r.rank = 0
        elif i and key(ordered[i - 1]) == key(r):
            r.rank = ordered[i - 1].rank
            r.tied = ordered[i - 1].tied = True
        else:
            r.rank = i + 1
    return ordered


def champions(rows: Sequence[Row]) -> list[Entrant]:
    """The entrants ranked first (more than one only when every tiebreak is level)."""
    return [r.entrant for r in rows if r.rank == 1 and (r.games or r.byes)]


def ranking_value(r: Row, ranking: str) -> str:
    """What an entrant is ranked by, as a number in the standings (``RANKINGS``)."""
    if ranking == GAME_POINTS:
        return str(r.scored)
    if ranking == PER_GAME:
        return f"{r.per_game:.2f}"
    if ranking == MATCHPOINTS:
        return f"{r.matchpoints:g}"
    return str(r.total)
