"""Persistent components, built from a table state they are given (no service, no storage):
the live table's buttons, the finished game's, and a player's private hand panel.

What a click does is registered from ``bot.clicks`` (``handles``): this module only draws.

Labels are drawn in a language: the live table's in the server's, a hand panel's in its player's.

Every button and select is a ``DynamicItem`` whose custom_id carries the
table id (and, on hand panels, the seat's state stamp), so they keep working after a restart.

Custom ids (all well under Discord's 100 characters):
- ``sp:<table>:<action>``: live-table buttons (join, leave, start, fill, hand, rules, score, back,
  rematch, abandon);
- ``sp:<table>:c:<stamp>:<card>``: a card in a hand panel;
- ``sp:<table>:b:<stamp>``: the bid picker; ``sp:<table>:p:<stamp>``: the pass picker;
- ``sp:<table>:<blind|look|keep|discard>:<stamp>``: the other hand-panel buttons.

The stamp is the seat's action counter when the panel was drawn: a click on an older panel gets
"This hand has moved on" and the current hand, in place.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import discord
from discord.ui import Button, DynamicItem, Select

import engine
from bot import lexicon
from bot.emojis import CARD_EMOJIS
from bot.i18n import DEFAULT, Text, _, gettext, ngettext
from bot.i18n import render as text_in
from bot.model import Table
from bot.render.panel import hand_panel_text
from bot.render.pieces import clip
from bot.safe import safe_send
from engine.cards import COPY_OFFSET

log = logging.getLogger(__name__)

MAX_ROWS = 5
MAX_ID = 2**63 - 1  # table ids are 64-bit database integers
PER_ROW = 5
TABLE_ACTIONS = (
    "join",
    "leave",
    "leaveok",
    "start",
    "fill",
    "hand",
    "rules",
    "score",
    "back",
    "rematch",
    "abandon",
)


# ---- building views -----------------------------------------------------------------------------


def _button(
    table_id: int,
    action: str,
    label: str,
    style: discord.ButtonStyle,
    emoji: str | None = None,
    row: int | None = None,
) -> TableButton:
    return TableButton(table_id, action, label=label, style=style, emoji=emoji, row=row)


def table_view(t: Table, lang: str = DEFAULT) -> discord.ui.View | None:
    """Buttons under the live table message, by phase (labels in the server's language)."""
    view = discord.ui.View(timeout=None)
    if t.status == "open":
        view.add_item(_button(t.id, "join", gettext(lang, "Join"), discord.ButtonStyle.success))
        view.add_item(_button(t.id, "leave", gettext(lang, "Leave"), discord.ButtonStyle.secondary))
        view.add_item(_button(t.id, "start", gettext(lang, "Start"), discord.ButtonStyle.primary))
        view.add_item(_button(t.id, "rules", gettext(lang, "Rules"), discord.ButtonStyle.secondary))
    elif t.status == "playing":
        view.add_item(_button(t.id, "hand", gettext(lang, "My hand"), discord.ButtonStyle.primary, emoji="🂠"))
        if any(s is not None and not s.bot and (s.away or s.left) for s in t.seats):
            view.add_item(_button(t.id, "back", gettext(lang, "I'm back"), discord.ButtonStyle.success))
        view.add_item(_button(t.id, "rules", gettext(lang, "Rules"), discord.ButtonStyle.secondary))
        view.add_item(_button(t.id, "score", gettext(lang, "Score sheet"), discord.ButtonStyle.secondary))
        view.add_item(_button(t.id, "leave", gettext(lang, "Leave"), discord.ButtonStyle.secondary))
    elif t.status == "finished":
        view.add_item(_button(t.id, "score", gettext(lang, "Score sheet"), discord.ButtonStyle.secondary))
    else:
        return None
    return view


#: custom_id of the finished-game post's Leaderboard button; ``cogs.stats.LeaderboardButton``
#: (a persistent DynamicItem) answers it, since ``bot/`` does not import ``cogs/``.
LEADERBOARD_ID = "lbshow:{guild}"


def game_over_view(t: Table, lang: str = DEFAULT) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(_button(t.id, "rematch", gettext(lang, "Rematch"), discord.ButtonStyle.success, emoji="🔁"))
    view.add_item(
        Button(
            label=gettext(lang, "Leaderboard"),
            style=discord.ButtonStyle.secondary,
            emoji="🏆",
            custom_id=LEADERBOARD_ID.format(guild=t.guild_id),
        )
    )
    view.add_item(_button(t.id, "score", gettext(lang, "Score sheet"), discord.ButtonStyle.secondary))
    return view


#: custom_id of a hand post's buttons (``v`` verify the deal, ``r`` replay the hand);
#: ``cogs.history.HandPostButton`` answers them, since ``bot/`` does not import ``cogs/``.
HAND_POST_ID = "hv:{table}:{game}:{hand}:{what}"


def hand_post_view(t: Table, record: dict[str, Any], lang: str = DEFAULT) -> discord.ui.View:
    """Under a hand's result: replay it trick by trick, and (fair deals) check its deal."""
    view = discord.ui.View(timeout=None)
    ids = {"table": t.id, "game": t.game_no, "hand": int(record.get("hand_no", 0))}
    view.add_item(Button(label=gettext(lang, "Replay hand"), style=discord.ButtonStyle.secondary, emoji="🔁",
                         custom_id=HAND_POST_ID.format(**ids, what="r")))
    if record.get("fair"):
        view.add_item(Button(label=gettext(lang, "Verify deal"), style=discord.ButtonStyle.secondary,
                             emoji="🔐", custom_id=HAND_POST_ID.format(**ids, what="v")))
    return view


def fill_view(table_id: int, lang: str = DEFAULT) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    label = gettext(lang, "Fill empty seats with bots and start")
    view.add_item(_button(table_id, "fill", label, discord.ButtonStyle.primary, emoji="🤖"))
    return view


def leave_view(table_id: int, lang: str = DEFAULT) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    label = gettext(lang, "Yes, leave: the bot takes my seat")
    view.add_item(_button(table_id, "leaveok", label, discord.ButtonStyle.danger))
    return view


def abandon_view(table_id: int, lang: str = DEFAULT) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    label = gettext(lang, "Yes, abandon the table")
    view.add_item(_button(table_id, "abandon", label, discord.ButtonStyle.danger))
    return view


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
        return prefix + gettext(lang, "The game hasn't started yet: the host presses **Start**."), None
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
        view.add_item(_button(t.id, "back", gettext(lang, "I'm back"), discord.ButtonStyle.success, row=0))
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
        if not blind_ok and not my_turn:
            text = clip(
                text + "\n" + gettext(lang, "Blind nil can be bid when your turn to bid comes.")
            )
        return text, view
    cards = engine.cards_of(v.hand)
    legal = set(g.legal_cards(seat)) if phase == "PLAY" and my_turn else set()
    picker_rows = 0
    if me.away or me.left:
        # the bot plays this seat until its player takes it back
        text = clip(text + "\n" + _away_note(me.left, lang))
        view.add_item(_button(t.id, "back", gettext(lang, "I'm back"), discord.ButtonStyle.success, row=0))
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


# ---- dynamic items -------------------------------------------------------------------------------

APOLOGY = _("Sorry, something went wrong on my side. Nothing was changed; please try again.")
_DEFERRED = (
    discord.InteractionResponseType.deferred_channel_message,
    discord.InteractionResponseType.deferred_message_update,
)


NOT_READY = _("The tables are not ready yet; try again in a moment.")
ClickHandler = Callable[[discord.Interaction, Any], Awaitable[None]]
H = TypeVar("H", bound=ClickHandler)
_handlers: dict[type, ClickHandler] = {}


def handles(item_type: type) -> Callable[[H], H]:
    """Register what a click on ``item_type`` does: ``handler(interaction, item)``. The handlers
    live above the views (``bot.clicks``), so drawing a panel never imports the service."""

    def register(handler: H) -> H:
        _handlers[item_type] = handler
        return handler

    return register


class _Guarded:
    """Every component callback answers, even when something unexpected fails inside."""

    async def _handle(self, interaction: discord.Interaction) -> None:
        handler = _handlers.get(type(self))
        if handler is None:
            await safe_send(interaction, NOT_READY)
            return
        if not 0 < getattr(self, "table_id", 1) <= MAX_ID:  # (a made-up id no database could hold)
            await safe_send(interaction, _("That table no longer exists. Open a new one with `/spades new`."))
            return
        await handler(interaction, self)

    async def callback(self, interaction: discord.Interaction) -> None:
        try:
            await self._handle(interaction)
        except Exception:
            log.exception("a component callback failed (%s)", type(self).__name__)
            # unanswered, or only deferred (``timely`` after 2 s): either way the user has had
            # no word yet, so the apology goes out (as a follow-up after a deferral)
            if not interaction.response.is_done() or interaction.response.type in _DEFERRED:
                await safe_send(interaction, APOLOGY)


class TableButton(_Guarded, DynamicItem[Button[Any]], template=r"sp:(?P<tid>\d+):(?P<action>[a-z]+)$"):
    """A button on the live table message (or on a game/hand post, or an ephemeral offer)."""

    def __init__(
        self,
        table_id: int,
        action: str,
        *,
        label: str = "",
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
        emoji: str | None = None,
        row: int | None = None,
    ) -> None:
        super().__init__(
            Button(label=label or action, style=style, emoji=emoji, custom_id=f"sp:{table_id}:{action}"),
            row=row,
        )
        self.table_id = table_id
        self.action = action

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> TableButton:
        return cls(int(match["tid"]), match["action"])


def _panel_button(custom_id: str, label: str, style: discord.ButtonStyle, disabled: bool) -> Button[Any]:
    return Button(label=label, style=style, disabled=disabled, custom_id=custom_id)


def _panel_select(
    custom_id: str, placeholder: str, options: list[discord.SelectOption], n: int = 1
) -> Select[Any]:
    """A hand panel's picker of exactly ``n`` options (at most 25; a "—" placeholder option when
    there is nothing to pick, since Discord refuses an empty select)."""
    options = options[:25] or [discord.SelectOption(label="—", value="none")]
    return Select(custom_id=custom_id, placeholder=placeholder, options=options, min_values=n, max_values=n)


def card_id(text: str) -> int | None:
    """The card a custom_id names, or None for a number that is no card of any deck (52-53 are
    the jokers, 64 and up the second deck's copies): refused without building anything."""
    if len(text) > 3:
        return None
    card = int(text)
    return card if card < 2 * COPY_OFFSET and card % COPY_OFFSET <= engine.BIG_JOKER else None


class CardButton(
    _Guarded, DynamicItem[Button[Any]], template=r"sp:(?P<tid>\d+):c:(?P<stamp>\d+):(?P<card>\d+)$"
):
    """A card in a hand panel: clicking plays it and updates the panel in place. ``card`` is None
    for a custom_id that names no card (made up: it is refused)."""

    def __init__(
        self,
        table_id: int,
        stamp: int,
        card: int | None,
        *,
        disabled: bool = False,
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
        row: int | None = None,
    ) -> None:
        custom_id = f"sp:{table_id}:c:{stamp}:{card if card is not None else 0}"
        label = engine.card_pretty(card) if card is not None else "?"
        button = _panel_button(custom_id, label, style, disabled)
        # the card's face as an application emoji, when uploaded; the text label stays for screen
        # readers and for clients that don't show the image
        if card is not None:
            button.emoji = CARD_EMOJIS.for_card(card)
        super().__init__(button, row=row)
        self.table_id, self.stamp, self.card = table_id, stamp, card

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> CardButton:
        return cls(int(match["tid"]), int(match["stamp"]), card_id(match["card"]))


class BidSelect(_Guarded, DynamicItem[Select[Any]], template=r"sp:(?P<tid>\d+):b:(?P<stamp>\d+)$"):
    """The bid picker: only the bids that are legal for this seat right now."""

    def __init__(
        self,
        table_id: int,
        stamp: int,
        bids: list[Any] | None = None,
        placeholder: str = "Your bid…",
        lang: str = DEFAULT,
    ) -> None:
        options = [
            discord.SelectOption(label=text_in(lexicon.bid_label(b), lang), value=str(b))
            for b in (bids or [])
        ]
        super().__init__(_panel_select(f"sp:{table_id}:b:{stamp}", placeholder, options), row=0)
        self.table_id, self.stamp = table_id, stamp

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> BidSelect:
        return cls(int(match["tid"]), int(match["stamp"]))


class PassSelect(_Guarded, DynamicItem[Select[Any]], template=r"sp:(?P<tid>\d+):p:(?P<stamp>\d+)$"):
    """Pick exactly the number of cards to pass to the partner."""

    def __init__(
        self, table_id: int, stamp: int, cards: list[int] | None = None, n: int = 1, lang: str = DEFAULT
    ) -> None:
        options = [discord.SelectOption(label=engine.card_pretty(c), value=str(c)) for c in (cards or [])]
        n = max(1, min(n, len(options[:25]) or 1))
        placeholder = ngettext(lang, "Pick %(n)s card to pass…", "Pick %(n)s cards to pass…", n)
        super().__init__(_panel_select(f"sp:{table_id}:p:{stamp}", placeholder, options, n), row=0)
        self.table_id, self.stamp = table_id, stamp

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> PassSelect:
        return cls(int(match["tid"]), int(match["stamp"]))


class PanelButton(
    _Guarded,
    DynamicItem[Button[Any]],
    template=r"sp:(?P<tid>\d+):(?P<action>blind|look|keep|discard|misdeal):(?P<stamp>\d+)$",
):
    """Blind nil / show my cards (before the hand is seen) and keep / discard (two-player draw)."""

    def __init__(
        self,
        table_id: int,
        action: str,
        stamp: int,
        *,
        label: str = "",
        disabled: bool = False,
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
        row: int | None = None,
    ) -> None:
        custom_id = f"sp:{table_id}:{action}:{stamp}"
        super().__init__(_panel_button(custom_id, label or action, style, disabled), row=row)
        self.table_id, self.action, self.stamp = table_id, action, stamp

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> PanelButton:
        return cls(int(match["tid"]), match["action"], int(match["stamp"]))


DYNAMIC_ITEMS: tuple[type[DynamicItem[Any]], ...] = (
    CardButton,
    BidSelect,
    PassSelect,
    PanelButton,
    TableButton,
)
