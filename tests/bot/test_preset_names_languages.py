"""Preset names in each reader's language (the value one types stays the engine's), league refusals
that name a format or leftover rule by the choice the reader saw, and the two house-rule refusals
with a code of their own."""

from __future__ import annotations

import asyncio
import re
from types import SimpleNamespace
from typing import Any

import discord
import pytest

import engine
from bot import lexicon
from bot.i18n import CTX_CHOICE, LANGUAGES, TRANSLATED, SpadesTranslator, pgettext, render
from bot.league.settings import FORMAT_LABELS, LEFTOVER_LABELS, LeagueSettings, SettingsError, check_format
from bot.model import Table
from bot.render.rules import rules_pages
from engine.house_rules import HouseRulesError, check_rules, parse_house_rules
from tests.bot.factories import open_table

# the variants keep their English names in every language (docs/TRANSLATING.md); "solo" is a word
# in Polish too
SAME_IN = {"whiz": set(TRANSLATED), "mirrors": set(TRANSLATED), "suicide": set(TRANSLATED), "solo": {"pl"}}


def _table(rs: engine.Ruleset) -> Table:
    return open_table(rs, 7)


@pytest.mark.parametrize("lang", TRANSLATED)
def test_every_preset_has_a_name_in_the_language(lang: str) -> None:
    names = {}
    for preset in engine.PRESETS:
        shown = render(lexicon.preset_name(preset), lang)
        assert shown, preset
        if lang not in SAME_IN.get(preset, set()):
            assert shown != preset, (lang, preset)
        names[shown] = preset
    assert len(names) == len(engine.PRESETS), "two presets share a name"


def test_a_table_header_names_its_preset_in_the_readers_language() -> None:
    rs = engine.Ruleset.preset("two-player")
    line = lexicon.describe(rs)
    assert str(line) == rs.describe()  # English: the engine's line, the preset's value
    assert render(line, "pl").startswith("dla dwóch graczy: do 500")
    assert render(line, "cs").startswith("pro dva hráče: do 500")
    assert render(line, "ru").startswith("для двоих: до 500")


def test_rules_name_the_preset_under_house_rules_in_the_readers_language() -> None:
    t = _table(check_rules("short", parse_house_rules("bag_limit=7")))
    assert "House rules over short: bag_limit=7" in rules_pages(t, "en")[0]
    polish = rules_pages(t, "pl")[0]
    assert "„krótka gra”" in polish and "short" not in polish
    assert "«короткая игра»" in rules_pages(t, "ru")[0]


def test_the_league_create_menu_shows_preset_names_in_the_clients_language() -> None:
    async def shown(lang: str, name: str) -> str | None:
        locale = {"pl": discord.Locale.polish, "cs": discord.Locale.czech, "ru": discord.Locale.russian}[lang]
        context = app_commands_context()
        return await SpadesTranslator().translate(discord.app_commands.locale_str(name), locale, context)

    assert asyncio.run(shown("pl", "jokers-high")) == "jokery najstarsze"
    assert asyncio.run(shown("ru", "six-player-threes")) == "для шестерых тройками"


def app_commands_context() -> Any:
    loc = discord.app_commands.TranslationContextLocation.choice_name
    return discord.app_commands.TranslationContext(location=loc, data=None)


def _autocomplete(lang: str, current: str) -> list[tuple[str, str]]:
    from cogs.tables import TablesCog

    cog = TablesCog.__new__(TablesCog)
    interaction: Any = SimpleNamespace(locale=discord.Locale(lang if lang != "en" else "en-US"))
    choices = asyncio.run(TablesCog._preset_ac(cog, interaction, current))
    return [(c.name, c.value) for c in choices]


