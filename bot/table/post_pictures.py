"""The pictures of hand and game posts: the data is read now, the drawing (in the server's
language, which the publisher knows only when the post goes out) runs in an executor."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bot.i18n import gettext, render
from bot.lexicon import describe
from bot.model import Table
from bot.pictures import score_chart_png, table_png
from bot.render.scenes import game_series, hand_scene, picture_language, picture_names
from bot.table.outbound import Picture

#: draws a post's pictures in a language (the server's)
Pictures = Callable[[str], list[Picture]]


def _record_of(t: Table, hand_no: int | None) -> dict[str, Any] | None:
    if t.game is None:
        return None
    for rec in reversed(t.game.hand_records):
        if hand_no is None or rec.get("hand_no") == hand_no:
            return rec
    return None


def _names(t: Table) -> list[str]:
    return [s.name if s is not None else "" for s in t.seats]


def _bots(t: Table) -> frozenset[int]:
    return frozenset(i for i, s in enumerate(t.seats) if s is not None and s.bot)


def hand_pictures(t: Table, record: dict[str, Any]) -> Pictures:
    """The table after this hand: seats, bids and tricks, the score."""
    names, bots, ruleset = _names(t), _bots(t), t.ruleset
    name = f"hand-{record.get('hand_no', 0)}.png"

    def draw(lang: str) -> list[Picture]:
        lang = picture_language(lang)
        scene = hand_scene(
            record,
            picture_names(names, lang),
            lang=lang,
            bots=bots,
            subtitle=render(describe(ruleset), lang)[:70],
        )
        return [(name, table_png(scene))]

    return draw


def game_pictures(t: Table) -> Pictures | None:
    """At game over: the final table with the winner, and the score over the game's hands."""
    g = t.game
    if g is None or not g.hand_records:
        return None
    names, bots, ruleset, winner, table_id = _names(t), _bots(t), t.ruleset, g.winner, t.id
    records = list(g.hand_records)

    def draw(lang: str) -> list[Picture]:
        lang = picture_language(lang)
        shown = picture_names(names, lang)
        scene = hand_scene(
            records[-1],
            shown,
            winner=winner,
            lang=lang,
            bots=bots,
            subtitle=render(describe(ruleset), lang)[:70],
        )
        title = gettext(lang, "Score by hand · table %(table)s", table=table_id)
        series = game_series(records, shown, winner=winner, title=title, lang=lang)
        return [("game.png", table_png(scene)), ("scores.png", score_chart_png(series))]

    return draw
