"""The words drawn into the hand and game pictures come from the catalogs, in the server's
language, with a font that has every letter (Polish and Czech diacritics, Cyrillic)."""

from __future__ import annotations

from typing import Any

import pytest
from PIL import ImageDraw

import engine
from bot import pictures
from bot.model import Seat, Table
from bot.render import scenes
from bot.table.post_pictures import game_pictures, hand_pictures
from engine.bots import get_bot

# words of each language that the table picture and the score chart must show
EXPECTED: dict[str, dict[str, tuple[str, ...]]] = {
    "en": {
        "hand": ("Score", "Hand ", "bid ", "total · bags · this hand", "(bot)"),
        "game": ("Game over", "after hand", "Score by hand · table 77", "hand"),
    },
    "pl": {
        "hand": ("Wynik", "Rozdanie ", "dekl. ", "suma · worki · to rozdanie"),
        "game": ("Koniec gry", "po rozdaniu", "Wynik po rozdaniach · stół 77", "rozdanie", "Wygrywa: "),
    },
    "cs": {
        "hand": ("Skóre", "Rozdání ", "nab. ", "celkem · pytle · toto rozdání"),
        "game": ("Konec hry", "po rozdání", "Skóre po rozdáních · stůl 77", "rozdání", "Vítěz: "),
    },
    "ru": {
        "hand": ("Счёт", "Раздача ", "заказ ", "всего · мешки · эта раздача", "(бот)"),
        "game": ("Игра окончена", "после раздачи", "Счёт по раздачам · стол 77", "раздача", "Победа: "),
    },
}
ENGLISH_ONLY = ("Score", "bid ", "took ", "total", "Game over", "after hand", " won")


@pytest.fixture
def drawn(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every text the pictures draw (Pillow's ImageDraw.text still draws it)."""
    texts: list[str] = []
    real = ImageDraw.ImageDraw.text

    def text(self: ImageDraw.ImageDraw, xy: Any, txt: Any, *args: Any, **kwargs: Any) -> None:
        texts.append(str(txt))
        real(self, xy, txt, *args, **kwargs)

    monkeypatch.setattr(ImageDraw.ImageDraw, "text", text)
    return texts


def finished_table() -> Table:
    rs = engine.Ruleset.preset("standard")
    names = ["Łucja", "Jiří", "Ольга", "Ann"]
    seats: list[Seat | None] = [Seat(100 + i, name) for i, name in enumerate(names)]
    seats[3] = Seat(None, "Robo", bot=True)
    t = Table(
        id=77,
        guild_id=1,
        channel_id=2,
        host_id=100,
        status="playing",
        ruleset=rs,
        preset="standard",
        seats=seats,
        settings={},
    )
    g = t.game = engine.Game.new(rs, seed=5)
    bot = get_bot("heuristic", 5)
    while not g.over:
        g.apply(bot.act(g.view(g.seats_to_act()[0])))
    t.status = "finished"
    return t


@pytest.mark.parametrize("lang", ["en", "pl", "cs", "ru"])
def test_hand_and_game_pictures_speak_the_servers_language(lang: str, drawn: list[str]) -> None:
    t = finished_table()
    assert t.game is not None
    record = t.game.hand_records[-1]
    files = hand_pictures(t, record)(lang)
    assert [name for name, _ in files] == [f"hand-{record['hand_no']}.png"]
    assert files[0][1][:4] == b"\x89PNG"
    hand_text = "\n".join(drawn)
    for word in EXPECTED[lang]["hand"]:
        assert word in hand_text, (lang, word, drawn)
    assert "Łucja" in hand_text and "Jiří" in hand_text and "Ольга" in hand_text
    drawn.clear()
    game = game_pictures(t)
    assert game is not None
    assert [name for name, _ in game(lang)] == ["game.png", "scores.png"]
    game_text = "\n".join(drawn)
    for word in EXPECTED[lang]["game"]:
        assert word in game_text, (lang, word, drawn)
    if lang != "en":
        for english in ENGLISH_ONLY:
            assert english not in hand_text + game_text, (lang, english)
        # every letter drawn has a glyph in the pictures' fonts (no boxes)
        assert pictures.can_draw(hand_text + game_text)


def test_the_ruleset_line_and_bids_are_translated(drawn: list[str]) -> None:
    t = finished_table()
    assert t.game is not None
    nil_record = next((r for r in t.game.hand_records if any(b == "nil" for _s, b in r["bids"])), None)
    hand_pictures(t, t.game.hand_records[0])("pl")
    assert any(line.startswith("standard: do 500") or "do 500" in line for line in drawn), drawn
    if nil_record is not None:
        drawn.clear()
        hand_pictures(t, nil_record)("pl")
        assert any("Zero" in line for line in drawn), drawn


def test_the_fonts_have_every_letter_of_every_language() -> None:
    assert pictures.can_draw("ąćęłńóśźż ĄĆĘŁŃÓŚŹŻ čďěňřšťůýž ČĎĚŇŘŠŤŮÝŽ")
    assert pictures.can_draw("абвгдеёжзийклмнопрстуфхцчшщъыьэюя ЁЖЩ")
    assert not pictures.can_draw("\U000f0000")  # a code point no font has


def test_without_a_font_for_the_language_the_pictures_fall_back_to_english(
    monkeypatch: pytest.MonkeyPatch, drawn: list[str]
) -> None:
    # a system whose only font is Latin-only: the Russian words would draw as boxes
    monkeypatch.setattr(scenes, "can_draw", lambda text: all(ord(ch) < 0x400 for ch in text))
    assert scenes.picture_language("ru") == "en"
    assert scenes.picture_language("pl") == "pl"
    t = finished_table()
    assert t.game is not None
    hand_pictures(t, t.game.hand_records[-1])("ru")
    assert any(line == "Score" for line in drawn) and not any("Счёт" in line for line in drawn)


def test_long_translated_seat_lines_shrink_and_keep_the_tricks(drawn: list[str]) -> None:
    seats = [
        pictures.SeatInfo("A", 0, "Ślepe zero", 12),
        pictures.SeatInfo("B", 1, "4", 3),
        pictures.SeatInfo("C", 0, "Слепой ноль", 13),
        pictures.SeatInfo("D", 1, "Blind nil", 13),
    ]
    scene = pictures.TableScene(
        "Rozdanie 3",
        seats,
        [pictures.SideInfo("A", 10), pictures.SideInfo("B", 20)],
        words=scenes.picture_words("pl"),
    )
    pictures.table_png(scene)
    assert "dekl. 4 · lewy 3" in drawn
    # too long even in small type: the bid is cut, the tricks stay
    assert any(line.startswith("dekl. Ślep") and line.endswith("· lewy 12") for line in drawn), drawn
    assert any(line.startswith("dekl. Сле") and line.endswith("· lewy 13") for line in drawn), drawn[:12]


def test_names_keep_only_the_letters_the_font_draws(monkeypatch: pytest.MonkeyPatch) -> None:
    assert pictures.picture_name("Ольга ♠", 2) == "Ольга"  # DejaVu draws Cyrillic; the symbol goes
    assert pictures.picture_name("Łucja", 0) == "Łucja"
    # a Latin-only font: a Cyrillic name would draw as boxes, so the seat's name stands in
    monkeypatch.setattr(pictures, "has_glyph", lambda ch: ord(ch) < 0x400)
    assert pictures.picture_name("Ольга", 2, "Miejsce %(n)s") == "Miejsce 3"
    assert pictures.picture_name("Jiří Ольга", 1) == "Jiří"
