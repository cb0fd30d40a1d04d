"""engine.review: a seat's decisions in a finished hand beside the strong bot's."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from engine import Game, RecordError, card_str
from engine.bids import Bid
from engine.bots.expert import distinct_cards
from engine.bots.strong import StrongBot
from engine.review import HandReview, decision_points, review_hand, reviewable
from tests.engine.helpers import play

EXAMPLE = Path(__file__).resolve().parents[2] / "docs" / "examples" / "standard-hand.json"
QUICK: dict[str, Any] = {"worlds": 4, "time_limit": None}  # a fixed search: the same answer anywhere


def example() -> dict[str, Any]:
    return json.loads(EXAMPLE.read_text())


def test_each_decision_point_is_the_seats_turn_with_what_it_did_legal_there() -> None:
    rec = example()
    for seat in range(4):
        points = decision_points(rec, seat)
        assert [p.kind for p in points] == ["bid"] + ["play"] * 13
        assert [p.trick for p in points[1:]] == list(range(1, 14))
        bid = points[0]
        assert bid.game.to_act == seat and bid.actual == Bid.parse(dict(rec["bids"])[seat])
        for p in points[1:]:
            assert p.game.to_act == seat
            assert p.actual in p.game.legal_cards(seat)
        # the cards played are the seat's cards in the record, in order
        played = [card_str(p.actual) for p in points[1:] if isinstance(p.actual, int)]
        assert len(played) == 13
        assert all(c in rec["plays"] for c in played)


def test_the_bots_own_hand_has_nothing_to_review() -> None:
    """A hand the strong bot played at every seat (the review's settings and seed): the review
    agrees with every decision, and finds no difference anywhere."""
    g = Game.new("standard", seed=5, dealer=0)
    bot = StrongBot(0, **QUICK)
    while not g.hand_records:
        g.apply(bot.act(g.view(g.seats_to_act()[0])))
    rec = json.loads(json.dumps(g.hand_records[0]))
    for seat in (0, 3):
        review = review_hand(rec, seat, seed=0, **QUICK)
        assert review.bid.player == review.bid.bot and review.bid.gain == 0.0
        assert not review.bid.differs and review.bid_within_one is True
        assert review.plays == () and review.plays_reviewed == 13


def test_an_overbid_is_shown_beside_the_bots_bid_with_its_cost() -> None:
    rec = example()
    played = review_hand(rec, 2, **QUICK)
    rec["bids"] = [[s, 9 if s == 2 else b] for s, b in rec["bids"]]  # seat 2 bids 9 on a 3-trick hand
    review = review_hand(rec, 2, **QUICK)
    assert review.bid.player == Bid.parse(9) and review.bid.differs
    assert review.bid.bot == played.bid.bot  # the bot's bid depends on the bids before it only
    assert review.bid.gain > 20  # a set of 9 tricks costs far more than a made 3
    assert review.bid_within_one is False


def test_the_plays_that_differ_come_largest_gain_first() -> None:
    review = review_hand(example(), 2, **QUICK)
    assert review.plays, "the heuristic's plays differ from the strong bot's somewhere"
    assert all(d.differs and d.kind == "play" and 1 <= d.trick <= 13 for d in review.plays)
    gains = [d.gain for d in review.plays]
    assert gains == sorted(gains, reverse=True)
    assert review.top(1) == review.plays[:1]
    points = {p.trick: p for p in decision_points(example(), 2) if p.kind == "play"}
    for d in review.plays:  # never two cards that do the same (Q or J with the K out)
        view = points[d.trick].game.view(2)
        assert isinstance(d.bot, int) and isinstance(d.player, int)
        assert len(distinct_cards(view, [d.bot, d.player], d.bot)) == 2
    assert review.plays[0].gain > 0


def test_a_review_survives_its_dict_form() -> None:
    review = review_hand(example(), 1, **QUICK)
    back = HandReview.from_dict(json.loads(json.dumps(review.to_dict())))
    assert back == review


def test_the_same_settings_give_the_same_review() -> None:
    assert review_hand(example(), 3, **QUICK) == review_hand(example(), 3, **QUICK)


def test_a_broken_record_is_refused() -> None:
    rec = example()
    rec["plays"][0], rec["plays"][1] = rec["plays"][1], rec["plays"][0]
    with pytest.raises(RecordError):
        review_hand(rec, 0, **QUICK)
    with pytest.raises(RecordError):
        decision_points(example(), 7)


def test_a_two_player_draw_is_not_reviewed() -> None:
    g = play("two-player", seed=3, hands=1)
    rec = json.loads(json.dumps(g.hand_records[0]))
    assert not reviewable(rec) and reviewable(example())
    with pytest.raises(RecordError):
        review_hand(rec, 0, **QUICK)


def test_a_nil_bid_and_a_number_are_not_within_one() -> None:
    rec = example()
    rec["bids"] = [[s, "nil" if s == 1 else b] for s, b in rec["bids"]]
    review = review_hand(rec, 1, **QUICK)
    if review.bid.bot.is_nil:  # type: ignore[union-attr]
        assert review.bid_within_one is True
    else:
        assert review.bid_within_one is None


@pytest.mark.parametrize("preset", ["cutthroat", "six-player", "jokers-high", "suicide", "mirrors"])
def test_every_seat_count_and_variant_is_reviewed(preset: str) -> None:
    g = play(preset, seed=2, hands=1, bot="heuristic")
    rec = json.loads(json.dumps(g.hand_records[0]))
    review = review_hand(rec, 0, worlds=2, time_limit=None)
    assert review.plays_reviewed == g.rs.hand_size
    assert review.bid.player == Bid.parse(dict(rec["bids"])[0])
    assert all(1 <= d.trick <= g.rs.hand_size for d in review.plays)
