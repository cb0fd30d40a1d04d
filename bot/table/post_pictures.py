"""The pictures of hand and game posts: the data is read now, the drawing runs in an executor."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bot.model import Table
from bot.pictures import picture_name, score_chart_png, table_png
from bot.replays import game_series, hand_scene
from bot.table.outbound import Picture


def _record_of(t: Table, hand_no: int | None) -> dict[str, Any] | None:
    if t.game is None:
        return None
    for rec in reversed(t.game.hand_records):
        if hand_no is None or rec.get("hand_no") == hand_no:
            return rec
    return None


def _picture_names(t: Table) -> list[str]:
    return [picture_name(s.name if s is not None else "", i) for i, s in enumerate(t.seats)]


def hand_pictures(t: Table, record: dict[str, Any]) -> Callable[[], list[Picture]]:
    """The table after this hand: seats, bids and tricks, the score."""
    scene = hand_scene(record, _picture_names(t), subtitle=t.ruleset.describe()[:70])
    name = f"hand-{record.get('hand_no', 0)}.png"
    return lambda: [(name, table_png(scene))]


def game_pictures(t: Table) -> Callable[[], list[Picture]] | None:
    """At game over: the final table with the winner, and the score over the game's hands."""
    g = t.game
    if g is None or not g.hand_records:
        return None
    names = _picture_names(t)
    records = list(g.hand_records)
    scene = hand_scene(records[-1], names, winner=g.winner, subtitle=t.ruleset.describe()[:70])
    series = game_series(records, names, winner=g.winner, title=f"Score by hand · table {t.id}")
    return lambda: [("game.png", table_png(scene)), ("scores.png", score_chart_png(series))]
