"""No user-facing English literal bypasses the catalogs: a text sent, edited, posted, drawn or shown
on a component is a catalog message (``_``, ``_n``, ``N_``, ``gettext``, ``ngettext``), never a
plain string or an f-string with words in it.

A cheap static check over bot/ and cogs/ (the slash commands' own names, descriptions and choices
are translated by the command translator and are not looked at here). A literal that is not a text
for players (a card face's fixed mark) says so with an ``# i18n-ok: why`` comment on its line or
the line above.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SKIP_DIRS = {"sandbox", "storage", "migrations", "locale"}
WORDS = re.compile(r"[A-Za-z]{2,}")

#: keyword arguments that carry what a user reads, whatever the call
USER_KEYWORDS = {"content", "label", "placeholder", "title", "description"}
#: calls where those keywords are the slash commands' (translated by the command translator) or
#: not shown to users
NOT_SHOWN = {
    "command",
    "Group",
    "describe",
    "rename",
    "Choice",
    "ArgumentParser",
    "add_argument",
    "create_task",
}
#: per call: keywords and positional indexes that carry a user-visible text
CALL_ARGS: dict[str, tuple[set[str], set[int]]] = {
    "send": (set(), {0}),
    "send_message": (set(), {0}),
    "edit_message": (set(), {0}),
    "safe_send": (set(), {1}),
    "safe_edit": (set(), {1}),
    "answer_ephemeral": (set(), {1}),
    "reply": (set(), {0}),
    "refuse": (set(), {1}),  # refuse(code, message)
    "refuse_as": (set(), {1}),
    "LeagueRefusal": (set(), {0}),
    "post": ({"content"}, {2}),  # the publisher's post(table_id, channel_id, content)
    "add_field": ({"name", "value"}, set()),
    "set_footer": ({"text"}, set()),
    "set_author": ({"name"}, set()),
    "Embed": ({"title", "description"}, set()),
    "SelectOption": ({"label", "description"}, set()),
    "TextInput": ({"label", "placeholder", "default"}, set()),
    "text": (set(), {1}),  # Pillow's ImageDraw.text(xy, text): words drawn into a picture
}
CATALOG_CALLS = {"_", "_n", "N_", "gettext", "ngettext", "pgettext", "Msg", "Command", "OptionName"}


def _name(func: ast.expr) -> str:
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        return func.attr
    return ""


def _literal_words(node: ast.expr) -> str | None:
    """The literal text of ``node`` if it is a string or f-string with words in it."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        text = node.value
    elif isinstance(node, ast.JoinedStr):
        parts = [v.value for v in node.values if isinstance(v, ast.Constant)]
        text = "".join(p for p in parts if isinstance(p, str))
    elif isinstance(node, ast.IfExp):
        return _literal_words(node.body) or _literal_words(node.orelse)
    elif isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        return _literal_words(node.left) or _literal_words(node.right)
    else:
        return None
    return text if WORDS.search(text) else None


def literals(source: str, filename: str = "<source>") -> Iterator[tuple[int, str]]:
    """(line, text) of every user-facing literal in ``source`` that bypasses the catalogs."""
    lines = source.splitlines()
    for node in ast.walk(ast.parse(source, filename)):
        if not isinstance(node, ast.Call):
            continue
        name = _name(node.func)
        if name in CATALOG_CALLS or name in NOT_SHOWN:
            continue
        keywords, positions = CALL_ARGS.get(name, (set(), set()))
        shown = [kw.value for kw in node.keywords if kw.arg in USER_KEYWORDS | keywords]
        shown += [arg for i, arg in enumerate(node.args) if i in positions]
        for value in shown:
            text = _literal_words(value)
            if text is None:
                continue
            if any("# i18n-ok:" in line for line in lines[max(0, value.lineno - 2) : value.lineno]):
                continue
            yield value.lineno, text


def _sources() -> Iterator[Path]:
    for top in ("bot", "cogs"):
        for path in sorted((ROOT / top).rglob("*.py")):
            if not SKIP_DIRS & set(path.relative_to(ROOT).parts):
                yield path


def test_the_checker_finds_what_it_should() -> None:
    """The check itself: each kind of bypass is found, catalog messages and markup are not."""
    bad = """
await interaction.response.send_message("You are not seated.", ephemeral=True)
view.add_item(Button(label="Leaderboard", emoji="🏆"))
self.publisher.post(t.id, t.channel_id, f"🔔 <@{uid}>, your turn at table {t.id}.")
embed.add_field(name="Score", value=f"{a} points")
d.text((10, 10), "Score", font=f)
Select(placeholder="Pick a hand" if lang else "x")
await safe_send(interaction, "Nothing here yet")
"""
    found = sorted(line for line, _text in literals(bad))
    assert found == [2, 3, 4, 5, 5, 6, 7, 8], found
    good = """
await interaction.response.send_message(gettext(lang, "You are not seated."), ephemeral=True)
view.add_item(Button(label=f"{page} / {pages}", emoji="◀"))
self.publisher.post(t.id, t.channel_id, _("🔔 %(player)s, your turn.", player=mention(uid)))
d.text((10, 10), words.score, font=f)
d.text((10, 10), "JKR", font=f)  # i18n-ok: a card face, the same in every language
app_commands.Choice(name="this channel", value="channel")
asyncio.create_task(job(), name="league-scheduler")
"""
    assert list(literals(good)) == []


def test_no_user_facing_literal_bypasses_the_catalogs() -> None:
    found = [
        f"{path.relative_to(ROOT)}:{line}: {text!r}"
        for path in _sources()
        for line, text in literals(path.read_text(encoding="utf-8"), str(path))
    ]
    assert not found, "texts users read must come from the catalogs (bot.i18n):\n" + "\n".join(found)
