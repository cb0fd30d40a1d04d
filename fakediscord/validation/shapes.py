"""Shapes Discord returns: the nested ``errors`` object, and components and embeds as stored."""

from __future__ import annotations

import copy
from typing import Any

Json = dict[str, Any]


def walk_components(components: list[Any], where: str) -> list[tuple[str, Json]]:
    """Every component with its path (``components.0.components.1``), depth first."""
    out: list[tuple[str, Json]] = []
    for i, comp in enumerate(components):
        if not isinstance(comp, dict):
            continue
        here = f"{where}.{i}"
        out.append((here, comp))
        if isinstance(comp.get("components"), list):
            out += walk_components(comp["components"], f"{here}.components")
        if isinstance(comp.get("accessory"), dict):
            out.append((f"{here}.accessory", comp["accessory"]))
        if isinstance(comp.get("component"), dict):
            out.append((f"{here}.component", comp["component"]))
    return out


def errors_tree(errors: list[str]) -> Json:
    """Discord's nested ``errors`` object (``{"content": {"_errors": [...]}}``) from "path: message"."""
    tree: Json = {}
    for error in errors:
        where, _, message = error.partition(": ")
        node = tree
        for part in where.split("."):
            node = node.setdefault(part, {})
        node.setdefault("_errors", []).append({"code": "FAKE_DISCORD_INVALID", "message": message or error})
    return tree


def normalize_embed(embed: Json) -> Json:
    out = copy.deepcopy(embed)
    out.setdefault("type", "rich")
    return out


def normalize_components(components: list[Json]) -> list[Json]:
    """Store components as Discord returns them: numbered ``id``s, select defaults filled in, and
    emoji ids as strings (snowflakes: a client reading them as numbers would lose digits)."""
    out = copy.deepcopy(components)
    for counter, (_, comp) in enumerate(walk_components(out, "components"), start=1):
        comp.setdefault("id", counter)
        for item in [comp, *(o for o in comp.get("options") or [] if isinstance(o, dict))]:
            emoji = item.get("emoji")
            if isinstance(emoji, dict) and emoji.get("id") is not None:
                emoji["id"] = str(emoji["id"])
        if comp.get("type") in (3, 5, 6, 7, 8):
            comp.setdefault("min_values", 1)
            comp.setdefault("max_values", 1)
    return out
