"""The expert bot against the heuristic bot it refines, on duplicate deals: prints one JSON object.

    .venv/bin/python bench/strength.py            # the check .ci/run makes: 24 deals, ~15 CPU-seconds
    .venv/bin/python bench/strength.py --deals 8  # fewer deals (a wider standard error)
    .venv/bin/python bench/strength.py --quick    # 2 deals: the suite's smoke test

Each deal is played twice with the sides swapped (``dup:<n>``, one hand, the dealer rotating), so
the cards' luck cancels out; a deal's difference is the expert's points per hand minus the
heuristic's over both seatings. The expert searches a small fixed number of sampled deals with no
time cap, so the result is the same on any machine and under any load.

The verdict: the expert is "not worse" when its mean difference is not below the heuristic by more
than two standard errors of these deals (single deals swing by +-70 points a hand). Measured on the
24 deals: the expert +9.6 (s.e. 6.8); the easy bot -27.4 (s.e. 7.8) and the random bot -212 fail.
Exit status 0 when it holds (or with ``--quick``, which is too small to judge), 1 when it does not.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.arena import play_game
from engine.bots import get_bot
from engine.bots.expert import ExpertBot
from engine.ruleset import Ruleset


def quick_expert(seed: int) -> ExpertBot:
    """A small, fixed search (no time cap in practice): deterministic and machine-independent."""
    return ExpertBot(seed, worlds=6, min_worlds=6, time_limit=10.0)


def deal_differences(deals: int, rival: str = "heuristic", hands_per_deal: int = 1) -> list[float]:
    """Per deal: the expert's points per hand minus ``rival``'s, both seatings."""
    rs = Ruleset.preset("standard")
    diffs = []
    for d in range(deals):
        diff = 0
        for expert_side in (0, 1):
            bots = [
                quick_expert(d * 10 + s) if rs.side_of(s) == expert_side else get_bot(rival, seed=d * 10 + s)
                for s in range(rs.num_seats)
            ]
            g, _ = play_game(rs, bots, seed=f"dup:{d}", dealer=d % 4, hand_budget=hands_per_deal)  # type: ignore[arg-type]
            diff += g.scores[expert_side] - g.scores[1 - expert_side]
        diffs.append(diff / (2 * hands_per_deal))
    return diffs


def report(diffs: list[float], *, judged: bool) -> dict[str, Any]:
    mean = statistics.fmean(diffs)
    se = statistics.stdev(diffs) / math.sqrt(len(diffs)) if len(diffs) > 1 else math.inf
    return {
        "deals": len(diffs),
        "mean_per_hand": round(mean, 3),
        "standard_error": round(se, 3),
        "bound": round(-2 * se, 3),
        "not_worse": mean >= -2 * se,
        "judged": judged,
        "per_deal": diffs,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--deals", type=int, default=24, help="duplicate deals (default 24)")
    parser.add_argument("--rival", default="heuristic", help="the bot the expert plays against")
    parser.add_argument("--quick", action="store_true", help="2 deals, no verdict (the suite's smoke test)")
    args = parser.parse_args(argv)
    if args.deals < 2:
        parser.error("--deals must be at least 2 (a standard error needs two deals)")
    deals = 2 if args.quick else args.deals
    started, cpu = time.perf_counter(), time.process_time()
    out = report(deal_differences(deals, args.rival), judged=not args.quick)
    out |= {
        "rival": args.rival,
        "quick": args.quick,
        "seconds": round(time.perf_counter() - started, 2),
        "cpu_seconds": round(time.process_time() - cpu, 2),
    }
    print(json.dumps(out, indent=2))
    return 0 if out["not_worse"] or args.quick else 1


if __name__ == "__main__":
    raise SystemExit(main())
