"""Winner and winning score first in every result text, whichever side won (docs/COUNTED_GAMES.md)."""

from __future__ import annotations

import dataclasses

import pytest

from bot.i18n import render
from bot.render.history import game_choice, game_line, history_text, score_sheet_text
from bot.render.league import result_line
from bot.storage.history import GamePlayer, GameSummary, HistoryPage


def _game(winner: int, *, counted: bool = True) -> GameSummary:
    names = ["Ray", "Ann", "Max", "Bo"]
    return GameSummary(
        id=9, table_id=3, guild_id=1, channel_id=2, game_no=1, ruleset={"preset": "standard"}, hands=12,
        winner_side=winner, with_bots=not counted, started_at=0, finished_at=1_700_000_000,
        sides=[{"seats": [0, 2], "score": 499, "bags": 4}, {"seats": [1, 3], "score": 517, "bags": 7}],
        players=tuple(GamePlayer(s, s % 2, 100 + s, False, names[s], s % 2 == winner) for s in range(4)),
    )  # fmt: skip


@pytest.mark.parametrize("winner", [0, 1])
def test_the_history_writes_the_winner_and_the_winning_score_first(winner: int) -> None:
    g = _game(winner)
    win, lose = (499, 517) if winner == 0 else (517, 499)
    sheet = render(score_sheet_text(g, []), "en")
    assert f"won {win} – {lose} after 12 hands." in sheet
    line = render(game_line(g), "en")
    assert line.index("🏆") < line.index(str(win)) < line.index(str(lose))
    label, _ = game_choice(g)
    assert f"{win} – {lose}" in label
    result = render(result_line(1, [(100, 102), (101, 103)], [499, 517], winner, True), "en")
    assert result.index("🏆") < result.index(f"**{win}**") < result.index(f"**{lose}**")


def test_a_game_not_counted_is_marked_and_explained_once() -> None:
    counted, bots = _game(1), dataclasses.replace(_game(1, counted=False), id=10)
    text = render(history_text(HistoryPage([counted, bots], 2, 0, 10), "this server"), "en")
    lines = text.splitlines()
    assert "not counted" not in lines[1] and lines[2].endswith("🤖 not counted")
    assert sum("🤖 not counted: bots played" in ln for ln in lines) == 1
