"""Actions and events as JSON: the exact form the bot stores and narrates, and the way back."""

from __future__ import annotations

import json

from engine import Bid, parse_card
from engine.actions import (
    BidAction,
    DrawAction,
    Look,
    MisdealAction,
    PassAction,
    PlayAction,
    action_from_dict,
)
from engine.events import BidMade, CardPlayed, GameOver, HandDealt, TrickWon

C = parse_card


def test_actions_write_cards_as_text_and_bids_in_record_form() -> None:
    cases = [
        (Look(1), {"kind": "look", "seat": 1}),
        (BidAction(2, Bid.parse("4")), {"kind": "bid", "seat": 2, "bid": 4}),
        (BidAction(0, Bid.parse("blind nil")), {"kind": "bid", "seat": 0, "bid": "blind_nil"}),
        (PassAction(3, (C("2C"), C("QH"))), {"kind": "pass", "seat": 3, "cards": ["2C", "QH"]}),
        (PlayAction(1, C("10D")), {"kind": "play", "seat": 1, "card": "10D"}),
        (DrawAction(0, False), {"kind": "draw", "seat": 0, "keep": False}),
        (MisdealAction(2), {"kind": "misdeal", "seat": 2}),
    ]
    for action, form in cases:
        d = action.to_dict()
        assert d == form
        assert list(d) == list(form)  # kind and seat first
        assert action_from_dict(json.loads(json.dumps(d))) == action


def test_events_write_cards_as_text_and_seated_cards_as_pairs() -> None:
    trick = ((1, C("AH")), (2, C("2H")), (3, C("9C")), (0, C("7H")))
    assert TrickWon(1, 1, trick).to_dict() == {
        "kind": "trick_won",
        "seat": 1,
        "trick_no": 1,
        "cards": [[1, "AH"], [2, "2H"], [3, "9C"], [0, "7H"]],
    }
    assert CardPlayed(2, C("QS")).to_dict() == {"kind": "card_played", "seat": 2, "card": "QS"}
    assert BidMade(0, Bid.NIL).to_dict() == {"kind": "bid_made", "seat": 0, "bid": "nil"}
    assert HandDealt(3, 1).to_dict() == {"kind": "hand_dealt", "hand_no": 3, "dealer": 1}
    assert GameOver(1, (510, 260)).to_dict() == {
        "kind": "game_over",
        "winner": 1,
        "scores": [510, 260],
        "reason": "target",
    }
