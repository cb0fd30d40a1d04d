"""Languages: message catalogs, lazy messages, locale resolution and the slash-command translator.

English is the source language; Polish, Czech and Russian live in gettext ``.po`` catalogs under
``bot/locale/<lang>/LC_MESSAGES/messages.po``. They are read at run time with Babel (no build
step: a plain ``pip install -e .`` works) and cached per language.

Who sees which language:

- an ephemeral answer is rendered in the clicking user's client language (``interaction.locale``);
- a public message (the table, hand and game posts) in the server's language: the language set with
  ``/spades config language``, else the server's preferred locale on a Community server, else (a
  server without Community always reports en-US) the language of the member who opened the table
  (:func:`public_language`);
- anything unsupported falls back to English.

The service layer stays locale-free: it returns *lazy* messages (:class:`Msg`: a message id, an
optional plural count and named parameters) that the caller renders with :func:`render` in the
viewer's language. Mark texts with

- ``_("Seat %(seat)s is taken.", seat=3)``: a lazy message;
- ``_n("%(n)s trick", "%(n)s tricks", n)``: a lazy plural (``n`` is also a parameter);
- ``N_("Wins")``: marks a constant for extraction and returns it unchanged (render it with
  :func:`gettext` later);
- ``gettext(lang, ...)`` / ``ngettext(lang, ...)``: render now.

Placeholders are Python's named ``%(name)s`` (Babel checks them in every catalog). Parameters that
are themselves lazy (a :class:`Msg`, :class:`Num`, :class:`Joined`, :class:`ListOf`,
:class:`Command`) are rendered in the same language; anything else is inserted with ``str()``.

Every lazy text is a ``str`` whose value is its English rendering: code that compares, searches or
slices it as a string (and every test written before the translations) sees English, the default.
Only :func:`render` (used by ``bot.safe``, the publisher, the views) reads it in another language,
so a lazy text must reach them whole: never format it into an f-string first (use :func:`join` or a
placeholder).

Command, option and choice names and descriptions are translated by :class:`SpadesTranslator`
(discord.py's ``app_commands.Translator``) from the same catalogs, with a ``msgctxt`` per kind
(``command name``, ``command description``, ``choice``), so a name and a UI text with the same
English words can be translated differently.
"""

from __future__ import annotations

import functools
import io
import re
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path
from typing import Any, TypeAlias

import discord
from babel import Locale as BabelLocale
from babel.lists import format_list
from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.numbers import format_decimal, format_percent
from babel.support import Translations
from discord import app_commands

DEFAULT = "en"
LANGUAGES: tuple[str, ...] = ("en", "pl", "cs", "ru")
TRANSLATED: tuple[str, ...] = ("pl", "cs", "ru")
# Each language in its own words (the language picker shows these).
LANGUAGE_NAMES: dict[str, str] = {"en": "English", "pl": "Polski", "cs": "Čeština", "ru": "Русский"}
DOMAIN = "messages"
LOCALE_DIR = Path(__file__).resolve().parent / "locale"

# msgctxt of the slash-command strings (see SpadesTranslator)
CTX_NAME = "command name"
CTX_DESCRIPTION = "command description"
CTX_CHOICE = "choice"

# the keyword specs extraction uses (pybabel's -k): lazy, lazy plural, marker, render-now
KEYWORDS: dict[str, Any] = {
    "_": None,
    "_n": (1, 2),
    "N_": None,
    "gettext": (2,),
    "ngettext": (2, 3),
}


# --------------------------------------------------------------------------------------------
# Locale resolution
# --------------------------------------------------------------------------------------------


@functools.lru_cache(maxsize=256)
def resolve(value: discord.Locale | str | None) -> str:
    """A Discord locale (``discord.Locale.polish``, ``"en-US"``, ``"pt-BR"``, …) or a language code
    to one of :data:`LANGUAGES`; anything unsupported (or None) is English. (Cached: every redraw
    of a live message or panel asks, with a few dozen distinct values.)"""
    if value is None:
        return DEFAULT
    code = value.value if isinstance(value, discord.Locale) else str(value)
    lang = code.strip().replace("_", "-").split("-")[0].lower()
    return lang if lang in LANGUAGES else DEFAULT


def user_language(interaction: discord.Interaction[Any]) -> str:
    """The language of the user who clicked or typed: their client's locale."""
    return resolve(getattr(interaction, "locale", None))


