"""Rendering and component layout: Discord limits, card grouping, custom_id round trips."""

from __future__ import annotations

import re

import discord
import pytest

import engine
from bot import render
from bot.tables import Seat, Table
from bot.views import DYNAMIC_ITEMS, BidSelect, CardButton, PanelButton, PassSelect, TableButton, card_rows


def _table(preset: str = "standard") -> Table:
    rs = engine.Ruleset.preset(preset)
    seats: list[Seat | None] = [None] * rs.num_seats
    seats[0] = Seat(11, "alice")
    seats[1] = Seat(None, "Bea", bot=True)
    return Table(
        id=7,
        guild_id=1,
        channel_id=2,
        host_id=11,
        status="open",
        ruleset=rs,
        preset=preset,
        seats=seats,
        settings={"play_seconds": 60, "bid_seconds": 90},
    )


@pytest.mark.parametrize("n", [1, 5, 10, 13, 17, 18])
def test_card_rows_respect_discord_limits(n: int) -> None:
    deck = [c for c in range(52)]
    cards = engine.cards_of(engine.mask_of(deck[::3][:n] if n <= 18 else deck[:n]))
    assert len(cards) == n
    for rows in (4, 5):
        laid = card_rows(cards, rows)
        assert len(laid) <= rows
        assert all(1 <= len(r) <= 5 for r in laid)
        assert [c for r in laid for c in r] == cards  # order kept, nothing lost


def test_card_rows_group_suits_when_they_fit() -> None:
    cards = engine.cards_of(engine.mask_of(engine.parse_cards("AS KS 9H 4H JC 6C 3D")))
    laid = card_rows(cards, 4)
    assert [[engine.suit_of(c) for c in r] for r in laid] == [[3, 3], [2, 2], [0, 0], [1]]


def test_seating_message_names_seats_teams_and_host() -> None:
    text = render.table_message(_table())
    assert "table 7" in text
    assert "1. <@11>" in text and "🤖 Bea" in text and "(empty)" in text
    assert "Team 1" in text and "Team 2" in text
    assert "Host: <@11>" in text
    assert len(text) <= 2000


def test_rules_text_mentions_the_options_in_words() -> None:
    text = render.rules_text(_table())
    assert "Blind nil" in text and "Nil" in text and "bags" in text
    assert len(text) <= 2000


def test_custom_ids_fit_and_parse_back() -> None:
    big = 10**12
    items: list[discord.ui.Item[discord.ui.View]] = [
        TableButton(big, "join"),
        CardButton(big, 99999, 53 + 64),
        BidSelect(big, 99999, [engine.Bid.parse("4"), engine.Bid.parse("nil")]),
        PassSelect(big, 99999, list(range(18)), 3),
        PanelButton(big, "blind", 99999),
    ]
    for item in items:
        cid = item.custom_id  # type: ignore[attr-defined]
        assert len(cid) <= 100
        matching = [cls for cls in DYNAMIC_ITEMS if re.fullmatch(cls.__discord_ui_compiled_template__, cid)]  # type: ignore[attr-defined]
        assert matching == [type(item)], cid
