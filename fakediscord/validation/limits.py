"""The limits Discord documents (https://discord.com/developers/docs) that its OpenAPI spec leaves
out: message and embed sizes, components, commands and their options, autocomplete answers, modals,
scheduled events."""

from __future__ import annotations

import datetime as dt
import unicodedata
from typing import Any

from .shapes import walk_components

Json = dict[str, Any]

MAX_CONTENT = 2000
MAX_EMBEDS = 10
MAX_EMBED_TITLE = 256
MAX_EMBED_DESCRIPTION = 4096
MAX_EMBED_FIELDS = 25
MAX_FIELD_NAME = 256
MAX_FIELD_VALUE = 1024
MAX_FOOTER = 2048
MAX_AUTHOR_NAME = 256
MAX_EMBED_TOTAL = 6000
MAX_ACTION_ROWS = 5
MAX_ROW_BUTTONS = 5
MAX_SELECT_OPTIONS = 25
MAX_BUTTON_LABEL = 80
MAX_CUSTOM_ID = 100
MAX_V2_COMPONENTS = 40
MAX_V2_TEXT = 4000
MAX_COMMAND_OPTIONS = 25
MAX_CHOICES = 25
# Raised from 4,000 in February 2024; the longest localization of each field counts.
MAX_COMMAND_TOTAL = 8000


def check_limits(kind: str, body: Any) -> list[str]:
    """The documented limits for a message, command, autocomplete answer, modal or scheduled event."""
    if not isinstance(body, dict):
        return []
    checker = {
        "message": _message_limits,
        "message_edit": _message_limits,
        "command": _command_limits,
        "autocomplete": _autocomplete_limits,
        "modal": _modal_limits,
        "scheduled_event": _event_limits,
    }[kind]
    return checker(body)


def _too_long(errors: list[str], where: str, value: Any, limit: int, minimum: int = 0) -> None:
    if isinstance(value, str) and not minimum <= len(value) <= limit:
        if len(value) > limit:
            errors.append(f"{where}: Must be {limit} or fewer in length (got {len(value)}).")
        else:
            errors.append(f"{where}: Must be at least {minimum} in length (got {len(value)}).")


def _message_limits(body: Json) -> list[str]:
    errors: list[str] = []
    flags = int(body.get("flags") or 0)
    v2 = bool(flags & (1 << 15))
    _too_long(errors, "content", body.get("content"), MAX_CONTENT)
    embeds = body.get("embeds") or []
    if v2 and (body.get("content") or embeds):
        errors.append("content/embeds: not allowed with the IS_COMPONENTS_V2 flag")
    if len(embeds) > MAX_EMBEDS:
        errors.append(f"embeds: Must be {MAX_EMBEDS} or fewer in length (got {len(embeds)}).")
    total = 0
    for i, embed in enumerate(embeds):
        if isinstance(embed, dict):
            total += _embed_limits(errors, f"embeds.{i}", embed)
    if total > MAX_EMBED_TOTAL:
        errors.append(f"embeds: Embed size exceeds maximum size of {MAX_EMBED_TOTAL} (got {total}).")
    components = body.get("components")
    if components:
        _components_limits(errors, components, v2)
    return errors


def _embed_limits(errors: list[str], where: str, embed: Json) -> int:
    total = 0
    for key, limit in (("title", MAX_EMBED_TITLE), ("description", MAX_EMBED_DESCRIPTION)):
        value = embed.get(key)
        _too_long(errors, f"{where}.{key}", value, limit)
        total += len(value) if isinstance(value, str) else 0
    fields = embed.get("fields") or []
    if len(fields) > MAX_EMBED_FIELDS:
        errors.append(f"{where}.fields: Must be {MAX_EMBED_FIELDS} or fewer in length (got {len(fields)}).")
    for j, f in enumerate(fields):
        if not isinstance(f, dict):
            continue
        _too_long(errors, f"{where}.fields.{j}.name", f.get("name"), MAX_FIELD_NAME, 1)
        _too_long(errors, f"{where}.fields.{j}.value", f.get("value"), MAX_FIELD_VALUE, 1)
        total += len(str(f.get("name") or "")) + len(str(f.get("value") or ""))
    footer = (embed.get("footer") or {}).get("text")
    _too_long(errors, f"{where}.footer.text", footer, MAX_FOOTER)
    total += len(footer) if isinstance(footer, str) else 0
    author = (embed.get("author") or {}).get("name")
    _too_long(errors, f"{where}.author.name", author, MAX_AUTHOR_NAME)
    total += len(author) if isinstance(author, str) else 0
    return total


