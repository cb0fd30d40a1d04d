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
rated) or sit out a *bye*, which rotates: the players with the fewest byes tonight, then in the
season, sit out first.

The search is a deterministic hill climb (seeded) over swaps between tables; for each table the best
split into sides is found exhaustively (3 ways for 4 seats in pairs, 15 for 6 seats in pairs).
"""

from __future__ import annotations

import random
import statistics
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import combinations

FIXED = "fixed"
ROTATING = "rotating"
SOLO = "solo"
FORMATS = (FIXED, ROTATING, SOLO)

BOT = "bot"
BYE = "bye"
LEFTOVERS = (BOT, BYE)

# cost weights: a repeat tonight outweighs everything else; balance is the tie-breaker
_W_PARTNER_TONIGHT = 1000.0
_W_BOTS_CROWDED = 400.0
_W_BOT_PAIR = 150.0
_W_PARTNER_SEASON = 20.0
_W_MET_TONIGHT = 3.0
_W_TABLE_BALANCE = 4.0
_W_SIDE_BALANCE = 4.0


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

    def record(self, seating: Seating, *, tonight: bool = True) -> None:
        for table in seating.tables:
            for side in table.sides:
                humans = [p for p in side if p is not None]
                for a, b in combinations(humans, 2):
                    self.partners_season[pair(a, b)] += 1
                    if tonight:
                        self.partners_tonight[pair(a, b)] += 1
            if tonight:
                for a, b in combinations(table.players, 2):
                    self.met_tonight[pair(a, b)] += 1
        for p in seating.byes:
            self.byes_season[p] += 1
            if tonight:
                self.byes_tonight[p] += 1

    def new_night(self) -> History:
        """The same season history with tonight's counters cleared."""
        return History(partners_season=Counter(self.partners_season), byes_season=Counter(self.byes_season))


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
    seed: int = 0,
) -> Seating:
    """Seat one round.

    ``players`` are the checked-in players (``rotating``/``solo``); ``teams`` the checked-in fixed
    teams (``fixed``; a team with a member missing gets a bot in that seat). ``ratings`` maps a player
    to a conservative rating (unknown players count as the room's median). ``team_size`` is 1 for solo.
    """
    if fmt not in FORMATS:
        raise SeatingError(f"unknown format {fmt!r}")
    if leftover not in LEFTOVERS:
        raise SeatingError(f"unknown leftover rule {leftover!r}")
    if fmt == SOLO:
        team_size = 1
    if team_size < 1 or table_size < 2 or table_size % team_size:
        raise SeatingError("the table size must be a multiple of the team size")
    history = history or History()
    ratings = ratings or {}
    rng = random.Random(seed)

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
    # byes: who sits out (whole units)
    byes: list[int] = []
    n_units = len(groups)
    if leftover == BYE:
        tables = n_units // per_table
        n_bye = n_units - tables * per_table
        if tables == 0:
            raise SeatingError(
                f"{len(everyone)} checked in: at least {table_size} players are needed for a table"
            )
        if n_bye:
            order = list(range(n_units))
            rng.shuffle(order)  # the last tie-break: a seeded draw

            def bye_key(i: int) -> tuple[int, int]:
                members = groups[i]
                return (
                    sum(history.byes_tonight[p] for p in members),
                    sum(history.byes_season[p] for p in members),
                )

            order.sort(key=bye_key)
            out = set(order[:n_bye])
            byes = [p for i in sorted(out) for p in groups[i]]
            groups = [g for i, g in enumerate(groups) if i not in out]
        n_bots_units = 0
    else:
        if not groups:
            raise SeatingError("nobody is checked in")
        tables = -(-len(groups) // per_table)
        n_bots_units = tables * per_table - len(groups)

    units = [_Unit(tuple(g) + (None,) * (unit_width - len(g)), sum(z(p) for p in g) / len(g)) for g in groups]
    units += [_Unit((None,) * unit_width, 0.0) for _ in range(n_bots_units)]
    total_bots = sum(1 for u in units for m in u.members if m is None)
    max_bots_per_table = -(-total_bots // tables) if tables else 0
    side_size = team_size

    def table_cost(tunits: Sequence[_Unit]) -> tuple[float, tuple[tuple[int | None, ...], ...]]:
        cost = 0.0
        members = [m for u in tunits for m in u.members]
        humans = [m for m in members if m is not None]
        bots = len(members) - len(humans)
        if bots > max_bots_per_table:
            cost += _W_BOTS_CROWDED * (bots - max_bots_per_table)
        for a, b in combinations(humans, 2):
            cost += _W_MET_TONIGHT * history.met_tonight[pair(a, b)]
        if fmt != FIXED:
            # fixed teams cannot be mixed: a fair table there is two teams of like strength
            mean = sum(z(m) for m in members) / len(members)
            cost += _W_TABLE_BALANCE * mean * mean
        if fmt == FIXED or side_size == 1:
            sides = tuple(u.members for u in tunits) if fmt == FIXED else tuple((m,) for m in members)
            return cost + _side_cost(sides), sides
        best: tuple[float, tuple[tuple[int | None, ...], ...]] | None = None
        for part in _partitions(len(members), side_size):
            sides = tuple(tuple(members[i] for i in s) for s in part)
            c = _side_cost(sides)
            if best is None or c < best[0]:
                best = (c, sides)
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

    def snake(order: list[_Unit]) -> list[list[_Unit]]:
        out: list[list[_Unit]] = [[] for _ in range(tables)]
        for i, u in enumerate(order):
            rnd, pos = divmod(i, tables)
            out[pos if rnd % 2 == 0 else tables - 1 - pos].append(u)
        return out

    def climb(layout: list[list[_Unit]]) -> tuple[float, list[list[_Unit]]]:
        costs = [table_cost(t)[0] for t in layout]
        improved = True
        while improved:
            improved = False
            for ta in range(tables):
                for tb in range(ta + 1, tables):
                    for ia in range(per_table):
                        for ib in range(per_table):
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
        shuffled = list(units)
        rng.shuffle(shuffled)
        c, lay = climb([shuffled[i * per_table : (i + 1) * per_table] for i in range(tables)])
        if c < best_cost - 1e-9:
            best_cost, best_layout = c, lay
    plans = tuple(TablePlan(table_cost(t)[1]) for t in best_layout)
    return Seating(plans, tuple(byes))


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
