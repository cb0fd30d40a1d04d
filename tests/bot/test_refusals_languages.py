"""Refusals and texts that once reached Polish, Czech and Russian players in English, rendered
through the code that builds them: each reads in the reader's language, with no English sentence,
no internal value (`fixed`, `bye`) and numbers in the reader's locale."""

from __future__ import annotations

from datetime import UTC, date, datetime, time

import pytest

import engine
from bot import i18n
from bot.i18n import ChoiceName, render
from bot.league.gateway import audit_reason
from bot.league.schedule import Schedule, ScheduleError
from bot.league.settings import SettingsError, check_format, check_leftover
from bot.lexicon import explain_rules
from bot.render.rules import rules_text
from engine.house_rules import HouseRulesError, check_rules, parse_house_rules
from tests.bot.test_i18n_rendered import english_runs

LANGS = i18n.TRANSLATED
INTERNAL = ("`fixed`", "`rotating`", "`solo`", "`bot`", "`bye`", "`threes`")


def _readable(text: str, lang: str) -> None:
    assert text.strip(), lang
    assert not english_runs(text), (lang, text)
    assert not any(v in text for v in INTERNAL), (lang, text)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("held", [1, 3, 5, 22])
def test_a_season_too_short_for_the_nights_held_is_refused_in_the_readers_language(
    lang: str, held: int
) -> None:
    s = Schedule(weekday=3, at=time(20), zone_name="Europe/Warsaw", first_day=date(2026, 1, 1), weeks=30)
    with pytest.raises(ScheduleError) as info:
        s.retime(datetime(2026, 12, 1, tzinfo=UTC), weeks=held, held=held)
    assert info.value.code == "season_too_short"
    text = render(info.value.message, lang)
    _readable(text, lang)
    assert str(held) in text and text != render(info.value.message, "en")


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize(
    "rules",
    [
        "whiz=on mirrors=on",
        "suicide=on nil_pass=0 blind_nil_pass=0 num_seats=6 team_size=3",
        "lose_score=600",
        "blind_nil_allowed=on nil_allowed=off",
    ],
)
def test_rules_that_dont_go_together_give_the_reason_in_the_readers_language(lang: str, rules: str) -> None:
    with pytest.raises(HouseRulesError) as info:
        check_rules("standard", parse_house_rules(rules))
    assert info.value.code == "incompatible" and info.value.fields.get("reason")
    _readable(render(explain_rules(info.value), lang), lang)


@pytest.mark.parametrize("lang", LANGS)
def test_a_missed_nights_reason_is_worded_when_read_old_english_rows_too(lang: str) -> None:
    worded = i18n.gettext(lang, "the bot was not running at the start")
    assert worded != "the bot was not running at the start"
    # stored as a code (today), and as the English words (rows written before the code)
    assert render(audit_reason({"why": "bot_offline"}, None), lang) == worded
    assert render(audit_reason({}, "the bot was not running at the start"), lang) == worded
    # an admin's own reason is shown as typed
    assert audit_reason({}, "rain") == "rain"


@pytest.mark.parametrize("lang", LANGS)
def test_format_and_leftover_refusals_name_the_choices_the_reader_sees(lang: str) -> None:
    standard, solo = engine.Ruleset.preset("standard"), engine.Ruleset.preset("cutthroat")
    refusals = []
    for call in (
        lambda: check_format("teams", standard),
        lambda: check_format("solo", standard),
        lambda: check_format("fixed", solo),
        lambda: check_leftover("threes", "fixed", standard),
    ):
        with pytest.raises(SettingsError) as info:
            call()
        refusals.append(render(info.value.message, lang))
    choice = render(ChoiceName("Fixed partners (teams sign up together)"), lang)
    assert choice != "Fixed partners (teams sign up together)" and choice in refusals[0]
    for text in refusals:
        _readable(text, lang)


@pytest.mark.parametrize("lang", LANGS)
def test_rules_write_thousands_the_readers_way(lang: str) -> None:
    from tests.bot.render.test_render import _table

    t = _table()
    t.ruleset = check_rules("standard", parse_house_rules("target_score=1000 lose_score=-1000"))
    text = rules_text(t, lang).replace("\xa0", " ").replace("\u202f", " ")
    assert "1,000" not in text and "1 000" in text, text
    assert "−1 000" in text


@pytest.mark.parametrize(
    ("lang", "deficit", "words"),
    [
        ("pl", 1, "o 1 punkt lub więcej"),
        ("pl", 22, "o 22 punkty lub więcej"),
        ("pl", 25, "o 25 punktów lub więcej"),
        ("cs", 3, "o 3 body nebo víc"),
        ("cs", 100, "o 100 bodů nebo víc"),
        ("ru", 21, "на 21 очко или больше"),
        ("ru", 22, "на 22 очка или больше"),
        ("ru", 111, "на 111 очков или больше"),
    ],
)
def test_a_deficit_in_rules_agrees_with_its_number(lang: str, deficit: int, words: str) -> None:
    """The blind nil and blind bid deficits are house rules (0 to 10,000): the word follows the number."""
    from tests.bot.render.test_render import _table

    t = _table()
    rules = f"blind_bids=on blind_nil_min_deficit={deficit} blind_bid_min_deficit={deficit}"
    t.ruleset = check_rules("standard", parse_house_rules(rules))
    text = rules_text(t, lang).replace("\xa0", " ")
    assert text.count(words) == 2, text


@pytest.mark.parametrize(
    ("lang", "rules", "words"),
    [
        ("pl", "target_score=252", "zdobędzie 252 punkty"),
        ("pl", "target_score=500", "zdobędzie 500 punktów"),
        ("ru", "target_score=251", "набравшая 251 очко"),
        ("ru", "target_score=252", "набравшая 252 очка"),
        ("cs", "lose_score=-3", "má strana −3 body"),
        ("cs", "lose_score=-202", "má strana −202 bodů"),
        ("ru", "lose_score=-201", "у стороны −201 очко"),
        ("pl", "lose_score=-200", "ma −200 punktów"),
    ],
)
def test_the_target_and_mercy_scores_agree_with_their_number(lang: str, rules: str, words: str) -> None:
    from tests.bot.render.test_render import _table

    t = _table()
    t.ruleset = check_rules("standard", parse_house_rules(rules))
    assert words in rules_text(t, lang).replace("\xa0", " ")


@pytest.mark.parametrize("lang", LANGS)
def test_the_one_line_rules_summary_writes_numbers_the_readers_way(lang: str) -> None:
    from bot.lexicon import describe

    rs = check_rules(
        "standard",
        parse_house_rules("target_score=10000 blind_bids=on blind_bid_min_deficit=1500 lose_score=-1000"),
    )
    line = render(describe(rs), lang).replace("\xa0", " ").replace("\u202f", " ")
    assert "10 000" in line and "1 500+" in line and "−1 000" in line and "10,000" not in line, line
    assert render(describe(rs), "en").startswith("standard: to 10,000")
    assert render(describe(rs), "en").endswith("mercy at −1,000") and str(describe(rs)) == rs.describe()