def _components_limits(errors: list[str], components: list[Any], v2: bool) -> None:
    if not v2:
        if len(components) > MAX_ACTION_ROWS:
            errors.append(
                f"components: Must be {MAX_ACTION_ROWS} or fewer in length (got {len(components)})."
            )
        for i, row in enumerate(components):
            if not isinstance(row, dict):
                continue
            if row.get("type") != 1:
                errors.append(
                    f"components.{i}.type: top-level components must be action rows without IS_COMPONENTS_V2"
                )
                continue
            _row_limits(errors, f"components.{i}", row)
    else:
        every = walk_components(components, "components")
        if len(every) > MAX_V2_COMPONENTS:
            errors.append(f"components: at most {MAX_V2_COMPONENTS} components in all (got {len(every)}).")
        text = sum(len(str(c.get("content") or "")) for _, c in every if c.get("type") == 10)
        if text > MAX_V2_TEXT:
            errors.append(f"components: text displays total {text} characters (max {MAX_V2_TEXT}).")
        for where, comp in every:
            if comp.get("type") == 1:
                _row_limits(errors, where, comp)
    seen: dict[str, str] = {}
    for where, comp in walk_components(components, "components"):
        _component_limits(errors, where, comp)
        cid = comp.get("custom_id")
        if isinstance(cid, str):
            if cid in seen:
                errors.append(
                    f"{where}.custom_id: Component custom id cannot be duplicated "
                    f"({cid!r}, also at {seen[cid]})"
                )
            seen[cid] = where


def _row_limits(errors: list[str], where: str, row: Json) -> None:
    inner = [c for c in row.get("components") or [] if isinstance(c, dict)]
    if not inner:
        errors.append(f"{where}.components: an action row needs 1 to 5 components")
    buttons = [c for c in inner if c.get("type") == 2]
    selects = [c for c in inner if c.get("type") in (3, 5, 6, 7, 8)]
    if len(buttons) > MAX_ROW_BUTTONS:
        errors.append(
            f"{where}.components: Must be {MAX_ROW_BUTTONS} or fewer in length (got {len(buttons)} buttons)."
        )
    if selects and len(inner) > 1:
        errors.append(f"{where}.components: a select menu must be alone in its action row")


