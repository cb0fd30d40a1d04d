"""The live table message: one per table, edited in place as the game moves.

Built only from public information (``Game.public_view()``), so it can never show a card somebody
still holds; rendered in the server's language."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import engine
from bot.i18n import DEFAULT, gettext, mention, ngettext
from bot.render.pieces import (
    bid_label,
    clip,
    countdown,
    house_rules,
    label,
    rules_line,
    short_commitment,
    side_name,
    trick_line,
)

if TYPE_CHECKING:
    from bot.model import Table


def table_message(t: Table, lang: str = DEFAULT) -> str:
    """The one live message per table, edited in place as the game moves."""
    head = gettext(lang, "♠ **Spades** · table %(table)s · %(rules)s", table=t.id, rules=rules_line(t, lang))
    house = house_rules(t)
    if house:
        head += "\n" + gettext(lang, "🏠 House rules: %(rules)s", rules=house)
    if t.status == "open":
        return clip(head + "\n" + _seating(t, lang))
    if t.status == "abandoned":
        return clip(head + "\n" + gettext(lang, "🛑 This table was abandoned."))
    g = t.game
    if g is None:
        return clip(head)
    v = g.public_view()
    lines = [head]
    multi = any(len(side) > 1 for side in t.ruleset.sides)
    for i, seats in enumerate(t.ruleset.sides):
        who = " + ".join(_seat_tag(t, s, lang) for s in seats)
        bags = ngettext(lang, "%(n)s bag", "%(n)s bags", v.bags[i])
        score = f"**{v.scores[i]}** · {bags}"
        bids = gettext(lang, "bid %(bids)s", bids=" + ".join(bid_label(v.bids[s], lang) for s in seats))
        took = gettext(lang, "took %(took)s", took=" + ".join(str(v.tricks[s]) for s in seats))
        prefix = gettext(lang, "Team %(n)s", n=i + 1) + "  " if multi else ""
        lines.append(f"{prefix}{who}  {score}  ·  {bids}  ·  {took}")
    phase = g.phase.name
    if phase == "GAME_OVER":
        lines.append(_winner_line(t, lang))
        return clip("\n".join(lines))
    state = gettext(lang, "Hand %(n)s", n=v.hand_no)
    if phase == "PLAY":
        state += gettext(lang, " · trick %(n)s of %(total)s", n=v.trick_no + 1, total=v.tricks_per_hand)
        state += (
            gettext(lang, " · spades broken") if v.spades_broken else gettext(lang, " · spades not broken")
        )
    elif phase == "BID":
        state += gettext(lang, " · bidding")
    elif phase == "PASS":
        state += gettext(lang, " · passing cards for nil")
    elif phase == "DRAW":
        state += gettext(lang, " · drawing")
    lines.append(state)
    if phase == "PLAY":
        lines.append("  " + trick_line(t, v, lang=lang))
        last = getattr(v, "last_trick", None)
        if last and not v.current_trick:
            cards = " ".join(engine.card_pretty(c) for _, c in _trick_cards(last))
            winner = getattr(v, "last_trick_winner", None)
            won = f" → {label(t, winner, lang)}" if winner is not None else ""
            lines.append("  " + gettext(lang, "last trick: %(cards)s", cards=cards + won))
    acting = t.seats_to_act()
    if acting:
        names = ", ".join(label(t, s, lang) for s in acting)
        if phase == "BID":
            line = gettext(lang, "➜ %(who)s to bid", who=names)
        elif phase == "PLAY":
            line = gettext(lang, "➜ %(who)s to play", who=names)
        elif phase == "PASS":
            line = gettext(lang, "➜ %(who)s to pass", who=names)
        elif phase == "DRAW":
            line = gettext(lang, "➜ %(who)s to draw", who=names)
        else:
            line = gettext(lang, "➜ %(who)s to act", who=names)
        lines.append(line + countdown(t, lang))
    commitment = getattr(g, "commitment", None)
    if commitment:
        # the deal is fixed before anyone bids: this hash of its secret key is revealed with the hand
        lines.append(
            gettext(
                lang,
                "🔐 deal `%(commitment)s` (revealed when the hand is over)",
                commitment=short_commitment(commitment),
            )
        )
    return clip("\n".join(lines))


def _seat_tag(t: Table, seat: int, lang: str = DEFAULT) -> str:
    s = t.seats[seat]
    tag = label(t, seat, lang)
    if s is not None and s.left:
        tag += " 🚪🤖"
    elif s is not None and s.away:
        tag += " 💤"
    if t.game is not None and getattr(t.game, "dealer", None) == seat:
        tag += gettext(lang, " (D)")
    return tag


def _trick_cards(trick: Any) -> list[tuple[int, int]]:
    cards = getattr(trick, "cards", trick)
    return [(int(s), int(c)) for s, c in cards]


def _seating(t: Table, lang: str = DEFAULT) -> str:
    lines = []
    multi = any(len(side) > 1 for side in t.ruleset.sides)
    empty = gettext(lang, "(empty)")
    for i, seats in enumerate(t.ruleset.sides):
        names = " + ".join(f"{s + 1}. {t.label(s) if t.seats[s] else empty}" for s in seats)
        lines.append(gettext(lang, "Team %(n)s: %(names)s", n=i + 1, names=names) if multi else names)
    free = len(t.empty_seats())
    host = gettext(lang, "Host: %(host)s", host=mention(t.host_id))
    seats_free = ngettext(lang, "%(n)s free seat", "%(n)s free seats", free)
    timers = gettext(
        lang,
        "%(play)s s to play, %(bid)s s to bid",
        play=t.settings.get("play_seconds", 60),
        bid=t.settings.get("bid_seconds", 90),
    )
    lines.append(f"{host} · {seats_free} · {timers}")
    lines.append(
        gettext(lang, "Press **Join** to sit down; the host presses **Start** (empty seats can go to bots).")
    )
    return "\n".join(lines)


def _winner_line(t: Table, lang: str = DEFAULT) -> str:
    g = t.game
    if g is None or g.winner is None:
        return gettext(lang, "The game is over.")
    who = side_name(t, g.winner, lang)
    if len(t.ruleset.sides[g.winner]) == 1:
        return gettext(lang, "🏆 %(who)s wins!", who=who)
    return gettext(lang, "🏆 %(who)s win!", who=who)
