"""House rules as typed (issue 8 items 4 and 11): a number out of range and a rule with no name
each get a specific answer, before any table is opened."""

from __future__ import annotations

import pytest

from engine.house_rules import HouseRulesError, check_rules, parse_house_rules
from engine.ruleset import RANGES


def _answer(text: str, preset: str = "standard") -> str:
    with pytest.raises(HouseRulesError) as info:
        check_rules(preset, parse_house_rules(text))
    return str(info.value)


def test_a_value_with_no_rule_name_says_so() -> None:
    assert _answer("=5") == "`=5` names no rule: write the rule's name before `=`, e.g. `bag_limit=5`."
    assert "names no rule" in _answer("bag_limit=5 =off")


def test_a_rule_with_no_value_says_so() -> None:
    assert _answer("bag_limit=") == "`bag_limit=` has no value after `=`: e.g. `bag_limit=5`."


@pytest.mark.parametrize(
    ("text", "answer"),
    [
        (
            "bag_value=9223372036854775808 bag_limit=off",
            "`bag_value=9223372036…` is out of range: the points per bag must be from −100 to 100.",
        ),
        ("nil_value=-100", "`nil_value=-100` is out of range: the points for nil must be from 0 to 1,000."),
        (
            "target_score=99999999999999999999",
            "`target_score=9999999999…` is out of range: the score that wins must be from 50 to 10,000.",
        ),
        (
            "bag_limit=100000",
            "`bag_limit=100000` is out of range: "
            "the bags that cost a penalty must be from 1 to 100 (or `off`).",
        ),
        (
            "lose_score=-20000",
            "`lose_score=-20000` is out of range: the mercy score must be from −10,000 to 10,000 (or `off`).",
        ),
    ],
)
def test_huge_and_negative_numbers_are_refused_with_the_range(text: str, answer: str) -> None:
    assert _answer(text) == answer


def test_every_ranged_option_is_checked_where_it_is_typed() -> None:
    for name, (lo, hi, _) in RANGES.items():
        assert "out of range" in _answer(f"{name}={hi + 1}"), name
        assert "out of range" in _answer(f"{name}={lo - 1}"), name


def test_values_in_range_that_do_not_go_together_are_still_explained() -> None:
    assert _answer("lose_score=600") == (
        "Those rules don't go together: lose_score (the mercy score, 600) must be below the target (500)."
    )