def server_language(settings: Mapping[str, Any] | None, preferred: discord.Locale | str | None = None) -> str:
    """The language of a server's public messages: the one set with ``/spades config language``
    (stored as ``language`` in the guild settings), else the server's preferred locale."""
    chosen = (settings or {}).get("language")
    if isinstance(chosen, str) and chosen in LANGUAGES:
        return chosen
    return resolve(preferred)


def public_language(
    chosen: str | None,
    preferred: discord.Locale | str | None,
    *,
    community: bool,
    opener: str | None = None,
) -> str:
    """The language of a table's public messages: the server's own (``chosen`` with ``/spades
    config language``); else, on a Community server, its preferred locale; else (a server without
    Community reports en-US whatever its members speak) ``opener``'s, the language of the member who
    opened the table; else English."""
    if chosen in LANGUAGES:
        return str(chosen)
    own = resolve(preferred)
    if community or own != DEFAULT or opener not in LANGUAGES:
        return own
    return str(opener)


def follows_opener(chosen: str | None, preferred: discord.Locale | str | None, *, community: bool) -> bool:
    """True when a server's tables speak the language of whoever opens them (see
    :func:`public_language`)."""
    return chosen not in LANGUAGES and not community and resolve(preferred) == DEFAULT


# --------------------------------------------------------------------------------------------
# Catalogs
# --------------------------------------------------------------------------------------------


def po_path(lang: str) -> Path:
    return LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


def read_catalog(lang: str) -> Catalog:
    with po_path(lang).open("rb") as fp:
        return read_po(fp, locale=lang, domain=DOMAIN)


@functools.cache
def translations(lang: str) -> Translations | None:
    """The compiled catalog of ``lang`` (None for English, the source). Fuzzy entries are left out:
    an unreviewed translation shows the English text instead."""
    if lang not in TRANSLATED:
        return None
    buf = io.BytesIO()
    write_mo(buf, read_catalog(lang), use_fuzzy=False)
    buf.seek(0)
    return Translations(fp=buf, domain=DOMAIN)


def _fill(text: str, params: Mapping[str, Any], lang: str) -> str:
    if not params:
        return text
    return text % {k: render(v, lang) for k, v in params.items()}


def gettext(lang: str, message: str, /, **params: Any) -> str:
    """``message`` in ``lang`` with its named ``%(…)s`` placeholders filled."""
    tr = translations(lang)
    text = tr.gettext(message) if tr is not None else message
    return _fill(text, params, lang)


def ngettext(lang: str, singular: str, plural: str, n: int, /, **params: Any) -> str:
    """The plural form for ``n`` in ``lang`` (Polish, Czech and Russian have three); ``%(n)s`` is
    ``n`` unless given."""
    tr = translations(lang)
    text = tr.ngettext(singular, plural, n) if tr is not None else (singular if n == 1 else plural)
    params.setdefault("n", n)
    return _fill(text, params, lang)


def pgettext(lang: str, context: str, message: str) -> str:
    tr = translations(lang)
    return str(tr.pgettext(context, message)) if tr is not None else message


def N_(message: str) -> str:
    """Marks a constant for extraction; it stays English until rendered with :func:`gettext`."""
    return message


# --------------------------------------------------------------------------------------------
# Lazy texts
# --------------------------------------------------------------------------------------------


class Lazy(str):
    """A text rendered later, in the reader's language (:meth:`render`). As a ``str`` it is its
    English rendering, so code and tests that treat it as a plain string keep working (English is
    the default language); only :func:`render` with another language reads it differently."""

    def render(self, lang: str) -> str:  # pragma: no cover - every subclass has its own
        raise NotImplementedError

    def __repr__(self) -> str:
        return f"{type(self).__name__}({str.__repr__(self)})"


def render(value: Any, lang: str) -> str:
    """Any text in ``lang``: lazy values are rendered, a plain string is returned as it is."""
    if isinstance(value, Lazy):
        return value.render(lang)
    return value if isinstance(value, str) else str(value)


class Msg(Lazy):
    """A message rendered later in the viewer's language: id, optional plural, named parameters."""

    msgid: str
    plural: str | None
    n: int | None
    params: Mapping[str, Any]

    def __new__(
        cls,
        msgid: str,
        plural: str | None = None,
        n: int | None = None,
        params: Mapping[str, Any] | None = None,
    ) -> Msg:
        params = dict(params or {})
        self = super().__new__(cls, _message(DEFAULT, msgid, plural, n, params))
        self.msgid, self.plural, self.n, self.params = msgid, plural, n, params
        return self

    def __getnewargs__(self) -> tuple[Any, ...]:
        return (self.msgid, self.plural, self.n, self.params)

    def render(self, lang: str) -> str:
        return _message(lang, self.msgid, self.plural, self.n, self.params)


