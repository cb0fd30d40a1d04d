"""Spades rules engine: pure Python, deterministic under a seed, fully serializable.

The public API is documented in docs/ENGINE_API.md; everything listed there is importable here.
A seeded game deals the same cards every time:

>>> import random
>>> from engine import Game, NotYourTurn, Ruleset, card_str, parse_card, replay
>>> game = Game.new(Ruleset.preset("standard"), seed=7, dealer=0)
>>> game.phase, game.hand_no, game.to_act
(<Phase.BID: 'bid'>, 1, 1)
>>> game.bid(1, 4)
[Looked(seat=1), BidMade(seat=1, bid=Bid(kind='tricks', n=4))]
>>> for seat in (2, 3, 0):
...     _ = game.bid(seat, 3)
>>> game.phase, game.to_act, [card_str(card) for card in game.legal_cards(1)]
(<Phase.PLAY: 'play'>, 1, ['5C', '6C', '8C', '9C', '7D', '9D', 'QH'])
>>> game.play(1, parse_card("5C"))
[CardPlayed(seat=1, card=3)]

The rules refuse with a typed error, a stable ``code`` and its fields; nothing changes:

>>> try:
...     game.play(1, parse_card("9C"))
... except NotYourTurn as refusal:
...     print(refusal.code, refusal.expected_seat)
not_your_turn 2

``playout`` finishes the hand fast (the bots' search uses it); every finished hand leaves a
record (docs/HAND_RECORD.md) that ``replay`` scores again:

>>> game.playout(random.Random(1))
>>> game.hand_no, game.scores, game.bags
(2, [-60, 73], [0, 3])
>>> replay(game.hand_records[0])["scores"]
[-60, 73]
"""

from .actions import Action, BidAction, DrawAction, Look, MisdealAction, PassAction, PlayAction
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
    pretty_list,
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
from .events import (
    BiddingDone,
    BidMade,
    CardDrawn,
    CardPlayed,
    CardsPassed,
    Event,
    GameOver,
    HandDealt,
    HandScored,
    Looked,
    Misdealt,
    NilScore,
    PassingDone,
    SideScore,
    SpadesBroken,
    TrickWon,
)
from .game import TIEBREAKS, Game, Phase
from .record import replay
from .rules_text import RULE_KEYS, RuleLine
from .rules_text import explain as explain_rules
from .rules_text import explain_lines as explain_rule_lines
from .ruleset import PRESETS, Ruleset
from .scoring import game_winner, score_hand
from .view import View

__all__ = [
    "BIG_JOKER",
    "CLUBS",
    "DIAMONDS",
    "HEARTS",
    "LITTLE_JOKER",
    "PRESETS",
    "RULE_KEYS",
    "SPADES",
    "TIEBREAKS",
    "Action",
    "AlreadyLooked",
    "BadPass",
    "Bid",
    "BidAction",
    "BidMade",
    "BidNotAllowed",
    "BidParseError",
    "BiddingDone",
    "CardDrawn",
    "CardNotHeld",
    "CardParseError",
    "CardPlayed",
    "CardsPassed",
    "DrawAction",
    "EngineError",
    "Event",
    "FirstTrickRule",
    "Game",
    "GameOver",
    "HandDealt",
    "HandScored",
    "IllegalAction",
    "Look",
    "Looked",
    "MisdealAction",
    "MisdealNotAllowed",
    "Misdealt",
    "MustFollowSuit",
    "NilScore",
    "NotYourTurn",
    "PassAction",
    "PassingDone",
    "Phase",
    "PlayAction",
    "RecordError",
    "RuleLine",
    "Ruleset",
    "RulesetError",
    "SideScore",
    "SpadesBroken",
    "SpadesNotBroken",
    "TrickWon",
    "View",
    "WrongPhase",
    "bits",
    "card_pretty",
    "card_str",
    "cards_of",
    "count",
    "explain_rule_lines",
    "explain_rules",
    "face",
    "game_winner",
    "hand_str",
    "mask_of",
    "parse_card",
    "parse_cards",
    "pretty_list",
    "rank_of",
    "replay",
    "score_hand",
    "suit_name",
    "suit_of",
    "suit_symbol",
]
