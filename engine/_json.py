"""The JSON form of the engine's small value classes (actions and events).

One rule for both, so that an action and an event carrying the same field write it the same way:
``{"kind": ..., <each dataclass field in order>: ...}`` with ``card`` as text (``"QH"``),
``cards`` as texts or ``[seat, text]`` pairs, bids in their HAND_RECORD form and anything with a
``to_dict`` (scores) through it.
"""

from __future__ import annotations

from dataclasses import fields
from typing import Any

from .bids import Bid
from .cards import card_str


def to_json(value: Any) -> Any:
    """``value`` made JSON-safe: bids as ``Bid.to_json``, objects through ``to_dict``,
    tuples as lists, dict keys as strings."""
    if isinstance(value, Bid):
        return value.to_json()
    if hasattr(value, "to_dict"):
        return value.to_dict()
    if isinstance(value, tuple | list):
        return [to_json(v) for v in value]
    if isinstance(value, dict):
        return {str(k): to_json(v) for k, v in value.items()}
    return value


def value_dict(obj: Any) -> dict[str, Any]:
    """``obj`` (a dataclass with a ``kind``) as a JSON-safe dict, cards as text."""
    d: dict[str, Any] = {"kind": obj.kind}
    for f in fields(obj):
        v = getattr(obj, f.name)
        if f.name == "card":
            d["card"] = card_str(v)
        elif f.name == "cards":
            d["cards"] = [[x[0], card_str(x[1])] if isinstance(x, tuple) else card_str(x) for x in v]
        else:
            d[f.name] = to_json(v)
    return d
