"""Who sits where in a league round: tables of the preset's size, balanced by rating.

The formats:

- ``fixed``: teams signed up together and always sit as one side;
- ``rotating``: individuals; partners change every round (never the same partner twice in a night
  while another arrangement exists, and as rarely as possible across the season);
- ``solo``: every seat is its own side.

Tables are *balanced*: with individuals each table's average rating is close to the room's and the
sides of a table are close to each other (a strong player partners a weaker one), so nobody is stuck
with the strongest table every week. Fixed teams cannot be mixed, so there a balanced table is one
of teams of like strength, and opponents vary from round to round.
Leftover players either get a bot seat (bots are spread one per table as far as possible and never
rated), sit out a *bye*, which rotates: the players with the fewest byes tonight, then in the
season, sit out first, or (``threes``, individuals at four-seat tables) play a three-player cutthroat
table: seven players are one table of four and one of three, nine three of three; only what no
table of three or four can take (one, two or five players) sits out. Who plays the table of three
rotates too (fewest tables of three tonight, then in the season).

Fixed teams meet new opponents across the season: with two teams a table the round is a round of a
round robin (the circle method over the teams checked in; an odd team out sits out a bye, also under
the ``bot`` rule, so no team plays two bots), chosen so no pair meets again while the round robin
lasts; when attendance changes the rounds that repeat the fewest meetings win, then rating balance.

The search is a deterministic hill climb (seeded) over swaps between tables; for each table the best
split into sides is found exhaustively (3 ways for 4 seats in pairs, 15 for 6 seats in pairs).

Verifiable seating: with a hex ``seed`` (a league night's secret, committed before check-in as
``engine.fair`` commits a deal) every draw of the search is a Fisher–Yates shuffle of
``engine.fair.shuffle`` with the label ``seating|<round>|<draw>``, and the entrants are sorted
first, so the seed, the round number and the inputs (``engine.seating_record``) give the tables:
``python -m engine verify-seating`` recomputes them. An integer seed (tests, nights from before
the commitment) draws with ``random.Random``.
"""

from __future__ import annotations

import random
import statistics
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import combinations
from typing import TypeVar

from .fair import shuffle as fair_shuffle

FIXED = "fixed"
ROTATING = "rotating"
SOLO = "solo"
FORMATS = (FIXED, ROTATING, SOLO)

BOT = "bot"
BYE = "bye"
THREES = "threes"
LEFTOVERS = (BOT, BYE, THREES)

# cost weights: a repeat tonight outweighs everything else; balance is the tie-breaker
_W_PARTNER_TONIGHT = 1000.0
_W_BOTS_CROWDED = 400.0
_W_BOT_PAIR = 150.0
_W_PARTNER_SEASON = 20.0
_W_MET_TONIGHT = 3.0
_W_MET_SEASON = 60.0  # fixed teams: opponents met earlier in the season
_W_THREES_TONIGHT = 200.0  # a second table of three in one night
_W_THREES_SEASON = 10.0
_W_TABLE_BALANCE = 4.0
_W_SIDE_BALANCE = 4.0


_T = TypeVar("_T")


class SeatingError(ValueError):
    """Not enough players (or bad parameters) to seat anyone; the message says why."""


def pair(a: int, b: int) -> frozenset[int]:
    return frozenset((a, b))


@dataclass
class History:
    """What the seating must not repeat: partners and table-mates tonight, partners and byes all season.

    ``record`` adds a round's seating; the service rebuilds a History from stored pairings.
    """

    partners_season: Counter[frozenset[int]] = field(default_factory=Counter)
    partners_tonight: Counter[frozenset[int]] = field(default_factory=Counter)
    met_tonight: Counter[frozenset[int]] = field(default_factory=Counter)
    byes_season: Counter[int] = field(default_factory=Counter)
    byes_tonight: Counter[int] = field(default_factory=Counter)
    opponents_season: Counter[frozenset[int]] = field(default_factory=Counter)
    threes_season: Counter[int] = field(default_factory=Counter)
    threes_tonight: Counter[int] = field(default_factory=Counter)

    def record(self, seating: Seating, *, tonight: bool = True) -> None:
        for table in seating.tables:
            for side in table.sides:
                humans = [p for p in side if p is not None]
                for a, b in combinations(humans, 2):
                    self.partners_season[pair(a, b)] += 1
                    if tonight:
                        self.partners_tonight[pair(a, b)] += 1
            for i, side in enumerate(table.sides):
                for other in table.sides[i + 1 :]:
                    for x in side:
                        for y in other:
                            if x is not None and y is not None:
                                self.opponents_season[pair(x, y)] += 1
            if table.cutthroat:
                for p in table.players:
                    self.threes_season[p] += 1
                    if tonight:
                        self.threes_tonight[p] += 1
            if tonight:
                for a, b in combinations(table.players, 2):
                    self.met_tonight[pair(a, b)] += 1
        for p in seating.byes:
            self.byes_season[p] += 1
            if tonight:
                self.byes_tonight[p] += 1

    def new_night(self) -> History:
        """The same season history with tonight's counters cleared."""
        return History(
            partners_season=Counter(self.partners_season),
            byes_season=Counter(self.byes_season),
            opponents_season=Counter(self.opponents_season),
            threes_season=Counter(self.threes_season),
        )


