"""Duplicate rounds (engine.duplicate): the same deals at every table of a round, and matchpoints
checked against a calculation written here from the rule's words."""

from __future__ import annotations

import random
from itertools import product

from engine import duplicate
from engine.verify import verify

NIGHT = "5e" * 32


def by_the_rule(tables: dict[str, list[list[int]]]) -> dict[tuple[str, int], float]:
    """Independent: for every pair of distinct tables, every hand both played and every direction,
    the higher score takes 1 and the lower 0; a tie gives each 0.5."""
    names = sorted(tables)
    mp = {(t, s): 0.0 for t in names for s in range(len(tables[t][0]))}
    for a, b in product(names, names):
        if a == b:
            continue
        for hand_a, hand_b in zip(tables[a], tables[b], strict=False):
            for direction, (x, y) in enumerate(zip(hand_a, hand_b, strict=True)):
                mp[(a, direction)] += 1.0 if x > y else 0.5 if x == y else 0.0
    return mp


def test_matchpoints_of_a_worked_example() -> None:
    # three tables, two hands; points by side (seats 0+2, seats 1+3)
    tables = {
        "A": [[50, 62], [-100, 81]],
        "B": [[50, 40], [70, 81]],
        "C": [[-60, 90], [70, 33]],
    }
    mp = duplicate.matchpoints(tables)
    # hand 1, side 0: A 50 ties B 50 (0.5), beats C (1); hand 2: A -100 loses to both (0)
    assert mp[("A", 0)] == 1.5
    # side 1: hand 1 A 62 beats B 40 (1), loses to C 90; hand 2 A 81 ties B (0.5), beats C (1)
    assert mp[("A", 1)] == 2.5
    assert mp[("C", 0)] == 0 + 1.5  # hand 1 last; hand 2: beats A, ties B
    # each direction's matchpoints in a hand sum to the pairs compared: 3 tables -> 3 pairs
    for side in (0, 1):
        assert sum(mp[(t, side)] for t in tables) == 3 * 2
    assert duplicate.top(3, 2) == 4.0


def test_matchpoints_match_an_independent_calculation() -> None:
    rng = random.Random(7)
    for _ in range(200):
        n_tables = rng.randint(1, 5)
        n_hands = rng.randint(1, 6)
        tables = {
            f"t{i}": [[rng.choice([-100, 0, 40, 50, 61, 62]) for _ in range(2)] for _ in range(n_hands)]
            for i in range(n_tables)
        }
        assert duplicate.matchpoints(tables) == by_the_rule(tables)


def test_a_table_that_stopped_early_is_compared_on_the_hands_it_played() -> None:
    tables = {"A": [[10, 0], [10, 0]], "B": [[0, 10]]}
    mp = duplicate.matchpoints(tables)
    assert mp == {("A", 0): 1.0, ("A", 1): 0.0, ("B", 0): 0.0, ("B", 1): 1.0}
    assert mp == by_the_rule(tables)


def test_every_table_of_a_round_gets_the_same_deals() -> None:
    a = duplicate.new_game("standard", NIGHT, 2)
    b = duplicate.new_game("standard", NIGHT, 2)
    assert a.commitment == b.commitment  # the same committed key, shown at both tables
    a.playout(random.Random(1))
    b.playout(random.Random(2))  # different play
    a.playout(random.Random(3))
    b.playout(random.Random(4))
    deals_a = [(r["hand_no"], r["dealer"], r["deal"]) for r in a.hand_records]
    deals_b = [(r["hand_no"], r["dealer"], r["deal"]) for r in b.hand_records]
    assert deals_a == deals_b and len(deals_a) == 2
    # each hand verifies as a fair deal
    assert all(verify(r) for r in a.hand_records + b.hand_records)
    # another round, or another night, deals other cards
    assert duplicate.new_game("standard", NIGHT, 3).hands != duplicate.new_game("standard", NIGHT, 2).hands
    assert (
        duplicate.new_game("standard", "00" * 32, 2).hands != duplicate.new_game("standard", NIGHT, 2).hands
    )


def test_hand_scores_from_records() -> None:
    g = duplicate.new_game("standard", NIGHT, 1)
    g.playout(random.Random(1))
    g.playout(random.Random(2))
    scores = duplicate.hand_scores(g.hand_records)
    assert len(scores) == 2
    assert [sum(col) for col in zip(*scores, strict=True)] == g.scores
