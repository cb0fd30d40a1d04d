"""Every coded refusal, in every language: each reason the engine, the house rules, a ruleset and the
league storage can give is worded by the bot (found in their source, so a new raise without words
fails here), renders to a translated text in Polish, Czech and Russian (its msgids have a msgstr),
and never names a card the engine marks private. An unknown code gets the general refusal and a
warning naming the code, never the engine's text."""

from __future__ import annotations

import ast
import logging
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import engine
import engine.game
import engine.house_rules
import engine.ruleset
from bot import lexicon
from bot.i18n import Joined, ListOf, Msg, read_catalog, render
from bot.league.gateway import LeagueRefusal, storage_codes
from bot.lexicon import refusals
from bot.storage import leagues as league_storage
from bot.table.clock import bot_action
from engine.errors import IllegalAction
from engine.house_rules import HouseRulesError, check_rules, parse_house_rules

LANGS = ("en", "pl", "cs", "ru")
ROOT = Path(__file__).resolve().parents[3]

# ---- the codes, read from the source that raises them --------------------------------------------


def _constants(node: ast.AST) -> Iterator[str]:
    """The string constants an argument can be (``"a" if x else "b"`` gives both)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        yield node.value
    elif isinstance(node, ast.IfExp):
        yield from _constants(node.body)
        yield from _constants(node.orelse)


def _calls(path: Path) -> Iterator[ast.Call]:
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Call):
            yield node


def _name(call: ast.Call) -> str:
    return getattr(call.func, "id", "") or getattr(call.func, "attr", "")


def engine_reasons() -> set[str]:
    """``reason=`` of every refusal in engine/game.py, the bid refusals' third argument and the
    misdeal's ``reason = …``."""
    path = Path(engine.game.__file__)
    found: set[str] = set()
    for call in _calls(path):
        for kw in call.keywords:
            if kw.arg == "reason":
                found.update(_constants(kw.value))
        if _name(call) == "refuse" and len(call.args) >= 3:
            found.update(_constants(call.args[2]))
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Assign) and any(getattr(t, "id", "") == "reason" for t in node.targets):
            found.update(_constants(node.value))
    return found


def house_rules_codes() -> set[str]:
    return {
        code
        for call in _calls(Path(engine.house_rules.__file__))
        if _name(call) == "HouseRulesError" and len(call.args) >= 2
        for code in _constants(call.args[1])
    }


def ruleset_reasons() -> set[str]:
    return {
        reason
        for call in _calls(Path(engine.ruleset.__file__))
        if _name(call) in ("bad", "RulesetError") and len(call.args) >= 2
        for reason in _constants(call.args[1])
    }


_LEAGUE_ERRORS = {
    name
    for name, value in vars(league_storage).items()
    if isinstance(value, type) and issubclass(value, league_storage.LeagueError)
}


def storage_codes_raised() -> set[str]:
    found: set[str] = set()
    for path in sorted((ROOT / "bot" / "storage").glob("league_*.py")):
        for call in _calls(path):
            if _name(call) in _LEAGUE_ERRORS and len(call.args) >= 2:
                found.update(_constants(call.args[1]))
    return found


def test_every_code_raised_has_words_and_no_words_are_left_over() -> None:
    assert len(engine_reasons()) > 35
    assert engine_reasons() == refusals.engine_reasons()
    assert house_rules_codes() | {"incompatible"} == refusals.house_rules_codes()
    assert ruleset_reasons() == refusals.incompatible_reasons()
    assert len(storage_codes_raised()) > 20
    assert storage_codes_raised() == storage_codes()


# ---- each code as a refusal with the fields the engine gives it ----------------------------------

HELD = engine.parse_card("9H")  # a card someone holds: named only where the engine shows it