@dataclass(frozen=True)
class TablePlan:
    """One table: its sides in order, each a tuple of player ids (None = a bot seat)."""

    sides: tuple[tuple[int | None, ...], ...]

    @property
    def players(self) -> list[int]:
        return [p for side in self.sides for p in side if p is not None]

    @property
    def bots(self) -> int:
        return sum(1 for side in self.sides for p in side if p is None)

    @property
    def cutthroat(self) -> bool:
        """A table of three players for themselves (the ``threes`` leftover rule's table)."""
        return len(self.sides) == 3 and all(len(s) == 1 for s in self.sides)

    def seats(self, layout: Sequence[Sequence[int]]) -> list[int | None]:
        """The players by seat number, given the ruleset's sides layout (``Ruleset.sides``)."""
        if len(layout) != len(self.sides) or any(
            len(a) != len(b) for a, b in zip(layout, self.sides, strict=True)
        ):
            raise SeatingError("the table plan does not fit the ruleset's sides")
        n = sum(len(s) for s in layout)
        out: list[int | None] = [None] * n
        for seat_nos, members in zip(layout, self.sides, strict=True):
            for seat, member in zip(seat_nos, members, strict=True):
                out[seat] = member
        return out


@dataclass(frozen=True)
class Seating:
    tables: tuple[TablePlan, ...]
    byes: tuple[int, ...] = ()

    @property
    def seated(self) -> list[int]:
        return [p for t in self.tables for p in t.players]


@lru_cache(maxsize=32)
def _partitions(n: int, size: int) -> tuple[tuple[tuple[int, ...], ...], ...]:
    """Every way to split positions 0..n-1 into sides of ``size`` (unordered sides)."""
    if n == 0:
        return ((),)
    first = 0
    out: list[tuple[tuple[int, ...], ...]] = []
    for rest in combinations(range(1, n), size - 1):
        side = (first, *rest)
        remaining = [i for i in range(n) if i not in side]
        for sub in _partitions(len(remaining), size):
            out.append((side, *(tuple(remaining[i] for i in s) for s in sub)))
    return tuple(out)


@dataclass(frozen=True)
class _Unit:
    """What the search moves: one player, one fixed team, or one bot seat."""

    members: tuple[int | None, ...]
    rating: float  # standardized

    @property
    def is_bot(self) -> bool:
        return all(m is None for m in self.members)


