"""The pictures' data: the table picture after a hand, the score chart of a game, their words.

``bot.pictures`` draws what these describe; the words are in the reader's language where the
pictures' fonts can draw it.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import Any

from bot.i18n import DEFAULT, gettext, render
from bot.lexicon import bid_label, describe
from bot.pictures import ENGLISH, ScoreSeries, SeatInfo, SideInfo, TableScene, Words, can_draw, picture_name
from bot.render.records import ruleset_of, seat_names, seat_word, side_label
from bot.storage.history import GameSummary
from engine import Ruleset


def picture_words(lang: str) -> Words:
    """The pictures' own words in ``lang`` (English where the catalog has none)."""
    if lang == DEFAULT:
        return ENGLISH
    return Words(
        # TRANSLATORS: a bot's name on the table picture
        bot=gettext(lang, "%(name)s (bot)"),
        # TRANSLATORS: under a player's name on the table picture (about 16 letters fit)
        seat_line=gettext(lang, "bid %(bid)s · took %(tricks)s"),
        # TRANSLATORS: the one-letter mark of the dealer's seat on the table picture
        dealer=gettext(lang, "D"),
        # TRANSLATORS: the heading of the score panel on the table picture
        score=gettext(lang, "Score"),
        # TRANSLATORS: the columns of the score panel on the table picture (about 30 letters fit)
        columns=gettext(lang, "total · bags"),
        columns_hand=gettext(lang, "total · bags · this hand"),
        won=gettext(lang, "%(name)s won"),
        # TRANSLATORS: the horizontal axis of the score chart (hand 1, 2, 3…)
        axis=gettext(lang, "hand"),
        won_legend=gettext(lang, "%(name)s (won)"),
    )


def picture_language(lang: str) -> str:
    """``lang`` if the pictures' fonts can draw its words, else English (a system without a font
    that has Polish, Czech or Cyrillic letters still gets readable pictures)."""
    if lang == DEFAULT:
        return lang
    probe = "".join(picture_words(lang).texts()) + gettext(lang, "Game over")
    return lang if can_draw(probe) else DEFAULT


def picture_names(names: Sequence[Any], lang: str = DEFAULT) -> list[str]:
    """Players' names as the pictures can draw them (``Seat n`` in ``lang`` for an empty one)."""
    empty = gettext(lang, "Seat %(n)s")
    return [picture_name(render(n, lang), i, empty) for i, n in enumerate(names)]


def hand_scene(
    record: dict[str, Any],
    names: Sequence[str],
    *,
    title: str | None = None,
    winner: int | None = None,
    subtitle: str = "",
    lang: str = DEFAULT,
    bots: Collection[int] = (),
) -> TableScene:
    """The table picture after a finished hand (``winner`` set at game over), its words in ``lang``;
    the seats in ``bots`` are marked as bots."""
    rs = ruleset_of(record)
    res = record.get("result") or {}
    tricks = res.get("tricks") or [0] * rs.num_seats
    bids = {int(s): b for s, b in record.get("bids", [])}
    seats = [
        SeatInfo(
            render(names[s] if s < len(names) else seat_word(s), lang),
            rs.side_of(s),
            render(bid_label(bids[s]), lang) if s in bids else None,
            int(tricks[s]) if s < len(tricks) else 0,
            is_bot=s in bots,
            dealer=s == record.get("dealer"),
        )
        for s in range(rs.num_seats)
    ]
    breakdown = res.get("breakdown") or []
    scores = res.get("scores") or [0] * rs.num_sides
    bags = res.get("bags") or [0] * rs.num_sides
    points = [int(b.get("total", b.get("points", 0))) for b in breakdown]
    sides = [
        SideInfo(
            render(side_label(rs, names, i), lang),
            int(scores[i]),
            int(bags[i]),
            points[i] if i < len(points) else None,
        )
        for i in range(rs.num_sides)
    ]
    hand_no = record.get("hand_no", "?")
    if title is None:
        title = gettext(lang, "Game over") if winner is not None else gettext(lang, "Hand %(n)s", n=hand_no)
    notes = [gettext(lang, "after hand %(n)s", n=hand_no)] if winner is not None else []
    subtitle = subtitle or render(describe(rs), lang)[:70]
    return TableScene(
        title, seats, sides, winner=winner, subtitle=subtitle, notes=notes, words=picture_words(lang)
    )


def game_series(
    records: Sequence[dict[str, Any]],
    names: Sequence[str],
    *,
    winner: int | None = None,
    title: str | None = None,
    lang: str = DEFAULT,
) -> ScoreSeries:
    """The score chart over a game's finished hands, its words in ``lang``."""
    rs = ruleset_of(records[0]) if records else Ruleset.preset("standard")
    scores = [list((r.get("result") or {}).get("scores") or [0] * rs.num_sides) for r in records]
    return ScoreSeries(
        gettext(lang, "Score by hand") if title is None else title,
        [render(side_label(rs, names, i), lang) for i in range(rs.num_sides)],
        scores,
        target=rs.target_score,
        lose=rs.lose_score,
        winner=winner,
        words=picture_words(lang),
    )


def game_chart(game: GameSummary, records: Sequence[dict[str, Any]], lang: str = DEFAULT) -> ScoreSeries:
    """The score chart under a stored game's score sheet (in ``lang`` where the fonts draw it)."""
    drawn = picture_language(lang)
    return game_series(
        records,
        picture_names(seat_names(game), drawn),
        winner=game.winner_side,
        lang=drawn,
        title=gettext(drawn, "Score by hand · game #%(game)s", game=game.id),
    )
