"""Spades rules engine: pure Python, deterministic under a seed, fully serializable.

The public API is documented in docs/ENGINE_API.md; everything listed there is importable here.
"""

from .bids import Bid, BidParseError
from .cards import (
    BIG_JOKER,
    CLUBS,
    DIAMONDS,
    HEARTS,
    LITTLE_JOKER,
    SPADES,
    CardParseError,
    bits,
    card_pretty,
    card_str,
    cards_of,
    count,
    face,
    hand_str,
    mask_of,
    parse_card,
    parse_cards,
    rank_of,
    suit_name,
    suit_of,
    suit_symbol,
)
from .errors import (
    AlreadyLooked,
    BadPass,
    BidNotAllowed,
    CardNotHeld,
    EngineError,
    FirstTrickRule,
    IllegalAction,
    MisdealNotAllowed,
    MustFollowSuit,
    NotYourTurn,
    RecordError,
    RulesetError,
    SpadesNotBroken,
    WrongPhase,
)
from .ruleset import PRESETS, Ruleset

__all__ = [
    "BIG_JOKER", "CLUBS", "DIAMONDS", "HEARTS", "LITTLE_JOKER", "PRESETS", "SPADES",
    "AlreadyLooked", "BadPass", "Bid", "BidNotAllowed", "BidParseError", "CardNotHeld",
    "CardParseError", "EngineError", "FirstTrickRule", "IllegalAction", "MisdealNotAllowed",
    "MustFollowSuit", "NotYourTurn", "RecordError", "Ruleset", "RulesetError", "SpadesNotBroken",
    "WrongPhase", "bits", "card_pretty", "card_str", "cards_of", "count", "face", "hand_str",
    "mask_of", "parse_card", "parse_cards", "rank_of", "suit_name", "suit_of", "suit_symbol",
]
