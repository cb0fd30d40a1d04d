"""Pictures benchmark: how long each picture takes to draw and how big its PNG is; prints JSON.

    .venv/bin/python bench/pictures.py            # 30 rounds
    .venv/bin/python bench/pictures.py --rounds 5

Targets (docs in bench/README.md): every picture under 100 KB, a table or chart picture drawn in
well under 100 ms on one core (the bot draws them in an executor, off the event loop), the whole
card-face set (54 emojis, drawn once per application) in a few seconds.
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.pictures import (
    ScoreSeries,
    SeatInfo,
    SideInfo,
    TableScene,
    card_png,
    score_chart_png,
    table_png,
)
from engine.cards import BIG_JOKER, LITTLE_JOKER


def scene(seats: int) -> TableScene:
    sides = 2 if seats in (4,) else seats
    names = ["Alice", "Bob", "Carol", "Dmitri Alexandrovich", "Eve", "Farah"]
    return TableScene(
        "Game over",
        [
            SeatInfo(names[i], i % sides, str(3 + i % 3), 3 + i % 4, is_bot=i == 3, dealer=i == 0)
            for i in range(seats)
        ],
        [SideInfo(f"Side {s + 1}", 512 - 40 * s, s, 63 - 20 * s) for s in range(sides)],
        winner=0,
        subtitle="standard · to 500",
        notes=["Hand 14"],
    )


def series(hands: int) -> ScoreSeries:
    scores = [[70 * h - 5 * (h % 3), 60 * h - 30 * (h % 2)] for h in range(1, hands + 1)]
    return ScoreSeries(
        "Score by hand", ["Alice & Carol", "Bob & Dmitri"], scores, target=500, lose=-200, winner=0
    )


def measure(fn: Callable[[], bytes], rounds: int) -> dict[str, float | int]:
    fn()  # fonts loaded, caches warm
    times, size = [], 0
    for _ in range(rounds):
        t = time.perf_counter()
        size = len(fn())
        times.append((time.perf_counter() - t) * 1000)
    return {"ms_median": round(statistics.median(times), 2), "ms_max": round(max(times), 2), "bytes": size}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=30)
    args = ap.parse_args()
    out: dict[str, object] = {"python": platform.python_version()}
    out["table_4_seats"] = measure(lambda: table_png(scene(4)), args.rounds)
    out["table_6_seats"] = measure(lambda: table_png(scene(6)), args.rounds)
    out["chart_12_hands"] = measure(lambda: score_chart_png(series(12)), args.rounds)
    out["chart_60_hands"] = measure(lambda: score_chart_png(series(60)), args.rounds)
    faces = [*range(52), LITTLE_JOKER, BIG_JOKER]
    t = time.perf_counter()
    sizes = [len(card_png(c)) for c in faces]
    out["card_faces"] = {
        "count": len(faces),
        "ms_total": round((time.perf_counter() - t) * 1000, 1),
        "bytes_max": max(sizes),
        "bytes_total": sum(sizes),
    }
    print(json.dumps(out))


if __name__ == "__main__":
    main()
