"""Replays, score sheets and the history list, from real hand records."""

from __future__ import annotations

import json

import pytest

from bot.pictures import score_chart_png, table_png
from bot.render.history import history_text, score_sheet_text
from bot.render.replay import replay_text
from bot.render.scenes import game_series, hand_scene
from bot.storage.history import GamePlayer, GameSummary, HistoryPage, StoredHand
from engine import Game, hand_str
from engine.fair import short
from engine.record import hand_replay
from tests.engine.helpers import play


def summary(g: Game, game_id: int = 7) -> GameSummary:
    names = ["Alice", "Bob", "Carol", "Dmitri", "Eve", "Farah"]
    return GameSummary(
        id=game_id,
        table_id=3,
        guild_id=1,
        channel_id=2,
        game_no=1,
        ruleset=g.rs.to_dict(),
        hands=len(g.hand_records),
        winner_side=g.winner,
        sides=[{"seats": list(s), "score": g.scores[i], "bags": g.bags[i]} for i, s in enumerate(g.rs.sides)],
        with_bots=False,
        started_at=1_700_000_000,
        finished_at=1_700_003_600,
        players=tuple(
            GamePlayer(s, g.rs.side_of(s), 100 + s, False, names[s], g.rs.side_of(s) == g.winner)
            for s in range(g.n)
        ),
    )


def stored(g: Game) -> list[StoredHand]:
    return [StoredHand(3, 1, r["hand_no"], json.loads(json.dumps(r)), r["result"], 0) for r in g.hand_records]


def test_replay_steps_show_the_deal_each_trick_and_the_reveal() -> None:
    g = play("standard", seed=5, hands=2)
    game = summary(g)
    rec = json.loads(json.dumps(g.hand_records[0]))
    hr = hand_replay(rec)
    names = ["Alice", "Bob", "Carol", "Dmitri"]

    def text(i: int) -> str:
        return replay_text(hr, i, names=names, title=f"game #{game.id}", hands_in_game=game.hands)

    texts = [text(i) for i in range(hr.steps)]
    assert all(len(t) <= 2000 for t in texts)
    first = texts[0]
    for s, name in enumerate(["Alice", "Bob", "Carol", "Dmitri"]):
        assert f"{name}: {hand_str(hr.dealt[s])}" in first
    assert short(rec["fair"]["commitment"]) in first and rec["fair"]["seed"] not in first
    assert "step 1 of 15" in first
    t5 = hr.tricks[4]
    assert "**Trick 5 of 13**" in texts[5] and f"→ **{names[t5.winner]}**" in texts[5]
    last = texts[-1]
    assert "**Scoring**" in last and rec["fair"]["seed"] in last and rec["fair"]["salt"] in last
    assert text(99) == last and text(-3) == first
    assert "game #7 · hand 1 of 2" in first


def test_score_sheet_and_history_fit_a_message() -> None:
    g = play("standard", seed=8, bot="heuristic")
    game = summary(g)
    sheet = score_sheet_text(game, stored(g))
    assert len(sheet) <= 2000 and f"Game #{game.id}" in sheet
    last = g.hand_records[-1]["result"]["scores"]
    assert f"**{last[0]}**" in sheet and f"**{last[1]}**" in sheet
    assert "🏆 Alice & Carol won" in sheet or "🏆 Bob & Dmitri won" in sheet
    # a very long game keeps the latest hands and says which it left out
    long = play("short", seed=9, bot="heuristic")
    many = stored(long) * 30
    text = score_sheet_text(summary(long), many)
    assert len(text) <= 2000 and "not shown" in text
    page = HistoryPage([game, summary(long, 8)], total=12, offset=0, limit=2)
    h = history_text(page, "this channel")
    assert "page 1 of 6" in h and "`#7`" in h and "`#8`" in h and len(h) <= 2000
    assert "No finished games yet." in history_text(HistoryPage([], 0, 0, 10), "this server")


