"""bot/views/history.py and leaderboard.py: the components under the history, a replay and the
leaderboard, drawn for the page or step shown (their clicks are answered by the cogs)."""

from __future__ import annotations

import json
from typing import Any

import discord
import pytest

from bot.storage import HistoryPage
from bot.views.history import ForgetButton, HistorySelect, forget_view, hand_picker, history_view, replay_view
from bot.views.leaderboard import LeaderboardPage, LeaderboardSort, leaderboard_view
from engine.record import hand_replay
from tests.bot.render.test_replay import play, stored, summary


def _drawn(item: Any) -> Any:
    """The button or select a persistent component draws."""
    return item.item if isinstance(item, discord.ui.DynamicItem) else item


def _ids(view: discord.ui.View) -> list[str]:
    return [str(_drawn(i).custom_id) for i in view.children]


def _disabled(view: discord.ui.View) -> list[bool]:
    return [bool(_drawn(i).disabled) for i in view.children]


def _by_tag(view: discord.ui.View) -> dict[str, Any]:
    return {str(_drawn(i).custom_id).split(":")[-1]: _drawn(i) for i in view.children}


@pytest.fixture(scope="module")
def game() -> Any:
    return play("standard", seed=5, hands=3)


def test_a_replay_at_its_deal_cannot_go_back_and_at_its_scoring_cannot_go_on(game: Any) -> None:
    hr = hand_replay(json.loads(json.dumps(game.hand_records[1])))
    first = _by_tag(replay_view(3, 1, hr, hands_in_game=3, step=0))
    assert first["f"].disabled and first["p"].disabled
    assert not first["n"].disabled and not first["l"].disabled
    last = _by_tag(replay_view(3, 1, hr, hands_in_game=3, step=hr.steps + 5))  # past the end: the scoring
    assert last["n"].disabled and last["l"].disabled and not last["p"].disabled
    assert last["p"].custom_id == f"rp:3:1:2:{hr.steps - 2}:p"
    # hand 2 of 3: both neighbours, by number
    assert first["hp"].custom_id == "rp:3:1:1:0:hp" and not first["hp"].disabled
    assert first["hn"].custom_id == "rp:3:1:3:0:hn" and not first["hn"].disabled
    assert first["hp"].label == "Hand 1" and first["hn"].label == "Hand 3"


def test_a_replay_of_the_last_hand_offers_no_next_hand_and_a_fair_deal_its_check(game: Any) -> None:
    record = json.loads(json.dumps(game.hand_records[2]))
    view = _by_tag(replay_view(3, 1, hand_replay(record), hands_in_game=3, step=1))
    assert view["hn"].disabled and view["hn"].label == "Next hand"
    assert ("rpv:3:1:3" in _ids(replay_view(3, 1, hand_replay(record), 3, 1))) == bool(record.get("fair"))
    del record["fair"]
    assert not any(i.startswith("rpv:") for i in _ids(replay_view(3, 1, hand_replay(record), 3, 1)))


def test_the_history_pages_only_when_there_is_more_than_one(game: Any) -> None:
    games = [summary(game, game_id=n) for n in (41, 42)]
    one = history_view(HistoryPage(games, total=2, offset=0, limit=8), 1, "c", 2)
    assert len(one.children) == 1 and isinstance(one.children[0], HistorySelect)
    options = one.children[0].item.options
    assert [o.value for o in options] == ["41", "42"]
    middle = history_view(HistoryPage(games, total=20, offset=8, limit=8), 1, "s", 0)
    assert _ids(middle)[:3] == ["hi:1:s:0:0:p", "hipos:1:s:0:1", "hi:1:s:0:2:n"]
    assert _disabled(middle)[:3] == [False, True, False]
    last = history_view(HistoryPage(games, total=18, offset=16, limit=8), 1, "s", 0)
    assert _disabled(last)[:3] == [False, True, True]


def test_a_score_sheet_offers_its_last_25_hands_and_none_without_hands(game: Any) -> None:
    hands = stored(game) * 10  # 30 hands (numbers repeat: only the count matters here)
    view = hand_picker(7, hands)
    assert view is not None and _ids(view) == ["hig:7"]
    assert len(view.children[0].item.options) == 25
    assert hand_picker(7, []) is None


def test_forget_me_asks_yes_or_cancel_for_that_player_only() -> None:
    view = forget_view(12)
    assert _ids(view) == ["fg:12:y", "fg:12:n"]
    assert all(isinstance(i, ForgetButton) and i.user_id == 12 for i in view.children)


def test_the_leaderboard_pages_and_keeps_its_sort() -> None:
    single = leaderboard_view(1, "bags__all", 0, total=5)
    assert len(single.children) == 1 and isinstance(single.children[0], LeaderboardSort)
    chosen = [o for o in single.children[0].item.options if o.default]
    assert [o.value for o in chosen] == ["bags__all"]
    paged = leaderboard_view(1, "wins", 0, total=25)
    assert _ids(paged)[:3] == ["lb:1:wins:0:p", "lbpos:1:wins:0", "lb:1:wins:1:n"]
    assert isinstance(paged.children[0], LeaderboardPage)
    assert _disabled(paged)[:3] == [True, True, False]
