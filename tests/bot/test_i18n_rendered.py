"""Every catalog message rendered in every language: no placeholder left over, no English
sentence in Polish, Czech or Russian, and the plural form each language's grammar asks for."""

from __future__ import annotations

import re
from datetime import UTC, date, datetime
from typing import Any

import pytest
from babel.messages.catalog import Catalog

from bot import i18n

PLACEHOLDER = re.compile(r"%\((\w+)\)s")
CODE = re.compile(r"`[^`]*`")
WORD = re.compile(r"[^\W\d_]+(?:'[^\W\d_]+)?")
COUNTS = (0, 1, 2, 5, 21, 22, 25, 111)

# Words that are the same in every language: names, the variants' and presets' English names
# (docs/TRANSLATING.md), technical words.
ALLOWED = {
    "discord",
    "json",
    "iana",
    "http",
    "python",
    "engine",
    "verify",
    "boston",
    "whiz",
    "mirrors",
    "suicide",
    "standard",
    "cutthroat",
    "solo",
    "short",
    "house",
    "classic",
    "online",
    "player",
    "two",
    "five",
    "six",
    "threes",
    "jokers",
    "deuces",
    "high",
    "europe",
    "america",
    "london",
    "berlin",
    "warsaw",
    "prague",
    "moscow",
    "new",
    "york",
    "spades",
    "thursday",
    "am",
    "pm",
    "everyone",
    "here",
    "on",
    "off",
    "admin",
    "start",
    "bot",
    "bots",
    "docs",
    "md",
    "api",
}


def _english_words() -> set[str]:
    words: set[str] = set()
    for m in i18n.read_catalog("pl"):
        if m.id and m.context is None:
            for text in m.id if isinstance(m.id, tuple) else (m.id,):
                words.update(w.casefold() for w in WORD.findall(PLACEHOLDER.sub(" ", text)))
    return words - ALLOWED


ENGLISH = _english_words()


def _native_words(lang: str) -> set[str]:
    """Words the language's own catalog uses in three entries or more (``partner``, ``nil`` and
    ``a`` are Czech words too); an English sentence leaked into one entry stays English."""
    seen: dict[str, int] = {}
    for m in i18n.read_catalog(lang):
        if m.id and m.context is None:
            forms = m.string if isinstance(m.string, tuple) else (m.string,)
            for w in {w.casefold() for f in forms for w in WORD.findall(PLACEHOLDER.sub(" ", f))}:
                seen[w] = seen.get(w, 0) + 1
    return {w for w, n in seen.items() if n >= 3}


def _value(name: str) -> Any:
    return 5 if name in ("n", "count", "total", "games", "hands", "minutes", "seconds") else "⟨x⟩"


def rendered(lang: str) -> list[tuple[str, str]]:
    """(msgid, text) for every message of the catalog, in ``lang``, every plural count of COUNTS."""
    out: list[tuple[str, str]] = []
    for m in i18n.read_catalog(lang):
        if not m.id or m.context is not None:
            continue
        ids = m.id if isinstance(m.id, tuple) else (m.id,)
        params = {p: _value(p) for p in PLACEHOLDER.findall(" ".join(ids))}
        if isinstance(m.id, tuple):
            for n in COUNTS:
                out.append((ids[0], i18n.ngettext(lang, ids[0], ids[1], n, **{**params, "n": n})))
        else:
            out.append((ids[0], i18n.gettext(lang, ids[0], **params)))
    return out


def english_runs(text: str, words: set[str] = ENGLISH, run: int = 3) -> list[str]:
    """Runs of ``run`` or more English words in a row (outside code spans): an English sentence."""
    found: list[str] = []
    for part in re.split(r"[.,:;!?()\[\]«»„“”\"—–·→/*]+", CODE.sub(" | ", text)):
        streak: list[str] = []
        for token in part.split():
            w = WORD.fullmatch(token)
            if w and token.casefold() in words:
                streak.append(token)
                continue
            if len(streak) >= run:
                found.append(" ".join(streak))
            streak = []
        if len(streak) >= run:
            found.append(" ".join(streak))
    return found


def test_the_english_check_finds_an_english_sentence() -> None:
    assert english_runs("Te zasady się wykluczają: Suicide is for partnerships of two.")
    assert english_runs("Liga: the bot was not running at the start")
    assert not english_runs("Te zasady się wykluczają: suicide gra się w parach.")
    assert not english_runs("`/piki ustawienia zasady:` bag_limit=5")


