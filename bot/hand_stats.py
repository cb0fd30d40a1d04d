"""The stats rows of a finished hand, from the engine's ``HandScored``.

No scoring rule lives here: whether a contract or a nil was made, and how many bags a side took,
is the engine's per-side breakdown. This module only attributes those numbers to the seats that
played them; the table store hands the rows to storage with the hand's save.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine import HandScored

from .storage.models import HandPlayerRow


def hand_player_rows(result: Mapping[str, Any], players: Sequence[Mapping[str, Any]]) -> list[HandPlayerRow]:
    """One stats row per seat, from a hand's result in its dict form (``HandScored.to_dict()`` or a
    HAND_RECORD.md ``result``: ``tricks`` and the per-side ``breakdown``)."""
    breakdown: list[dict[str, Any]] = list(result.get("breakdown") or [])
    tricks: list[int] = list(result.get("tricks") or [])
    with_bots = any(bool(p.get("is_bot")) for p in players)
    rows: list[HandPlayerRow] = []
    for player in players:
        seat = int(player["seat"])
        side_no: int | None = None
        side: dict[str, Any] = {}
        for i, entry in enumerate(breakdown):
            if seat in entry.get("seats", ()):
                side_no, side = i, entry
                break
        nil = next((n for n in side.get("nils", ()) if n.get("seat") == seat), None)
        made = side.get("made")
        rows.append(
            {
                "seat": seat,
                "side": side_no,
                "user_id": None if player.get("is_bot") else player.get("user_id"),
                "is_bot": bool(player.get("is_bot")),
                "with_bots": with_bots,
                "tricks": int(tricks[seat]) if seat < len(tricks) else 0,
                # a seat that did not bid nil is part of its side's contract (made is None only
                # when the side bid nothing but nils)
                "contract_bid": nil is None and made is not None,
                "contract_made": nil is None and made is True,
                "nil_attempted": nil is not None,
                "nil_made": bool(nil and nil.get("made")),
                "blind_nil": bool(nil and nil.get("kind") == "blind_nil"),
                "bags": int(side.get("bags", 0) or 0),
                "points": int(side.get("points", 0) or 0),
            }
        )
    return rows


def scored_rows(scored: HandScored, players: Sequence[Mapping[str, Any]]) -> list[HandPlayerRow]:
    """The stats rows of the hand the engine just scored (``players``: ``bot.model.players``)."""
    return hand_player_rows(scored.to_dict(), players)
