"""The small pieces every text is made of: a seat, a side or a bid in words, the ruleset in one
line, the trick in play order, the countdown, and ``clip`` that keeps a text under Discord's limit."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import engine
from bot import lexicon
from bot.i18n import DEFAULT, gettext, render, timestamp
from bot.safe import clip_text
from engine.fair import short
from engine.house_rules import format_rules

if TYPE_CHECKING:
    from bot.model import Table

MAX_MESSAGE = 2000
SUIT_ORDER = (3, 2, 0, 1)  # spades, hearts, clubs, diamonds: the engine's display order


def clip(text: str, limit: int = MAX_MESSAGE) -> str:
    """At most ``limit`` characters, never cutting a ``<@id>`` mention in half."""
    return clip_text(text, limit)


def label(t: Table, seat: int, lang: str = DEFAULT) -> str:
    """A seat as players see it: the player's mention, the bot's name, or "seat 3" when empty."""
    if t.seats[seat] is None:
        return gettext(lang, "seat %(n)s", n=seat + 1)
    return t.label(seat)


def side_name(t: Table, side: int, lang: str = DEFAULT) -> str:
    seats = t.ruleset.sides[side]
    if len(seats) == 1:
        return label(t, seats[0], lang)
    return gettext(lang, "Team %(n)s", n=side + 1)


def side_members(t: Table, side: int, lang: str = DEFAULT) -> str:
    return " + ".join(label(t, s, lang) for s in t.ruleset.sides[side])


def bid_label(bid: Any, lang: str = DEFAULT) -> str:
    return render(lexicon.bid_label(bid), lang)


def rules_line(t: Table, lang: str = DEFAULT) -> str:
    """The ruleset in one line (``standard: to 500 · nil ±100 · …``)."""
    return render(lexicon.describe(t.ruleset), lang)


def countdown(t: Table, lang: str = DEFAULT) -> str:
    """`` · bot takes over in 40 seconds`` (a Discord timestamp) while a seat's clock runs, else empty."""
    if not t.deadline:
        return ""
    return gettext(lang, " · bot takes over %(when)s", when=timestamp(t.deadline, "R"))


def trick_line(t: Table, v: Any, *, me: int | None = None, lang: str = DEFAULT) -> str:
    """The trick in play order from its leader: the cards played, ``…`` for whoever plays now,
    then the seats still to come (``@alice 10♥   @bob Q♥   @carol …   🤖 Bea``)."""
    played = {int(s): int(c) for s, c in v.current_trick}
    leader = v.current_trick[0][0] if v.current_trick else v.to_act
    if leader is None:
        return ""
    parts = []
    for k in range(t.num_seats):
        s = (int(leader) + k) % t.num_seats
        who = gettext(lang, "you") if s == me else label(t, s, lang)
        if s in played:
            parts.append(f"{who} {engine.card_pretty(played[s])}")
        elif s == v.to_act:
            parts.append(f"{who} …")
        else:
            parts.append(who)
    return "   ".join(parts)


def house_rules(t: Table) -> str:
    """What this table plays differently from its preset, as the options one types
    (``bag_limit=5 · ten_for_200=on``); empty when it plays the preset as is."""
    return format_rules(t.ruleset.overrides()).replace(" ", " · ")


def short_commitment(commitment: str) -> str:
    """The commitment as players see it on the table (its first 16 hex digits)."""
    return short(commitment)