ENGINE_FIELDS: dict[str, dict[str, Any]] = {
    "no_seat": {"n": 7},
    "wrong_phase": {"action": "play", "phase": "bid"},
    "not_your_turn": {"expected_seat": 2},
    "already_looked": {},
    "blind_nil_off": {},
    "blind_bids_off": {},
    "blind_nil_deficit": {"need": 100, "deficit": -40, "solo": False},
    "blind_bids_deficit": {"need": 100, "deficit": 60, "solo": True},
    "blind_range": {"n": 7},
    "looked_blind_nil": {},
    "looked_blind_bid": {},
    "nil_off": {},
    "bid_range": {"n": 13, "nil": True},
    "look_first": {"variant": "whiz"},
    "mirrors_count": {"n": 3},
    "mirrors_nil": {},
    "whiz_count": {"n": 3, "nil": True},
    "suicide_number": {},
    "suicide_nil": {"partner_bid": engine.Bid.parse("4")},
    "board": {"board": 4, "n": 2, "solo": False},
    "bid_refused": {},
    "not_a_bid": {"bid": "lots", "why": "unknown", "text": "lots", "allowed": (engine.Bid.parse("3"),)},
    "predraw_blind_nil_only": {},
    "already_blind_nil": {},
    "no_pass": {},
    "passed": {},
    "not_a_card": {"card": "9H"},
    "pass_size": {"size": 2},
    "card_not_held": {"card": HELD},
    "exchanged": {},
    "no_exchange": {},
    "exchange_size": {"size": 3},
    "replacement": {},
    "misdeal_off": {},
    "misdeal_spades": {},
    "misdeal_late": {},
    "must_follow": {"suit": engine.HEARTS, "playable": (HELD,)},
    "first_no_spades": {"playable": (HELD,)},
    "first_lead": {"card": engine.parse_card("2C")},
    "spades_not_broken": {"suits": (engine.HEARTS, engine.CLUBS), "playable": (HELD,)},
}
#: the fields the engine marks private (``IllegalAction.private``)
PRIVATE = {"card_not_held": ("card",), "not_a_card": ("card",)}

HOUSE_RULES_TEXT = {
    "not_on_off": ("standard", "ten_for_200=maybe"),
    "not_whole": ("standard", "bag_limit=lots"),
    "no_equals": ("standard", "bag_limit"),
    "no_name": ("standard", "=5"),
    "no_value": ("standard", "bag_limit="),
    "unknown_rule": ("standard", "nosuch=1"),
    "out_of_range": ("standard", "bag_limit=-3"),
    "incompatible": ("standard", "whiz=on mirrors=on"),
}

RULESET_FIELDS: dict[str, Any] = {
    "n": 5,
    "size": 2,
    "variant": "whiz",
    "lose": 600,
    "target": 500,
    "name": "bag_limit",
    "lo": 1,
    "hi": 100,
    "value": 500,
    "off": True,
}

STORAGE_FIELDS: dict[str, Any] = {"user": 4242, "name": "Aces", "n": 3}


def _refusal(reason: str) -> IllegalAction:
    return IllegalAction(
        f"engine text for {reason}",
        seat=1,
        reason=reason,
        private=PRIVATE.get(reason, ()),
        **ENGINE_FIELDS[reason],
    )


def _msgids(value: Any) -> Iterator[tuple[str, str | None]]:
    """Every catalog message a lazy text is made of (its parameters too)."""
    if isinstance(value, Msg):
        yield value.msgid, value.plural
        for param in value.params.values():
            yield from _msgids(param)
    elif isinstance(value, ListOf):
        for item in value.items:
            yield from _msgids(item)
    elif isinstance(value, Joined):
        for part in value.parts:
            yield from _msgids(part)


@pytest.fixture(scope="module")
def catalogs() -> dict[str, dict[str, Any]]:
    return {
        lang: {m.id if isinstance(m.id, str) else m.id[0]: m.string for m in read_catalog(lang)}
        for lang in LANGS[1:]
    }