@pytest.mark.parametrize("lang", i18n.TRANSLATED)
def test_every_message_renders_whole_and_in_the_language(lang: str) -> None:
    texts = rendered(lang)
    assert len(texts) > 800
    left = [(msgid, t) for msgid, t in texts if "%(" in t or ")s" in t]
    assert not left, left
    words = ENGLISH - _native_words(lang)
    english = [(msgid, t, english_runs(t, words)) for msgid, t in texts if english_runs(t, words)]
    assert not english, english


def _form(lang: str, n: int) -> int:
    """The plural form of ``n`` by each language's grammar (CLDR), written out here."""
    tens, hundreds = n % 10, n % 100
    few = 2 <= tens <= 4 and not 12 <= hundreds <= 14
    if lang == "pl":
        return 0 if n == 1 else 1 if few else 2
    if lang == "cs":
        return 0 if n == 1 else 1 if 2 <= n <= 4 else 2
    if lang == "ru":
        return 0 if tens == 1 and hundreds != 11 else 1 if few else 2
    raise AssertionError(lang)


@pytest.fixture(scope="module", params=i18n.TRANSLATED)
def catalog(request: pytest.FixtureRequest) -> Catalog:
    return i18n.read_catalog(request.param)


def test_every_plural_picks_the_form_the_grammar_asks_for(catalog: Catalog) -> None:
    lang = str(catalog.locale)
    plurals = [m for m in catalog if m.id and isinstance(m.id, tuple)]
    assert len(plurals) > 40
    for m in plurals:
        params = {p: _value(p) for p in PLACEHOLDER.findall(m.id[1]) if p != "n"}
        for n in COUNTS:
            want = m.string[_form(lang, n)] % {**params, "n": n}
            assert i18n.ngettext(lang, m.id[0], m.id[1], n, **params) == want, (lang, m.id[0], n)


@pytest.mark.parametrize(
    ("lang", "forms"),
    [
        (
            "pl",
            [
                "0 rozdań",
                "1 rozdanie",
                "2 rozdania",
                "5 rozdań",
                "21 rozdań",
                "22 rozdania",
                "25 rozdań",
                "111 rozdań",
            ],
        ),
        (
            "cs",
            [
                "0 rozdání",
                "1 rozdání",
                "2 rozdání",
                "5 rozdání",
                "21 rozdání",
                "22 rozdání",
                "25 rozdání",
                "111 rozdání",
            ],
        ),
        (
            "ru",
            [
                "0 раздач",
                "1 раздача",
                "2 раздачи",
                "5 раздач",
                "21 раздача",
                "22 раздачи",
                "25 раздач",
                "111 раздач",
            ],
        ),
    ],
)
def test_counted_hands_read_right(lang: str, forms: list[str]) -> None:
    assert [i18n.ngettext(lang, "%(n)s hand", "%(n)s hands", n) for n in COUNTS] == forms


@pytest.mark.parametrize(
    ("lang", "n", "words"),
    [
        ("pl", 5, "Podaj 5 wyników"),
        ("pl", 3, "Podaj 3 wyniki"),
        ("ru", 5, "Укажите 5 результатов"),
        ("ru", 21, "Укажите 21 результат"),
        ("pl", 1, "maks. 1 rozdanie"),
        ("pl", 3, "maks. 3 rozdania"),
        ("ru", 3, "макс. 3 раздачи"),
        ("ru", 1, "макс. 1 раздача"),
    ],
)
def test_messages_with_a_count_agree_with_it(lang: str, n: int, words: str) -> None:
    texts = [
        i18n.ngettext(lang, "Give %(n)s score, one per side.", "Give %(n)s scores, one per side.", n),
        i18n.ngettext(lang, "%(n)s hand max", "%(n)s hands max", n),
    ]
    assert any(t.startswith(words) for t in texts), texts


@pytest.mark.parametrize(
    ("lang", "n", "words"),
    [
        ("pl", 1, "otwierają się 1 minutę przed"),
        ("pl", 22, "otwierają się 22 minuty przed"),
        ("pl", 25, "otwierają się 25 minut przed"),
        ("cs", 1, "otevírá 1 minutu před"),
        ("cs", 3, "otevírá 3 minuty před"),
        ("cs", 21, "otevírá 21 minut před"),
        ("ru", 1, "за 1 минуту до"),
        ("ru", 21, "за 21 минуту до"),
        ("ru", 22, "за 22 минуты до"),
        ("ru", 111, "за 111 минут до"),
    ],
)
def test_check_in_minutes_agree_with_their_number(lang: str, n: int, words: str) -> None:
    """An admin sets how early check-in opens (0 to 1440 minutes): the word follows the number."""
    for who, command in (("Teams", "invite"), ("Players", "signup")):
        singular = (
            f"{who} join with `/league {command}`; check-in opens %(minutes)s minute before each night."
        )
        plural = singular.replace("minute before", "minutes before")
        assert words in i18n.ngettext(lang, singular, plural, n, minutes=n)


