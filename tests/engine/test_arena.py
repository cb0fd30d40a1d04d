"""Arena: statistics, duplicate deals, hand caps, and the command line in a subprocess."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from engine import Ruleset
from engine.arena import Progress, _rotation_map, main, play_game, run_arena, wilson
from engine.bots import get_bot

ROOT = Path(__file__).resolve().parents[2]


def cli(*args: str, module: str = "engine.arena") -> subprocess.CompletedProcess[str]:
    cmd = [sys.executable, "-m", *module.split(), *args]
    return subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=120)


def test_wilson_interval_matches_known_values() -> None:
    lo, hi = wilson(0, 10)
    assert lo == 0.0 and hi == pytest.approx(0.2775, abs=1e-4)
    lo, hi = wilson(5, 10)
    assert lo == pytest.approx(0.2366, abs=1e-4) and hi == pytest.approx(0.7634, abs=1e-4)
    lo, hi = wilson(40, 40)
    assert lo == pytest.approx(0.9124, abs=1e-4) and hi == 1.0
    assert wilson(0, 0) == (0.0, 1.0)


def test_rotation_map_moves_each_side_to_the_other_positions() -> None:
    rs = Ruleset.preset("standard")
    seat_at, side_entrant = _rotation_map(rs, 1)
    assert seat_at == [1, 2, 3, 0]
    assert side_entrant == [1, 0]  # table side 0 (seats 0+2) is now played by entrant 1
    rs3 = Ruleset.preset("cutthroat")
    for r in range(3):
        _, entrants = _rotation_map(rs3, r)
        assert sorted(entrants) == [0, 1, 2]
        assert entrants[r] == 0


def test_stats_add_up() -> None:
    rs = Ruleset.preset("standard")
    res = run_arena(rs, ["heuristic", "random", "heuristic", "random"], games=4, seed=5)
    assert res.games == 4 and res.finished + res.unfinished == 4
    assert sum(s.wins for s in res.sides) == res.finished
    for s in res.sides:
        assert s.hands == res.hands  # every side is scored on every hand
        assert s.contracts_made + s.contracts_set <= s.hands
        assert s.nils_made <= s.nils_attempted
        assert s.games == 4
    # Final scores are the sums of the hands' points (a game starts at 0).
    assert sum(res.sides[0].final_scores) == res.sides[0].points


def test_duplicate_with_identical_bots_is_perfectly_even() -> None:
    """The heuristic is deterministic, so with the same bot on both sides each rotated game is the
    mirror of the other: both entrants end with identical wins and points."""
    rs = Ruleset.preset("standard")
    res = run_arena(rs, ["heuristic"] * 4, games=3, seed=9, duplicate=True)
    assert res.games == 6
    a, b = res.sides
    assert a.wins == b.wins and a.points == b.points and a.contracts_made == b.contracts_made
    # Without rotation the same deals are not balanced in general.
    plain = run_arena(rs, ["heuristic"] * 4, games=6, seed=9)
    assert plain.games == 6


def test_same_seed_same_deals_whoever_sits_where() -> None:
    rs = Ruleset.preset("standard")
    g1, _ = play_game(rs, [get_bot("random", seed=s) for s in range(4)], "deal", dealer=0, hand_budget=1)
    g2, _ = play_game(rs, [get_bot("heuristic") for _ in range(4)], "deal", dealer=0, hand_budget=1)
    assert g1.hand_records[0]["deal"] == g2.hand_records[0]["deal"]


def test_hands_cap_stops_the_run() -> None:
    rs = Ruleset.preset("standard")
    res = run_arena(rs, ["heuristic", "random", "heuristic", "random"], games=10**6, seed=1, hands=7)
    assert res.hands == 7
    assert res.unfinished >= 1


def test_progress_bar_only_on_a_terminal() -> None:
    class Tty(io.StringIO):
        def isatty(self) -> bool:
            return True

    tty, pipe = Tty(), io.StringIO()
    for stream in (tty, pipe):
        p = Progress(10, "games", stream=stream)
        p.update(1)  # within the first second: nothing yet
        p.start -= 2.0
        p.update(5)
        p.close()
    assert "5/10 games" in tty.getvalue() and "[" in tty.getvalue()
    assert pipe.getvalue() == ""


def test_main_prints_a_table(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--games", "2", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert "heuristic+heuristic" in out and "random+random" in out and "95% CI" in out
    assert out.splitlines()[0].startswith("standard: to 500")


# -- the command line in a subprocess ------------------------------------------------------------


def test_cli_json_keys() -> None:
    proc = cli(
        "--preset",
        "standard",
        "--games",
        "3",
        "--seats",
        "heuristic,random,heuristic,random",
        "--seed",
        "4",
        "--json",
    )
    assert proc.returncode == 0, proc.stderr
    d = json.loads(proc.stdout)
    for key in ("games", "hands", "seconds", "wins", "sides", "finished"):
        assert key in d
    assert d["games"] == 3 and len(d["wins"]) == 2 and sum(d["wins"]) == d["finished"]
    assert d["sides"][0]["label"] == "heuristic+heuristic"
    assert d["hands"] > 0 and d["seconds"] > 0
    assert proc.stderr == ""  # no progress bar on a pipe


def test_cli_duplicate_and_hands() -> None:
    proc = cli("--games", "2", "--duplicate", "--json", "--seed", "1")
    assert proc.returncode == 0, proc.stderr
    d = json.loads(proc.stdout)
    assert d["games"] == 4 and d["duplicate"] is True
    proc = cli("--hands", "5", "--json", "--preset", "cutthroat", "--seats", "heuristic,random,random")
    assert proc.returncode == 0, proc.stderr
    d = json.loads(proc.stdout)
    assert d["hands"] == 5 and len(d["wins"]) == 3


def test_cli_ruleset_option() -> None:
    proc = cli(
        "--games", "1", "--json", "--ruleset-option", "target_score=150", "--ruleset-option", "bag_limit=5"
    )
    assert proc.returncode == 0, proc.stderr
    d = json.loads(proc.stdout)
    assert d["ruleset"] == {"preset": "standard", "target_score": 150, "bag_limit": 5}


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--games", "0"], "must be 1 or more"),
        (["--games", "many"], "not a whole number"),
        (["--seats", "heuristic,random"], "names 2 bots but standard has 4 seats"),
        (["--seats", "heuristic,random,deep,random"], "unknown bot 'deep'"),
        (["--preset", "bridge"], '"bridge" is not a ruleset'),
        (["--ruleset-option", "bag_limit"], "is not key=value"),
        (["--ruleset-option", "colour=red"], '"colour" is not a ruleset option'),
        (["--ruleset-option", "target_score=high"], 'Option "target_score" must be a whole number'),
        (["--frobnicate"], "unrecognized arguments"),
    ],
)
def test_cli_bad_arguments_exit_2(args: list[str], message: str) -> None:
    proc = cli(*args)
    assert proc.returncode == 2
    assert message in proc.stderr
    assert proc.stdout == ""


def test_python_dash_m_engine_arena() -> None:
    """``python -m engine arena`` is dispatched by the engine's command line to ``arena.main``."""
    if not (ROOT / "engine" / "__main__.py").exists():
        pytest.skip("engine/__main__.py (the engine's command line) is not there yet")
    proc = cli("arena", "--games", "1", "--json", module="engine")
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["games"] == 1
    assert cli("arena", "--games", "0", module="engine").returncode == 2
