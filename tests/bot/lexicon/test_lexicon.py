"""The game's words: bids, ruleset lines and engine refusals read the same as the engine in English
and come from the catalogs in Polish, Czech and Russian."""

from __future__ import annotations

import random
from typing import Any

import pytest

import engine
from bot import lexicon
from bot.i18n import Msg, gettext, render
from bot.table.clock import bot_action
from engine.house_rules import check_rules, parse_house_rules

HOUSE = [
    "",
    "bag_limit=5 bag_penalty=50",
    "nil_allowed=off",
    "blind_nil_min_deficit=100 blind_nil_pass=2",
    "bag_value=0 lose_score=-200 max_hands=10",
    "whiz=on",
    "mirrors=on",
    "suicide=on",
    "board=4 ten_for_200=on boston=on",
    "first_trick_two_clubs=on misdeal_no_spades=on spades_must_be_broken=off",
    "blind_bids=on",
]


def _rulesets() -> list[engine.Ruleset]:
    out = []
    for preset in engine.PRESETS:
        for house in HOUSE:
            try:
                out.append(
                    check_rules(preset, parse_house_rules(house)) if house else engine.Ruleset.preset(preset)
                )
            except ValueError:
                continue  # a house rule this preset does not take
    return out


def test_describe_is_the_engines_line_in_english_and_translated_otherwise() -> None:
    seen = 0
    for rs in _rulesets():
        line = lexicon.describe(rs)
        assert render(line, "en") == rs.describe()
        for lang in ("pl", "cs", "ru"):
            text = render(line, lang)
            assert text and "%(" not in text
        seen += 1
    assert seen > 20
    std = lexicon.describe(engine.Ruleset.preset("standard"))
    assert "zero w ciemno ±200" in render(std, "pl")
    assert "slepý nil ±200" in render(std, "cs")
    assert "слепой ноль ±200" in render(std, "ru")


@pytest.mark.parametrize(
    ("bid", "pl", "cs", "ru"),
    [
        (engine.Bid.NIL, "Zero", "Nil", "Ноль"),
        (engine.Bid.BLIND_NIL, "Zero w ciemno", "Slepý nil", "Слепой ноль"),
        (engine.Bid.of("blind", 6), "W ciemno 6", "Naslepo 6", "Вслепую 6"),
        (engine.Bid.of("tricks", 4), "4", "4", "4"),
        ("blind_nil", "Zero w ciemno", "Slepý nil", "Слепой ноль"),
    ],
)
def test_bid_labels(bid: Any, pl: str, cs: str, ru: str) -> None:
    label = lexicon.bid_label(bid)
    if isinstance(bid, engine.Bid):
        assert str(label) == bid.label
    assert [render(label, lang) for lang in ("pl", "cs", "ru")] == [pl, cs, ru]


@pytest.mark.parametrize(
    ("typed", "bid"),
    [
        ("zero", "nil"),
        ("Ślepe zero", "blind_nil"),
        ("slepý nil", "blind_nil"),
        ("слепой ноль", "blind_nil"),
        ("ноль", "nil"),
        ("w ciemno 5", "blind 5"),
        ("вслепую 6", "blind 6"),
        ("blind nil", "blind_nil"),
        ("7", "7"),
    ],
)
def test_bids_typed_in_any_language(typed: str, bid: str) -> None:
    assert str(lexicon.parse_bid(typed).to_json()) == bid


def test_a_typo_is_still_refused() -> None:
    with pytest.raises(ValueError):
        lexicon.parse_bid("zerro")


def _refusals(rs: engine.Ruleset, seed: int) -> list[Exception]:
    """Every refusal the engine gives along one random game: each illegal bid, card, pass and
    misdeal call tried at every turn (on clones), then a legal move."""
    rng = random.Random(seed)
    g = engine.Game.new(rs, seed=seed)
    found: list[Exception] = []
    for _step in range(160):
        acting = list(g.seats_to_act())
        if not acting or g.phase.name == "GAME_OVER":
            break
        seat = acting[0]
        other = next((s for s in range(rs.num_seats) if s not in acting), None)
        tries: list[tuple[int, str, Any]] = [(seat, "misdeal", None), (seat, "look", None)]
        if other is not None:
            tries += [(other, "play", 0), (other, "bid", "3")]
        if g.phase.name in ("BID", "DRAW"):
            for b in ("nil", "blind_nil", "blind 3", "blind 20", "0", "20", "1", "4"):
                tries.append((seat, "bid", b))
        for c in rng.sample(range(52), 8):
            tries.append((seat, "play", c))
        tries += [(seat, "pass", [0]), (seat, "pass", [0, 1, 2]), (seat, "pass", [])]
        # a refused action changes nothing (IllegalAction's contract): one clone serves until one is taken
        c = g.clone()
        for who, action, arg in tries:
            try:
                if action == "misdeal":
                    c.misdeal(who)
                elif action == "look":
                    c.look(who)
                elif action == "bid":
                    c.bid(who, arg)
                elif action == "play":
                    c.play(who, arg)
                else:
                    c.pass_cards(who, arg)
            except engine.IllegalAction as exc:
                found.append(exc)
                continue
            except (ValueError, TypeError):
                pass
            c = g.clone()  # taken (or failed outside the rules): a fresh copy for the next try
        try:
            g.apply(bot_action(g, seat, seed=rng.randrange(1 << 30)))
        except engine.IllegalAction:
            break
    return found