@pytest.mark.parametrize(
    ("lang", "n", "words"),
    [
        ("pl", 1, "1 minuta tolerancji minęła"),
        ("pl", 22, "22 minuty tolerancji minęły"),
        ("pl", 30, "30 minut tolerancji minęło"),
        ("cs", 2, "2 minuty tolerance uplynuly"),
        ("cs", 30, "30 minut tolerance uplynulo"),
        ("ru", 21, "запас в 21 минуту истёк"),
        ("ru", 30, "запас в 30 минут истёк"),
    ],
)
def test_a_missed_nights_grace_minutes_agree_with_their_number(lang: str, n: int, words: str) -> None:
    from bot.league.schedule import Night
    from bot.render.league import night_missed

    last = Night(number=8, day=date(2027, 1, 7), start=datetime(2027, 1, 7, 20, tzinfo=UTC))
    text = i18n.render(night_missed("L", 3, "2026-12-03", "x", n, last), lang)
    assert words in text and "L" in text and "3" in text


# The word after each count, for COUNTS (0, 1, 2, 5, 21, 22, 25, 111), as a native reader expects it.
COUNTED_WORDS = {
    ("%(n)s point", "%(n)s points"): {
        "pl": ["punktów", "punkt", "punkty", "punktów", "punktów", "punkty", "punktów", "punktów"],
        "cs": ["bodů", "bod", "body", "bodů", "bodů", "bodů", "bodů", "bodů"],
        "ru": ["очков", "очко", "очка", "очков", "очко", "очка", "очков", "очков"],
    },
    ("%(n)s bag", "%(n)s bags"): {
        "pl": ["worków", "worek", "worki", "worków", "worków", "worki", "worków", "worków"],
        "cs": ["pytlů", "pytel", "pytle", "pytlů", "pytlů", "pytlů", "pytlů", "pytlů"],
        "ru": ["мешков", "мешок", "мешка", "мешков", "мешок", "мешка", "мешков", "мешков"],
    },
    ("%(n)s player", "%(n)s players"): {
        "pl": ["graczy", "gracz", "gracze", "graczy", "graczy", "gracze", "graczy", "graczy"],
        "cs": ["hráčů", "hráč", "hráči", "hráčů", "hráčů", "hráčů", "hráčů", "hráčů"],
        "ru": ["игроков", "игрок", "игрока", "игроков", "игрок", "игрока", "игроков", "игроков"],
    },
    ("the board can't be above %(n)s trick", "the board can't be above %(n)s tricks"): {
        "pl": ["lew", "lewy", "lew", "lew", "lew", "lew", "lew", "lew"],
        "cs": ["zdvihů", "zdvih", "zdvihy", "zdvihů", "zdvihů", "zdvihů", "zdvihů", "zdvihů"],
        "ru": ["взяток", "взятки", "взяток", "взяток", "взятки", "взяток", "взяток", "взяток"],
    },
}


@pytest.mark.parametrize("msgid", list(COUNTED_WORDS))
@pytest.mark.parametrize("lang", i18n.TRANSLATED)
def test_counted_words_take_the_case_the_number_asks_for(lang: str, msgid: tuple[str, str]) -> None:
    got = [i18n.ngettext(lang, msgid[0], msgid[1], n).split()[-1] for n in COUNTS]
    assert got == COUNTED_WORDS[msgid][lang]


def test_the_czech_board_limit_reads_as_at_most() -> None:
    """ "nad 1 zdvih" asked for the instrumental; "nejvýš" takes the number's own case."""
    board = ("the board can't be above %(n)s trick", "the board can't be above %(n)s tricks")
    assert i18n.ngettext("cs", *board, 1) == "minimum nabídek může být nejvýš 1 zdvih"
    assert i18n.ngettext("cs", *board, 13) == "minimum nabídek může být nejvýš 13 zdvihů"


@pytest.mark.parametrize("lang", i18n.TRANSLATED)
@pytest.mark.parametrize("msgid", ["· **%(n)s** game points", "· **%(n)s** points per game"])
def test_league_points_totals_use_a_word_that_fits_any_number(lang: str, msgid: str) -> None:
    """Not a plural message (a total, or a mean like 2.50): the unit is an abbreviation that reads
    right after 1, 3, 21 or 2.50 (not Czech "1 bodů", Russian "1 очков")."""
    for n in ("1", "3", "21", "2,50"):
        word = i18n.gettext(lang, msgid, n=n).split("**")[2].split()[0]
        assert word in {"pkt", "b.", "очк."}, (lang, n, word)
