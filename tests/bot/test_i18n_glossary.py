"""The glossary in docs/TRANSLATING.md holds: a word listed there as wrong for a language never
appears in that language's catalog (one term per concept, no gendered guesses, no non-words)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot import i18n

DOC = Path(__file__).resolve().parents[2] / "docs" / "TRANSLATING.md"
ROW = re.compile(r"^\|\s*(pl|cs|ru)\s*\|\s*([^|]+?)\s*\|")


def wrong_words() -> dict[str, list[str]]:
    """The "Words not to use" table of docs/TRANSLATING.md, by language."""
    text = DOC.read_text(encoding="utf-8")
    section = text.split("### Words not to use", 1)[1].split("\n## ", 1)[0]
    words: dict[str, list[str]] = {}
    for line in section.splitlines():
        m = ROW.match(line)
        if m:
            words.setdefault(m[1], []).append(m[2])
    return words


def texts(lang: str) -> list[str]:
    """Every translation of the language's catalog (all plural forms, command names too)."""
    out: list[str] = []
    for m in i18n.read_catalog(lang):
        if m.id:
            out.extend(m.string if isinstance(m.string, tuple) else (m.string,))
    return out


def test_the_glossary_lists_wrong_words_for_every_language() -> None:
    words = wrong_words()
    assert set(words) == set(i18n.TRANSLATED)
    assert all(len(w) >= 5 for w in words.values()), words


def test_the_checker_finds_a_wrong_word() -> None:
    """The check below can fail: a catalog text with a listed word is found, whatever its case."""
    assert found(["Piki ještě nejsou ROZBITÉ."], ["rozbité"]) == [("rozbité", "Piki ještě nejsou ROZBITÉ.")]
    assert found(["Piky ještě nejsou otevřené."], ["rozbité"]) == []


def found(catalog_texts: list[str], wrong: list[str]) -> list[tuple[str, str]]:
    return [(w, t) for t in catalog_texts for w in wrong if w.casefold() in t.casefold()]


@pytest.mark.parametrize("lang", i18n.TRANSLATED)
def test_no_catalog_uses_a_word_the_glossary_lists_as_wrong(lang: str) -> None:
    hits = found(texts(lang), wrong_words()[lang])
    assert not hits, f"{lang}: {hits}"
