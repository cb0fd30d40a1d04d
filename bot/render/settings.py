"""A server's settings in words: the answer to ``/spades config``."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot import lexicon
from bot.i18n import LANGUAGE_NAMES, LANGUAGES, Text, _, join
from engine.house_rules import format_rules


def server_defaults(
    settings: Mapping[str, Any],
    *,
    bot_level: str | None = None,
    follows: str | None = None,
    by_opener: bool = False,
) -> Text:
    """The server's defaults for new tables: preset, turn times, house rules, the bots' level (when
    the server chose one), the language of public messages (``follows``: the name of the server's
    Discord language, said when the messages follow it; ``by_opener``: the server has no Community,
    so Discord reports no language for it and each table speaks its opener's)."""
    house = format_rules(dict(settings.get("options") or {}))
    params = {
        "preset": lexicon.preset_name(settings.get("default_preset", "standard")),
        "play": settings.get("play_seconds", 60),
        "bid": settings.get("bid_seconds", 90),
    }
    text: Text
    if house:
        text = _(
            "Server defaults: preset **%(preset)s**, %(play)s s to play, %(bid)s s to bid, "
            "house rules `%(rules)s`.",
            rules=house,
            **params,
        )
    else:
        text = _("Server defaults: preset **%(preset)s**, %(play)s s to play, %(bid)s s to bid.", **params)
    if bot_level is not None:
        text = join(text, _("Bots at new tables: %(level)s.", level=bot_level))
    chosen = settings.get("language")
    if chosen in LANGUAGES:
        text = join(text, _("Public messages: %(language)s.", language=LANGUAGE_NAMES[chosen]))
    elif by_opener:
        text = join(
            text,
            _(
                "Public messages: this server has no Community, so Discord tells the bot no server "
                "language: each table speaks the language of the member who opened it."
            ),
        )
    elif follows is not None:
        text = join(
            text, _("Public messages follow the server's language (now %(language)s).", language=follows)
        )
    return text
