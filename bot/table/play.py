"""Moves on a running game: bids, plays, passes, looks, draws, misdeals; and the queries the
hand panels and autocomplete ask (legal bids and cards).

The engine decides what is legal; this module only adapts its answers for players.
"""

from __future__ import annotations

from typing import Any

import engine
from bot import lexicon
from bot.i18n import N_, ButtonName, ListOf, Msg, Text, _
from bot.model import MOVED_ON, NO_TABLE, Result, Table, ok, refuse, refuse_as
from bot.table.store import TableStore
from engine import Bid, Game

_ACTION_PHASE = {
    "bid": "BID",
    "blind": "BID",
    "misdeal": "BID",
    "play": "PLAY",
    "pass": "PASS",
    "draw": "DRAW",
}


def card_text(card: int) -> str:
    return engine.card_pretty(card)


def seat_for(t: Table | None, user_id: int) -> tuple[Table | None, int | None, Result | None]:
    if t is None:
        return None, None, refuse("no_table", NO_TABLE)
    seat = t.seat_of(user_id)
    if seat is None:
        return t, None, refuse("not_playing", _("You're not playing at this table."))
    if t.status == "open":
        return (
            t,
            seat,
            refuse(
                "not_started",
                _(
                    "The game hasn't started yet: the host presses **%(button)s**.",
                    button=ButtonName(N_("Start")),
                ),
            ),
        )
    if t.status != "playing" or t.game is None:
        return t, seat, refuse("game_over", _("This game is over."))
    return t, seat, None


def turn_refusal(t: Table, seat: int, **kw: Any) -> Result | None:
    """Why ``seat`` can't act now (``nobody_to_act``, ``not_your_turn``), or None if it may."""
    acting = t.seats_to_act()
    if not acting:
        return refuse("nobody_to_act", _("It's nobody's turn right now."), **kw)
    if seat in acting:
        return None
    names = ListOf(tuple(t.label(s) for s in acting))
    return refuse("not_your_turn", _("It's %(names)s's turn, not yours.", names=names), **kw)


def turn_message(t: Table, seat: int) -> Text:
    """The words of :func:`turn_refusal` ("" when ``seat`` may act)."""
    turn = turn_refusal(t, seat)
    return turn.message if turn is not None else ""


def apply_action(g: Game, seat: int, action: str, arg: Any) -> list[Any]:
    if action == "look":
        return list(g.look(seat) or [])
    if action == "blind":
        return list(g.bid(seat, "blind_nil") or [])
    if action == "bid":
        # a typed bid the engine can't read is refused with a code (``not_a_bid``)
        return list(g.bid(seat, arg if isinstance(arg, Bid) else str(arg)) or [])
    if action == "play":
        return list(g.play(seat, int(arg)) or [])
    if action == "pass":
        return list(g.pass_cards(seat, list(arg)) or [])
    if action == "draw":
        return list(g.draw(seat, bool(arg)) or [])
    if action == "misdeal":
        return list(g.misdeal(seat) or [])
    raise ValueError(f"unknown action {action!r}")


def explain(t: Table, seat: int, exc: Exception) -> Text:
    """The engine's refusal for the player who acted, in their language when it is one the bot
    knows (``bot.lexicon``)."""
    code = getattr(exc, "code", "")
    if code == "not_your_turn":
        msg = turn_message(t, seat)
        if msg:
            return msg
    # the engine names seats by number; players know each other by name
    return lexicon.explain(exc, lambda s: seat_name(t, s))


def seat_name(t: Table, seat: int) -> str:
    return t.label(seat) if 0 <= seat < t.num_seats else _("seat %(n)s", n=seat + 1)


def ack(action: str, arg: Any) -> Msg:
    if action == "play":
        return _("You played %(card)s.", card=card_text(int(arg)))
    if action == "bid":
        bid = arg if isinstance(arg, Bid) else Bid.parse(str(arg))
        return _("You bid %(bid)s.", bid=lexicon.bid_label(bid))
    if action == "blind":
        return _("You bid blind nil. Good luck!")
    if action == "pass":
        return _("Cards passed.")
    if action == "look":
        return _("Here are your cards.")
    if action == "misdeal":
        return _("Misdeal called: the cards are dealt again.")
    return _("Done.")


class Play:
    """A seated player's moves, each one saved before it is answered."""

    def __init__(self, store: TableStore) -> None:
        self.store = store

    async def act(
        self,
        table_id: int | None,
        user_id: int,
        action: str,
        arg: Any = None,
        *,
        stamp: int | None = None,
        channel_id: int | None = None,
    ) -> Result:
        """Apply a player's action: ``bid`` (Bid/str), ``play`` (card id), ``pass`` (cards), ``look``,
        ``blind`` (blind nil) or ``draw`` (keep: bool). ``stamp`` is the seat stamp of the panel that
        was clicked (None for typed commands)."""
        found = await self.store.find(table_id, channel_id)
        if isinstance(found, Result):
            return found
        async with self.store.lock(found.id):
            t, seat, problem = seat_for(self.store.get(found.id) or found, user_id)
            if problem is not None or t is None or seat is None:
                return problem or refuse("no_table", NO_TABLE)
            me = t.seats[seat]
            assert me is not None and t.game is not None
            if stamp is not None and stamp != me.acts:
                return refuse("moved_on", MOVED_ON, show_hand=True, stale=True)
            # an action of the wrong phase gets the engine's "you can't bid now: ..." answer instead
            in_phase = _ACTION_PHASE.get(action) == t.game.phase.name
            clicked = stamp is not None
            turn = turn_refusal(t, seat, show_hand=clicked, stale=clicked) if in_phase else None
            if turn is not None:
                return turn
            new = t.copy()
            g = new.game
            assert g is not None
            try:
                events = apply_action(g, seat, action, arg)
            except engine.IllegalAction as exc:
                # the engine's reason is the code; a field it marks private (a card held elsewhere) is dropped
                shown = {k: v for k, v in exc.fields.items() if k not in exc.private}
                return refuse_as(exc.reason, explain(t, seat, exc), shown)
            except (ValueError, TypeError) as exc:
                # no refusal of the engine's: an argument no front end sends (named, not shown)
                return refuse("bad_argument", lexicon.unknown("table", type(exc).__name__))
            ns = new.seats[seat]
            assert ns is not None
            ns.away, ns.left, ns.timeouts = False, False, 0
            refusal = await self.store.commit(t, new, events=events, touched=[seat], actor=user_id)
            if refusal:
                return refusal
            made = next((e.bid for e in events if isinstance(e, engine.BidMade) and e.seat == seat), None)
            if action == "bid" and made is not None:
                arg = made  # the engine's reading of it: "0" is a nil where nil is allowed
            return ok(ack(action, arg), show_hand=True, table=new)

    # ---- queries for panels and autocomplete --------------------------------------------------
    def legal_bids(self, channel_id: int, user_id: int) -> list[Bid]:
        t = self.store.in_channel(channel_id)
        if t is None or t.game is None or t.status != "playing":
            return []
        seat = t.seat_of(user_id)
        if seat is None:
            return []
        return list(t.game.legal_bids(seat))

    def legal_cards(self, channel_id: int, user_id: int) -> list[int]:
        t = self.store.in_channel(channel_id)
        if t is None or t.game is None or t.status != "playing":
            return []
        seat = t.seat_of(user_id)
        if seat is None or not t.game.has_looked(seat):
            return []
        return list(t.game.legal_cards(seat))

    def parse_card(self, text: str) -> int:
        return engine.parse_card(text)