def _component_limits(errors: list[str], where: str, comp: Json) -> None:
    ctype = comp.get("type")
    cid = comp.get("custom_id")
    _too_long(errors, f"{where}.custom_id", cid, MAX_CUSTOM_ID, 1)
    if ctype == 2:
        _too_long(errors, f"{where}.label", comp.get("label"), MAX_BUTTON_LABEL)
        style = comp.get("style")
        if style == 5:
            if not comp.get("url") or cid is not None:
                errors.append(f"{where}: a link button needs a url and no custom_id")
        elif style == 6:
            if not comp.get("sku_id"):
                errors.append(f"{where}: a premium button needs a sku_id")
        elif cid is None:
            errors.append(f"{where}.custom_id: required for a non-link button")
        if style != 6 and not comp.get("label") and not comp.get("emoji"):
            errors.append(f"{where}: a button needs a label or an emoji")
    elif ctype in (3, 5, 6, 7, 8):
        if cid is None:
            errors.append(f"{where}.custom_id: required for a select menu")
        _too_long(errors, f"{where}.placeholder", comp.get("placeholder"), 150)
        lo, hi = comp.get("min_values", 1), comp.get("max_values", 1)
        if not (isinstance(lo, int) and 0 <= lo <= 25 and isinstance(hi, int) and 1 <= hi <= 25 and lo <= hi):
            errors.append(f"{where}: min_values/max_values must satisfy 0 <= min <= max <= 25, 1 <= max")
        if ctype == 3:
            options = comp.get("options") or []
            if not 1 <= len(options) <= MAX_SELECT_OPTIONS:
                errors.append(
                    f"{where}.options: Must be between 1 and {MAX_SELECT_OPTIONS} in length "
                    f"(got {len(options)})."
                )
            if isinstance(hi, int) and hi > len(options) and options:
                errors.append(f"{where}.max_values: {hi} is more than the {len(options)} options")
            values: set[str] = set()
            for k, opt in enumerate(options):
                if not isinstance(opt, dict):
                    continue
                _too_long(errors, f"{where}.options.{k}.label", opt.get("label"), 100, 1)
                _too_long(errors, f"{where}.options.{k}.value", opt.get("value"), 100, 1)
                _too_long(errors, f"{where}.options.{k}.description", opt.get("description"), 100)
                if opt.get("value") in values:
                    errors.append(f"{where}.options.{k}.value: duplicate option value {opt.get('value')!r}")
                values.add(str(opt.get("value")))
    elif ctype == 4:
        _too_long(errors, f"{where}.label", comp.get("label"), 45)
        _too_long(errors, f"{where}.placeholder", comp.get("placeholder"), 100)
        _too_long(errors, f"{where}.value", comp.get("value"), 4000)


def _name_ok(name: Any) -> bool:
    """``^[-_\\p{L}\\p{N}]{1,32}$`` and lower case where a lower case form exists."""
    if not isinstance(name, str) or not 1 <= len(name) <= 32 or name != name.lower():
        return False
    return all(ch in "-_" or unicodedata.category(ch)[0] in "LN" for ch in name)


def _command_limits(cmd: Json) -> list[str]:
    errors: list[str] = []
    ctype = cmd.get("type", 1)
    name = cmd.get("name")
    total = 0
    if ctype == 1:
        if not _name_ok(name):
            errors.append(f"name: {name!r} must match ^[-_\\p{{L}}\\p{{N}}]{{1,32}}$ in lower case")
        _too_long(errors, "description", cmd.get("description"), 100, 1)
        if not isinstance(cmd.get("description"), str):
            errors.append("description: required (1-100 characters) for a slash command")
    else:
        _too_long(errors, "name", name, 32, 1)
        if cmd.get("description"):
            errors.append("description: must be empty for user and message commands")
    total += _longest(cmd, "name") + _longest(cmd, "description")
    total += _options_limits(errors, "options", cmd.get("options") or [], depth=0)
    if total > MAX_COMMAND_TOTAL:
        errors.append(
            f"name: command {name!r} has {total} characters in names, descriptions and choices, counting"
            f" each field's longest localization (max {MAX_COMMAND_TOTAL})"
        )
    return errors


def _longest(obj: Json, field: str) -> int:
    """A field's length for the command size limit: its longest localization, or the default."""
    texts = [str(obj.get(field) or "")]
    localized = obj.get(f"{field}_localizations")
    if isinstance(localized, dict):
        texts += [str(t) for t in localized.values() if t]
    return max(len(t) for t in texts)