def threes_split(n: int) -> tuple[int, int, int]:
    """Tables of four, tables of three and players left out for ``n`` players under the ``threes``
    rule: the fewest left out, then the most tables of four (7 -> 1, 1, 0; 9 -> 0, 3, 0; 5 -> 1, 0, 1)."""
    best = (0, 0, n)
    for b in range(n // 3 + 1):
        a, r = divmod(n - 3 * b, 4)
        if (r, -a) < (best[2], -best[0]):
            best = (a, b, r)
    return best


def circle_rounds(n: int) -> list[list[tuple[int, int]]]:
    """The rounds of a round robin of ``n`` (even) entrants by the circle method: ``n - 1`` rounds
    of ``n / 2`` pairs of indexes, every pair exactly once over the rounds."""
    if n < 2 or n % 2:
        raise SeatingError("a round robin needs an even number of entrants")
    rest = list(range(1, n))
    rounds = []
    for _ in range(n - 1):
        ring = [0, *rest]
        rounds.append([(ring[i], ring[n - 1 - i]) for i in range(n // 2)])
        rest = rest[-1:] + rest[:-1]
    return rounds


def seat_round(
    *,
    players: Sequence[int] = (),
    teams: Sequence[Sequence[int]] = (),
    ratings: dict[int, float] | None = None,
    table_size: int,
    team_size: int,
    fmt: str,
    leftover: str = BOT,
    history: History | None = None,
    seed: int | str = 0,
    round_no: int = 0,
) -> Seating:
    """Seat one round.

    ``players`` are the checked-in players (``rotating``/``solo``); ``teams`` the checked-in fixed
    teams (``fixed``; a team with a member missing gets a bot in that seat). ``ratings`` maps a player
    to a conservative rating (unknown players count as the room's median). ``team_size`` is 1 for solo.
    A ``str`` seed (hex) is a verifiable seating's: the players and teams are sorted and every draw
    is ``engine.fair.shuffle(seed, ..., "seating|<round_no>|<draw>")``; an ``int`` seeds
    ``random.Random``.
    """
    if fmt not in FORMATS:
        raise SeatingError(f"unknown format {fmt!r}")
    if leftover not in LEFTOVERS:
        raise SeatingError(f"unknown leftover rule {leftover!r}")
    if fmt == SOLO:
        team_size = 1
    if team_size < 1 or table_size < 2 or table_size % team_size:
        raise SeatingError("the table size must be a multiple of the team size")
    if leftover == THREES and (fmt == FIXED or table_size != 4):
        raise SeatingError("tables of three are for individuals at four-seat tables")
    history = history or History()
    ratings = ratings or {}
    draws = [0]
    if isinstance(seed, str):
        players = sorted(players)
        teams = sorted((tuple(t) for t in teams), key=lambda t: (sorted(t), t))
        fair_seed = seed

        def draw(items: list[_T]) -> list[_T]:
            draws[0] += 1
            order = fair_shuffle(fair_seed, range(len(items)), f"seating|{round_no}|{draws[0]}")
            return [items[i] for i in order]
    else:
        rng = random.Random(seed)

        def draw(items: list[_T]) -> list[_T]:
            out = list(items)
            rng.shuffle(out)
            return out

    if fmt == FIXED:
        if len(teams) != len({tuple(t) for t in teams}):
            raise SeatingError("a team is listed twice")
        groups = [tuple(t) for t in teams if t]
        if any(len(g) > team_size for g in groups):
            raise SeatingError(f"a team has more than {team_size} players")
        everyone = [p for g in groups for p in g]
    else:
        groups = [(p,) for p in players]
        everyone = list(players)
    if len(everyone) != len(set(everyone)):
        raise SeatingError("a player is listed twice")

    known = [ratings[p] for p in everyone if p in ratings]
    median = statistics.median(known) if known else 0.0
    spread = statistics.pstdev(known) if len(known) > 1 else 0.0
    spread = spread or 1.0

    def z(p: int | None) -> float:
        if p is None:
            return 0.0
        return (ratings.get(p, median) - median) / spread

    unit_width = team_size if fmt == FIXED else 1
    per_table = table_size // unit_width
    order = draw(list(range(len(groups))))  # the last tie-break of who sits out: a seeded draw

    def bye_key(g: tuple[int, ...]) -> tuple[int, int]:
        return (sum(history.byes_tonight[p] for p in g), sum(history.byes_season[p] for p in g))

    def sit_out(n_bye: int) -> tuple[list[tuple[int, ...]], list[int]]:
        """The groups left playing and the players sitting out: the fewest byes first."""
        ranked = sorted(order, key=lambda i: bye_key(groups[i]))
        out = set(ranked[:n_bye])
        return [g for i, g in enumerate(groups) if i not in out], [p for i in sorted(out) for p in groups[i]]

    n_units = len(groups)
    byes: list[int] = []
    n_bots_units = 0
    if leftover == THREES:
        fours, threes, n_bye = threes_split(n_units)
        if fours + threes == 0:
            raise SeatingError(f"{len(everyone)} checked in: at least 3 players are needed for a table")
        groups, byes = sit_out(n_bye)
        sizes = [4] * fours + [3] * threes
    elif leftover == BYE or (fmt == FIXED and n_units >= per_table):
        # fixed teams: a team left over sits out (never a team against a side of bots)
        tables = n_units // per_table
        if tables == 0:
            raise SeatingError(
                f"{len(everyone)} checked in: at least {table_size} players are needed for a table"
            )
        groups, byes = sit_out(n_units - tables * per_table)
        sizes = [per_table] * tables
    else:
        if not groups:
            raise SeatingError("nobody is checked in")
        tables = -(-len(groups) // per_table)
        n_bots_units = tables * per_table - len(groups)
        sizes = [per_table] * tables

    units = [_Unit(tuple(g) + (None,) * (unit_width - len(g)), sum(z(p) for p in g) / len(g)) for g in groups]
    units += [_Unit((None,) * unit_width, 0.0) for _ in range(n_bots_units)]
    tables = len(sizes)
    total_bots = sum(1 for u in units for m in u.members if m is None)
    max_bots_per_table = -(-total_bots // tables) if tables else 0
    side_size = team_size

    def met_before(tunits: Sequence[_Unit]) -> int:
        """Pairs of units at this table who met earlier (tonight or in the season)."""
        n = 0
        for ua, ub in combinations(tunits, 2):
            if any(
                history.opponents_season[pair(a, b)] or history.met_tonight[pair(a, b)]
                for a in ua.members
                for b in ub.members
                if a is not None and b is not None
            ):
                n += 1
        return n

    def table_cost(tunits: Sequence[_Unit]) -> tuple[float, tuple[tuple[int | None, ...], ...]]:
        cost = 0.0
        members = [m for u in tunits for m in u.members]
        humans = [m for m in members if m is not None]
        bots = len(members) - len(humans)
        if bots > max_bots_per_table:
            cost += _W_BOTS_CROWDED * (bots - max_bots_per_table)
        for a, b in combinations(humans, 2):
            cost += _W_MET_TONIGHT * history.met_tonight[pair(a, b)]
        if fmt == FIXED:
            # opponents rotate across the season
            for ua, ub in combinations(tunits, 2):
                for x in ua.members:
                    for y in ub.members:
                        if x is not None and y is not None:
                            cost += _W_MET_SEASON * history.opponents_season[pair(x, y)]
        else:
            # fixed teams cannot be mixed: a fair table there is two teams of like strength
            mean = sum(z(m) for m in members) / len(members)
            cost += _W_TABLE_BALANCE * mean * mean
        if len(members) == 3 and table_size == 4:
            # the threes rule's cutthroat table: everyone for themselves; it rotates
            for m in humans:
                cost += (
                    _W_THREES_TONIGHT * history.threes_tonight[m]
                    + _W_THREES_SEASON * history.threes_season[m]
                )
            alone: tuple[tuple[int | None, ...], ...] = tuple((m,) for m in members)
            return cost + _side_cost(alone), alone
        if fmt == FIXED or side_size == 1:
            sides: tuple[tuple[int | None, ...], ...] = (
                tuple(u.members for u in tunits) if fmt == FIXED else tuple((m,) for m in members)
            )
            return cost + _side_cost(sides), sides
        best: tuple[float, tuple[tuple[int | None, ...], ...]] | None = None
        for part in _partitions(len(members), side_size):
            split = tuple(tuple(members[i] for i in s) for s in part)
            c = _side_cost(split)
            if best is None or c < best[0]:
                best = (c, split)
        assert best is not None
        return cost + best[0], best[1]

    def _side_cost(sides: tuple[tuple[int | None, ...], ...]) -> float:
        cost = 0.0
        means = []
        for side in sides:
            humans = [m for m in side if m is not None]
            if len(side) > 1 and not humans:
                cost += _W_BOT_PAIR  # a side of bots only
            for a, b in combinations(humans, 2):
                cost += _W_PARTNER_TONIGHT * history.partners_tonight[pair(a, b)]
                cost += _W_PARTNER_SEASON * history.partners_season[pair(a, b)]
            means.append(sum(z(m) for m in side) / len(side))
        if len(means) > 1:
            cost += _W_SIDE_BALANCE * (max(means) - min(means)) ** 2
        return cost

    def snake(ordered: list[_Unit]) -> list[list[_Unit]]:
        out: list[list[_Unit]] = [[] for _ in sizes]
        rest = list(ordered)
        forward = True
        while rest:
            for t in range(tables) if forward else range(tables - 1, -1, -1):
                if rest and len(out[t]) < sizes[t]:
                    out[t].append(rest.pop(0))
            forward = not forward
        return out

    def sliced(ordered: list[_Unit]) -> list[list[_Unit]]:
        out, at = [], 0
        for size in sizes:
            out.append(ordered[at : at + size])
            at += size
        return out

    def climb(layout: list[list[_Unit]]) -> tuple[float, list[list[_Unit]]]:
        costs = [table_cost(t)[0] for t in layout]
        improved = True
        while improved:
            improved = False
            for ta in range(tables):
                for tb in range(ta + 1, tables):
                    for ia in range(len(layout[ta])):
                        for ib in range(len(layout[tb])):
                            a, b = layout[ta][ia], layout[tb][ib]
                            if a.is_bot and b.is_bot:
                                continue
                            layout[ta][ia], layout[tb][ib] = b, a
                            ca, cb = table_cost(layout[ta])[0], table_cost(layout[tb])[0]
                            if ca + cb < costs[ta] + costs[tb] - 1e-9:
                                costs[ta], costs[tb] = ca, cb
                                improved = True
                            else:
                                layout[ta][ia], layout[tb][ib] = a, b
        return sum(costs), layout

    # start from the rating snake (humans strongest first, bots last so they spread over tables)
    humans_first = sorted((u for u in units if not u.is_bot), key=lambda u: -u.rating)
    bot_units = [u for u in units if u.is_bot]
    start = snake(humans_first + bot_units)
    best_cost, best_layout = climb([list(t) for t in start])
    for _ in range(3 if tables > 1 else 0):
        shuffled = draw(list(units))
        c, lay = climb(sliced(shuffled))
        if c < best_cost - 1e-9:
            best_cost, best_layout = c, lay
    if fmt == FIXED and per_table == 2 and sum(1 for t in teams if t) >= 2:
        best_layout, byes = _round_robin(
            [tuple(t) for t in teams if t], best_layout, byes, unit_width, table_cost, met_before, bye_key, z
        )
    # tables of four first, then the tables of three
    best_layout = sorted(best_layout, key=lambda t: -len(t))
    plans = tuple(TablePlan(table_cost(t)[1]) for t in best_layout)
    return Seating(plans, tuple(byes))


def _round_robin(
    teams: list[tuple[int, ...]],
    searched: list[list[_Unit]],
    searched_byes: list[int],
    width: int,
    table_cost: Callable[[Sequence[_Unit]], tuple[float, tuple[tuple[int | None, ...], ...]]],
    met_before: Callable[[Sequence[_Unit]], int],
    bye_key: Callable[[tuple[int, ...]], tuple[int, int]],
    z: Callable[[int | None], float],
) -> tuple[list[list[_Unit]], list[int]]:
    """Fixed teams two a table: the round of the circle-method round robin over tonight's teams
    (an odd team out sits out) that repeats the fewest meetings, then sits out the team with the
    fewest byes, then balances best; the searched seating only when it repeats fewer meetings."""
    ordered = sorted(teams, key=lambda t: tuple(sorted(t)))
    unit = {t: _Unit(t + (None,) * (width - len(t)), sum(z(p) for p in t) / len(t)) for t in ordered}
    slots: list[tuple[int, ...] | None] = [*ordered, *([None] if len(ordered) % 2 else [])]

    def key(layout: list[list[_Unit]], out: tuple[int, ...]) -> tuple[float, ...]:
        tonight, season = bye_key(out)
        repeats = sum(met_before(t) for t in layout)
        return (tonight, repeats, season, sum(table_cost(t)[0] for t in layout))

    best: tuple[tuple[float, ...], list[list[_Unit]], tuple[int, ...]] | None = None
    for rnd in circle_rounds(len(slots)):
        layout: list[list[_Unit]] = []
        out: tuple[int, ...] = ()
        for a, b in rnd:
            ta, tb = slots[a], slots[b]
            if ta is None or tb is None:
                out = tb if ta is None else ta  # type: ignore[assignment]
                continue
            layout.append([unit[ta], unit[tb]])
        k = key(layout, out)
        if best is None or k < best[0]:
            best = (k, layout, out)
    assert best is not None
    if key(searched, tuple(searched_byes))[:2] < best[0][:2]:
        return searched, searched_byes
    return best[1], list(best[2])


def partner_repeats(seatings: Iterable[Seating]) -> int:
    """How many partner pairs in these seatings had already partnered in an earlier one."""
    seen: Counter[frozenset[int]] = Counter()
    repeats = 0
    for s in seatings:
        for t in s.tables:
            for side in t.sides:
                humans = [p for p in side if p is not None]
                for a, b in combinations(humans, 2):
                    repeats += seen[pair(a, b)] > 0
                    seen[pair(a, b)] += 1
    return repeats
