"""House rules as players type them: ``bag_limit=5 lose_score=-200 ten_for_200=on``.

Pure text <-> ``Ruleset`` options; whether options go together is ``Ruleset``'s call.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from .ruleset import RANGES, Ruleset, fmt_int

_ON = {"on", "true", "yes", "y", "1"}
_OFF = {"off", "false", "no", "n", "0"}
_NONE = {"off", "none", "null", "no", "-"}
#: values offered by autocomplete beyond on/off and the preset's own value
_SUGGEST: dict[str, tuple[str, ...]] = {
    "target_score": ("250", "300", "500", "750", "1000"),
    "lose_score": ("-200", "-250", "-500", "off"),
    "max_hands": ("5", "10", "off"),
    "bag_limit": ("5", "10", "off"),
    "bag_penalty": ("50", "100", "150"),
    "bag_value": ("0", "1"),
    "nil_value": ("50", "100"),
    "blind_nil_value": ("100", "200"),
    "blind_nil_pass": ("0", "1", "2", "3"),
    "nil_pass": ("0", "1", "2", "3"),
    "blind_nil_min_deficit": ("0", "100", "200"),
    "blind_bid_max": ("6", "7", "13"),
    "blind_bid_min_deficit": ("0", "100", "200"),
    "board": ("0", "3", "4"),
    "ten_for_value": ("150", "200"),
    "set_limit": ("1", "2", "3", "off"),
    "num_seats": ("2", "3", "4", "5", "6"),
    "team_size": ("2", "3"),
    "decks": ("1", "2"),
}


class HouseRulesError(ValueError):
    """A house-rules text that can't be read; the message says what was wrong and what is allowed.
    ``code`` says which refusal it is (``out_of_range``: ``fields`` has ``name``, ``value``, ``lo``,
    ``hi`` and ``off``; ``incompatible``: ``fields`` has the ruleset's ``reason`` and its values;
    ``no_name`` (``=5``): ``token`` and ``example``; ``no_value`` (``bag_limit=``): ``token`` and
    ``name``; ``no_equals`` (``bag_limit``): ``token``; ``not_on_off`` and ``not_whole``: ``name``
    and ``raw`` (and ``off`` when `off` is allowed); ``unknown_rule``: ``name`` and ``rules``) so a
    front end can word it in the player's language."""

    def __init__(self, message: str, code: str = "", **fields: object) -> None:
        super().__init__(message)
        self.code = code
        self.fields = fields


def rule_kinds() -> dict[str, str]:
    """Every ruleset option a table may change, with its kind: ``bool``, ``int`` or ``int | None``."""
    return {f.name: str(f.type) for f in dataclasses.fields(Ruleset) if f.name != "name"}


def _rule_value(name: str, kind: str, raw: str) -> Any:
    low = raw.strip().lower().replace("−", "-")
    if kind == "bool":
        if low in _ON:
            return True
        if low in _OFF:
            return False
        raise HouseRulesError(
            f"`{name}` is on or off, not `{raw[:20]}`.", "not_on_off", name=name, raw=raw[:20]
        )
    if kind == "int | None" and low in _NONE:
        return None
    try:
        return int(low)
    except ValueError:
        extra = " (or `off`)" if kind == "int | None" else ""
        raise HouseRulesError(
            f"`{name}` takes a whole number{extra}, not `{raw[:20]}`.",
            "not_whole",
            name=name,
            raw=raw[:20],
            off=bool(extra),
        ) from None


def parse_house_rules(text: str) -> dict[str, Any]:
    """``"bag_limit=5 ten_for_200=on"`` -> ``{"bag_limit": 5, "ten_for_200": True}``.

    Only reads the text; whether the options go together is the engine's call (``Ruleset``).

    >>> options = parse_house_rules("bag_limit=5 ten_for_200=on")
    >>> options, format_rules(options)
    ({'bag_limit': 5, 'ten_for_200': True}, 'bag_limit=5 ten_for_200=on')
    >>> check_rules("standard", options).describe()
    'standard: to 500 · nil ±100 · blind nil ±200 (pass 3) · 5 bags = −100 · 10 for 200'
    """
    kinds = rule_kinds()
    out: dict[str, Any] = {}
    for token in text.replace(",", " ").split():
        if "=" not in token:
            raise HouseRulesError(
                f"`{token[:30]}` has no value: write options as name=value, e.g. `bag_limit=5`.",
                "no_equals",
                token=token[:30],
            )
        name, raw = token.split("=", 1)
        key = name.strip().lower().replace("-", "_")
        if not key:
            example = f"bag_limit{token[:20]}"
            raise HouseRulesError(
                f"`{token[:30]}` names no rule: write the rule's name before `=`, e.g. `{example}`.",
                "no_name",
                token=token[:30],
                example=example,
            )
        if not raw.strip():
            raise HouseRulesError(
                f"`{token[:30]}` has no value after `=`: e.g. `{key[:30]}=5`.",
                "no_value",
                token=token[:30],
                name=key[:30],
            )
        if key not in kinds:
            raise HouseRulesError(
                f"`{name[:30]}` is not a rule. Rules: {', '.join(kinds)}.",
                "unknown_rule",
                name=name[:30],
                rules=tuple(kinds),
            )
        out[key] = _rule_value(key, kinds[key], raw)
    return out


