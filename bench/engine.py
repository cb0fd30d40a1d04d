"""Engine benchmark: prints one JSON object.

    .venv/bin/python bench/engine.py                # full run (a few seconds)
    BENCH_QUICK=1 .venv/bin/python bench/engine.py  # tiny sizes, for the test suite
    .venv/bin/python bench/engine.py --hands 50 --seconds 0.2

Measures, through the public API only: random full hands per second (standard preset, seeded,
every action chosen uniformly from ``legal_actions`` and applied with ``apply``), the same random
hands through ``Game.playout`` (the fast path for search), microseconds per ``legal_cards`` call in
play positions, the heuristic bot's decision time (median, p99, max) and the expert bot's card
decision time. The same random-hand
rate is measured for OpenSpiel's ``spades`` in the same run (``pip install -e '.[bench]'``), with
the fast loop (``legal_actions`` at chance nodes too) that the ratios compare against; when
open-spiel cannot be imported the JSON says so instead of failing.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.bots import get_bot
from engine.game import Game, Phase
from engine.ruleset import Ruleset

# the clock of the three hand rates: wall-clock, or the process's CPU time with --cpu-time (both
# sides run in this one thread, OpenSpiel's C++ included, so CPU time compares them without the
# noise of other work on a shared machine)
_clock = time.perf_counter


def _hand_rate(
    rs: Ruleset, hands: int, seed: int, min_seconds: float, play_hand: Callable[[Game], int]
) -> dict[str, Any]:
    """Hands per second of ``play_hand`` (plays the current hand of a game to its end, returns
    how many actions it took, 0 when it does not count them), one game after another (each
    finished hand deals the next) until ``hands`` are done and ``min_seconds`` have passed."""
    clock = _clock
    done = 0
    actions = 0
    game_no = 0
    start = clock()
    while done < hands or clock() - start < min_seconds:
        g = Game.new(rs, seed=f"{seed}:{game_no}", dealer=game_no % rs.num_seats)
        game_no += 1
        while g.phase is not Phase.GAME_OVER and (done < hands or clock() - start < min_seconds):
            actions += play_hand(g)
            done += 1
    elapsed = clock() - start
    out: dict[str, Any] = {
        "hands": done,
        "seconds": round(elapsed, 4),
        "hands_per_second": round(done / elapsed, 1),
    }
    if actions:
        out["actions_per_second"] = round(actions / elapsed, 1)
    return out


def random_hands(rs: Ruleset, hands: int, seed: int, min_seconds: float) -> dict[str, Any]:
    """Play random hands through the public API; returns hands/s and actions/s."""
    rng = random.Random(seed)

    def one_hand(g: Game) -> int:
        actions = 0
        hand_no = g.hand_no
        while g.hand_no == hand_no and g.phase is not Phase.GAME_OVER:
            seat = g.seats_to_act()[0]
            legal = g.legal_actions(seat)
            g.apply(legal[rng.randrange(len(legal))])
            actions += 1
        return actions

    return _hand_rate(rs, hands, seed, min_seconds, one_hand)


def playout_hands(rs: Ruleset, hands: int, seed: int, min_seconds: float) -> dict[str, Any]:
    """The same random hands through ``Game.playout`` (the Monte-Carlo bots' fast path: random
    bids through ``legal_actions``/``apply``, then the cards in a tight loop without events);
    the deal, scoring, hand record and next deal are the normal ones."""
    rng = random.Random(seed)

    def one_hand(g: Game) -> int:
        g.playout(rng)
        return 0

    return _hand_rate(rs, hands, seed, min_seconds, one_hand)


def play_positions(rs: Ruleset, count: int, seed: int) -> list[tuple[Game, int]]:
    """(game, seat to act) snapshots in the play phase of random hands."""
    rng = random.Random(seed)
    out: list[tuple[Game, int]] = []
    game_no = 0
    while len(out) < count:
        g = Game.new(rs, seed=f"pos:{seed}:{game_no}", dealer=game_no % rs.num_seats)
        game_no += 1
        hand_no = g.hand_no
        while g.hand_no == hand_no and g.phase is not Phase.GAME_OVER:
            seat = g.seats_to_act()[0]
            if g.phase is Phase.PLAY and rng.random() < 0.2:
                out.append((g.clone(), seat))
            legal = g.legal_actions(seat)
            g.apply(legal[rng.randrange(len(legal))])
    return out[:count]


def legal_cards_time(positions: list[tuple[Game, int]], repeat: int) -> dict[str, Any]:
    calls = 0
    start = time.perf_counter()
    for _ in range(repeat):
        for g, seat in positions:
            g.legal_cards(seat)
            calls += 1
    elapsed = time.perf_counter() - start
    return {"calls": calls, "us_per_call": round(1e6 * elapsed / calls, 3)}


def heuristic_time(rs: Ruleset, games: int, seed: int) -> dict[str, Any]:
    """Time every heuristic decision of whole hands (view building timed separately)."""
    bots = [get_bot("heuristic", seed=s) for s in range(rs.num_seats)]
    # The first decision for a ruleset builds cached tables (card ranks, bid calibration).
    warm = Game.new(rs, seed=f"heur:{seed}:warm")
    seat = warm.seats_to_act()[0]
    t0 = time.perf_counter()
    bots[seat].act(warm.view(seat))
    cold_us = 1e6 * (time.perf_counter() - t0)
    act_us: list[float] = []
    view_us: list[float] = []
    for game_no in range(games):
        g = Game.new(rs, seed=f"heur:{seed}:{game_no}")
        for _ in range(3):  # three hands per game
            hand_no = g.hand_no
            while g.hand_no == hand_no and g.phase is not Phase.GAME_OVER:
                seat = g.seats_to_act()[0]
                t0 = time.perf_counter()
                view = g.view(seat)
                t1 = time.perf_counter()
                action = bots[seat].act(view)
                t2 = time.perf_counter()
                g.apply(action)
                view_us.append(1e6 * (t1 - t0))
                act_us.append(1e6 * (t2 - t1))
            if g.phase is Phase.GAME_OVER:
                break
    act_us.sort()
    return {
        "decisions": len(act_us),
        "median_us": round(statistics.median(act_us), 1),
        "p99_us": round(act_us[int(0.99 * (len(act_us) - 1))], 1),
        "max_us": round(act_us[-1], 1),
        "view_median_us": round(statistics.median(view_us), 1),
        "first_decision_us": round(cold_us, 1),
    }


def expert_time(rs: Ruleset, hands: int, seed: int, name: str = "expert") -> dict[str, Any]:
    """Time a search bot's decisions (capped at its ``time_limit``) over whole hands with four
    such seats: the card decisions, and (``all_``) every decision, bids included."""
    bots = [get_bot(name, seed=s) for s in range(rs.num_seats)]
    play_us: list[float] = []
    all_us: list[float] = []
    for hand in range(hands):
        g = Game.new(rs, seed=f"expert:{seed}:{hand}")
        hand_no = g.hand_no
        while g.hand_no == hand_no and g.phase is not Phase.GAME_OVER:
            seat = g.seats_to_act()[0]
            view = g.view(seat)
            t0 = time.perf_counter()
            action = bots[seat].act(view)
            us = 1e6 * (time.perf_counter() - t0)
            all_us.append(us)
            if g.phase is Phase.PLAY:
                play_us.append(us)
            g.apply(action)
    play_us.sort()
    all_us.sort()
    return {
        "all_decisions": len(all_us),
        "all_median_ms": round(statistics.median(all_us) / 1000, 2),
        "all_p99_ms": round(all_us[int(0.99 * (len(all_us) - 1))] / 1000, 2),
        "all_max_ms": round(all_us[-1] / 1000, 2),
        "card_decisions": len(play_us),
        "median_ms": round(statistics.median(play_us) / 1000, 2),
        "p99_ms": round(play_us[int(0.99 * (len(play_us) - 1))] / 1000, 2),
        "max_ms": round(play_us[-1] / 1000, 2),
        "time_limit_ms": round(1000 * bots[0].time_limit, 1),  # type: ignore[attr-defined]  # an ExpertBot
    }


def openspiel_hands(
    hands: int, seed: int, min_seconds: float, chance_outcomes: bool = False
) -> dict[str, Any]:
    """The same random-hand loop on OpenSpiel's ``spades`` (one deal to the end of 13 tricks).

    The fast loop (the comparison) picks every action, chance nodes (the deal) included, from
    ``legal_actions()``: the deal is uniform either way. ``chance_outcomes=True`` is the slower
    loop that reads ``chance_outcomes()`` (a list of (action, probability) pairs) at chance nodes."""
    import pyspiel  # type: ignore[import-not-found]  # optional (.[bench]), no type stubs

    game = pyspiel.load_game("spades")
    rng = random.Random(seed)
    randrange = rng.randrange
    clock = _clock
    done = 0
    actions = 0
    start = clock()
    while done < hands or clock() - start < min_seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            if chance_outcomes and state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[randrange(len(outcomes))][0])
            else:
                legal = state.legal_actions()
                state.apply_action(legal[randrange(len(legal))])
                actions += 1
        done += 1
    elapsed = clock() - start
    return {
        "hands": done,
        "seconds": round(elapsed, 4),
        "hands_per_second": round(done / elapsed, 1),
        "actions_per_second": round(actions / elapsed, 1),
        "version": getattr(pyspiel, "__version__", None),
    }


def main(argv: list[str] | None = None) -> int:
    quick = os.environ.get("BENCH_QUICK", "") not in ("", "0")
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--hands", type=int, default=20 if quick else 2000, help="random hands (minimum)")
    p.add_argument(
        "--seconds", type=float, default=0.0 if quick else 2.0, help="minimum seconds per rate measurement"
    )
    p.add_argument("--positions", type=int, default=20 if quick else 500)
    p.add_argument("--heuristic-games", type=int, default=1 if quick else 20)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--no-openspiel", action="store_true", help="skip the OpenSpiel comparison")
    p.add_argument(
        "--cpu-time",
        action="store_true",
        help="measure the three hand rates in this process's CPU time, not wall-clock "
        "(steadier when other work shares the machine)",
    )
    p.add_argument(
        "--rounds",
        type=int,
        default=1 if quick else 3,
        help="the three hand rates are measured in this many interleaved rounds (each "
        "--hands, --seconds/rounds); each reports its best round",
    )
    args = p.parse_args(argv)
    if min(args.hands, args.positions, args.heuristic_games, args.rounds) < 1 or args.seconds < 0:
        p.error("sizes must be 1 or more and --seconds 0 or more")

    global _clock
    _clock = time.process_time if args.cpu_time else time.perf_counter
    rs = Ruleset.preset("standard")
    out: dict[str, Any] = {
        "python": platform.python_version(),
        "machine": platform.machine(),
        "quick": quick,
        "preset": rs.name,
        "seed": args.seed,
        "clock": "cpu" if args.cpu_time else "wall",
    }
    # The rates are measured in interleaved rounds and each keeps its best round, so that a
    # burst of load on a shared machine does not favour one side of the comparison.
    per_round = args.seconds / args.rounds
    step_runs: list[dict[str, Any]] = []
    playout_runs: list[dict[str, Any]] = []
    os_runs: list[dict[str, Any]] = []
    os_slow_runs: list[dict[str, Any]] = []
    os_error = "skipped (--no-openspiel)" if args.no_openspiel else None
    for _ in range(args.rounds):
        step_runs.append(random_hands(rs, args.hands, args.seed, per_round))
        playout_runs.append(playout_hands(rs, args.hands, args.seed, per_round))
        if os_error is None:
            try:
                os_runs.append(openspiel_hands(args.hands, args.seed, per_round))
                os_slow_runs.append(openspiel_hands(args.hands, args.seed, per_round, chance_outcomes=True))
            except Exception as e:  # ImportError, or a pyspiel build without spades
                os_error = f"{type(e).__name__}: {e}"

    def best(runs: list[dict[str, Any]]) -> dict[str, Any]:
        return dict(max(runs, key=lambda r: r["hands_per_second"]), rounds=len(runs))

    ours = out["random_hands"] = best(step_runs)
    fast = out["playout_hands"] = best(playout_runs)
    positions = play_positions(rs, args.positions, args.seed)
    out["legal_cards"] = legal_cards_time(positions, repeat=5 if quick else 200)
    out["heuristic"] = heuristic_time(rs, args.heuristic_games, args.seed)
    out["expert"] = expert_time(rs, 1 if quick else 3, args.seed)
    # the strong level with its default cap (0.25 s a decision); the bot caps it further by the
    # bot's pause (bench/bot.py)
    out["strong"] = expert_time(rs, 1, args.seed, "strong") if not quick else None
    out["openspiel"] = None
    if os_error is not None:
        out["openspiel_error"] = os_error
    else:
        out["openspiel"] = best(os_runs)
        out["openspiel_chance_outcomes"] = best(os_slow_runs)
    if out["openspiel"]:
        # (a) the step-by-step loop, the like-for-like comparison with OpenSpiel's loop
        ratio = ours["hands_per_second"] / out["openspiel"]["hands_per_second"]
        out["ratio_vs_openspiel"] = round(ratio, 3)
        out["target_ratio"] = 2.0
        out["meets_target"] = ratio >= 2.0
        # (b) the playout fast path (no per-move action objects or events)
        pratio = fast["hands_per_second"] / out["openspiel"]["hands_per_second"]
        out["playout_ratio_vs_openspiel"] = round(pratio, 3)
        out["playout_meets_target"] = pratio >= 2.0
    else:
        out["ratio_vs_openspiel"] = None
        out["playout_ratio_vs_openspiel"] = None
    print(json.dumps(out, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
