"""Languages: locale resolution, lazy messages, plurals, and the catalogs' quality.

The catalog tests fail when a language misses a message the code or the slash commands use, keeps
one nobody uses, leaves one untranslated or fuzzy, breaks a placeholder, a code span or Discord
markup, or gives a command a name Discord would refuse.
"""

from __future__ import annotations

import io
import re
from collections import Counter
from typing import Any

import discord
import pytest
from babel.messages.catalog import Catalog, Message
from babel.messages.mofile import write_mo
from babel.support import Translations
from discord import app_commands

from bot import i18n
from tools import i18n as tools

# ---- locale resolution ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "lang"),
    [
        (discord.Locale.polish, "pl"),
        (discord.Locale.czech, "cs"),
        (discord.Locale.russian, "ru"),
        (discord.Locale.american_english, "en"),
        (discord.Locale.british_english, "en"),
        (discord.Locale.ukrainian, "en"),  # unsupported: English
        (discord.Locale.brazil_portuguese, "en"),
        ("pl", "pl"),
        ("cs-CZ", "cs"),
        ("ru_RU", "ru"),
        ("", "en"),
        (None, "en"),
    ],
)
def test_resolve(value: Any, lang: str) -> None:
    assert i18n.resolve(value) == lang


def test_server_language_prefers_the_configured_one() -> None:
    assert i18n.server_language({"language": "cs"}, discord.Locale.polish) == "cs"
    assert i18n.server_language({}, discord.Locale.polish) == "pl"
    assert i18n.server_language({"language": "xx"}, "ru") == "ru"  # a bad stored value is ignored
    assert i18n.server_language(None, None) == "en"


# ---- lazy messages and plurals ------------------------------------------------------------------


def _catalog(lang: str, entries: list[tuple[Any, Any]]) -> Translations:
    cat = Catalog(locale=lang, domain=i18n.DOMAIN)
    for msgid, msgstr in entries:
        cat[msgid] = Message(msgid, msgstr)
    buf = io.BytesIO()
    write_mo(buf, cat)
    buf.seek(0)
    return Translations(fp=buf, domain=i18n.DOMAIN)


@pytest.fixture
def fake_catalogs(monkeypatch: pytest.MonkeyPatch) -> None:
    """Small catalogs for the mechanics (the real ones are checked below)."""
    plural = ("%(n)s trick", "%(n)s tricks")
    data = {
        "pl": _catalog(
            "pl",
            [
                (plural, ("%(n)s lewa", "%(n)s lewy", "%(n)s lew")),
                ("%(who)s took %(what)s.", "%(who)s bierze %(what)s."),
                ("Nil", "Zero"),
            ],
        ),
        "ru": _catalog(
            "ru",
            [
                (plural, ("%(n)s взятка", "%(n)s взятки", "%(n)s взяток")),
                ("%(who)s took %(what)s.", "%(who)s берёт %(what)s."),
            ],
        ),
        "cs": _catalog("cs", [(plural, ("%(n)s zdvih", "%(n)s zdvihy", "%(n)s zdvihů"))]),
    }
    monkeypatch.setattr(i18n, "translations", lambda lang: data.get(lang))


@pytest.mark.usefixtures("fake_catalogs")
def test_plural_forms_follow_each_language() -> None:
    def forms(lang: str) -> list[str]:
        return [i18n.ngettext(lang, "%(n)s trick", "%(n)s tricks", n) for n in (1, 2, 5, 12, 22, 25, 101)]

    assert forms("en") == [
        "1 trick",
        "2 tricks",
        "5 tricks",
        "12 tricks",
        "22 tricks",
        "25 tricks",
        "101 tricks",
    ]
    assert forms("pl") == ["1 lewa", "2 lewy", "5 lew", "12 lew", "22 lewy", "25 lew", "101 lew"]
    assert forms("ru") == [
        "1 взятка",
        "2 взятки",
        "5 взяток",
        "12 взяток",
        "22 взятки",
        "25 взяток",
        "101 взятка",
    ]
    assert forms("cs") == [
        "1 zdvih",
        "2 zdvihy",
        "5 zdvihů",
        "12 zdvihů",
        "22 zdvihů",
        "25 zdvihů",
        "101 zdvihů",
    ]


@pytest.mark.usefixtures("fake_catalogs")
def test_a_lazy_message_renders_in_the_viewers_language_nested_parts_too() -> None:
    msg = i18n._("%(who)s took %(what)s.", who="<@1>", what=i18n._n("%(n)s trick", "%(n)s tricks", 3))
    assert msg.render("pl") == "<@1> bierze 3 lewy."
    assert msg.render("ru") == "<@1> берёт 3 взятки."
    assert msg.render("cs") == "<@1> took 3 zdvihy."  # missing in cs: the English text, its parts in cs
    assert str(msg) == "<@1> took 3 tricks." and msg == "<@1> took 3 tricks." and "took" in msg
    line = i18n.join(i18n._("Nil"), "·", i18n.Num(12345.5, "#,##0.0"))
    assert line.render("pl") == "Zero · 12\xa0345,5"
    assert line.render("en") == "Nil · 12,345.5"
    assert i18n.Num(0.25, percent=True).render("ru").replace("\xa0", " ") == "25 %"
    assert i18n.ListOf(("a", "b", "c")).render("pl") == "a, b i c"
    assert i18n.ListOf(("a", "b", "c")).render("en") == "a, b and c"
    assert i18n.ListOf(("a", "b", "c"), "or").render("ru") == "a, b или c"
    assert i18n.render("plain", "ru") == "plain"