def _message(lang: str, msgid: str, plural: str | None, n: int | None, params: Mapping[str, Any]) -> str:
    if plural is not None and n is not None:
        return ngettext(lang, msgid, plural, n, **params)
    return gettext(lang, msgid, **params)


class Joined(Lazy):
    """Several texts rendered in one language and joined by ``sep`` (a line of parts, a list)."""

    parts: tuple[Any, ...]
    sep: str

    def __new__(cls, parts: tuple[Any, ...], sep: str = " ") -> Joined:
        self = super().__new__(cls, _joined(DEFAULT, parts, sep))
        self.parts, self.sep = tuple(parts), sep
        return self

    def __getnewargs__(self) -> tuple[Any, ...]:
        return (self.parts, self.sep)

    def render(self, lang: str) -> str:
        return _joined(lang, self.parts, self.sep)


def _joined(lang: str, parts: tuple[Any, ...], sep: str) -> str:
    texts = (render(p, lang) for p in parts if p is not None)
    return sep.join(t for t in texts if t)


#: the language of the public message whose buttons an answer names (set by ``bot.safe`` while it
#: renders a private answer; None elsewhere)
_BUTTONS_LANGUAGE: ContextVar[str | None] = ContextVar("buttons_language", default=None)


class ButtonName(Lazy):
    """A public message's button named inside another text (``press **My hand** on the table``):
    rendered as the button is labelled, in the public message's language (:func:`buttons_in`),
    else in the reader's."""

    msgid: str

    def __new__(cls, msgid: str) -> ButtonName:
        self = super().__new__(cls, msgid)
        self.msgid = msgid
        return self

    def __getnewargs__(self) -> tuple[Any, ...]:
        return (self.msgid,)

    def render(self, lang: str) -> str:
        return gettext(_BUTTONS_LANGUAGE.get() or lang, self.msgid)


@contextmanager
def buttons_in(lang: str) -> Iterator[None]:
    """Render the :class:`ButtonName` pieces of a text in ``lang`` (the public message's) inside
    this block, whatever language the rest of the text is rendered in."""
    token = _BUTTONS_LANGUAGE.set(lang)
    try:
        yield
    finally:
        _BUTTONS_LANGUAGE.reset(token)


def names_buttons(value: Any) -> bool:
    """Whether a lazy text names a public button (a :class:`ButtonName` in it or its parameters)."""
    if isinstance(value, ButtonName):
        return True
    if isinstance(value, Msg):
        return any(names_buttons(v) for v in value.params.values())
    if isinstance(value, Joined):
        return any(names_buttons(p) for p in value.parts)
    if isinstance(value, ListOf):
        return any(names_buttons(i) for i in value.items)
    return False


class Num(Lazy):
    """A number in the viewer's locale (``1 000,5`` in Polish); ``pattern`` is a CLDR pattern."""

    value: float
    pattern: str | None
    percent: bool

    def __new__(cls, value: float, pattern: str | None = None, percent: bool = False) -> Num:
        self = super().__new__(cls, _number(DEFAULT, value, pattern, percent))
        self.value, self.pattern, self.percent = value, pattern, percent
        return self

    def __getnewargs__(self) -> tuple[Any, ...]:
        return (self.value, self.pattern, self.percent)

    def render(self, lang: str) -> str:
        return _number(lang, self.value, self.pattern, self.percent)


def _number(lang: str, value: float, pattern: str | None, percent: bool) -> str:
    if percent:
        return str(format_percent(value, format=pattern, locale=lang))
    return str(format_decimal(value, format=pattern, locale=lang))


class ListOf(Lazy):
    """Items joined as the language joins a list ("a, b and c", "a, b i c", "a, b и c")."""

    items: tuple[Any, ...]
    style: str

    def __new__(cls, items: tuple[Any, ...], style: str = "standard") -> ListOf:
        self = super().__new__(cls, _list(DEFAULT, items, style))
        self.items, self.style = tuple(items), style
        return self

    def __getnewargs__(self) -> tuple[Any, ...]:
        return (self.items, self.style)

    def render(self, lang: str) -> str:
        return _list(lang, self.items, self.style)


