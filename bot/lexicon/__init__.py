"""The game's words in every language (``words``) and the engine's refusals as lazy messages
(``refusals``); this package hands their public names on, so ``lexicon.explain`` and the like keep
working."""

from bot.lexicon.refusals import explain, explain_rules, unknown
from bot.lexicon.words import (
    PRESET_BLURBS,
    RULE_BLURBS,
    SUIT_A,
    SUIT_NAMES,
    bid_label,
    bid_matches,
    cards_list,
    describe,
    english,
    parse_bid,
    preset_label,
    preset_matches,
    preset_name,
    rules_suggestion,
    suit_name,
)

__all__ = [
    "PRESET_BLURBS",
    "RULE_BLURBS",
    "SUIT_A",
    "SUIT_NAMES",
    "bid_label",
    "bid_matches",
    "cards_list",
    "describe",
    "english",
    "explain",
    "explain_rules",
    "parse_bid",
    "preset_label",
    "preset_matches",
    "preset_name",
    "rules_suggestion",
    "suit_name",
    "unknown",
]
