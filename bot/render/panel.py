"""The private hand panel: the one text that shows a player's own cards, only ever sent
ephemerally and rendered in the player's own language."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import engine
from bot.i18n import DEFAULT, ListOf, channel_mention, gettext, ngettext, render
from bot.render.pieces import bid_label, clip, countdown, label, trick_line

if TYPE_CHECKING:
    from bot.model import Table


def cards_line(cards: list[int]) -> str:
    """`♠ A K 7 3   ♥ 9 4` for a list of cards in display order."""
    groups: dict[int, list[str]] = {}
    order: list[int] = []
    for c in cards:
        suit = engine.suit_of(c)
        if suit not in groups:
            groups[suit] = []
            order.append(suit)
        groups[suit].append(_rank_text(c))
    return "   ".join(f"{engine.suit_symbol(s)} {' '.join(groups[s])}" for s in order)


def _rank_text(card: int) -> str:
    face = card & 63
    if face >= 52:
        return engine.card_pretty(card)
    pretty = engine.card_pretty(card)
    return pretty[:-1] if len(pretty) > 1 else pretty


def hand_panel_text(t: Table, seat: int, hint: str = "", lang: str = DEFAULT) -> str:
    """Header lines of the ephemeral hand panel (the cards are the buttons below it)."""
    g = t.game
    assert g is not None
    v = g.view(seat)
    phase = g.phase.name
    head = gettext(
        lang,
        "**Table %(table)s** in %(channel)s · hand %(n)s",
        table=t.id,
        channel=channel_mention(t.channel_id),
        n=v.hand_no,
    )
    if phase == "PLAY":
        head += gettext(lang, " · trick %(n)s of %(total)s", n=v.trick_no + 1, total=v.tricks_per_hand)
    todo = _todo(t, seat, v, phase, lang)
    if todo:
        head += f" · {todo}"
    lines = [hint, head] if hint else [head]
    if v.hand is None:
        blind = any(b.kind == "blind" for b in g.legal_bids(seat))
        if blind:
            text = gettext(
                lang,
                "Your cards are face down. Bid **blind nil** or a **blind bid** now, or look at your cards "
                "first (looking gives up bidding blind for this hand).",
            )
        else:
            text = gettext(
                lang,
                "Your cards are face down. Bid **blind nil** now, or look at your cards first (looking "
                "gives up bidding blind for this hand).",
            )
        lines.append(text)
        return clip("\n".join(lines))
    cards = engine.cards_of(v.hand)
    lines.append(cards_line(cards) if cards else gettext(lang, "(no cards left)"))
    acting = t.seats_to_act()
    if phase == "PLAY":
        lines.append(gettext(lang, "Trick: %(trick)s", trick=trick_line(t, v, me=seat, lang=lang)))
        if seat in acting:
            lines.append(
                gettext(
                    lang,
                    "**Your turn**: click a card to play it%(countdown)s.",
                    countdown=countdown(t, lang),
                )
            )
    elif phase == "BID":
        bids = [f"{label(t, s, lang)} {bid_label(b, lang)}" for s, b in enumerate(v.bids) if b is not None]
        if bids:
            lines.append(gettext(lang, "Bids: %(bids)s", bids=", ".join(bids)))
        if seat in acting:
            lines.append(
                gettext(lang, "**Your bid**: pick it below%(countdown)s.", countdown=countdown(t, lang))
            )
    elif phase == "PASS":
        n = g.pass_size(seat)
        if n:
            lines.append(
                ngettext(
                    lang,
                    "**Pass %(n)s card** to your partner: pick below.",
                    "**Pass %(n)s cards** to your partner: pick below.",
                    n,
                )
            )
        else:
            lines.append(gettext(lang, "Waiting for the card exchange."))
    elif phase == "DRAW":
        drawn = getattr(v, "drawn_card", None)
        if drawn is not None and seat in acting:
            lines.append(
                gettext(lang, "You drew **%(card)s**: keep it or discard it.", card=engine.card_pretty(drawn))
            )
    received = getattr(v, "received", None)
    if received and phase == "PLAY" and v.trick_no == 0:
        lines.append(
            gettext(
                lang,
                "You received: %(cards)s",
                cards=" ".join(engine.card_pretty(c) for c in _as_cards(received)),
            )
        )
    return clip("\n".join(lines))


def _todo(t: Table, seat: int, v: Any, phase: str, lang: str = DEFAULT) -> str:
    """What the player must do now, for the panel's header: "you must follow ♥", "your lead:
    spades aren't broken", "waiting for @bob"."""
    acting = t.seats_to_act()
    if phase == "GAME_OVER":
        return gettext(lang, "game over")
    if seat not in acting:
        if not acting:
            return ""
        if phase == "PASS":
            return gettext(lang, "waiting for the card exchange")
        return gettext(
            lang, "waiting for %(who)s", who=render(ListOf(tuple(label(t, s, lang) for s in acting)), lang)
        )
    if phase == "BID":
        return (
            gettext(lang, "your bid")
            if v.hand is not None
            else gettext(lang, "your bid: blind nil, or look first")
        )
    if phase == "PASS":
        return ngettext(
            lang, "pass %(n)s card to your partner", "pass %(n)s cards to your partner", v.pass_size
        )
    if phase == "DRAW":
        return gettext(lang, "keep or discard the card you drew")
    if phase != "PLAY" or v.hand is None:
        return ""
    # Which cards may be played is the engine's answer (``view.legal_cards``): the header only
    # puts it in words, so variants (2♣ leads, no spades on the first trick) read right too.
    from engine.ruleset import tables

    suit_of = tables(t.ruleset).suit
    held = set(engine.cards_of(v.hand))
    legal = set(v.legal_cards)
    if v.current_trick:
        led = suit_of[int(v.current_trick[0][1])]
        symbol = engine.suit_symbol(led)
        if legal and all(suit_of[c] == led for c in legal):
            return gettext(lang, "you must follow %(suit)s", suit=symbol)
        if legal == held:
            return gettext(lang, "no %(suit)s left: play any card", suit=symbol)
        return gettext(lang, "no %(suit)s left: play one of the highlighted cards", suit=symbol)
    if legal == held or not legal:
        return gettext(lang, "your lead")
    if len(legal) == 1:
        return gettext(lang, "you must lead %(card)s", card=engine.card_pretty(next(iter(legal))))
    if any(suit_of[c] == engine.SPADES for c in held - legal):
        return gettext(lang, "your lead: spades aren't broken")
    return gettext(lang, "your lead: play one of the highlighted cards")


def _as_cards(x: Any) -> list[int]:
    if isinstance(x, int):
        return engine.cards_of(x)
    return [int(c) for c in x]