def test_the_preset_autocomplete_shows_the_name_and_sends_the_value() -> None:
    # each name comes with what the preset is (bot.lexicon.PRESET_BLURBS), in the reader's language
    assert ("two-player — two players draw their hands from the deck", "two-player") in _autocomplete(
        "en", ""
    )
    assert len(_autocomplete("en", "")) == len(engine.PRESETS)
    polish = _autocomplete("pl", "")
    assert ("dla dwóch graczy (two-player) — dwie osoby dobierają karty z talii", "two-player") in polish
    assert ("whiz — deklarujesz tyle, ile masz pików, albo zero", "whiz") in polish
    # typed in the reader's words or as the value, the same preset is offered
    short = [("krótka gra (short) — szybka gra do 250, 5 worków = −50", "short")]
    assert _autocomplete("pl", "krótka") == short
    assert _autocomplete("pl", "short") == short
    assert ("для троих (cutthroat) — трое игроков, каждый сам за себя", "cutthroat") in _autocomplete(
        "ru", "трои"
    )


# ---- league refusals: the choices the reader saw, not the values the command sends -------------

VALUES = re.compile(r"`(fixed|rotating|solo|bot|bye)`")


def _refusal(fn: Any) -> Any:
    with pytest.raises(SettingsError) as info:
        fn()
    return info.value.args[0]


@pytest.mark.parametrize(
    "make",
    [
        lambda: LeagueSettings(leftover="skip"),
        lambda: check_format("swiss", engine.Ruleset.preset("standard")),
        lambda: check_format("solo", engine.Ruleset.preset("standard")),
        lambda: check_format("fixed", engine.Ruleset.preset("cutthroat")),
    ],
)
@pytest.mark.parametrize("lang", LANGUAGES)
def test_league_refusals_name_formats_as_the_menu_shows_them(make: Any, lang: str) -> None:
    text = render(_refusal(make), lang)
    assert not VALUES.search(text), text
    shown = [
        pgettext(lang, CTX_CHOICE, label) for label in (*FORMAT_LABELS.values(), *LEFTOVER_LABELS.values())
    ]
    assert any(f"**{label}**" in text for label in shown), text


def test_a_partnership_preset_for_solo_names_both_formats_and_the_solo_presets() -> None:
    refusal = _refusal(lambda: check_format("solo", engine.Ruleset.preset("standard")))
    polish = render(refusal, "pl")
    assert polish.startswith("Zestaw „standardowy” gra się w parach")
    assert "**Zmienne pary (tabela indywidualna)** lub **Stałe pary (drużyny zapisują się razem)**" in polish
    assert "dla trzech graczy" in polish and "cutthroat" not in polish
    english = render(refusal, "en")
    assert "**Rotating partners (individual standings)** or **Fixed partners" in english
    listed = english.rsplit("(", 1)[1].rstrip(").").replace(" or ", ", ").split(", ")
    assert listed == [n for n, rs in engine.PRESETS.items() if not rs.partnerships]
    assert "dla pięciu graczy lub dla sześciu graczy solo" in polish


# ---- house rules: a name or a value missing around `=` --------------------------------------------


@pytest.mark.parametrize(
    ("typed", "code", "pl", "cs", "ru"),
    [
        (
            "=5",
            "no_name",
            "`=5` nie wskazuje zasady: przed `=` wpisz nazwę zasady, np. `bag_limit=5`.",
            "`=5` neuvádí žádné pravidlo: před `=` napiš název pravidla, např. `bag_limit=5`.",
            "В `=5` не указано правило: напишите название правила перед `=`, напр. `bag_limit=5`.",
        ),
        (
            "nil_value=",
            "no_value",
            "`nil_value=` nie ma wartości po `=`: np. `nil_value=5`.",
            "`nil_value=` nemá za `=` hodnotu: např. `nil_value=5`.",
            "У `nil_value=` нет значения после `=`: напр. `nil_value=5`.",
        ),
    ],
)
def test_a_rule_without_a_name_or_a_value_is_refused_in_the_readers_language(
    typed: str, code: str, pl: str, cs: str, ru: str
) -> None:
    with pytest.raises(HouseRulesError) as info:
        parse_house_rules(f"bag_limit=5 {typed}")
    assert info.value.code == code
    msg = lexicon.explain_rules(info.value)
    assert render(msg, "en") == str(info.value)
    assert (render(msg, "pl"), render(msg, "cs"), render(msg, "ru")) == (pl, cs, ru)