def test_real_catalogs_load_and_fall_back_to_english() -> None:
    for lang in i18n.TRANSLATED:
        assert i18n.translations(lang) is not None
    assert i18n.translations("en") is None
    assert i18n.gettext("pl", "Not a message in any catalog") == "Not a message in any catalog"


def test_timestamps_are_discord_markup() -> None:
    assert i18n.timestamp(1_700_000_000.7, "R") == "<t:1700000000:R>"


# ---- the catalogs -----------------------------------------------------------------------------

PLACEHOLDER = re.compile(r"%(?:\((\w+)\))?[-#0 +]*\d*(?:\.\d+)?[sdifr%]")
CODE = re.compile(r"`([^`]+)`")
MARKUP = re.compile(r"<(?:@!?|@&|#|t:|a?:\w+:)[^>]*>")


def _key(m: Message) -> tuple[str | None, str]:
    return (m.context, m.id if isinstance(m.id, str) else m.id[0])


def _entries(cat: Catalog) -> dict[tuple[str | None, str], Message]:
    return {_key(m): m for m in cat if m.id}


@pytest.fixture(scope="module")
def template() -> Catalog:
    return tools.template()


@pytest.fixture(scope="module", params=i18n.TRANSLATED)
def catalog(request: pytest.FixtureRequest) -> Catalog:
    return i18n.read_catalog(request.param)


def test_the_template_is_current(template: Catalog) -> None:
    """bot/locale/messages.pot is what extraction gives today (run `python tools/i18n.py update`)."""
    with i18n.LOCALE_DIR.joinpath(f"{i18n.DOMAIN}.pot").open("rb") as fp:
        from babel.messages.pofile import read_po

        stored = read_po(fp)
    assert set(_entries(stored)) == set(_entries(template))


def test_every_message_is_translated_and_none_is_unused(template: Catalog, catalog: Catalog) -> None:
    wanted, have = _entries(template), _entries(catalog)
    missing = sorted(k[1] for k in set(wanted) - set(have))
    unused = sorted(k[1] for k in set(have) - set(wanted))
    assert not missing, f"{catalog.locale}: missing {missing}"
    assert not unused, f"{catalog.locale}: unused {unused}"
    for key, m in have.items():
        forms = m.string if isinstance(m.string, tuple) else (m.string,)
        assert not m.fuzzy, f"{catalog.locale}: fuzzy {key}"
        assert all(forms), f"{catalog.locale}: untranslated {key}"
        if isinstance(m.id, tuple):
            assert len(forms) == catalog.num_plurals, f"{catalog.locale}: plural forms of {key}"
        assert m.pluralizable == isinstance(wanted[key].id, tuple), f"{catalog.locale}: plural {key}"


def test_placeholders_code_and_markup_survive(catalog: Catalog) -> None:
    assert catalog.num_plurals == 3  # pl, cs and ru all have three forms
    errors = [f"{m.id!r}: {err}" for m, errs in catalog.check() for err in errs]
    assert not errors, errors
    for m in catalog:
        if not m.id:
            continue
        ids = m.id if isinstance(m.id, tuple) else (m.id,)
        forms = m.string if isinstance(m.string, tuple) else (m.string,)
        source = ids[-1]
        for text in forms:
            assert Counter(PLACEHOLDER.findall(text)) == Counter(PLACEHOLDER.findall(source)), (
                f"{catalog.locale}: placeholders of {source!r} in {text!r}"
            )
            if m.context in (i18n.CTX_NAME,):
                continue
            assert [c for c in CODE.findall(text) if not c.startswith("/")] == [
                c for c in CODE.findall(source) if not c.startswith("/")
            ], f"{catalog.locale}: code spans of {source!r} in {text!r}"
            assert Counter(MARKUP.findall(text)) == Counter(MARKUP.findall(source)), text
            for mark in ("**", "```", "\n"):
                assert text.count(mark) == source.count(mark), f"{catalog.locale}: {mark!r} in {text!r}"


def _localized(lang: str, name: str) -> str:
    return i18n.pgettext(lang, i18n.CTX_NAME, name)


