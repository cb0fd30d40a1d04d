"""Issue 8 item 14: `/rules` explains each table's actual rules, every preset and house rule, in the
reader's language: each line comes from the engine's structured explanation (a key and its
parameters) rendered through the catalogs, and a long rule set is split into messages that fit."""

from __future__ import annotations

import re

import pytest

import engine
from bot.i18n import LANGUAGES
from bot.model import Table
from bot.render.rules import rule_line, rule_lines, rules_pages
from engine.house_rules import check_rules, parse_house_rules
from engine.rules_text import RULE_KEYS, explain_lines
from tests.bot.factories import open_table

# every option on at once, with numbers that need plurals: the longest rule set a table can have
HEAVY = (
    "jokers=on deuces_high=on blind_bids=on blind_bid_min_deficit=150 ten_for_200=on boston=on "
    "lose_score=-300 max_hands=12 board=4 misdeal_no_spades=on first_trick_two_clubs=on "
    "blind_nil_min_deficit=100 bag_limit=7 bag_penalty=75 nil_pass=2 set_limit=2 ten_for_value=150"
)


def _table(rs: engine.Ruleset) -> Table:
    return open_table(rs, 12345)


def _rulesets() -> list[engine.Ruleset]:
    out = list(engine.PRESETS.values())
    out.append(check_rules("standard", parse_house_rules(HEAVY)))
    out.append(check_rules("two-player", parse_house_rules("blind_nil_min_deficit=50 board=2")))
    out.append(
        check_rules(
            "cutthroat",
            parse_house_rules("blind_bids=on boston=on lose_score=-200 set_limit=1 ten_for_200=on"),
        )
    )
    out.append(engine.Ruleset.preset("classic-online", nil_allowed=False))
    out.append(engine.Ruleset.preset("deuces-high", deuces_high_all=True))
    out.append(engine.Ruleset.preset("six-player", six_player_first_wins=False))
    out.append(engine.Ruleset.preset("standard", spades_must_be_broken=False, bag_limit=None, bag_value=0))
    out.append(engine.Ruleset.preset("solo", bag_value=-10, board=3, blind_nil_min_deficit=50))
    return out


def test_the_rule_sets_tested_here_use_every_rule_key() -> None:
    used = {line.key for rs in _rulesets() for line in explain_lines(rs)}
    assert used == set(RULE_KEYS), set(RULE_KEYS) - used


# words of the English template that must never show in a translation (an untranslated line)
ENGLISH = re.compile(r"\b(the|trick|tricks|bid|bids|spades?|points?|cards?|every|player)\b")


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("rs", _rulesets(), ids=lambda rs: f"{rs.name}-{len(rs.overrides())}")
def test_every_rule_line_is_written_in_the_language_and_fits(rs: engine.Ruleset, lang: str) -> None:
    pages = rules_pages(_table(rs), lang)
    assert all(len(p) <= 2000 for p in pages)
    text = "\n".join(pages)
    assert "%(" not in text and "None" not in text
    lines = explain_lines(rs)
    assert all(line.key in RULE_KEYS for line in lines)
    for line in lines:
        shown = rule_line(line, lang)
        assert f"• {shown}" in text  # every line is there, none cut
        if lang != "en":
            assert shown != line.text and not ENGLISH.search(shown), (line.key, shown)
    if not rs.partnerships:  # two-player, cutthroat, solo...: nobody has a partner
        words = {"en": "partner", "pl": "partner", "cs": "partner", "ru": "партнёр"}[lang]
        assert words not in text.lower(), text


def test_the_heavy_house_rules_need_more_than_one_message_in_russian() -> None:
    rs = check_rules("standard", parse_house_rules(HEAVY))
    pages = rules_pages(_table(rs), "ru")
    assert len(pages) >= 2 and all(len(p) <= 2000 for p in pages)
    assert pages[0].startswith("**") and not pages[1].startswith("**")  # the header comes once


@pytest.mark.parametrize(
    ("preset", "lang", "needles"),
    [
        (
            "two-player",
            "en",
            [
                "Blind nil: bid nil before you draw your first card",
                "throw away up to 3 cards and take as many at random from the discards",
                "No deal",
            ],
        ),
        (
            "two-player",
            "pl",
            [
                "Zero w ciemno: zadeklaruj zero, zanim dobierzesz pierwszą kartę",
                "możesz odrzucić do 3 kart i wziąć tyle samo losowo z odrzuconych",
            ],
        ),
        ("two-player", "cs", ["odhodit až 3 karty a vzít si stejný počet náhodně z odhozených"]),
        ("two-player", "ru", ["сбросить до 3 карт и взять столько же наугад из сброса"]),
        (
            "standard",
            "pl",
            [
                "4 gracze w 2 drużynach",
                "naprzeciw siebie, miejsca: 1 + 3 przeciw 2 + 4",
                "Można je zadeklarować przy każdym wyniku",
                "każde 10 worków kosztuje 100 punktów",
            ],
        ),
        ("standard", "ru", ["4 игрока в 2 командах", "каждые 10 мешков стоят 100 очков"]),
        ("jokers-high", "cs", ["Žolíci nejvyšší", "oba žolíci, bez 2♣", "2♦, každý dostane 13 karet"]),
        ("deuces-high", "ru", ["Старшие двойки: 2♠, а за ней 2♦"]),
        ("whiz", "pl", ["Whiz: deklarujesz dokładnie tyle, ile masz pików, albo zero"]),
        ("mirrors", "cs", ["Mirrors: nabízíš přesně tolik, kolik máš piků"]),
        ("suicide", "ru", ["ровно один партнёр заказывает ноль"]),
        (
            "house",
            "pl",
            [
                "Deklaracje w ciemno: strona przegrywająca o 100 punktów",
                "10 za 200",
                "Boston:",
                "Litość: gdy strona ma −200 punktów",
            ],
        ),
        (
            "six-player",
            "en",
            [
                "6 players in 3 teams of two",
                "seats 1 + 4 against seats 2 + 5 against seats 3 + 6",
                "the first one played wins",
            ],
        ),
        ("six-player-threes", "ru", ["6 игроков в 2 командах по трое", "через одно место"]),
    ],
)
def test_each_preset_says_its_own_rules(preset: str, lang: str, needles: list[str]) -> None:
    text = "\n".join(rules_pages(_table(engine.Ruleset.preset(preset)), lang))
    for needle in needles:
        assert needle in text, (needle, text)


def test_a_condition_on_blind_nil_is_stated_in_every_language() -> None:
    rs = engine.Ruleset.preset("house")
    expected = {
        "en": "behind by 100 points or more",
        "pl": "przegrywa o 100 punktów lub więcej",
        "cs": "prohrává o 100 bodů nebo víc",
        "ru": "отстающая на 100 очков или больше",
    }
    for lang, needle in expected.items():
        line = next(
            x for x in rule_lines(rs, lang) if x.startswith(("Blind nil", "Zero w ciemno", "Slepý", "Слепой"))
        )
        assert needle in line, (lang, line)


@pytest.mark.parametrize("lang", ["pl", "cs", "ru"])
def test_rules_write_big_numbers_as_the_language_does(lang: str) -> None:
    """`/rules` never writes "1,000" in Polish, Czech or Russian (a comma is their decimal sign):
    the number is grouped by the locale, a negative one has a true minus sign."""
    rs = check_rules("standard", parse_house_rules("target_score=1000 lose_score=-1000 bag_penalty=1000"))
    text = "\n".join(rule_lines(rs, lang))
    assert "1,000" not in text
    assert re.search(r"1[\u00a0\u202f ]000", text), text
    assert "−1" in text