def _list(lang: str, items: tuple[Any, ...], style: str) -> str:
    texts = [render(i, lang) for i in items]
    if lang == DEFAULT and len(texts) > 1:
        # the engine's English (and the bot's before translations): no serial comma
        last = " or " if style.startswith("or") else " and "
        return ", ".join(texts[:-1]) + last + texts[-1]
    return str(format_list(texts, style=style, locale=lang)) if texts else ""  # type: ignore[arg-type]


class Command(Lazy):
    """A slash command as the reader's client shows it: ``/spades new`` is ``/piki nowy`` in
    Polish (each word is the command's localized name)."""

    path: str

    def __new__(cls, path: str) -> Command:
        self = super().__new__(cls, _command(DEFAULT, path))
        self.path = path
        return self

    def __getnewargs__(self) -> tuple[Any, ...]:
        return (self.path,)

    def render(self, lang: str) -> str:
        return _command(lang, self.path)


def _command(lang: str, path: str) -> str:
    words = path.lstrip("/").split()
    return "/" + " ".join(pgettext(lang, CTX_NAME, w) for w in words)


class OptionName(Lazy):
    """A slash-command option (or command word) as the reader's client names it (``play_seconds`` is
    ``sekundy_na_zagranie`` in Polish)."""

    word: str

    def __new__(cls, word: str) -> OptionName:
        self = super().__new__(cls, word)
        self.word = word
        return self

    def __getnewargs__(self) -> tuple[Any, ...]:
        return (self.word,)

    def render(self, lang: str) -> str:
        return pgettext(lang, CTX_NAME, self.word)


class ChoiceName(Lazy):
    """A slash-command choice as the reader's client shows it ("Rotating partners (individual
    standings)" is "Zmienne pary (ranking indywidualny)" in Polish)."""

    name: str

    def __new__(cls, name: str) -> ChoiceName:
        self = super().__new__(cls, name)
        self.name = name
        return self

    def __getnewargs__(self) -> tuple[Any, ...]:
        return (self.name,)

    def render(self, lang: str) -> str:
        return pgettext(lang, CTX_CHOICE, self.name)


#: any text the bot shows: a plain string, or a lazy one rendered in the reader's language
Text: TypeAlias = str


def _(message: str, /, **params: Any) -> Msg:
    """A lazy message (rendered later in the viewer's language)."""
    return Msg(message, None, None, params)


def _n(singular: str, plural: str, n: int, /, **params: Any) -> Msg:
    """A lazy plural message; ``%(n)s`` is the count unless given."""
    params.setdefault("n", n)
    return Msg(singular, plural, n, params)


def join(*parts: Any, sep: str = " ") -> Joined:
    return Joined(tuple(parts), sep)


def timestamp(unix: float, style: str = "f") -> str:
    """A Discord timestamp: every client shows it in its own language and time zone."""
    return f"<t:{int(unix)}:{style}>"


def mention(user_id: int) -> str:
    """A user mention (``<@id>``): a message parameter, never an f-string inside ``_()``."""
    return f"<@{int(user_id)}>"


def channel_mention(channel_id: int) -> str:
    return f"<#{int(channel_id)}>"


def role_mention(role_id: int) -> str:
    return f"<@&{int(role_id)}>"


def whole(value: int) -> Lazy:
    """A whole number in the reader's locale (``1,000``, ``1 000`` in Polish, Czech and Russian,
    where a comma is the decimal separator), a negative one with a true minus sign (``−200``)."""
    n = int(value)
    return Num(n) if n >= 0 else Joined(("−", Num(-n)), "")


def signed(value: int) -> str:
    """A point change with its sign (``+10``, ``−30`` with a true minus sign)."""
    return f"+{value}" if value >= 0 else f"−{abs(value)}"


def language_name(lang: str) -> str:
    """A language's own name ("Polski"), as a Babel locale knows it when not in our table."""
    return LANGUAGE_NAMES.get(lang) or (BabelLocale.parse(lang).get_display_name(lang) or lang)


# --------------------------------------------------------------------------------------------
# Slash commands
# --------------------------------------------------------------------------------------------

_NAME_LOCATIONS = (
    app_commands.TranslationContextLocation.command_name,
    app_commands.TranslationContextLocation.group_name,
    app_commands.TranslationContextLocation.parameter_name,
)
_DESCRIPTION_LOCATIONS = (
    app_commands.TranslationContextLocation.command_description,
    app_commands.TranslationContextLocation.group_description,
    app_commands.TranslationContextLocation.parameter_description,
)
# Discord's rule for command and option names (lowercase where the script has case)
NAME_RE = re.compile(r"^[-_\w]{1,32}$")


