"""The table service's own refusals, by code: every ``refuse(code, message)`` in bot/table, bot/model
and the cogs names a :data:`bot.model.TableCode` (read from the source: a new refusal without a code
fails here, a code no refusal uses too), and every catalog message a code is said with is
translated in Polish, Czech and Russian with the same parameters, so it renders in every language.
The service's answers carry the code and the fields its words use (a few real refusals)."""

from __future__ import annotations

import ast
import functools
import importlib
import inspect
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any, get_args

import pytest

from bot.i18n import Msg, read_catalog, render
from bot.model import TableCode, refuse, refuse_as

LANGS = ("en", "pl", "cs", "ru")
ROOT = Path(__file__).resolve().parents[3]
SOURCES = sorted(
    [*(ROOT / "bot" / "table").glob("*.py"), ROOT / "bot" / "model.py", *(ROOT / "cogs").glob("*.py")]
)
PLACEHOLDER = re.compile(r"%\((\w+)\)")


def _module(path: Path) -> Any:
    return importlib.import_module(".".join(path.relative_to(ROOT).with_suffix("").parts))


def _name(node: ast.AST) -> str:
    return getattr(node, "id", "") or getattr(node, "attr", "")


def _constants(node: ast.AST) -> Iterator[str]:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        yield node.value
    elif isinstance(node, ast.IfExp):
        yield from _constants(node.body)
        yield from _constants(node.orelse)


class _Messages:
    """The catalog messages (msgid, plural) a message expression in ``tree`` can be made of."""

    def __init__(self, tree: ast.AST, module: Any) -> None:
        self.tree, self.module = tree, module
        self.seen: set[int] = set()

    def of(self, node: ast.AST) -> Iterator[tuple[str, str | None]]:
        if id(node) in self.seen:
            return
        self.seen.add(id(node))
        if isinstance(node, ast.Call) and _name(node.func) in ("_", "_n", "N_") and node.args:
            plural = next(_constants(node.args[1]), None) if _name(node.func) == "_n" else None
            for msgid in _constants(node.args[0]):
                yield msgid, plural
            if not isinstance(node.args[0], ast.Constant):
                yield from self.of(node.args[0])
            for kw in node.keywords:
                yield from self.of(kw.value)
        elif isinstance(node, ast.Call):
            for arg in [*node.args, *(kw.value for kw in node.keywords)]:
                yield from self.of(arg)
            yield from self._function(node.func)
        elif isinstance(node, ast.Name):
            yield from self._value(getattr(self.module, node.id, None))
            for assign in ast.walk(self.tree):  # a local variable: what it is assigned
                if isinstance(assign, (ast.Assign, ast.AnnAssign)) and assign.value is not None:
                    targets = assign.targets if isinstance(assign, ast.Assign) else [assign.target]
                    if any(_name(t) == node.id for t in targets):
                        yield from self.of(assign.value)
        elif isinstance(node, ast.IfExp):
            yield from self.of(node.body)
            yield from self.of(node.orelse)

    def _value(self, value: Any) -> Iterator[tuple[str, str | None]]:
        if isinstance(value, Msg):
            yield value.msgid, value.plural

    def _function(self, func: ast.AST) -> Iterator[tuple[str, str | None]]:
        """A helper that makes the message (``damaged(…)``, ``lexicon.unknown(…)``): its own texts."""
        target: Any = self.module
        for part in (
            [func.id]
            if isinstance(func, ast.Name)
            else [_name(func.value), func.attr]
            if isinstance(func, ast.Attribute)
            else []
        ):
            target = getattr(target, part, None)
        if not inspect.isfunction(target):
            return
        inner = _Messages(ast.parse(inspect.getsource(target).strip()), inspect.getmodule(target))
        for node in ast.walk(inner.tree):
            if isinstance(node, ast.Call) and _name(node.func) in ("_", "_n", "N_"):
                yield from inner.of(node)
                for arg in node.args[:1]:
                    if isinstance(arg, ast.Name):
                        yield from inner._value(Msg(getattr(inner.module, arg.id)))


@functools.cache
def refusals() -> dict[str, set[tuple[str, str | None]]]:
    """Every code ``refuse`` is called with in the sources -> the catalog messages it is said with
    (read once per test process: the sources do not change during a run)."""
    found: dict[str, set[tuple[str, str | None]]] = {}
    for path in SOURCES:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        messages = _Messages(tree, _module(path))
        for call in ast.walk(tree):
            if not (isinstance(call, ast.Call) and _name(call.func) == "refuse" and call.args):
                continue
            codes = list(_constants(call.args[0]))
            assert codes, f"{path.name}:{call.lineno}: refuse() without a code"
            assert len(call.args) >= 2, f"{path.name}:{call.lineno}: refuse() without a message"
            said = set(messages.of(call.args[1]))
            assert said, f"{path.name}:{call.lineno}: no catalog message found for {codes}"
            for code in codes:
                found.setdefault(code, set()).update(said)
    return found


@pytest.fixture(scope="module")
def catalogs() -> dict[str, dict[str, Any]]:
    return {
        lang: {m.id if isinstance(m.id, str) else m.id[0]: m.string for m in read_catalog(lang)}
        for lang in LANGS[1:]
    }


def test_every_table_code_is_used_and_every_refusal_has_one() -> None:
    used = set(refusals())
    assert len(used) > 40
    assert used == set(get_args(TableCode)), used ^ set(get_args(TableCode))


@pytest.mark.parametrize("code", sorted(get_args(TableCode)))
def test_every_table_code_renders_in_every_language(code: str, catalogs: dict[str, dict[str, Any]]) -> None:
    for msgid, plural in sorted(refusals()[code], key=str):
        params = {name: "x" for name in PLACEHOLDER.findall(msgid + (plural or ""))}
        english = render(Msg(msgid, plural, 2 if plural else None, params), "en")
        assert english.strip() and "%(" not in english, (code, msgid)
        for lang in LANGS[1:]:
            string = catalogs[lang].get(msgid)
            forms = string if isinstance(string, tuple) else (string,)
            assert string and all(forms), (code, lang, msgid)
            for form in forms:
                assert set(PLACEHOLDER.findall(form)) <= set(params), (code, lang, form)
            text = render(Msg(msgid, plural, 2 if plural else None, params), lang)
            assert text.strip() and "%(" not in text, (code, lang, msgid)
            # a sentence reads in the language (a button's name, as "Start", may be the same word)
            assert text != english or " " not in msgid, (code, lang, msgid)


def test_a_refusal_carries_its_code_and_the_fields_of_its_words() -> None:
    from bot.i18n import _

    res = refuse("table_full", _("This table is full (%(n)s/%(n)s).", n=4))
    assert (res.ok, res.code, res.fields) == (False, "table_full", {"n": 4})
    assert render(res.message, "pl") != render(res.message, "en")
    passed = refuse_as("must_follow", _("That card is not in your hand."), {"suit": 2})
    assert (passed.ok, passed.code, passed.fields) == (False, "must_follow", {"suit": 2})