def format_rules(options: dict[str, Any]) -> str:
    """The house-rules text for options (the inverse of ``parse_house_rules``)."""

    def text(v: Any) -> str:
        if v is None:
            return "off"
        if isinstance(v, bool):
            return "on" if v else "off"
        return str(v)

    return " ".join(f"{k}={text(v)}" for k, v in options.items())


def check_rules(preset: str, options: dict[str, Any]) -> Ruleset:
    """The ruleset for a preset with house rules; raises HouseRulesError saying what is wrong."""
    for name, value in options.items():
        bounds = RANGES.get(name)
        if bounds is not None and isinstance(value, int) and not bounds[0] <= value <= bounds[1]:
            lo, hi, what = bounds
            shown = str(value) if len(str(value)) <= 12 else str(value)[:10] + "…"
            off = rule_kinds().get(name) == "int | None"
            raise HouseRulesError(
                f"`{name}={shown}` is out of range: {what} must be from {fmt_int(lo)} to {fmt_int(hi)}"
                + (" (or `off`)." if off else "."),
                "out_of_range",
                name=name,
                value=shown,
                lo=lo,
                hi=hi,
                off=off,
            )
    try:
        return Ruleset.preset(preset, **options)
    except (ValueError, TypeError) as exc:
        reason = getattr(exc, "reason", "")
        fields = dict(getattr(exc, "fields", {}))
        raise HouseRulesError(
            f"Those rules don't go together: {str(exc).rstrip('.')}.", "incompatible", reason=reason, **fields
        ) from None


@dataclasses.dataclass(frozen=True)
class RuleSuggestion:
    """One house-rules autocomplete entry: ``value`` is the text it completes to, shown as
    ``shown`` (``bag_limit=5``, ``bag_limit=…``) with a ``note``: ``now`` (the preset's value is
    ``current``), ``preset`` (this is the preset's value) or none; ``label`` is the English."""

    shown: str
    value: str
    note: str = ""
    current: str = ""

    @property
    def label(self) -> str:
        if self.note == "now":
            return f"{self.shown} (now {self.current})"
        if self.note == "preset":
            return f"{self.shown} (preset)"
        return self.shown


def rules_suggestions(text: str, preset: str | None = None) -> list[tuple[str, str]]:
    """Autocomplete for the house-rules option: (label, full value) pairs, at most 25, each under
    Discord's 100 characters. Completes the last word: an option name, then its values."""
    return [(s.label[:100], s.value) for s in rule_suggestions(text, preset)]


def rule_suggestions(text: str, preset: str | None = None) -> list[RuleSuggestion]:
    """The entries of :func:`rules_suggestions` with their parts, for a front end that words the
    notes in its reader's language."""
    kinds = rule_kinds()
    try:
        base = Ruleset.preset(preset or "standard")
    except (ValueError, TypeError):
        base = Ruleset()
    done, _, last = text.rpartition(" ") if not text.endswith(" ") else (text.rstrip(), "", "")
    prefix = (done.strip() + " ") if done.strip() else ""
    used = {t.split("=", 1)[0].lower() for t in prefix.split()}
    out: list[RuleSuggestion] = []
    if "=" in last:
        name, _, partial = last.partition("=")
        key = name.lower().replace("-", "_")
        kind = kinds.get(key)
        if kind is None:
            return []
        current = format_rules({key: getattr(base, key)}).split("=", 1)[1]
        values = ["on", "off"] if kind == "bool" else [current, *_SUGGEST.get(key, ())]
        for v in dict.fromkeys(values):
            if v.startswith(partial.lower()):
                typed = f"{prefix}{key}={v}"
                out.append(RuleSuggestion(typed, typed, "preset" if v == current else ""))
    else:
        partial = last.lower().replace("-", "_")
        names = [k for k in kinds if k not in used and k.startswith(partial)]
        names += [k for k in kinds if k not in used and partial in k and k not in names]
        for key in names:
            now_ = format_rules({key: getattr(base, key)}).split("=", 1)[1]
            out.append(RuleSuggestion(f"{prefix}{key}=…", f"{prefix}{key}=", "now", now_))
    return [s for s in out if len(s.value) <= 100][:25]