def _check(msg: Any, catalogs: dict[str, dict[str, Any]], *, hidden: tuple[str, ...] = ()) -> None:
    assert isinstance(msg, Msg), msg
    english = render(msg, "en")
    assert english.strip()
    for lang in LANGS[1:]:
        text = render(msg, lang)
        assert text.strip() and "%(" not in text, (lang, text)
        assert text != english, (lang, english)
        for msgid, _plural in _msgids(msg):
            string = catalogs[lang].get(msgid)
            forms = string if isinstance(string, tuple) else (string,)
            assert string and all(forms), (lang, msgid)
    for lang in LANGS:
        for shown in hidden:
            assert shown not in render(msg, lang), (lang, shown)


@pytest.mark.parametrize("reason", sorted(ENGINE_FIELDS))
def test_every_engine_reason_in_every_language(reason: str, catalogs: dict[str, dict[str, Any]]) -> None:
    exc = _refusal(reason)
    hidden = (engine.card_pretty(HELD), engine.card_str(HELD), "9H") if reason in PRIVATE else ()
    _check(lexicon.explain(exc), catalogs, hidden=hidden)


def test_the_sample_fields_are_the_engines() -> None:
    """The fields above are the ones the engine gives: a few real refusals, field for field."""
    rs = engine.Ruleset.preset("standard")
    g = engine.Game.new(rs, seed=3)
    seat = g.to_act
    assert seat is not None
    real: list[IllegalAction] = []
    for attempt in (
        lambda: g.play(seat, 0),
        lambda: g.bid((seat + 1) % 4, "3"),
        lambda: g.bid(seat, "20"),
        lambda: g.bid(seat, "lots"),
        lambda: g.look(-1),
        lambda: g.pass_cards(seat, [1]),
    ):
        with pytest.raises(IllegalAction) as info:
            attempt()
        real.append(info.value)
    for exc in real:
        # every bid refusal also carries the bid and the bids allowed
        assert set(exc.fields) - {"bid", "allowed"} == set(ENGINE_FIELDS[exc.reason]) - {"bid", "allowed"}
        assert render(lexicon.explain(exc), "en") == str(exc)


def test_a_card_the_player_does_not_hold_is_never_named() -> None:
    g = engine.Game.new(engine.Ruleset.preset("standard"), seed=5)
    while g.phase.name != "PLAY":
        seat = g.seats_to_act()[0]
        g.apply(bot_action(g, seat, seed=1))
    seat = g.seats_to_act()[0]
    neighbour = (seat + 1) % g.num_seats
    held_elsewhere = next(c for c in range(64) if g.hand(neighbour) >> c & 1)
    with pytest.raises(engine.CardNotHeld) as info:
        g.play(seat, held_elsewhere)
    assert info.value.private == {"card"}
    for lang in LANGS:
        text = render(lexicon.explain(info.value), lang)
        assert engine.card_pretty(held_elsewhere) not in text and engine.card_str(held_elsewhere) not in text


def test_a_seat_is_named_as_the_table_names_it() -> None:
    exc = _refusal("not_your_turn")
    msg = lexicon.explain(exc, lambda s: f"Ana (seat {s})")
    assert render(msg, "en") == "It's Ana (seat 2)'s turn, not yours."
    assert "Ana (seat 2)" in render(msg, "pl")


@pytest.mark.parametrize("code", sorted(HOUSE_RULES_TEXT))
def test_every_house_rules_code_in_every_language(code: str, catalogs: dict[str, dict[str, Any]]) -> None:
    preset, text = HOUSE_RULES_TEXT[code]
    with pytest.raises(HouseRulesError) as info:
        check_rules(preset, parse_house_rules(text))
    assert info.value.code == code
    msg = lexicon.explain_rules(info.value)
    if code not in ("incompatible", "out_of_range"):  # those two the bot words more plainly
        assert render(msg, "en") == str(info.value)
    _check(msg, catalogs)


