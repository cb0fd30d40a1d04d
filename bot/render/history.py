"""The history of finished games as text: a page of the list and a game's score sheet.

Pure functions over stored data (``HistoryPage``, ``GameSummary``, ``StoredHand``): no service, no
discord. Texts stay under Discord's 2,000 characters, and are lazy messages (``bot.i18n``).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence

from bot.i18n import Text, _, _n, join, render, timestamp
from bot.lexicon import preset_name
from bot.render.pieces import MAX_MESSAGE
from bot.render.records import bid_text, ruleset_of, seat_names, side_label
from bot.storage.history import GameSummary, HistoryPage, StoredHand

NOT_COUNTED_MARK = "🤖"


def winner_first(g: GameSummary) -> list[int]:
    """The sides in the order every text writes them: the winner, then the others in seat order."""
    return sorted(range(len(g.sides)), key=lambda i: (i != g.winner_side, i))


def final_scores(g: GameSummary) -> str:
    """``517 – 499``: the final scores, the winner's first."""
    return " – ".join(str(g.sides[i].get("score", "?")) for i in winner_first(g))


def game_line(g: GameSummary) -> Text:
    """One game in the history: id, date, sides with scores (winner first, 🏆), preset, hands, and
    🤖 for a game the leaderboard does not count (bot.storage.counted)."""
    rs = ruleset_of(g.ruleset)
    names = seat_names(g)
    order = winner_first(g)
    parts = []
    for i in order:
        who = side_label(rs, names, i) if i < rs.num_sides else _("side %(n)s", n=i + 1)
        trophy = "🏆 " if i == g.winner_side else ""
        parts.append(join(join(trophy, who, sep=""), str(g.sides[i].get("score", "?"))))
    hands = _n("%(n)s hand", "%(n)s hands", g.hands)
    line = join(
        f"`#{g.id}` <t:{g.finished_at}:d>", join(*parts, sep=" – "), preset_name(g.preset), hands, sep=" · "
    )
    return line if g.counted else join(line, _("%(mark)s not counted", mark=NOT_COUNTED_MARK), sep=" · ")


def history_text(page: HistoryPage, scope: Text) -> Text:
    """A page of the history list (``scope``: "this channel", "this server", "@alice")."""
    head = _("📜 **Finished games** · %(scope)s", scope=scope)
    if not page.total:
        return join(head, _("No finished games yet."), sep="\n")
    lines: list[Text] = [
        join(
            head,
            _n(
                "page %(page)s of %(pages)s (%(n)s game)",
                "page %(page)s of %(pages)s (%(n)s games)",
                page.total,
                page=page.page,
                pages=page.pages,
            ),
            sep=" · ",
        )
    ]
    for g in page.games:
        lines.append(game_line(g))
    if any(not g.counted for g in page.games):
        lines.append(
            _(
                "%(mark)s not counted: bots played (the leaderboard and /stats count games between people).",
                mark=NOT_COUNTED_MARK,
            )
        )
    lines.append(_("Pick a game below for its score sheet; `/replay game:<id>` replays its hands."))
    return join(*lines, sep="\n")


# ---- a game's score sheet -------------------------------------------------------------------------


def score_sheet_text(game: GameSummary, hands: Sequence[StoredHand]) -> str:
    """Every hand of a stored game: each side's bids, tricks, points and running total."""
    rs = ruleset_of(game.ruleset)
    names = seat_names(game)
    sides = [side_label(rs, names, i) for i in range(rs.num_sides)]
    head: list[Text] = [
        _(
            "📊 **Game #%(game)s** · %(preset)s · finished %(when)s",
            game=game.id,
            preset=preset_name(game.preset),
            when=timestamp(game.finished_at, "f"),
        ),
        join(*(join(f"**{i + 1}**", s) for i, s in enumerate(sides)), sep=" · "),
    ]
    rows = []
    for h in hands:
        res = h.result or h.record.get("result") or {}
        tricks = res.get("tricks") or []
        scores = res.get("scores") or []
        breakdown = res.get("breakdown") or []
        bids = {int(s): b for s, b in h.record.get("bids", [])}
        cells = []
        for i, seats in enumerate(rs.sides):
            bid = join(*(bid_text(bids.get(s)) for s in seats), sep="+")
            took = sum(int(tricks[s]) for s in seats if s < len(tricks))
            pts = breakdown[i].get("total", breakdown[i].get("points", 0)) if i < len(breakdown) else 0
            total = scores[i] if i < len(scores) else "?"
            cells.append(join(bid, f"/{took} {int(pts):+d} → **{total}**", sep=""))
        rows.append(join(f"`{h.hand_no:>2}`", join(*cells, sep=" · ")))
    tail: list[Text] = []
    if game.winner_side is not None and game.winner_side < len(sides):
        final = final_scores(game)
        tail.append(
            _n(
                "🏆 %(side)s won %(final)s after %(n)s hand.",
                "🏆 %(side)s won %(final)s after %(n)s hands.",
                game.hands,
                side=sides[game.winner_side],
                final=final,
            )
        )
    tail.append(
        _("Cells: bid/took, points, total. `/replay game:%(game)s hand:<n>` replays a hand.", game=game.id)
    )
    dropped = 0
    # room for a longer translation of the header and footer: the rows are mostly numbers
    room = MAX_MESSAGE - 250
    while dropped < len(rows) - 1 and len("\n".join([*head, "…", *rows[dropped:], *tail])) > room:
        dropped += 1
    gap: list[Text] = [_("… hands 1–%(n)s not shown", n=dropped)] if dropped else []
    return join(*head, *gap, *rows[dropped:], *tail, sep="\n")


def scope_label(kind: str, ref: int) -> Text:
    """Whose history a page lists: ``c`` a channel, ``u`` a player, else the server."""
    if kind == "c":
        return f"<#{ref}>"
    if kind == "u":
        return f"<@{ref}>"
    return _("this server")


def game_choice(g: GameSummary) -> tuple[str, str]:
    """A game in the history's picker: its label (id, scores, preset) and description (day, players)."""
    sides = final_scores(g)
    day = dt.datetime.fromtimestamp(g.finished_at, dt.UTC).strftime("%Y-%m-%d")
    label = f"#{g.id} · {sides} · {g.preset}"[:100]
    players = ", ".join(p.name for p in g.players)[:100]
    return label, f"{day} · {players}"[:100]


def game_suggestion(g: GameSummary, lang: str) -> str:
    """A game in the autocomplete of ``/replay game:`` and ``/history game:``: id, day, the winners
    and the final scores (the winner's first), the preset; within a choice's 100 characters."""
    day = dt.datetime.fromtimestamp(g.finished_at, dt.UTC).strftime("%Y-%m-%d")
    winners = ", ".join(p.name for p in g.players if p.won)
    result = f"🏆 {winners} {final_scores(g)}" if winners else final_scores(g)
    text = f"#{g.id} · {day} · {result} · {render(preset_name(g.preset), lang)}"
    return text if len(text) <= 100 else text[:99] + "…"