def _options_limits(errors: list[str], where: str, options: list[Any], depth: int) -> int:
    total = 0
    if len(options) > MAX_COMMAND_OPTIONS:
        errors.append(f"{where}: Must be {MAX_COMMAND_OPTIONS} or fewer in length (got {len(options)}).")
    names: set[str] = set()
    seen_optional = False
    kinds = {o.get("type") in (1, 2) for o in options if isinstance(o, dict)}
    if len(kinds) > 1:
        errors.append(f"{where}: subcommands cannot be mixed with other options")
    for i, opt in enumerate(options):
        if not isinstance(opt, dict):
            continue
        here = f"{where}.{i}"
        oname = opt.get("name")
        if not _name_ok(oname):
            errors.append(f"{here}.name: {oname!r} must match ^[-_\\p{{L}}\\p{{N}}]{{1,32}}$ in lower case")
        if oname in names:
            errors.append(f"{here}.name: duplicate option name {oname!r}")
        names.add(str(oname))
        _too_long(errors, f"{here}.description", opt.get("description"), 100, 1)
        total += _longest(opt, "name") + _longest(opt, "description")
        otype = opt.get("type")
        if otype in (1, 2):
            if (otype == 2 and depth > 0) or (otype == 1 and depth > 1):
                errors.append(f"{here}.type: subcommands nest at most group > subcommand")
            total += _options_limits(errors, f"{here}.options", opt.get("options") or [], depth + 1)
            continue
        if opt.get("required"):
            if seen_optional:
                errors.append(f"{here}.required: required options must come before optional ones")
        else:
            seen_optional = True
        choices = opt.get("choices") or []
        if len(choices) > MAX_CHOICES:
            errors.append(f"{here}.choices: Must be {MAX_CHOICES} or fewer in length (got {len(choices)}).")
        if choices and opt.get("autocomplete"):
            errors.append(f"{here}.autocomplete: cannot be combined with choices")
        for k, choice in enumerate(choices):
            if not isinstance(choice, dict):
                continue
            _too_long(errors, f"{here}.choices.{k}.name", choice.get("name"), 100, 1)
            value = choice.get("value")
            _too_long(errors, f"{here}.choices.{k}.value", value, 100, 1)
            total += _longest(choice, "name") + len(str(value))
        lo, hi = opt.get("min_length"), opt.get("max_length")
        if (lo is not None and not 0 <= lo <= 6000) or (hi is not None and not 1 <= hi <= 6000):
            errors.append(f"{here}: min_length must be 0..6000 and max_length 1..6000")
    return total


def _autocomplete_limits(data: Json) -> list[str]:
    errors: list[str] = []
    choices = data.get("choices")
    if not isinstance(choices, list):
        return ["choices: required (an array of at most 25 choices)"]
    if len(choices) > MAX_CHOICES:
        errors.append(f"choices: Must be {MAX_CHOICES} or fewer in length (got {len(choices)}).")
    for k, choice in enumerate(choices):
        if not isinstance(choice, dict):
            continue
        _too_long(errors, f"choices.{k}.name", choice.get("name"), 100, 1)
        _too_long(errors, f"choices.{k}.value", choice.get("value"), 100, 1)
    return errors


def _modal_limits(data: Json) -> list[str]:
    errors: list[str] = []
    _too_long(errors, "title", data.get("title"), 45, 1)
    _too_long(errors, "custom_id", data.get("custom_id"), MAX_CUSTOM_ID, 1)
    rows = data.get("components") or []
    if not 1 <= len(rows) <= 5:
        errors.append(f"components: Must be between 1 and 5 in length (got {len(rows)}).")
    for where, comp in walk_components(rows, "components"):
        _component_limits(errors, where, comp)
        if comp.get("type") == 18:
            _too_long(errors, f"{where}.label", comp.get("label"), 45, 1)
    return errors


def _event_limits(data: Json) -> list[str]:
    errors: list[str] = []
    _too_long(errors, "name", data.get("name"), 100, 1)
    _too_long(errors, "description", data.get("description"), 1000)
    if data.get("entity_type") == 3:
        location = (data.get("entity_metadata") or {}).get("location")
        if not isinstance(location, str) or not 1 <= len(location) <= 100:
            errors.append("entity_metadata.location: an external event needs a location of 1-100 characters")
        if not data.get("scheduled_end_time"):
            errors.append("scheduled_end_time: required for an external event")
    start, end = parse_time(data.get("scheduled_start_time")), parse_time(data.get("scheduled_end_time"))
    if start is not None and end is not None and end <= start:
        errors.append("scheduled_end_time: must be after scheduled_start_time")
    return errors


def parse_time(value: Any) -> float | None:
    if not isinstance(value, str):
        return None
    try:
        when = dt.datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=dt.UTC)
    return when.timestamp()
