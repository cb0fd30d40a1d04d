"""The persistent components, one ``DynamicItem`` per kind of custom_id: what a custom_id carries
and how an item is rebuilt from it after a restart. Their callbacks run the handler registered
for their type (``bot.views.registry``).

Custom ids (all well under Discord's 100 characters):
- ``sp:<table>:<action>``: live-table buttons (join, leave, start, fill, hand, rules, score, back,
  rematch, abandon);
- ``sp:<table>:c:<stamp>:<card>``: a card in a hand panel;
- ``sp:<table>:b:<stamp>``: the bid picker; ``sp:<table>:p:<stamp>``: the pass picker;
- ``sp:<table>:<blind|look|never|keep|discard|misdeal>:<stamp>``: the other hand-panel buttons.

The stamp is the seat's action counter when the panel was drawn: a click on an older panel gets
"This hand has moved on" and the current hand, in place.
"""

from __future__ import annotations

import re
from typing import Any

import discord
from discord.ui import Button, DynamicItem, Select

import engine
from bot import lexicon
from bot.emojis import CARD_EMOJIS
from bot.i18n import DEFAULT, ngettext
from bot.i18n import render as text_in
from bot.views.registry import Guarded
from engine.cards import COPY_OFFSET

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


class TableButton(Guarded, DynamicItem[Button[Any]], template=r"sp:(?P<tid>\d+):(?P<action>[a-z]+)$"):
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
    Guarded, DynamicItem[Button[Any]], template=r"sp:(?P<tid>\d+):c:(?P<stamp>\d+):(?P<card>\d+)$"
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


class BidSelect(Guarded, DynamicItem[Select[Any]], template=r"sp:(?P<tid>\d+):b:(?P<stamp>\d+)$"):
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


class PassSelect(Guarded, DynamicItem[Select[Any]], template=r"sp:(?P<tid>\d+):p:(?P<stamp>\d+)$"):
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
    Guarded,
    DynamicItem[Button[Any]],
    template=r"sp:(?P<tid>\d+):(?P<action>blind|look|never|keep|discard|misdeal):(?P<stamp>\d+)$",
):
    """Blind nil / show my cards / never ask me (before the hand is seen) and keep / discard
    (two-player draw)."""

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
