"""Every preset and every house rule says what it is in the autocomplete, in every language, within
a choice's 100 characters."""

from __future__ import annotations

import pytest

import engine
from bot import lexicon
from bot.i18n import LANGUAGES, gettext
from engine.house_rules import rule_kinds, rule_suggestions


def test_every_preset_and_house_rule_has_a_description() -> None:
    assert set(lexicon.PRESET_BLURBS) == set(engine.PRESETS)
    assert set(lexicon.RULE_BLURBS) == set(rule_kinds())


@pytest.mark.parametrize("lang", sorted(LANGUAGES))
def test_the_autocomplete_shows_the_description_in_the_readers_language(lang: str) -> None:
    for name in engine.PRESETS:
        label = lexicon.preset_label(name, lang)
        blurb = gettext(lang, lexicon.PRESET_BLURBS[name])
        assert len(label) <= 100 and label.endswith(" — " + blurb), label
        if lang != "en":
            assert blurb != lexicon.PRESET_BLURBS[name], (lang, name)  # translated
    for key in rule_kinds():
        (suggestion,) = [s for s in rule_suggestions(key) if s.value == f"{key}="]
        label = lexicon.rules_suggestion(suggestion, lang)
        blurb = gettext(lang, lexicon.RULE_BLURBS[key])
        assert len(label) <= 100 and label.startswith(f"{key}=…") and blurb[:20] in label, label
        if lang != "en":
            assert blurb != lexicon.RULE_BLURBS[key], (lang, key)