@pytest.mark.parametrize("reason", sorted(ruleset_reasons()))
def test_every_ruleset_reason_in_every_language(reason: str, catalogs: dict[str, dict[str, Any]]) -> None:
    exc = engine.RulesetError("engine text", reason, **RULESET_FIELDS)
    _check(lexicon.explain(exc), catalogs)
    house = HouseRulesError("engine text", "incompatible", reason=reason, **RULESET_FIELDS)
    _check(lexicon.explain_rules(house), catalogs)


@pytest.mark.parametrize("code", sorted(storage_codes_raised()))
def test_every_league_storage_code_in_every_language(code: str, catalogs: dict[str, dict[str, Any]]) -> None:
    refusal = LeagueRefusal.of(league_storage.LeagueError("storage text", code, **STORAGE_FIELDS))
    _check(refusal.message, catalogs)


@pytest.mark.parametrize(
    "exc",
    [
        IllegalAction("You hold 9♥ and 9H.", seat=0, reason="no_such_reason", card=HELD),
        HouseRulesError("You hold 9♥ and 9H.", "no_such_reason"),
        engine.RulesetError("You hold 9♥ and 9H.", "no_such_reason"),
        league_storage.LeagueError("You hold 9♥ and 9H.", "no_such_reason"),
    ],
)
def test_an_unknown_code_gets_the_general_refusal_and_a_warning_naming_the_code(
    exc: Exception, caplog: pytest.LogCaptureFixture, catalogs: dict[str, dict[str, Any]]
) -> None:
    with caplog.at_level(logging.WARNING):
        if isinstance(exc, league_storage.LeagueError):
            msg = LeagueRefusal.of(exc).message
        elif isinstance(exc, HouseRulesError):
            msg = lexicon.explain_rules(exc)
        else:
            msg = lexicon.explain(exc)
    assert msg.msgid == refusals.UNKNOWN
    _check(msg, catalogs, hidden=("9♥", "9H"))
    records = [r for r in caplog.records if r.levelno == logging.WARNING]
    assert records and all("no_such_reason" in r.getMessage() for r in records)
    assert not any("9" in r.getMessage() for r in records)


@pytest.mark.parametrize("typed", ["lots", "-2", "blind 0", "blind_0"])
def test_a_typed_bid_the_engine_cant_read_is_said_in_every_language(
    typed: str, catalogs: dict[str, dict[str, Any]]
) -> None:
    g = engine.Game.new(engine.Ruleset.preset("standard"), seed=2)
    seat = g.to_act
    assert seat is not None
    with pytest.raises(IllegalAction) as info:
        g.bid(seat, typed)
    assert info.value.reason == "not_a_bid"
    msg = lexicon.explain(info.value)
    assert render(msg, "en") == str(info.value)
    _check(msg, catalogs)


def test_every_league_input_refusal_has_a_code_and_a_catalog_message() -> None:
    """The league's refusals of typed input (``LeagueInputError``: schedules, settings, points)
    are raised with a lazy catalog message and a code of their own."""
    from bot.league.errors import LeagueInputError

    kinds = {"ScheduleError", "SettingsError", "PointsError"}
    codes: list[str] = []
    for path in sorted((ROOT / "bot" / "league").glob("*.py")):
        for call in _calls(path):
            if _name(call) not in kinds:
                continue
            assert len(call.args) == 2, (path.name, call.lineno)
            codes.extend(_constants(call.args[1]))
            message = call.args[0]
            lazy = isinstance(message, ast.Call) and _name(message) in ("_", "_n", "explain")
            assert lazy or isinstance(message, ast.Name), (path.name, call.lineno)
    assert len(codes) > 30
    assert len(set(codes)) == len(codes), sorted(c for c in codes if codes.count(c) > 1)
    from bot.league.schedule_input import ScheduleError, parse_time

    with pytest.raises(ScheduleError) as info:
        parse_time("25:00")
    assert isinstance(info.value, LeagueInputError) and info.value.code == "time_range"
    assert render(LeagueRefusal.of(info.value).message, "pl") != str(info.value)