def test_pictures_from_records() -> None:
    g = play("standard", seed=8, bot="heuristic")
    names = ["Alice", "Bob", "Carol", "Dmitri"]
    scene = hand_scene(g.hand_records[-1], names, winner=g.winner)
    assert scene.title == "Game over" and scene.winner == g.winner
    assert [s.tricks for s in scene.seats] == g.hand_records[-1]["result"]["tricks"]
    assert [s.score for s in scene.sides] == g.scores
    assert scene.sides[0].name == "Alice & Carol"
    assert table_png(scene)[:4] == b"\x89PNG"
    series = game_series(g.hand_records, names, winner=g.winner)
    assert series.scores[-1] == g.scores and series.target == g.rs.target_score
    assert score_chart_png(series)[:4] == b"\x89PNG"


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        ("pl", ("**Lewa 5 z 13**", "**Punktacja**", "krok 1 z 15", "Zakończone gry", "strona 1 z 6")),
        ("cs", ("**Zdvih 5 z 13**", "**Bodování**", "krok 1 z 15", "Dohrané hry", "strana 1 z 6")),
        ("ru", ("**Взятка 5 из 13**", "**Подсчёт**", "шаг 1 из 15", "Завершённые игры", "страница 1 из 6")),
    ],
)
def test_history_sheets_and_replays_follow_the_readers_language(lang: str, words: tuple[str, ...]) -> None:
    """The texts are lazy: the answer renders them in the reader's language, and a long score sheet
    still fits once translated."""
    from bot.i18n import render

    g = play("standard", seed=5, hands=2)
    game = summary(g)
    hr = hand_replay(json.loads(json.dumps(g.hand_records[0])))
    names = ["Alice", "Bob", "Carol", "Dmitri"]
    steps = [
        render(replay_text(hr, i, names=names, title="#7", hands_in_game=2), lang) for i in range(hr.steps)
    ]
    long = play("short", seed=9, bot="heuristic")
    sheet = render(score_sheet_text(summary(long), stored(long) * 30), lang)
    page = render(history_text(HistoryPage([game], total=12, offset=0, limit=2), "#spades"), lang)
    text = "\n".join([*steps, sheet, page])
    for word in words:
        assert word in text, word
    assert len(sheet) <= 2000 and all(len(s) <= 2000 for s in steps)
    for english in ("Trick ", "Scoring", "step ", "Finished games", "Dealer", "Bids", "not shown", "won "):
        assert english not in text, english


def test_bids_in_score_sheets_and_replays_are_in_the_readers_language() -> None:
    from bot.i18n import render

    for seed in range(1, 40):
        g = play("standard", seed=seed, bot="heuristic")
        nil = next((r for r in g.hand_records if any(b == "nil" for _s, b in r["bids"])), None)
        if nil is not None:
            break
    assert nil is not None
    hands = [h for h in stored(g) if h.hand_no == nil["hand_no"]]
    sheet = score_sheet_text(summary(g), hands)
    assert "Nil" in render(sheet, "en")
    assert "Zero" in render(sheet, "pl") and "Nil" not in render(sheet, "pl")
    assert "Ноль" in render(sheet, "ru")
    hr = hand_replay(json.loads(json.dumps(nil)))
    deal = replay_text(hr, 0, names=["A", "B", "C", "D"], title="game #7")
    assert "Zero" in render(deal, "pl") and "Nil" in render(deal, "en")
    trick = replay_text(hr, 1, names=["A", "B", "C", "D"], title="game #7")
    assert "/Ноль" in render(trick, "ru")


def test_a_forgotten_players_seat_reads_a_former_player_in_the_readers_language() -> None:
    """`/spades forgetme` leaves a marker in the records; history and score sheets word it for
    their reader, as the confirmation promised ("były gracz", "bývalý hráč", "бывший игрок")."""
    import dataclasses

    from bot.i18n import render
    from bot.storage import FORMER_PLAYER

    g = play("standard", seed=5, hands=2)
    game = summary(g)
    gone = dataclasses.replace(game.players[0], user_id=None, name=FORMER_PLAYER)
    game = dataclasses.replace(game, players=(gone, *game.players[1:]))
    sheet = score_sheet_text(game, stored(g))
    page = history_text(HistoryPage([game], total=1, offset=0, limit=1), "#spades")
    for lang, words in (
        ("en", "a former player"),
        ("pl", "były gracz"),
        ("cs", "bývalý hráč"),
        ("ru", "бывший игрок"),
    ):
        assert words in render(sheet, lang), lang
        assert words in render(page, lang), lang
    assert "a former player" not in render(sheet, "pl") + render(page, "ru")