def _localized_word(lang: str, word: str, names: set[Any]) -> str:
    """A word of a command span as the client shows it: a command name, or an option before its
    value (``game:%(game)s`` is ``gra:%(game)s`` in Polish)."""
    if word in names:
        return _localized(lang, word)
    option, colon, value = word.partition(":")
    if colon and option in names:
        return f"{_localized(lang, option)}:{value}"
    return word


def test_command_spans_name_the_localized_command(catalog: Catalog) -> None:
    """`/spades new` in a text reads `/piki nowy` in Polish, and an option in it (`rules:`) reads
    `zasady:`: the names the reader's client shows."""
    lang = str(catalog.locale)
    names = {m.id for m in catalog if m.context == i18n.CTX_NAME}
    for m in catalog:
        if not m.id or m.context is not None:
            continue
        ids = m.id if isinstance(m.id, tuple) else (m.id,)
        forms = m.string if isinstance(m.string, tuple) else (m.string,)
        wanted = [
            "/" + " ".join(_localized_word(lang, w, names) for w in c[1:].split(" "))
            for c in CODE.findall(ids[-1])
            if c.startswith("/")
        ]
        for text in forms:
            got = [c for c in CODE.findall(text) if c.startswith("/")]
            assert got == wanted, f"{lang}: {ids[-1]!r} names commands {got}, not {wanted}"


async def test_command_localizations_fit_discords_rules() -> None:
    tree: app_commands.CommandTree[Any] = app_commands.CommandTree(
        discord.Client(intents=discord.Intents.none())
    )
    for cmd in tools.cog_commands():
        tree.add_command(cmd)  # type: ignore[arg-type]
    await tree.set_translator(i18n.SpadesTranslator())
    payload = await i18n.translated_payload(tree)
    assert {c["name"] for c in payload} >= {"spades", "join", "bid", "leaderboard"}

    def check(items: list[dict[str, Any]], where: str) -> None:
        for locale in ("pl", "cs", "ru"):
            names = [item.get("name_localizations", {}).get(locale) for item in items]
            assert all(names), f"{where}: {locale} names missing"
            assert len(set(names)) == len(names), f"{where}: {locale} names not unique: {names}"
        for item in items:
            for locale in ("pl", "cs", "ru"):
                name = item["name_localizations"][locale]
                if "description" in item:  # a command or an option
                    assert i18n.NAME_RE.match(name) and name == name.lower(), (where, name)
                    desc = item["description_localizations"][locale]
                    assert 1 <= len(desc) <= 100, (where, desc)
                else:  # a choice
                    assert 1 <= len(name) <= 100, (where, name)
            options = item.get("options") or []
            subs = [o for o in options if o.get("type") in (1, 2)]
            params = [o for o in options if o.get("type") not in (1, 2)]
            if subs:
                check(subs, f"{where} {item['name']}")
            if params:
                check(params, f"{where} {item['name']} options")
                for p in params:
                    if p.get("choices"):
                        check(p["choices"], f"{where} {item['name']} {p['name']} choices")

    check(payload, "/")
    spades = next(c for c in payload if c["name"] == "spades")
    assert spades["name_localizations"] == {"pl": "piki", "cs": "piky", "ru": "пики"}
    new = next(o for o in spades["options"] if o["name"] == "new")
    assert new["description_localizations"]["pl"].startswith("Otwórz stół")


async def test_a_changed_translation_changes_the_payload(monkeypatch: pytest.MonkeyPatch) -> None:
    """The sync hash covers translations: a new Polish name must give a different payload."""
    tree: app_commands.CommandTree[Any] = app_commands.CommandTree(
        discord.Client(intents=discord.Intents.none())
    )
    for cmd in tools.cog_commands():
        tree.add_command(cmd)  # type: ignore[arg-type]
    await tree.set_translator(i18n.SpadesTranslator())
    before = await i18n.translated_payload(tree)
    real = i18n.translations

    class Renamed:
        def __init__(self, inner: Translations | None) -> None:
            self.inner = inner

        def pgettext(self, ctx: str, msg: str) -> str:
            return "stolik" if msg == "table" and ctx == i18n.CTX_NAME else self.inner.pgettext(ctx, msg)  # type: ignore[union-attr]

    monkeypatch.setattr(
        i18n, "translations", lambda lang: Renamed(real(lang)) if lang == "pl" else real(lang)
    )
    after = await i18n.translated_payload(tree)
    assert before != after
    table = next(c for c in after if c["name"] == "table")
    assert table["name_localizations"]["pl"] == "stolik"


def test_resolve_is_cached_with_the_same_answers() -> None:
    """Every redraw resolves a locale: the answers come from a bounded cache, unchanged."""
    i18n.resolve.cache_clear()
    first = [i18n.resolve(v) for v in (discord.Locale.polish, "cs-CZ", None, "xx")]
    again = [i18n.resolve(v) for v in (discord.Locale.polish, "cs-CZ", None, "xx")]
    assert first == again == ["pl", "cs", "en", "en"]
    info = i18n.resolve.cache_info()
    assert info.hits >= 4 and info.maxsize is not None
