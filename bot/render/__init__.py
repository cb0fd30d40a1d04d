"""Text of everything the bot shows: the live table message, hand panels, hand and game posts.

Public texts (the table message, hand and game posts, the score sheet) are built only from public
information (``Game.public_view()``, events, hand records of finished hands), so they can never show
a card somebody still holds. The hand panel is the one private text and is only ever sent ephemerally.
All texts stay under Discord's 2,000-character message limit, in every language.

Every text takes ``lang`` (``bot.i18n.LANGUAGES``): public texts are rendered in the server's
language, the hand panel in the player's own. English is the default.

One module per text: ``live`` (the table message), ``panel`` (the hand panel), ``posts`` (hand and
game posts, the score sheet), ``rules`` (the rules in words); ``pieces`` holds what they share.
This package hands their public names on, so ``bot.render.table_message`` and the like keep working.

The other texts are imported from their own modules: ``history`` (/history's pages, a stored
game's score sheet), ``replay`` (a finished hand step by step, the Verify deal answer), ``scenes``
(the pictures' data), with ``records`` for what they share; ``stats`` (the leaderboard and /stats),
``settings`` (/spades config's answer), ``league`` (the league's posts and /league's answers) and
``review`` (Review my hand's answer and refusals).
"""

from bot.render.live import table_message
from bot.render.panel import cards_line, hand_panel_text
from bot.render.pieces import (
    MAX_MESSAGE,
    SUIT_ORDER,
    bid_label,
    clip,
    house_rules,
    label,
    rules_line,
    short_commitment,
    side_members,
    side_name,
    trick_line,
)
from bot.render.posts import game_post, hand_post, score_sheet
from bot.render.rules import rule_lines, rules_pages, rules_text

__all__ = [
    "MAX_MESSAGE",
    "SUIT_ORDER",
    "bid_label",
    "cards_line",
    "clip",
    "game_post",
    "hand_panel_text",
    "hand_post",
    "house_rules",
    "label",
    "rule_lines",
    "rules_line",
    "rules_pages",
    "rules_text",
    "score_sheet",
    "short_commitment",
    "side_members",
    "side_name",
    "table_message",
    "trick_line",
]
