"""A stored game's seats, sides and bids in words: what the history, the replays and the pictures share.

Pure functions over stored data (``GameSummary``, hand records): no service, no discord. Texts are
lazy messages (``bot.i18n``): the answer that shows them renders them in the reader's language.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.i18n import Text, _, join
from bot.lexicon import bid_label
from bot.storage.history import FORMER_PLAYER, GamePlayer, GameSummary
from engine import Bid, Ruleset


def bid_text(bid: Any) -> Text:
    """A record's bid (``4``, ``"nil"``, ``"blind 6"``) as players say it, in the reader's language
    (``Nil``, ``Zero``, ``Ноль``)."""
    if bid is None:
        return "?"
    try:
        return bid_label(Bid.parse(bid))
    except ValueError:
        return str(bid)


def ruleset_of(record_or_game: Any) -> Ruleset:
    raw = record_or_game.get("ruleset", "standard") if isinstance(record_or_game, dict) else record_or_game
    try:
        return Ruleset.from_dict(raw)
    except (ValueError, TypeError):
        return Ruleset.preset("standard")


def seat_word(s: int) -> Text:
    """An empty seat in words: ``seat 3``."""
    return _("seat %(n)s", n=s + 1)


def player_name(name: str) -> Text:
    """A stored player's name as the reader sees it: ``/spades forgetme`` leaves the marker
    ``FORMER_PLAYER`` in the records, worded here in the reader's language ("były gracz")."""
    return _("a former player") if name == FORMER_PLAYER else name


def _unnamed(p: GamePlayer) -> bool:
    return p.is_bot and p.name == f"seat {p.seat + 1}"  # i18n-ok: the English an older record stored


def seat_names(game: GameSummary) -> list[str]:
    # an empty seat has no stored name (older records hold the English "seat 3"): worded here
    names = {p.seat: player_name(p.name) for p in game.players if p.name and not _unnamed(p)}
    n = max((p.seat for p in game.players), default=-1) + 1
    return [names.get(s, seat_word(s)) for s in range(n)]


def side_label(rs: Ruleset, names: Sequence[str], side: int) -> Text:
    """``Alice & Carol`` for a team, the player's name in solo play."""
    return join(*(names[s] if s < len(names) else seat_word(s) for s in rs.sides[side]), sep=" & ")
