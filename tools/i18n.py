"""Catalog maintenance for the bot's languages (see docs/TRANSLATING.md).

    python tools/i18n.py extract   # bot/locale/messages.pot from bot/ and cogs/ (+ slash commands)
    python tools/i18n.py update    # merge the template into every language's .po
    python tools/i18n.py init xx   # start a new language
    python tools/i18n.py stats     # entries, translated, fuzzy and words per language

Code strings are extracted with Babel (``babel.cfg`` mapping, the keywords in ``bot.i18n.KEYWORDS``,
the same as ``pybabel extract -F babel.cfg -k _ -k _n:1,2 -k N_ -k gettext:2 -k ngettext:2,3``).
Slash-command names, descriptions and choices come from the cogs' command objects, each with its
``msgctxt`` (``command name``, ``command description``, ``choice``).
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from babel.messages.catalog import Catalog  # noqa: E402
from babel.messages.extract import extract_from_dir  # noqa: E402
from babel.messages.frontend import parse_mapping_cfg  # noqa: E402
from babel.messages.pofile import read_po, write_po  # noqa: E402

from bot import i18n  # noqa: E402

POT = i18n.LOCALE_DIR / f"{i18n.DOMAIN}.pot"


def cog_classes() -> list[type]:
    """Every ``commands.Cog`` the modules of ``cogs/`` define (found, not listed: a new cog's
    commands are extracted without touching this file)."""
    import importlib
    import inspect
    import pkgutil

    from discord.ext import commands

    import cogs

    found: list[type] = []
    for info in sorted(pkgutil.iter_modules(cogs.__path__), key=lambda m: m.name):
        module = importlib.import_module(f"cogs.{info.name}")
        for _name, obj in inspect.getmembers(module, inspect.isclass):
            mine = obj.__module__ == module.__name__
            if mine and issubclass(obj, commands.Cog) and obj is not commands.Cog:
                found.append(obj)
    return found


def cog_commands() -> list[object]:
    """The slash commands the cogs define, without starting a bot."""
    return [
        cmd
        for cog in cog_classes()
        for cmd in cog.__cog_app_commands__  # type: ignore[attr-defined]
        if cmd.parent is None
    ]


def template() -> Catalog:
    """Every message the code and the slash commands use, in a fresh catalog."""
    catalog = Catalog(project="spades-bot", domain=i18n.DOMAIN, fuzzy=False)
    with (ROOT / "babel.cfg").open(encoding="utf-8") as fp:
        method_map, options_map = parse_mapping_cfg(fp)
    for filename, lineno, message, comments, context in extract_from_dir(
        ROOT, method_map, options_map, keywords=i18n.KEYWORDS, comment_tags=("TRANSLATORS:",)
    ):
        catalog.add(message, None, [(filename, lineno)], auto_comments=comments, context=context)
    for context, text in i18n.command_strings(cog_commands()):
        if text:
            catalog.add(text, None, [], context=context)
    return catalog


def extract() -> Catalog:
    catalog = template()
    with POT.open("wb") as fp:
        write_po(fp, catalog, width=110, sort_output=False, omit_header=False)
    print(f"{POT.relative_to(ROOT)}: {len(catalog)} messages")
    return catalog


def update() -> None:
    pot = extract()
    for lang in i18n.TRANSLATED:
        path = i18n.po_path(lang)
        with path.open("rb") as fp:
            catalog = read_po(fp, locale=lang, domain=i18n.DOMAIN)
        catalog.update(pot, no_fuzzy_matching=True)
        catalog.fuzzy = False
        with path.open("wb") as fp:
            write_po(fp, catalog, width=110, ignore_obsolete=True)
        print(f"{path.relative_to(ROOT)}: updated")


def init(lang: str) -> None:
    pot = extract()
    path = i18n.po_path(lang)
    if path.exists():
        sys.exit(f"{path} exists: use update")
    catalog = Catalog(locale=lang, domain=i18n.DOMAIN, project="spades-bot")
    catalog.update(pot, no_fuzzy_matching=True)
    catalog.fuzzy = False
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("wb") as fp:
        write_po(fp, catalog, width=110)
    print(f"{path.relative_to(ROOT)}: created; add {lang!r} to LANGUAGES and TRANSLATED in bot/i18n.py")


def stats() -> None:
    for lang in i18n.TRANSLATED:
        catalog = i18n.read_catalog(lang)
        entries = [m for m in catalog if m.id]
        done = [m for m in entries if all(m.string if isinstance(m.string, tuple) else (m.string,))]
        fuzzy = [m for m in entries if m.fuzzy]
        words = sum(len(str(m.id if isinstance(m.id, str) else m.id[0]).split()) for m in entries)
        print(f"{lang}: {len(entries)} entries, {len(done)} translated, {len(fuzzy)} fuzzy, {words} words")


if __name__ == "__main__":
    cmd = sys.argv[1] if len(sys.argv) > 1 else "stats"
    if cmd == "extract":
        extract()
    elif cmd == "update":
        update()
    elif cmd == "init" and len(sys.argv) > 2:
        init(sys.argv[2])
    else:
        stats()
