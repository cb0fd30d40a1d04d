"""The engine's docstring examples run as tests: every module of ``engine`` (its bots included) is
searched for ``>>>`` examples and each must print what its docstring says.

The examples are the public API's documentation (in the style of python-chess): short, seeded
and deterministic, so a change that makes one untrue fails here."""

from __future__ import annotations

import doctest
import importlib
import pkgutil
from types import ModuleType

import pytest

import engine

SUBMODULES = sorted(pkgutil.walk_packages(engine.__path__, "engine."), key=lambda m: m.name)
MODULES = ["engine", *(m.name for m in SUBMODULES if not m.name.endswith("__main__"))]

# The public names whose docstrings must show an example, so the documentation cannot vanish
# unnoticed: a module docstring's tour counts for its module.
DOCUMENTED = [
    "engine",
    "engine.cards",
    "engine.cards.parse_card",
    "engine.bids.Bid",
    "engine.ruleset.Ruleset",
    "engine.ruleset.Ruleset.preset",
    "engine.game.Game",
    "engine.game.Game.new",
    "engine.game.Game.playout",
    "engine.game.Game.to_dict",
    "engine.view.View",
    "engine.scoring.score_hand",
    "engine.scoring.game_winner",
    "engine.record.replay",
    "engine.review",
    "engine.rules_text.explain",
    "engine.house_rules.parse_house_rules",
    "engine.bots.get_bot",
    "engine.verify.verify",
]

FLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE


def _examples(module: ModuleType) -> list[doctest.DocTest]:
    finder = doctest.DocTestFinder(exclude_empty=True)
    return [t for t in finder.find(module, module.__name__) if t.examples]


@pytest.mark.parametrize("name", MODULES)
def test_every_example_in_the_module_holds(name: str) -> None:
    module = importlib.import_module(name)
    runner = doctest.DocTestRunner(optionflags=FLAGS)
    report: list[str] = []
    for test in _examples(module):
        runner.run(test, out=report.append)
    result = runner.summarize(verbose=False)
    assert result.failed == 0, "".join(report)


def test_the_examples_exist_where_the_api_is_documented() -> None:
    named = {t.name for name in MODULES for t in _examples(importlib.import_module(name))}
    assert [n for n in DOCUMENTED if n not in named] == []


def test_the_runner_fails_an_untrue_example() -> None:
    """The check above could pass by running nothing: an example that lies must fail."""
    untrue = doctest.DocTestParser().get_doctest(
        ">>> from engine import parse_card\n>>> parse_card('AS')\n50\n", {}, "untrue", None, 0
    )
    runner = doctest.DocTestRunner(optionflags=FLAGS)
    runner.run(untrue, out=lambda _: None)
    assert runner.summarize(verbose=False).failed == 1
