"""What a new table is opened with, read from a ``/spades new`` (or a rematch) over the server's
stored defaults: the preset, the house rules over it, the turn timers and the bots' level.

Pure: nothing is saved here, and a refusal (a ``Result``) says what was wrong and what is allowed.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

import engine
from bot import lexicon
from bot.i18n import _, join
from bot.model import (
    DEFAULT_BID_SECONDS,
    DEFAULT_PLAY_SECONDS,
    MAX_TURN_SECONDS,
    MIN_TURN_SECONDS,
    Result,
    refuse,
    refuse_as,
)
from bot.table.thinker import level_or_default
from engine import Ruleset
from engine.bots import LEVELS
from engine.house_rules import HouseRulesError, check_rules, parse_house_rules

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class TableOptions:
    """A new table's rules and settings, every one checked."""

    preset: str  # the preset's own name (an alias or another spelling resolved)
    ruleset: Ruleset
    settings: dict[str, Any]  # the table's settings: play_seconds, bid_seconds, bot_level


def stored_seconds(value: Any, default: int) -> int:
    """A server's stored turn timer, checked again when used: anything that is not a whole number
    of seconds in range (stored by an older version, say) falls back to the default."""
    whole = isinstance(value, int) and not isinstance(value, bool)
    if whole and MIN_TURN_SECONDS <= value <= MAX_TURN_SECONDS:
        return int(value)
    if value is not None:
        log.warning("ignoring a stored turn timer out of range (%r s)", str(value)[:20])
    return default


def table_options(
    server: dict[str, Any],
    *,
    preset: str | None = None,
    target: int | None = None,
    play_seconds: int | None = None,
    bid_seconds: int | None = None,
    options: dict[str, Any] | None = None,
    rules: str | None = None,
    bot_level: str | None = None,
) -> TableOptions | Result:
    """The options asked for over the server's defaults (``server``: its stored settings).
    ``rules`` is the house-rules text (``bag_limit=5 ten_for_200=on``) over the preset; the
    server's default house rules apply only when no preset is asked for."""
    name = preset or server.get("default_preset") or "standard"
    try:
        name = Ruleset.preset(name).name  # aliases and spellings ("Classic Online") are fine
    except (ValueError, TypeError):
        presets = ", ".join(engine.PRESETS)
        shown = f"`{str(name)[:30]}`"
        return refuse(
            "unknown_preset",
            _("%(name)s is not a preset. Presets: %(presets)s.", name=shown, presets=presets),
        )
    overrides: dict[str, Any] = dict(server.get("options") or {}) if preset is None else {}
    if overrides:
        # stored server defaults are checked again when used: a row written before a range
        # existed (or by hand) must not open a table the game can't save
        try:
            check_rules(name, dict(overrides))
        except HouseRulesError as exc:
            return refuse(
                "server_rules_broken",
                join(
                    _("This server's default house rules can't be used:"),
                    lexicon.explain_rules(exc),
                    _(
                        "Someone with Manage Server can fix them with `/spades config"
                        " rules:` (or pick a preset in `/spades new`)."
                    ),
                ),
                fields={"rules_code": exc.code, **exc.fields},
            )
    overrides.update(options or {})
    if target is not None:
        overrides["target_score"] = target
    try:
        if rules:
            overrides.update(parse_house_rules(rules))
        ruleset = check_rules(name, overrides)
    except HouseRulesError as exc:
        return refuse_as(exc.code, lexicon.explain_rules(exc), exc.fields)
    settings: dict[str, Any] = {}
    for key, value, default in (
        ("play_seconds", play_seconds, DEFAULT_PLAY_SECONDS),
        ("bid_seconds", bid_seconds, DEFAULT_BID_SECONDS),
    ):
        v = value if value is not None else stored_seconds(server.get(key), default)
        if not MIN_TURN_SECONDS <= v <= MAX_TURN_SECONDS:
            return refuse(
                "timer_range",
                _(
                    "Turn timers must be between %(min)s and %(max)s seconds (you asked for %(asked)s).",
                    min=MIN_TURN_SECONDS,
                    max=MAX_TURN_SECONDS,
                    asked=v,
                ),
            )
        settings[key] = v
    level = bot_level if bot_level is not None else server.get("bot_level")
    if level is not None and level not in LEVELS:
        return refuse(
            "unknown_bot_level",
            _(
                "`%(level)s` is not a bot level. Levels: %(levels)s.",
                level=str(level)[:20],
                levels=", ".join(LEVELS),
            ),
        )
    settings["bot_level"] = level_or_default(level)
    return TableOptions(name, ruleset, settings)
