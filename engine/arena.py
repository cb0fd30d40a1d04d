"""Bot-vs-bot matches: ``python -m engine arena --preset standard --games 100 --seats heuristic,random``.

Plays whole games (to the target score) between bots and reports, per side: wins with a 95 %
Wilson interval, points per hand, contracts made/set, nils made/attempted and bags per hand.
``--duplicate`` plays every deal once per rotation of the seats, so each side plays each deal from
each position and the luck of the cards cancels out of comparisons.

Sides are the *entrants* named by ``--seats``: the bots at the seats of ruleset side 0 form entrant
0, and so on. In a rotated duplicate game an entrant sits at other seats but is still counted as
itself.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TextIO

from .actions import PlayAction
from .bids import Bid
from .bots import BOT_NAMES, Bot, get_bot, seed_to_int
from .bots.guards import FAULT_KEYS, play_faults
from .errors import RulesetError
from .events import GameOver, HandScored
from .game import Game, Phase
from .ruleset import PRESETS, Ruleset

DEFAULT_MAX_GAME_HANDS = 200


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """95 % Wilson score interval for a proportion (ties count as half a win)."""
    if n <= 0:
        return (0.0, 1.0)
    p = wins / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def percentile(sorted_values: list[float], q: float) -> float:
    """The ``q``-th percentile (nearest rank) of an already sorted, non-empty list."""
    k = max(0, min(len(sorted_values) - 1, math.ceil(q / 100 * len(sorted_values)) - 1))
    return sorted_values[k]


def mean_ci(values: list[float], z: float = 1.96) -> dict[str, Any] | None:
    """Mean and 95 % normal interval of per-deal differences (None without two deals)."""
    n = len(values)
    if n < 2:
        return None
    mean = sum(values) / n
    var = sum((v - mean) ** 2 for v in values) / (n - 1)
    half = z * math.sqrt(var / n)
    return {
        "deals": n,
        "diff_per_hand": round(mean, 2),
        "ci95": [round(mean - half, 2), round(mean + half, 2)],
        "sd": round(math.sqrt(var), 2),
    }


@dataclass
class SideStats:
    """Totals for one entrant over the run."""

    label: str
    bots: list[str]
    wins: int = 0
    games: int = 0
    hands: int = 0
    points: int = 0
    contracts_made: int = 0
    contracts_set: int = 0
    nils_made: int = 0
    nils_attempted: int = 0
    blind_nils_made: int = 0
    blind_nils_attempted: int = 0
    bags: int = 0
    bid_hands: int = 0  # hands in which the side had a numbered bid
    bid_error: int = 0  # sum over those hands of |tricks of its numbered bidders - bid|
    bid_excess: int = 0  # the same, signed (tricks - bid: positive means under-bid)
    final_scores: list[int] = field(default_factory=list)
    decision_s: list[float] = field(default_factory=list)
    diffs: list[float] = field(default_factory=list)  # per duplicate deal: mine - the others'
    faults: dict[str, int] = field(default_factory=lambda: dict.fromkeys(FAULT_KEYS, 0))
    bag_penalties: int = 0  # hands in which the side paid the bag penalty
    search: dict[str, int] = field(default_factory=dict)  # the search bots' `stats`, summed

    def to_dict(self, decided_games: int) -> dict[str, Any]:
        lo, hi = wilson(self.wins, decided_games)
        h = max(1, self.hands)
        times = sorted(self.decision_s)
        decided = self.contracts_made + self.contracts_set
        return {
            "label": self.label,
            "bots": self.bots,
            "wins": self.wins,
            "win_rate": self.wins / decided_games if decided_games else None,
            "win_ci95": [round(lo, 4), round(hi, 4)],
            "hands": self.hands,
            "points": self.points,
            "points_per_hand": round(self.points / h, 2),
            "contracts_made": self.contracts_made,
            "contracts_set": self.contracts_set,
            "nils_made": self.nils_made,
            "nils_attempted": self.nils_attempted,
            "blind_nils_made": self.blind_nils_made,
            "blind_nils_attempted": self.blind_nils_attempted,
            "bags": self.bags,
            "bags_per_hand": round(self.bags / h, 3),
            "set_rate": round(self.contracts_set / decided, 4) if decided else None,
            "nil_rate": round(self.nils_attempted / h, 4),
            "nil_success": round(self.nils_made / self.nils_attempted, 4) if self.nils_attempted else None,
            "blind_nil_rate": round(self.blind_nils_attempted / h, 4),
            "blind_nil_success": (
                round(self.blind_nils_made / self.blind_nils_attempted, 4)
                if self.blind_nils_attempted
                else None
            ),
            "bid_error": round(self.bid_error / self.bid_hands, 3) if self.bid_hands else None,
            "bid_excess": round(self.bid_excess / self.bid_hands, 3) if self.bid_hands else None,
            "decisions": len(times),
            "decision_ms": None
            if not times
            else {
                "median": round(1000 * percentile(times, 50), 3),
                "p99": round(1000 * percentile(times, 99), 3),
                "max": round(1000 * times[-1], 3),
            },
            "duplicate": mean_ci(self.diffs),
            "bag_penalties": self.bag_penalties,
            "faults": dict(self.faults),
            "search": dict(self.search),
        }


@dataclass
class ArenaResult:
    ruleset: Ruleset
    seats: list[str]
    seed: int | str
    duplicate: bool
    games: int = 0
    finished: int = 0
    unfinished: int = 0
    hands: int = 0
    deals: int = 0  # duplicate deals: hands played in every rotation of a deal
    seconds: float = 0.0
    sides: list[SideStats] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        decided = self.finished
        return {
            "preset": self.ruleset.name,
            "ruleset": self.ruleset.to_dict(),
            "describe": self.ruleset.describe(),
            "seats": self.seats,
            "seed": self.seed,
            "duplicate": self.duplicate,
            "games": self.games,
            "finished": self.finished,
            "unfinished": self.unfinished,
            "hands": self.hands,
            "deals": self.deals,
            "seconds": round(self.seconds, 3),
            "hands_per_second": round(self.hands / self.seconds, 1) if self.seconds else None,
            "wins": [s.wins for s in self.sides],
            "sides": [s.to_dict(decided) for s in self.sides],
        }


class Progress:
    """A one-line progress bar on stderr, shown only on a terminal and after the first second."""

    def __init__(self, total: int, unit: str, stream: TextIO | None = None, force: bool = False) -> None:
        self.stream = stream if stream is not None else sys.stderr
        self.total = max(1, total)
        self.unit = unit
        self.start = time.perf_counter()
        self.last = 0.0
        self.tty = bool(getattr(self.stream, "isatty", lambda: False)())
        self.enabled = force or self.tty
        self.shown = False

    def update(self, done: int) -> None:
        if not self.enabled:
            return
        now = time.perf_counter()
        if now - self.start < 1.0 or now - self.last < (0.1 if self.tty else 5.0):
            return
        self.last = now
        frac = min(1.0, done / self.total)
        width = 30
        fill = int(frac * width)
        bar = "#" * fill + "." * (width - fill)
        eta = (now - self.start) * (1 - frac) / frac if frac > 0 else 0.0
        self.stream.write(
            f"\r[{bar}] {done}/{self.total} {self.unit} {now - self.start:.0f}s, ~{eta:.0f}s left"
        )
        self.stream.flush()
        self.shown = True

    def close(self) -> None:
        if self.shown:
            self.stream.write("\r" + " " * 70 + "\r")
            self.stream.flush()


def _rotation_map(rs: Ruleset, rotation: int) -> tuple[list[int], list[int]]:
    """For a rotation by ``rotation`` seats: entrant seat -> table seat, and table side -> entrant."""
    n = rs.num_seats
    seat_at = [(s + rotation) % n for s in range(n)]
    side_entrant = [0] * rs.num_sides
    for entrant, seats in enumerate(rs.sides):
        side_entrant[rs.side_of(seat_at[seats[0]])] = entrant
    return seat_at, side_entrant


def play_game(
    rs: Ruleset,
    bots: list[Bot],
    seed: int | str,
    *,
    dealer: int | None = None,
    hand_budget: int | None = None,
    max_game_hands: int = DEFAULT_MAX_GAME_HANDS,
    timings: list[list[float]] | None = None,
    hand_bids: dict[int, tuple[Bid | None, ...]] | None = None,
    scores: list[int] | None = None,
    bags: list[int] | None = None,
    faults: list[dict[str, int]] | None = None,
    clock: Callable[[], float] = time.perf_counter,
) -> tuple[Game, list[HandScored]]:
    """Play one game with ``bots[seat]`` until it is over, ``hand_budget`` hands were played or
    ``max_game_hands`` is reached. Returns the game and its scored hands. With ``timings`` (one
    list per seat) each decision's seconds are appended to its seat's list; ``hand_bids`` gets
    each hand's final bids by hand number; ``scores`` / ``bags`` (per side): the score situation
    the game starts from; ``faults`` (one dict per seat) gets each card play's `play_faults`;
    ``clock`` times the decisions."""
    g = Game.new(rs, seed=seed, dealer=dealer)
    if scores is not None:  # start from a score situation (before anyone has acted)
        g.scores, g.before_scores = list(scores), list(scores)
    if bags is not None:
        g.bags, g.before_bags = list(bags), list(bags)
    scored: list[HandScored] = []
    limit = max_game_hands if hand_budget is None else min(max_game_hands, hand_budget)
    while g.phase is not Phase.GAME_OVER and len(scored) < limit:
        seats = g.seats_to_act()
        if not seats:  # pragma: no cover - the engine always has someone to act
            raise RuntimeError(f"nobody to act in phase {g.phase}")
        seat = seats[0]
        view = g.view(seat)
        if timings is None:
            action = bots[seat].act(view)
        else:
            t0 = clock()
            action = bots[seat].act(view)
            timings[seat].append(clock() - t0)
        if faults is not None and isinstance(action, PlayAction):
            for key, n in play_faults(view, action.card).items():
                faults[seat][key] = faults[seat].get(key, 0) + n
        if hand_bids is not None and g.phase is Phase.PLAY and g.hand_no not in hand_bids:
            hand_bids[g.hand_no] = tuple(g.bids)
        for ev in g.apply(action):
            if isinstance(ev, HandScored):
                scored.append(ev)
            elif isinstance(ev, GameOver):
                pass
    return g, scored


SEARCH_BOTS = ("expert", "strong")


#: The strong bot's cap per turn in Discord (bot/table/thinker.py's ``MAX_THINK_SECONDS``; the
#: engine does not import the bot) and the fewest sampled deals it searches there.
DISCORD_CAP_SECONDS = 0.6
DISCORD_MIN_WORLDS = 2


def bot_options(name: str, worlds: int | None, cap: float | None = None) -> dict[str, Any]:
    """Options for ``get_bot``: with ``worlds`` a search bot samples exactly that many deals per
    decision, with no time cap (strength then does not depend on the machine's load). With
    ``cap`` the strong bot searches as seated in Discord (its default sampled deals, at least
    `DISCORD_MIN_WORLDS`) but stops each decision after ``cap`` seconds of *CPU time*, so the
    result does not depend on other work on the machine."""
    if cap is not None and name == "strong":
        return {"time_limit": cap, "min_worlds": DISCORD_MIN_WORLDS, "clock": time.process_time}
    if worlds is None or name not in SEARCH_BOTS:
        return {}
    if name == "expert":
        return {"worlds": worlds, "min_worlds": worlds, "time_limit": 1e9}
    return {"worlds": worlds, "min_worlds": worlds, "time_limit": None}


def run_arena(
    rs: Ruleset,
    seats: list[str],
    games: int,
    seed: int | str = 0,
    *,
    duplicate: bool = False,
    hands: int | None = None,
    deals: int | None = None,
    worlds: int | None = None,
    game_hands: int | None = None,
    random_scores: bool = False,
    max_game_hands: int = DEFAULT_MAX_GAME_HANDS,
    progress: Progress | None = None,
    cap: float | None = None,
) -> ArenaResult:
    """Play ``games`` games (deals x rotations with ``duplicate``) and total the statistics.

    ``hands`` caps the total number of hands over the whole run; a game cut short by it counts as
    unfinished. With ``duplicate``, hand *i* of a game is dealt the same cards in every rotation:
    each such hand is one duplicate deal, and each entrant's per-deal difference (its points minus
    the mean of the others', averaged over the rotations) gives the confidence interval.
    ``deals`` stops the run once that many duplicate deals were played (the last game is cut
    short in every rotation). ``worlds``: see `bot_options`. ``game_hands`` stops every game after
    that many hands (``1``: every duplicate deal is one hand from the same situation in every
    rotation, the least noisy comparison). ``random_scores``: every game starts from a seeded
    random score situation (a common level -50..400, each side within 80 of it, 0-9 bags), the
    same for each entrant in every rotation, so bidding meets the situations of real games (near
    the target or the bag limit, behind). ``cap``: the strong bot's CPU seconds per decision (see
    `bot_options`; the decisions are then timed in CPU time too)."""
    if len(seats) != rs.num_seats:
        raise ValueError(f"{rs.name} has {rs.num_seats} seats; --seats names {len(seats)} bots")
    result = ArenaResult(ruleset=rs, seats=list(seats), seed=seed, duplicate=duplicate)
    for entrant, side_seats in enumerate(rs.sides):
        names = [seats[s] for s in side_seats]
        label = "+".join(names)
        if sum(1 for ss in rs.sides if "+".join(seats[s] for s in ss) == label) > 1:
            label = f"{label} #{entrant + 1}"
        result.sides.append(SideStats(label=label, bots=names))
    rotations = list(range(rs.num_sides)) if duplicate else [0]
    base = seed_to_int(seed)
    start = time.perf_counter()
    game_no = 0
    entrants = len(rs.sides)
    for deal in range(games):
        deal_seed = f"{base}:{deal}"
        dealer = deal % rs.num_seats
        per_rotation: list[list[list[int]]] = []  # rotation -> hand -> points per entrant
        for rotation in rotations:
            if hands is not None and result.hands >= hands:
                break
            seat_at, side_entrant = _rotation_map(rs, rotation)
            by_seat = {
                seat_at[s]: get_bot(seats[s], seed=f"{base}:{deal}:{s}", **bot_options(seats[s], worlds, cap))
                for s in range(rs.num_seats)
            }
            bots = [by_seat[s] for s in range(rs.num_seats)]
            budget = None if hands is None else hands - result.hands
            if game_hands is not None:
                budget = game_hands if budget is None else min(budget, game_hands)
            if deals is not None and duplicate:
                left = deals - result.deals
                budget = left if budget is None else min(budget, left)
            timings: list[list[float]] = [[] for _ in range(rs.num_seats)]
            seat_faults: list[dict[str, int]] = [{} for _ in range(rs.num_seats)]
            bids: dict[int, tuple[Bid | None, ...]] = {}
            start_scores = start_bags = None
            if random_scores:
                situation = random.Random(f"{base}:{deal}:scores")
                level = 10 * situation.randint(-5, 40)  # how far the game has gone
                ent_bags = [situation.randrange(10) for _ in rs.sides]
                ent_scores = [level + 10 * situation.randint(-8, 8) + b for b in ent_bags]
                start_scores = [ent_scores[side_entrant[side]] for side in range(rs.num_sides)]
                start_bags = [ent_bags[side_entrant[side]] for side in range(rs.num_sides)]
            g, scored = play_game(
                rs,
                bots,
                deal_seed,
                dealer=dealer,
                hand_budget=budget,
                max_game_hands=max_game_hands,
                timings=timings,
                hand_bids=bids,
                scores=start_scores,
                bags=start_bags,
                faults=seat_faults,
                clock=time.perf_counter if cap is None else time.process_time,
            )
            game_no += 1
            result.games += 1
            _tally(result, g, scored, side_entrant, bids)
            entrant_of_seat = [side_entrant[rs.side_of(s)] for s in range(rs.num_seats)]
            for s, ts in enumerate(timings):
                result.sides[entrant_of_seat[s]].decision_s.extend(ts)
                searched = result.sides[entrant_of_seat[s]].search
                for key, n in getattr(bots[s], "stats", {}).items():
                    searched[key] = searched.get(key, 0) + n
                counts = result.sides[entrant_of_seat[s]].faults
                for key, n in seat_faults[s].items():
                    counts[key] = counts.get(key, 0) + n
            pts = []
            for ev in scored:
                row = [0] * entrants
                for ss in ev.breakdown:
                    row[side_entrant[ss.side]] += ss.total
                pts.append(row)
            per_rotation.append(pts)
            if progress is not None:
                done = {"hands": result.hands, "deals": result.deals}.get(progress.unit, game_no)
                progress.update(done)
        if duplicate and len(per_rotation) == len(rotations):
            paired = min(len(p) for p in per_rotation)
            for h in range(paired):
                for e in range(entrants):
                    d = 0.0
                    for p in per_rotation:
                        row = p[h]
                        others = [row[o] for o in range(entrants) if o != e]
                        d += row[e] - sum(others) / len(others)
                    result.sides[e].diffs.append(d / len(per_rotation))
            result.deals += paired
            if progress is not None and progress.unit == "deals":
                progress.update(result.deals)
        if hands is not None and result.hands >= hands:
            break
        if deals is not None and duplicate and result.deals >= deals:
            break
    result.seconds = time.perf_counter() - start
    if progress is not None:
        progress.close()
    return result


def _tally(
    result: ArenaResult,
    g: Game,
    scored: list[HandScored],
    side_entrant: list[int],
    hand_bids: dict[int, tuple[Bid | None, ...]] | None = None,
) -> None:
    result.hands += len(scored)
    if g.winner is not None:
        result.finished += 1
        result.sides[side_entrant[g.winner]].wins += 1
    else:
        result.unfinished += 1
    for side, score in enumerate(g.scores):
        st = result.sides[side_entrant[side]]
        st.games += 1
        st.final_scores.append(score)
    for ev in scored:
        ev_bids = (hand_bids or {}).get(ev.hand_no) or (None,) * g.num_seats
        for ss in ev.breakdown:
            st = result.sides[side_entrant[ss.side]]
            st.hands += 1
            st.points += ss.total
            st.bags += ss.bags
            st.bag_penalties += ss.bag_penalty < 0
            if ss.made is True:
                st.contracts_made += 1
            elif ss.made is False:
                st.contracts_set += 1
            bidders = [s for s in ss.seats if (b := ev_bids[s]) is not None and not b.is_nil and b.n > 0]
            if bidders:
                bid = sum(b.n for s in bidders if (b := ev_bids[s]) is not None)
                took = sum(ev.tricks[s] for s in bidders)
                st.bid_hands += 1
                st.bid_error += abs(took - bid)
                st.bid_excess += took - bid
            for nil in ss.nils:
                if nil.kind == "blind_nil":
                    st.blind_nils_attempted += 1
                    st.blind_nils_made += nil.made
                else:
                    st.nils_attempted += 1
                    st.nils_made += nil.made


def format_table(result: ArenaResult) -> str:
    """The human report: one header line and one row per side."""
    d = result.to_dict()
    lines = [
        f"{result.ruleset.describe()}",
        f"{result.games} games ({result.finished} finished"
        + (f", {result.unfinished} unfinished" if result.unfinished else "")
        + f"), {result.hands} hands in {result.seconds:.1f}s"
        + (" · duplicate" if result.duplicate else "")
        + f" · seed {result.seed}",
        "",
    ]
    header = [
        "side",
        "bots",
        "wins",
        "win %",
        "95% CI",
        "pts/hand",
        "made/set",
        "nils",
        "blind nils",
        "bags/hand",
    ]
    rows = [header]
    for i, s in enumerate(d["sides"]):
        rate = "-" if s["win_rate"] is None else f"{100 * s['win_rate']:.1f}"
        lo, hi = s["win_ci95"]
        rows.append(
            [
                str(i),
                s["label"],
                str(s["wins"]),
                rate,
                f"{100 * lo:.1f}–{100 * hi:.1f}",
                f"{s['points_per_hand']:+.1f}",
                f"{s['contracts_made']}/{s['contracts_set']}",
                f"{s['nils_made']}/{s['nils_attempted']}",
                f"{s['blind_nils_made']}/{s['blind_nils_attempted']}",
                f"{s['bags_per_hand']:.2f}",
            ]
        )
    _rows_to_lines(rows, lines)
    lines.append("")
    header2 = [
        "side",
        "dup diff/hand (95% CI)",
        "set %",
        "nil % (made %)",
        "blind nil % (made %)",
        "bid err",
        "bid +/-",
        "decision ms med/p99/max",
    ]
    rows2 = [header2]

    def pct(x: float | None) -> str:
        return "-" if x is None else f"{100 * x:.1f}"

    for i, s in enumerate(d["sides"]):
        dup = s["duplicate"]
        dup_txt = (
            "-"
            if dup is None
            else (
                f"{dup['diff_per_hand']:+.1f} ({dup['ci95'][0]:+.1f}.."
                f"{dup['ci95'][1]:+.1f}), {dup['deals']} deals"
            )
        )
        ms = s["decision_ms"]
        ms_txt = "-" if ms is None else f"{ms['median']:.2f}/{ms['p99']:.1f}/{ms['max']:.1f}"
        rows2.append(
            [
                str(i),
                dup_txt,
                pct(s["set_rate"]),
                f"{pct(s['nil_rate'])} ({pct(s['nil_success'])})",
                f"{pct(s['blind_nil_rate'])} ({pct(s['blind_nil_success'])})",
                "-" if s["bid_error"] is None else f"{s['bid_error']:.2f}",
                "-" if s["bid_excess"] is None else f"{s['bid_excess']:+.2f}",
                ms_txt,
            ]
        )
    _rows_to_lines(rows2, lines)
    lines.append("")
    header3 = [
        "side",
        "opp nil rescued/chances",
        "spade leads into nil (low)/leads",
        "3rd-seat ruffs/chances",
        "bag-limit wins/chances",
        "bag penalties",
    ]
    rows3 = [header3]
    for i, s in enumerate(d["sides"]):
        f = s["faults"]
        rows3.append(
            [
                str(i),
                f"{f['opp_nil_rescues']}/{f['opp_nil_chances']}",
                f"{f['nil_spade_leads']} ({f['nil_low_spade_leads']})/{f['nil_leads']}",
                f"{f['third_ruffs']}/{f['third_ruff_chances']}",
                f"{f['bag_limit_wins']}/{f['bag_limit_chances']}",
                str(s["bag_penalties"]),
            ]
        )
    _rows_to_lines(rows3, lines)
    return "\n".join(lines)


def _rows_to_lines(rows: list[list[str]], lines: list[str]) -> None:
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    for r in rows:
        lines.append(
            "  ".join(
                cell.ljust(widths[i]) if i < 2 else cell.rjust(widths[i]) for i, cell in enumerate(r)
            ).rstrip()
        )


def _positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be 1 or more, not {value}")
    return value


def _option(text: str) -> tuple[str, Any]:
    key, sep, raw = text.partition("=")
    key = key.strip().replace("-", "_")
    if not sep or not key:
        raise argparse.ArgumentTypeError(f"{text!r} is not key=value (e.g. bag_limit=5)")
    raw = raw.strip()
    low = raw.lower()
    value: Any
    if low in ("true", "yes", "on"):
        value = True
    elif low in ("false", "no", "off"):
        value = False
    elif low in ("null", "none"):
        value = None
    else:
        try:
            value = json.loads(raw)
        except ValueError:
            value = raw
    return key, value


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="python -m engine arena",
        description="Play bots against each other and report wins (95% Wilson interval), points, "
        "contracts, nils and bags per side.",
    )
    p.add_argument(
        "--preset", default="standard", help=f"ruleset preset (default standard; one of {', '.join(PRESETS)})"
    )
    p.add_argument(
        "--ruleset-option",
        action="append",
        default=[],
        type=_option,
        metavar="KEY=VALUE",
        help="override a ruleset option, e.g. bag_limit=5 (repeatable)",
    )
    p.add_argument(
        "--games",
        type=_positive_int,
        default=None,
        help="games to play (deals, with --duplicate); default 100, or unlimited with --hands",
    )
    p.add_argument(
        "--hands",
        type=_positive_int,
        default=None,
        help="stop after this many hands in total (the game in progress counts as unfinished)",
    )
    p.add_argument(
        "--seats",
        default=None,
        help=f"comma-separated bot per seat ({', '.join(BOT_NAMES)}); "
        "default heuristic,random,... alternating",
    )
    p.add_argument("--seed", default="0", help="seed for the deals and the bots (default 0)")
    p.add_argument(
        "--duplicate",
        action="store_true",
        help="replay each deal once per rotation of the seats to cancel out luck",
    )
    p.add_argument(
        "--deals",
        type=_positive_int,
        default=None,
        help="with --duplicate: stop after this many duplicate deals (hands played in "
        "every rotation); the last game is cut short",
    )
    p.add_argument(
        "--worlds",
        type=_positive_int,
        default=None,
        help="search bots (expert, strong) sample exactly this many deals per decision, "
        "with no time cap, so strength does not depend on the machine's load",
    )
    p.add_argument(
        "--cap",
        type=float,
        default=None,
        metavar="SECONDS",
        help="the strong bot as seated in Discord: each decision stops after this many seconds "
        "of CPU time (its default sampled deals otherwise); decisions timed in CPU time",
    )
    p.add_argument(
        "--as-discord",
        action="store_true",
        help=f"--cap {DISCORD_CAP_SECONDS}: the strong bot's cap in Discord at one table",
    )
    p.add_argument(
        "--game-hands",
        type=_positive_int,
        default=None,
        help="stop every game after this many hands (1: each duplicate deal is one hand)",
    )
    p.add_argument(
        "--random-scores",
        action="store_true",
        help="start every game from a seeded random score situation (the same for each "
        "entrant in every rotation)",
    )
    p.add_argument(
        "--progress",
        action="store_true",
        help="show the progress bar on stderr even when it is not a terminal",
    )
    p.add_argument(
        "--max-game-hands",
        type=_positive_int,
        default=DEFAULT_MAX_GAME_HANDS,
        help=f"give up a game after this many hands (default {DEFAULT_MAX_GAME_HANDS})",
    )
    p.add_argument("--json", action="store_true", help="print one JSON object instead of a table")
    return p


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    overrides = dict(args.ruleset_option)
    try:
        rs = Ruleset.preset(args.preset, **overrides)
    except RulesetError as e:
        parser.error(str(e))
    if args.seats is None:
        seats = [("heuristic", "random")[rs.side_of(s) % 2] for s in range(rs.num_seats)]
    else:
        seats = [s.strip().lower() for s in args.seats.split(",")]
        unknown = [s for s in seats if s not in BOT_NAMES]
        if unknown:
            parser.error(f"unknown bot {unknown[0]!r} in --seats; bots are {', '.join(BOT_NAMES)}")
        if len(seats) != rs.num_seats:
            parser.error(f"--seats names {len(seats)} bots but {rs.name} has {rs.num_seats} seats")
    if args.deals is not None and not args.duplicate:
        parser.error("--deals counts duplicate deals: add --duplicate")
    unbounded = args.hands is not None or args.deals is not None
    games = args.games if args.games is not None else (10**9 if unbounded else 100)
    seed: int | str = int(args.seed) if args.seed.lstrip("-").isdigit() else args.seed
    rotations = rs.num_sides if args.duplicate else 1
    if args.deals is not None:
        progress = Progress(args.deals, "deals", force=args.progress)
    elif args.hands is not None:
        progress = Progress(args.hands, "hands", force=args.progress)
    else:
        progress = Progress(games * rotations, "games", force=args.progress)
    result = run_arena(
        rs,
        seats,
        games,
        seed,
        duplicate=args.duplicate,
        hands=args.hands,
        deals=args.deals,
        worlds=args.worlds,
        game_hands=args.game_hands,
        random_scores=args.random_scores,
        max_game_hands=args.max_game_hands,
        progress=progress,
        cap=DISCORD_CAP_SECONDS if args.as_discord and args.cap is None else args.cap,
    )
    if args.json:
        print(json.dumps(result.to_dict()))
    else:
        print(format_table(result))
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
