"""A player's private hand panel, drawn from a table state it is given: its text (from
``bot.render.panel``) and its components (bid and pass pickers, card buttons, blind nil, draw).
Ephemeral only, in the player's own language.
"""

from __future__ import annotations

import discord

import engine
from bot.i18n import DEFAULT, N_, ButtonName, Text, gettext
from bot.i18n import render as text_in
from bot.model import Table
from bot.render.panel import hand_panel_text
from bot.render.pieces import clip
from bot.views.items import BidSelect, CardButton, PanelButton, PassSelect, TableButton

MAX_ROWS = 5
PER_ROW = 5


def card_rows(cards: list[int], rows: int) -> list[list[int]]:
    """Cards grouped by suit, five per row; packed tightly when suits need too many rows."""
    by_suit: list[list[int]] = []
    for c in cards:
        suit = engine.suit_of(c)
        if by_suit and engine.suit_of(by_suit[-1][0]) == suit:
            by_suit[-1].append(c)
        else:
            by_suit.append([c])
    grouped = [group[i : i + PER_ROW] for group in by_suit for i in range(0, len(group), PER_ROW)]
    if len(grouped) <= rows:
        return grouped
    return [cards[i : i + PER_ROW] for i in range(0, len(cards), PER_ROW)]


def _back_button(table_id: int, lang: str) -> TableButton:
    """The player takes their seat back from the bot (first row, above any picker)."""
    label = gettext(lang, "I'm back")
    return TableButton(table_id, "back", label=label, style=discord.ButtonStyle.success, row=0)


def _away_note(left: bool, lang: str) -> str:
    if left:
        return gettext(lang, "💤 You left the game: the bot plays for you. Press **I'm back** to take over.")
    return gettext(lang, "💤 You're marked away: the bot plays for you. Press **I'm back** to take over.")


def hand_panel(
    t: Table | None, user_id: int, hint: Text = "", lang: str = DEFAULT
) -> tuple[str, discord.ui.View | None]:
    """Content and components of a user's private hand panel (ephemeral only, in the player's
    language ``lang``); ``t`` None is a table no longer in memory."""
    hint = text_in(hint, lang)
    if t is None and hint:  # a closed table that left memory: the refusal says it all
        return hint, None
    prefix = hint + "\n" if hint else ""
    if t is not None and t.status == "open":
        start = ButtonName(N_("Start"))  # the public table's button
        return prefix + gettext(
            lang, "The game hasn't started yet: the host presses **%(button)s**.", button=start
        ), None
    if t is None or t.status not in ("playing", "finished"):
        return prefix + gettext(lang, "There is no game running at that table."), None
    seat = t.seat_of(user_id)
    if seat is None:
        return gettext(lang, "You're not playing at this table."), None
    g = t.game
    if g is None:
        return gettext(lang, "The game hasn't started yet."), None
    me = t.seats[seat]
    assert me is not None
    stamp = me.acts
    text = hand_panel_text(t, seat, hint, lang=lang)
    if t.status != "playing":
        return text, None
    view = discord.ui.View(timeout=None)
    v = g.view(seat)
    phase = g.phase.name
    acting = set(t.seats_to_act())
    my_turn = seat in acting
    if v.hand is None and (me.away or me.left):
        # the bot bids for this seat until its player takes it back: "I'm back" first
        text = clip(text + "\n" + _away_note(me.left, lang))
        view.add_item(_back_button(t.id, lang))
        return text, view
    if v.hand is None:
        legal_bids = g.legal_bids(seat)
        blind_ok = any(b.kind == "blind_nil" for b in legal_bids)
        blind_bids = [b for b in legal_bids if b.kind == "blind"]
        if blind_bids:  # blind bids (house rules, when trailing) are made before looking too
            placeholder = gettext(lang, "Bid blind (without looking)…")
            view.add_item(BidSelect(t.id, stamp, blind_bids, placeholder=placeholder, lang=lang))
        view.add_item(
            PanelButton(
                t.id,
                "blind",
                stamp,
                label=gettext(lang, "Bid blind nil"),
                style=discord.ButtonStyle.danger,
                disabled=not blind_ok,
            )
        )
        view.add_item(
            PanelButton(
                t.id, "look", stamp, label=gettext(lang, "Show my cards"), style=discord.ButtonStyle.primary
            )
        )
        # (sets the /spades me preference: the cards then show at every deal, this one too)
        view.add_item(PanelButton(t.id, "never", stamp, label=gettext(lang, "Never ask me")))
        if not blind_ok and not my_turn:
            text = clip(text + "\n" + gettext(lang, "Blind nil can be bid when your turn to bid comes."))
        return text, view
    cards = engine.cards_of(v.hand)
    legal = set(g.legal_cards(seat)) if phase == "PLAY" and my_turn else set()
    picker_rows = 0
    if me.away or me.left:
        # the bot plays this seat until its player takes it back
        text = clip(text + "\n" + _away_note(me.left, lang))
        view.add_item(_back_button(t.id, lang))
        legal, picker_rows = set(), 1
    elif phase == "BID" and my_turn:
        bids = [b for b in g.legal_bids(seat) if b.kind != "blind_nil"]
        if bids:
            view.add_item(BidSelect(t.id, stamp, bids, placeholder=gettext(lang, "Your bid…"), lang=lang))
            picker_rows = 1
        if any(isinstance(a, engine.MisdealAction) for a in g.legal_actions(seat)):
            view.add_item(
                PanelButton(
                    t.id,
                    "misdeal",
                    stamp,
                    label=gettext(lang, "No spades: call a misdeal"),
                    style=discord.ButtonStyle.danger,
                    row=1,
                )
            )
            picker_rows = 2
    elif phase == "PASS" and g.pass_size(seat):
        view.add_item(PassSelect(t.id, stamp, cards, g.pass_size(seat), lang=lang))
        picker_rows = 1
    elif phase == "DRAW" and my_turn:
        view.add_item(
            PanelButton(
                t.id, "keep", stamp, label=gettext(lang, "Keep it"), style=discord.ButtonStyle.success, row=0
            )
        )
        view.add_item(
            PanelButton(
                t.id,
                "discard",
                stamp,
                label=gettext(lang, "Discard it"),
                style=discord.ButtonStyle.secondary,
                row=0,
            )
        )
        picker_rows = 1
    rows = card_rows(cards, MAX_ROWS - picker_rows)
    if len(rows) > MAX_ROWS - picker_rows and not legal:
        # 16+ cards under two picker rows (six players, bid with a misdeal button): Discord has
        # no sixth row. None of them is playable now and the text above lists them, so the
        # disabled card buttons are left out rather than the panel failing.
        rows = []
    if phase in ("PLAY", "BID", "PASS", "DRAW"):
        for r, row in enumerate(rows):
            for c in row:
                playable = c in legal
                view.add_item(
                    CardButton(
                        t.id,
                        stamp,
                        c,
                        disabled=not playable,
                        row=r + picker_rows,
                        style=discord.ButtonStyle.primary if playable else discord.ButtonStyle.secondary,
                    )
                )
    return text, (view if view.children else None)
