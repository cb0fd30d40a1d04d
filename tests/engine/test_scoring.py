"""Scoring rules of RULES.md, with its worked examples as cases."""

import pytest

from engine import Bid, Ruleset
from engine.scoring import game_winner, score_hand

STD = Ruleset.preset("standard")


def bids(*values: int | str) -> list[Bid]:
    return [Bid.NIL if v in (0, "nil") else Bid.parse(v) for v in values]


def test_bid_5_take_7_is_52() -> None:  # RULES.md [000]
    side0, side1 = score_hand(STD, bids(3, 4, 2, 2), [4, 3, 3, 3], [0, 0], [0, 0])
    assert (side0.bid, side0.tricks, side0.made) == (5, 7, True)
    assert side0.contract_points == 50 and side0.bag_points == 2 and side0.total == 52
    assert side0.bags_after == 2
    assert side1.bid == 6 and side1.tricks == 6 and side1.total == 60


def test_108_with_7_bags_then_bid_5_take_8_is_61() -> None:  # RULES.md [002]
    side0, _ = score_hand(STD, bids(3, 4, 2, 1), [5, 3, 3, 2], [108, 0], [7, 0])
    assert side0.contract_points == 50 and side0.bags == 3
    assert side0.bag_penalty == -100 and side0.penalties == 1
    assert side0.score_after == 61 and side0.bags_after == 0


def test_contract_set_scores_minus_ten_per_bid_trick_and_no_bags() -> None:
    side0, _ = score_hand(STD, bids(4, 3, 2, 3), [3, 5, 2, 3], [0, 0], [0, 0])
    assert side0.made is False and side0.total == -60 and side0.bags == 0


def test_nil_made_beside_a_set_partner_is_plus_50() -> None:  # RULES.md [002]
    side0, _ = score_hand(STD, bids("nil", 4, 5, 3), [0, 6, 4, 3], [0, 0], [0, 0])
    assert side0.nil_points == 100 and side0.contract_points == -50 and side0.total == 50
    assert side0.nils[0].made and side0.bid == 5


def test_failed_nil_tricks_are_bags_and_do_not_help_the_partner() -> None:
    # nil took 2, partner bid 4 and took 3: the 2 tricks don't make the contract
    side0, _ = score_hand(STD, bids("nil", 4, 4, 4), [2, 4, 3, 4], [0, 0], [0, 0])
    assert side0.tricks == 3 and side0.made is False
    assert side0.contract_points == -40 and side0.nil_points == -100
    assert side0.bags == 2 and side0.bag_points == 2 and side0.total == -138
    # with the partner made, the nil's tricks are still bags
    side0, _ = score_hand(STD, bids("nil", 4, 3, 4), [1, 4, 4, 4], [0, 0], [0, 0])
    assert side0.contract_points == 30 and side0.bags == 2 and side0.total == 30 + 2 - 100


def test_both_blind_nils() -> None:
    both_made, _ = score_hand(STD, bids("blind_nil", 6, "blind_nil", 6), [0, 7, 0, 6], [0, 0], [0, 0])
    assert both_made.nil_points == 400 and both_made.made is None and both_made.total == 400
    both_failed, _ = score_hand(STD, bids("blind_nil", 6, "blind_nil", 6), [1, 6, 2, 4], [0, 0], [0, 0])
    assert both_failed.nil_points == -400 and both_failed.total == -400 + 3
    one_each, _ = score_hand(STD, bids("blind_nil", 6, "blind_nil", 6), [0, 6, 2, 5], [0, 0], [0, 0])
    assert one_each.nil_points == 0 and one_each.total == 2


def test_bags_carry_and_can_cost_twice() -> None:
    rs = Ruleset.preset("short")  # 5 bags = -50
    side0, _ = score_hand(rs, bids(1, 1, 1, 1), [6, 1, 5, 1], [0, 0], [4, 0])
    assert side0.bags == 9 and side0.penalties == 2 and side0.bag_penalty == -100
    assert side0.bags_after == 3 and side0.total == 20 + 9 - 100


@pytest.mark.parametrize(("value", "expected"), [(0, 40), (-10, 40 - 30)])
def test_bag_value_variants(value: int, expected: int) -> None:
    rs = Ruleset.preset("standard", bag_value=value)
    side0, _ = score_hand(rs, bids(2, 4, 2, 2), [4, 3, 3, 3], [0, 0], [0, 0])
    assert side0.total == expected


def test_ten_for_200() -> None:
    rs = Ruleset.preset("standard", ten_for_200=True)
    made, _ = score_hand(rs, bids(6, 1, 4, 1), [6, 1, 5, 1], [0, 0], [0, 0])
    assert made.total == 200 + 1 and made.bonus_points == 100
    set_, _ = score_hand(rs, bids(6, 1, 4, 1), [6, 2, 3, 2], [0, 0], [0, 0])
    assert set_.total == -200


def test_blind_bid_scores_20_per_trick_made_and_10_set() -> None:
    rs = Ruleset.preset("standard", blind_bids=True)
    made, _ = score_hand(
        rs, [Bid.of("blind", 5), Bid.tricks(3), Bid.tricks(2), Bid.tricks(3)], [4, 3, 4, 2], [0, 0], [0, 0]
    )
    assert made.bid == 7 and made.blind_bid == 5 and made.total == 100 + 20 + 1
    set_, _ = score_hand(
        rs, [Bid.of("blind", 5), Bid.tricks(3), Bid.tricks(2), Bid.tricks(3)], [3, 4, 3, 3], [0, 0], [0, 0]
    )
    assert set_.total == -70


def test_boston_flag() -> None:
    rs = Ruleset.preset("standard", boston=True)
    side0, side1 = score_hand(rs, bids(7, 1, 6, 1), [7, 0, 6, 0], [0, 0], [0, 0])
    assert side0.boston and not side1.boston
    assert game_winner(rs, [130, -20], [side0, side1], 1) == (0, "boston")


def test_solo_sides_score_alone() -> None:
    rs = Ruleset.preset("cutthroat")
    sides = score_hand(rs, bids(5, "nil", 6), [6, 1, 10], [0, 0, 0], [0, 0, 0])
    assert [s.total for s in sides] == [51, -99, 64]


def test_ties_at_the_target_play_on() -> None:
    sides = score_hand(STD, bids(3, 3, 3, 3), [3, 3, 4, 3], [0, 0], [0, 0])
    assert game_winner(STD, [510, 510], sides, 9) == (None, None)
    assert game_winner(STD, [530, 510], sides, 9) == (0, "target")
    assert game_winner(STD, [499, 300], sides, 9) == (None, None)


def test_mercy_and_max_hands() -> None:
    rs = Ruleset.preset("standard", lose_score=-200, max_hands=10)
    sides = score_hand(rs, bids(3, 3, 3, 3), [3, 3, 4, 3], [0, 0], [0, 0])
    assert game_winner(rs, [-210, 40], sides, 2) == (1, "mercy")
    assert game_winner(rs, [-190, 40], sides, 2) == (None, None)
    assert game_winner(rs, [120, 40], sides, 10) == (0, "max_hands")
    assert game_winner(rs, [120, 120], sides, 10) == (None, None)
    # negative scores alone never end a game without mercy
    assert game_winner(STD, [-900, 40], sides, 2) == (None, None)