def test_engine_refusals_read_the_same_in_english_and_are_translated() -> None:
    seen: dict[str, int] = {}
    said: set[tuple[str, str, str]] = set()
    unknown: set[str] = set()
    for i, rs in enumerate(_rulesets()[::3]):
        for exc in _refusals(rs, seed=i):
            key = (getattr(exc, "code", "?"), str(exc), repr(sorted(vars(exc).items())))
            if key in said:  # the same refusal, worded the same: checked once
                seen[key[0]] += 1
                continue
            said.add(key)
            msg = lexicon.explain(exc)
            assert render(msg, "en") == str(exc)
            seen[getattr(exc, "code", "?")] = seen.get(getattr(exc, "code", "?"), 0) + 1
            if not isinstance(msg, Msg):
                unknown.add(str(exc))
                continue
            for lang in ("pl", "cs", "ru"):
                assert render(msg, lang) != str(exc), (lang, str(exc))
    assert {"must_follow", "bid_not_allowed", "wrong_phase", "not_your_turn"} <= set(seen)
    # every refusal is worded from its code (whose turn it is too: the bot names the player)
    assert not unknown, sorted(unknown)


def test_house_rules_suggestions_keep_the_option_and_translate_the_note() -> None:
    from engine.house_rules import RuleSuggestion, rule_suggestions, rules_suggestions

    found = rule_suggestions("bag") + rule_suggestions("bag_limit=")
    names = [n for n, _v in rules_suggestions("bag") + rules_suggestions("bag_limit=")]
    shown = [lexicon.rules_suggestion(s, "en") for s in found]
    assert names and len(shown) == len(names)
    for name, suggestion, text in zip(names, found, shown, strict=True):
        # an option's name comes with what it does; a value as the engine words it
        assert text.startswith(name) and (" — " in text) is (suggestion.note == "now"), text
    assert lexicon.rules_suggestion(RuleSuggestion("bag_limit=…", "bag_limit=", "now", "10"), "pl") == (
        "bag_limit=… (teraz 10) — " + gettext("pl", lexicon.RULE_BLURBS["bag_limit"])
    )
    assert lexicon.rules_suggestion(RuleSuggestion("bag_limit=10", "bag_limit=10", "preset"), "ru") == (
        "bag_limit=10 (набор)"
    )
    assert lexicon.rules_suggestion(RuleSuggestion("bag_limit=5", "bag_limit=5"), "cs") == "bag_limit=5"


def test_house_rules_refusals_in_every_language() -> None:
    from engine.house_rules import HouseRulesError, check_rules, parse_house_rules

    for text in ("bag_limit", "bag_limit=x", "nosuch=1", "ten_for_200=maybe"):
        with pytest.raises(HouseRulesError) as info:
            parse_house_rules(text)
        msg = lexicon.explain_rules(info.value)
        assert isinstance(msg, Msg) and render(msg, "en") == str(info.value)
        assert render(msg, "pl") != str(info.value) and "`" in render(msg, "pl")
    with pytest.raises(HouseRulesError) as info:
        check_rules("standard", parse_house_rules("bag_limit=-3"))
    assert info.value.code == "out_of_range"
    out_of_range = lexicon.explain_rules(info.value)
    assert (
        render(out_of_range, "en") == "`bag_limit=-3` is out of range: it must be from 1 to 100 (or `off`)."
    )
    assert (
        render(out_of_range, "pl") == "`bag_limit=-3` jest poza zakresem: dozwolone od 1 do 100 (albo `off`)."
    )
    with pytest.raises(HouseRulesError) as info:
        check_rules("standard", parse_house_rules("nil_value=5000"))
    # numbers in the reader's locale: a Polish thousands separator is a space, never a comma
    assert "1\xa0000" in render(lexicon.explain_rules(info.value), "pl")


@pytest.mark.parametrize(
    ("rules", "pl", "ru"),
    [
        (
            "suicide=on nil_pass=0 blind_nil_pass=0 num_seats=6 team_size=3",
            "suicide gra się w parach",
            "suicide играют парами",
        ),
        ("whiz=on mirrors=on", "whiz i mirrors to dwie różne zasady", "whiz и mirrors — два разных правила"),
        ("lose_score=600", "próg porażki (600) musi być niższy niż cel (500)", "счёт поражения (600)"),
    ],
)
def test_rules_that_dont_go_together_say_why_in_the_readers_language(rules: str, pl: str, ru: str) -> None:
    from engine.house_rules import HouseRulesError, check_rules, parse_house_rules

    with pytest.raises(HouseRulesError) as info:
        check_rules("standard", parse_house_rules(rules))
    assert info.value.code == "incompatible"
    msg = lexicon.explain_rules(info.value)
    assert render(msg, "pl").startswith("Te zasady się wykluczają: ") and pl in render(msg, "pl")
    assert ru in render(msg, "ru")


def test_every_reason_the_engine_gives_for_a_bad_ruleset_has_words() -> None:
    """Each ``bad(…, "reason")`` in engine/ruleset.py (and the range check) is worded by the bot."""
    import ast
    from pathlib import Path

    import engine.ruleset

    tree = ast.parse(Path(engine.ruleset.__file__).read_text(encoding="utf-8"))
    reasons = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and len(node.args) >= 2:
            name = getattr(node.func, "id", "") or getattr(node.func, "attr", "")
            if name in ("bad", "RulesetError") and isinstance(node.args[1], ast.Constant):
                reasons.add(node.args[1].value)
    assert len(reasons) > 20
    assert reasons <= lexicon.refusals.incompatible_reasons(), (
        reasons - lexicon.refusals.incompatible_reasons()
    )
