"""An empty seat is named in the reader's language ("miejsce 3"), at the table and in records:
the records keep no English words for it."""

from __future__ import annotations

import dataclasses

import engine
from bot.i18n import render
from bot.model import Seat, Table, players
from bot.render.records import seat_names
from bot.storage.history import GamePlayer, GameSummary
from bot.table.play import seat_name


def _table() -> Table:
    rs = engine.Ruleset.preset("standard")
    return Table(
        id=3,
        guild_id=1,
        channel_id=2,
        host_id=10,
        status="open",
        ruleset=rs,
        preset=rs.name,
        seats=[Seat(10, "Ana"), None, Seat(None, "Bea", bot=True), None],
        settings={},
    )


def test_an_empty_seat_is_named_in_the_readers_language() -> None:
    t = _table()
    assert render(t.label(1), "en") == "seat 2"
    assert (render(t.label(3), "pl"), render(t.label(3), "cs"), render(t.label(3), "ru")) == (
        "miejsce 4",
        "místo 4",
        "место 4",
    )
    assert render(seat_name(t, 5), "ru") == "место 6"
    assert render(seat_name(t, 0), "pl") == "<@10>"


def _summary(names: list[str]) -> GameSummary:
    return GameSummary(
        id=1,
        table_id=3,
        guild_id=1,
        channel_id=2,
        game_no=1,
        ruleset="standard",
        hands=1,
        winner_side=0,
        sides=[],
        with_bots=True,
        started_at=0,
        finished_at=1,
        players=tuple(
            GamePlayer(seat=i, side=i % 2, user_id=None, is_bot=True, name=n, won=i % 2 == 0)
            for i, n in enumerate(names)
        ),
    )


def test_a_record_stores_no_words_for_an_empty_seat_and_the_reader_sees_their_own() -> None:
    t = _table()
    stored = players(t, with_side=True)
    assert [p["name"] for p in stored] == ["Ana", "", "Bea", ""]
    game = _summary([str(p["name"]) for p in stored])
    assert [render(n, "pl") for n in seat_names(game)] == ["Ana", "miejsce 2", "Bea", "miejsce 4"]
    # a record written before kept the English words: read the same way
    older = _summary(["Ana", "seat 2", "Bea", "seat 4"])
    assert [render(n, "cs") for n in seat_names(older)] == ["Ana", "místo 2", "Bea", "místo 4"]
    # a player who calls themselves "seat 2" keeps that name
    human = dataclasses.replace(older.players[1], user_id=99, is_bot=False)
    named = dataclasses.replace(older, players=(older.players[0], human, *older.players[2:]))
    assert render(seat_names(named)[1], "pl") == "seat 2"
