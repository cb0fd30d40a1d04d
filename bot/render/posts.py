"""The posts that stay in the channel: one per finished hand (bids against tricks and the engine's
score breakdown), the final result, and the score sheet a player asks for.

Built only from public information (events and the records of finished hands); rendered in the
server's language."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from bot.i18n import DEFAULT, N_, gettext, ngettext
from bot.model import players
from bot.render.pieces import MAX_MESSAGE, bid_label, clip, side_members, side_name
from bot.storage.counted import game_counts

if TYPE_CHECKING:
    from bot.model import Table
    from engine import HandScored


def _get(obj: Any, name: str, default: Any = None) -> Any:
    if isinstance(obj, dict):
        return obj.get(name, default)
    return getattr(obj, name, default)


def hand_post(t: Table, ev: HandScored, lang: str = DEFAULT) -> str:
    """One short post per finished hand: a line per side (bids vs tricks, contract made or set,
    nils, bags, the new total); its buttons replay the hand and verify the deal."""
    hand_no = ev.hand_no
    tricks = list(ev.tricks)
    breakdown = list(ev.breakdown)
    record = t.game.hand_records[-1] if t.game is not None and t.game.hand_records else {}
    bids: dict[int, Any] = {int(s): b for s, b in record.get("bids", [])}
    lines = [gettext(lang, "📋 **Hand %(n)s** · table %(table)s", n=hand_no, table=t.id)]
    for i, seats in enumerate(t.ruleset.sides):
        b = breakdown[i] if i < len(breakdown) else None
        bid_txt = " + ".join(_bid_json_label(bids.get(s), lang) for s in seats)
        took = sum(int(tricks[s]) for s in seats) if tricks else 0
        head = gettext(
            lang, "%(side)s: bid %(bids)s, took %(took)s", side=side_name(t, i, lang), bids=bid_txt, took=took
        )
        if b is None:
            lines.append(head)
            continue
        parts = []
        for n in _get(b, "nils", ()) or ():
            blind, made = _get(n, "kind") == "blind_nil", bool(_get(n, "made"))
            points = f"{_get(n, 'points', 0):+d}"
            if len(seats) > 1:
                who = t.label(int(_get(n, "seat", 0)))
                if blind:
                    msg = (
                        N_("blind nil by %(who)s made %(points)s")
                        if made
                        else N_("blind nil by %(who)s failed %(points)s")
                    )
                else:
                    msg = (
                        N_("nil by %(who)s made %(points)s")
                        if made
                        else N_("nil by %(who)s failed %(points)s")
                    )
                parts.append(gettext(lang, msg, who=who, points=points))
            else:
                if blind:
                    msg = N_("blind nil made %(points)s") if made else N_("blind nil failed %(points)s")
                else:
                    msg = N_("nil made %(points)s") if made else N_("nil failed %(points)s")
                parts.append(gettext(lang, msg, points=points))
        made = _get(b, "made", None)
        if made is not None:
            contract, points = _get(b, "bid", 0), f"{_get(b, 'contract_points', 0):+d}"
            if made:
                parts.append(gettext(lang, "contract %(bid)s made %(points)s", bid=contract, points=points))
            else:
                parts.append(gettext(lang, "contract %(bid)s set %(points)s", bid=contract, points=points))
        bag_points = _get(b, "bag_points", 0) or 0
        if bag_points:
            shown = f"{bag_points:+d}"
            parts.append(gettext(lang, "bags %(points)s", points=shown))
        penalty = _get(b, "bag_penalty", 0) or 0
        if penalty:
            shown = f"−{abs(penalty)}"
            parts.append(gettext(lang, "bag penalty %(points)s", points=shown))
        bonus = _get(b, "bonus_points", 0) or 0
        if bonus:
            shown = f"{bonus:+d}"
            parts.append(gettext(lang, "bonus %(points)s", points=shown))
        total = int(_get(b, "total", 0) or 0)
        before, after = _get(b, "score_before", None), _get(b, "score_after", None)
        run = f" ({before} → {after})" if before is not None and after is not None else ""
        summary = ", ".join(parts) or gettext(lang, "no points")
        lines.append(f"{head}: {summary} → {total:+d}{run}")
    # (the deal's commitment, seed and salt: in the Verify deal answer and the replay, not here)
    return clip("\n".join(lines))


def _bid_json_label(bid: Any, lang: str = DEFAULT) -> str:
    if bid is None:
        return "?"
    return bid_label(bid, lang)


def game_post(t: Table, lang: str = DEFAULT) -> str:
    """The final post: winner and final scores, the winner's first, and whether the leaderboard
    counts the game (a Rematch button rides along)."""
    return clip(_result_line(t, lang) + _counted_note(t, lang))


def _counted_note(t: Table, lang: str) -> str:
    """Nothing for a counted game; a second line for one the leaderboard leaves out."""
    if game_counts(players(t, with_side=True)):
        return ""
    return "\n" + gettext(lang, "🤖 Bots played: this game is not counted on the leaderboard or in /stats.")


def _result_line(t: Table, lang: str) -> str:
    g = t.game
    assert g is not None
    hands = len(g.hand_records)
    scores = " – ".join(str(s) for s in g.scores)
    if g.winner is None:
        return ngettext(
            lang,
            "🏁 Table %(table)s: game over after %(n)s hands · %(scores)s",
            "🏁 Table %(table)s: game over after %(n)s hands · %(scores)s",
            hands,
            table=t.id,
            scores=scores,
        )
    members = side_members(t, g.winner, lang)
    who = side_name(t, g.winner, lang)
    if who != members:
        who = f"{who} ({members})"
    others = [s for i, s in enumerate(g.scores) if i != g.winner]
    final = f"{g.scores[g.winner]} – {' – '.join(str(s) for s in others)}"
    if len(t.ruleset.sides[g.winner]) == 1:
        text = ngettext(
            lang,
            "🏆 %(who)s wins %(final)s after %(n)s hand.",
            "🏆 %(who)s wins %(final)s after %(n)s hands.",
            hands,
            who=who,
            final=final,
        )
    else:
        text = ngettext(
            lang,
            "🏆 %(who)s win %(final)s after %(n)s hand.",
            "🏆 %(who)s win %(final)s after %(n)s hands.",
            hands,
            who=who,
            final=final,
        )
    return text


def score_sheet(t: Table, lang: str = DEFAULT) -> str:
    """Running totals after every finished hand (public once the hand is over).

    Each hand record carries the totals *before* it, so hand i's result is hand i+1's ``before``
    (and the game's current totals for the last one): no scoring is redone here."""
    g = t.game
    if g is None or not g.hand_records:
        return gettext(lang, "No hand has finished at table %(table)s yet.", table=t.id)
    names = [side_name(t, i, lang) for i in range(len(t.ruleset.sides))]
    records = list(g.hand_records)
    afters: list[tuple[list[int], list[int]]] = []
    for n in range(len(records)):
        if n + 1 < len(records) and isinstance(records[n + 1].get("before"), dict):
            before = records[n + 1]["before"]
            afters.append((list(before.get("scores", [])), list(before.get("bags", []))))
        else:
            afters.append((list(g.scores), list(g.bags)))
    lines = [
        gettext(lang, "**Score sheet · table %(table)s**", table=t.id),
        gettext(lang, "Hand") + " · " + " · ".join(names),
    ]
    for n, (scores, bags) in enumerate(afters, start=1):
        cells = [
            f"{scores[i]} ({ngettext(lang, '%(n)s bag', '%(n)s bags', bags[i])})" for i in range(len(scores))
        ]
        lines.append(f"{n} · " + " · ".join(cells))
    rows = lines[2:]
    dropped = 0
    while dropped < len(rows) - 1 and len("\n".join(lines[:2] + ["…"] * bool(dropped) + rows[dropped:])) > (
        MAX_MESSAGE - 60
    ):
        dropped += 1  # a long game: the oldest hands go, and the sheet says so
    gap = (
        [
            gettext(
                lang,
                "… hands 1–%(n)s not shown (the latest %(shown)s are)",
                n=dropped,
                shown=len(rows) - dropped,
            )
        ]
        if dropped
        else []
    )
    return clip("\n".join(lines[:2] + gap + rows[dropped:]))