def context_for(location: app_commands.TranslationContextLocation) -> str | None:
    if location in _NAME_LOCATIONS:
        return CTX_NAME
    if location in _DESCRIPTION_LOCATIONS:
        return CTX_DESCRIPTION
    if location is app_commands.TranslationContextLocation.choice_name:
        return CTX_CHOICE
    return None


class SpadesTranslator(app_commands.Translator):
    """Command, option and choice names and descriptions from the catalogs (Polish, Czech, Russian);
    English is the commands' own text."""

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        lang = resolve(locale)
        ctx = context_for(context.location)
        if lang == DEFAULT or ctx is None or locale.value.split("-")[0] != lang:
            return None
        tr = translations(lang)
        if tr is None:
            return None
        text = str(tr.pgettext(ctx, string.message))
        return None if text == string.message and ctx == CTX_DESCRIPTION else text


async def translated_payload(
    tree: app_commands.CommandTree[Any], guild: discord.abc.Snowflake | None = None
) -> list[dict[str, Any]]:
    """Exactly what ``tree.sync(guild=…)`` sends, translations included, in a stable order (the
    sync hash is taken over this, so a changed translation re-syncs)."""
    commands = tree.get_commands(guild=guild)
    translator = tree.translator
    if translator is not None:
        payload = [await cmd.get_translated_payload(tree, translator) for cmd in commands]
    else:
        payload = [cmd.to_dict(tree) for cmd in commands]
    return sorted(payload, key=lambda c: (c.get("type", 1), c["name"]))


def command_strings(commands: Iterable[Any]) -> Iterator[tuple[str, str]]:
    """(msgctxt, English text) of every name, description and choice of ``commands`` (app command
    objects, groups included): what the catalogs must translate for the slash commands."""
    for cmd in commands:
        yield CTX_NAME, cmd.name
        yield CTX_DESCRIPTION, cmd.description
        if isinstance(cmd, app_commands.Group):
            yield from command_strings(cmd.commands)
            continue
        for param in getattr(cmd, "parameters", ()):
            yield CTX_NAME, param.display_name
            yield CTX_DESCRIPTION, param.description
            for choice in param.choices:
                yield CTX_CHOICE, choice.name


# --------------------------------------------------------------------------------------------
# Command mentions
# --------------------------------------------------------------------------------------------

_COMMAND_CODE = re.compile(r"`/([^`\n]{1,80})`")


class CommandMentions:
    """The synced slash commands' ids, so that a text naming a command in code (```/spades new```,
    in any language's name for it) reads as Discord's clickable mention (``</spades new:123>``).
    Until the ids are known (before the first sync, or when it failed) texts stay as written."""

    def __init__(self) -> None:
        self.ids: dict[str, int] = {}  # top-level command name -> its id
        self.paths: dict[str, str] = {}  # a command path as written in any language -> the path

    def learn(self, ids: Mapping[str, int], payload: Iterable[Mapping[str, Any]]) -> None:
        """``ids`` of the synced top-level commands; ``payload`` what was synced (their
        subcommands and localized names)."""
        paths: dict[str, str] = {}
        for cmd in payload:
            if cmd.get("type", 1) == 1 and cmd.get("name") in ids:
                _command_paths(cmd, (), (), paths)
        self.ids, self.paths = {k: int(v) for k, v in ids.items()}, paths

    def mention(self, text: str) -> str:
        """``text`` with every exact command path in code made a mention."""
        if not self.ids or "`/" not in text:
            return text

        def one(m: re.Match[str]) -> str:
            path = self.paths.get(" ".join(m.group(1).split()).casefold())
            cid = self.ids.get(path.split(" ", 1)[0]) if path else None
            return f"</{path}:{cid}>" if path and cid else m.group(0)

        return _COMMAND_CODE.sub(one, text)


def _command_paths(
    cmd: Mapping[str, Any], path: tuple[str, ...], local: tuple[dict[str, str], ...], out: dict[str, str]
) -> None:
    here = (*path, str(cmd["name"]))
    names = (*local, dict(cmd.get("name_localizations") or {}))
    subs = [o for o in cmd.get("options") or () if o.get("type") in (1, 2)]
    if not subs or any(o.get("type") not in (1, 2) for o in cmd.get("options") or ()):
        canonical = " ".join(here)
        out[canonical.casefold()] = canonical
        for locale in {loc for n in names for loc in n}:
            shown = " ".join(n.get(locale, part) for part, n in zip(here, names, strict=True))
            out.setdefault(shown.casefold(), canonical)
    for sub in subs:
        _command_paths(sub, here, names, out)
