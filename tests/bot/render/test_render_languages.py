"""Every text in every language: complete (no placeholder left, nothing clipped that English
keeps whole), within Discord's 2,000 characters, and the game's words as each language says them."""

from __future__ import annotations

import pytest

import engine
from bot import render
from bot.i18n import LANGUAGES
from bot.model import Seat, Table
from engine.bots import get_bot
from engine.house_rules import check_rules, parse_house_rules

HOUSE = "bag_limit=5 nil_value=50 blind_nil_value=300 max_hands=10 lose_score=-200 blind_nil_min_deficit=100"


def _table(preset: str, house: str = "") -> Table:
    rs = check_rules(preset, parse_house_rules(house)) if house else engine.Ruleset.preset(preset)
    seats: list[Seat | None] = [Seat(10**17 + i, f"p{i}") for i in range(rs.num_seats)]
    seats[1] = Seat(None, "Bea", bot=True)
    return Table(
        id=12345,
        guild_id=1,
        channel_id=10**18,
        host_id=10**17,
        status="open",
        ruleset=rs,
        preset=preset,
        seats=seats,
        settings={"play_seconds": 600, "bid_seconds": 600},
    )


def _texts(t: Table, lang: str) -> list[str]:
    out = [render.table_message(t, lang), render.rules_text(t, lang), render.score_sheet(t, lang)]
    if t.game is not None and t.status == "playing":
        out += [render.hand_panel_text(t, s, "", lang) for s in range(t.num_seats)]
    return out


def _play(t: Table, actions: int, seed: int = 1) -> None:
    t.status = "playing"
    g = t.game = engine.Game.new(t.ruleset, seed=seed)
    bot = get_bot("heuristic", 1)
    for _ in range(actions):
        if g.phase.name == "GAME_OVER":
            t.status = "finished"
            return
        seat = g.seats_to_act()[0]
        g.apply(bot.act(g.view(seat)))


@pytest.mark.parametrize("preset", list(engine.PRESETS))
def test_every_text_fits_in_every_language(preset: str) -> None:
    for house in ("", HOUSE):
        try:
            t = _table(preset, house)
        except ValueError:
            continue
        english = {i: len(x) for i, x in enumerate(_texts(t, "en"))}
        for lang in LANGUAGES:
            for i, text in enumerate(_texts(t, lang)):
                assert len(text) <= 2000
                assert "%(" not in text, text
                if english[i] < 1900:  # what fits whole in English fits whole in every language
                    assert not text.endswith("…"), (lang, text)
        _play(t, 40 * t.num_seats)
        for lang in LANGUAGES:
            for text in _texts(t, lang):
                assert len(text) <= 2000 and "%(" not in text


def test_a_long_game_in_every_language() -> None:
    t = _table("standard")
    _play(t, 3000, seed=4)
    assert t.game is not None and len(t.game.hand_records) > 5
    for lang in LANGUAGES:
        sheet = render.score_sheet(t, lang)
        assert len(sheet) <= 2000 and sheet.count("\n") >= len(t.game.hand_records)


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        ("pl", ("zero w ciemno", "worki", "atutem", "lewę")),
        ("cs", ("slepý nil", "pytle", "trumfy", "zdvih")),
        ("ru", ("слепой ноль", "мешки", "козыри", "взятку")),
    ],
)
def test_rules_use_each_languages_spades_words(lang: str, words: tuple[str, ...]) -> None:
    text = render.rules_text(_table("standard"), lang).lower()
    for word in words:
        assert word in text, (word, text)


def test_plural_forms_in_the_table_message() -> None:
    t = _table("standard")
    for free, pl, cs, ru in (
        (1, "1 wolne miejsce", "1 volné místo", "1 свободное место"),
        (2, "2 wolne miejsca", "2 volná místa", "2 свободных места"),
        (3, "3 wolne miejsca", "3 volná místa", "3 свободных места"),
    ):
        t.seats = [Seat(10**17, "host")] + [Seat(None, "Bea", bot=True)] * (3 - free) + [None] * free
        assert pl in render.table_message(t, "pl")
        assert cs in render.table_message(t, "cs")
        assert ru in render.table_message(t, "ru")
    t.seats = [Seat(10**17, "host"), None, None, None]
    t2 = _table("six-player")
    t2.seats = [Seat(10**17, "host")] + [None] * 5
    assert "5 wolnych miejsc" in render.table_message(t2, "pl")
    assert "5 volných míst" in render.table_message(t2, "cs")
    assert "5 свободных мест" in render.table_message(t2, "ru")
