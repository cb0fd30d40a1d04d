"""An independent audit of the engine against RULES.md and HAND_RECORD.md (issue 2).

Each test names the rule it checks; the expected numbers are worked out by hand from RULES.md.
"""

import random
from typing import Any

import pytest

from engine import (
    Bid,
    BidNotAllowed,
    FirstTrickRule,
    Game,
    MisdealNotAllowed,
    Phase,
    RecordError,
    Ruleset,
    SpadesNotBroken,
    card_str,
    cards_of,
    parse_card,
)
from engine.record import replay
from engine.scoring import game_winner, hand_totals, score_hand
from tests.engine.helpers import DEAL, bid_all, game_from

C = parse_card
STD = Ruleset.preset("standard")


def bids(*values: int | str) -> list[Bid]:
    return [Bid.NIL if v in (0, "nil") else Bid.parse(v) for v in values]


def both(rs: Ruleset, b: list[Bid], tricks: list[int], scores: list[int], bags: list[int]) -> list[Any]:
    """score_hand, checked against the fast hand_totals (both must agree on every case)."""
    sides = score_hand(rs, b, tricks, scores, bags)
    fast = hand_totals(rs, b, tricks, scores, bags)
    assert fast == ([s.score_after for s in sides], [s.bags_after for s in sides])
    return sides


# -- scoring edge cases -------------------------------------------------------------------------


def test_blind_nil_made_beside_a_set_partner() -> None:
    # blind nil made +200, partner bid 5 took 4: -50
    side0, _ = both(STD, bids("blind_nil", 4, 5, 3), [0, 6, 4, 3], [0, 0], [0, 0])
    assert side0.nil_points == 200 and side0.contract_points == -50 and side0.total == 150
    assert side0.made is False and side0.bags == 0


def test_both_partners_nil() -> None:
    made, _ = both(STD, bids("nil", 6, "nil", 6), [0, 7, 0, 6], [0, 0], [0, 0])
    assert made.made is None and made.bid == 0 and made.total == 200 and made.bags == 0
    one_fails, _ = both(STD, bids("nil", 6, "nil", 6), [0, 6, 2, 5], [0, 0], [0, 0])
    # +100 - 100, and the failed nil's two tricks are two bags
    assert one_fails.nil_points == 0 and one_fails.bags == 2 and one_fails.total == 2
    assert one_fails.bags_after == 2


def test_failed_nil_tricks_cross_the_bag_limit() -> None:
    # 8 bags before; nil takes 3 tricks, partner bid 4 and took exactly 4: 11 bags -> -100, 1 left
    side0, _ = both(STD, bids("nil", 3, 4, 3), [3, 3, 4, 3], [200, 0], [8, 0])
    assert side0.bags == 3 and side0.penalties == 1 and side0.bag_penalty == -100
    assert side0.total == 40 + 3 - 100 - 100 and side0.score_after == 43 and side0.bags_after == 1
    # and they count as bags even when the partner is set
    side0, _ = both(STD, bids("nil", 3, 6, 3), [3, 3, 4, 3], [0, 0], [9, 0])
    assert side0.made is False and side0.bags == 3 and side0.bags_after == 2
    assert side0.total == -60 + 3 - 100 - 100


def test_bag_penalty_twice_in_one_hand_under_the_standard_limit() -> None:
    # 9 bags before, 11 this hand (nil failed with 4, partner bid 1 took 8): 20 -> two penalties
    side0, _ = both(STD, bids("nil", 3, 1, 1), [4, 0, 8, 1], [0, 0], [9, 0])
    assert side0.bags == 11 and side0.penalties == 2 and side0.bags_after == 0
    assert side0.total == 10 + 11 - 100 - 200


def test_negative_score_with_bags() -> None:
    side0, _ = both(STD, bids(3, 3, 1, 3), [4, 3, 1, 2], [-80, 0], [9, 0])
    assert side0.total == 40 + 1 - 100 and side0.score_after == -139 and side0.bags_after == 0
    side0, _ = both(STD, bids(3, 3, 1, 3), [4, 3, 1, 2], [-80, 0], [3, 0])
    assert side0.score_after == -39 and side0.bags_after == 4


def test_ten_for_200_with_a_nil_partner_and_with_bags() -> None:
    rs = Ruleset.preset("standard", ten_for_200=True)
    # one partner bids 10 alone beside a made nil: +200 for the contract, +100 nil, +1 bag
    side0, _ = both(rs, bids(10, 1, "nil", 1), [11, 1, 0, 1], [0, 0], [0, 0])
    assert side0.bonus_points == 100 and side0.total == 200 + 100 + 1
    # a team bid of 9 is ordinary
    side0, _ = both(rs, bids(5, 1, 4, 1), [6, 1, 5, 1], [0, 0], [0, 0])
    assert side0.bonus_points == 0 and side0.total == 92


def test_boston_by_a_nil_bidders_partner_and_not_without_the_bid() -> None:
    rs = Ruleset.preset("standard", boston=True)
    side0, side1 = both(rs, bids(13, 0, "nil", 0), [13, 0, 0, 0], [0, 0], [0, 0])
    assert side0.boston and game_winner(rs, [side0.score_after, side1.score_after], [side0, side1], 1) == (
        0,
        "boston",
    )
    # taking all 13 on a bid of 12 is no Boston (bid *and* take every trick)
    side0, side1 = both(rs, bids(6, 1, 6, 1), [7, 0, 6, 0], [0, 0], [0, 0])
    assert not side0.boston and game_winner(rs, [121, -20], [side0, side1], 1) == (None, None)


def test_blind_bid_beside_an_ordinary_bid() -> None:
    rs = Ruleset.preset("house")
    b = [Bid.of("blind", 4), Bid.tricks(3), Bid.tricks(3), Bid.tricks(3)]
    side0, _ = both(rs, b, [5, 2, 3, 3], [0, 0], [0, 0])
    assert side0.bid == 7 and side0.blind_bid == 4 and side0.total == 80 + 30 + 1
    side0, _ = both(rs, b, [3, 4, 3, 3], [0, 0], [0, 0])
    assert side0.total == -70


@pytest.mark.parametrize(("value", "after"), [(0, -100), (-10, -100 - 30)])
def test_no_overs_and_3b_bags_still_count_toward_the_limit(value: int, after: int) -> None:
    # bag_value changes what a bag is worth, not the bag count (the penalty still applies)
    rs = Ruleset.preset("standard", bag_value=value)
    side0, _ = both(rs, bids(2, 4, 2, 2), [4, 3, 3, 3], [0, 0], [8, 0])
    assert side0.bags == 3 and side0.penalties == 1 and side0.score_after == 40 + after


def test_mercy_at_exactly_the_lose_score_and_both_over_target() -> None:
    rs = Ruleset.preset("house")
    assert rs.lose_score == -200
    sides = both(rs, bids(3, 3, 3, 3), [3, 3, 4, 3], [0, 0], [0, 0])
    assert game_winner(rs, [-200, 10], sides, 1) == (1, "mercy")
    assert game_winner(rs, [-199, 10], sides, 1) == (None, None)
    # both over the target on the same hand: the higher wins; an exact tie plays on
    assert game_winner(STD, [520, 560], sides, 7) == (1, "target")
    assert game_winner(STD, [560, 560], sides, 7) == (None, None)
    # max_hands reached with a tie plays on, the next hand decides
    mh = Ruleset.preset("standard", max_hands=3)
    assert game_winner(mh, [100, 100], sides, 3) == (None, None)
    assert game_winner(mh, [100, 90], sides, 4) == (0, "max_hands")


# -- deal rotation and who leads ----------------------------------------------------------------


def _finish_hand(g: Game) -> None:
    hand_no = g.hand_no
    while g.phase is not Phase.GAME_OVER and g.hand_no == hand_no:
        seat = g.seats_to_act()[0]
        acts = g.legal_actions(seat)
        bid_acts = [a for a in acts if getattr(a, "bid", None) is not None]
        g.apply(bid_acts[-1] if bid_acts else acts[0])


def test_the_deal_passes_left_and_the_next_seat_bids_and_leads() -> None:
    g = Game.new("classic-online", seed=5, dealer=1)
    for hand in range(5):
        dealer = (1 + hand) % 4
        assert g.hand_no == hand + 1 and g.dealer == dealer
        assert g.phase is Phase.BID and g.to_act == (dealer + 1) % 4
        for _ in range(4):
            g.bid(g.to_act, g.legal_bids(g.to_act)[1])
        assert g.phase is Phase.PLAY and g.to_act == (dealer + 1) % 4
        _finish_hand(g)
        assert g.hand_records[-1]["dealer"] == dealer


def test_two_player_roles_swap_every_hand() -> None:
    g = Game.new(Ruleset.preset("two-player", blind_nil_allowed=False), seed=11, dealer=0)
    for hand in range(3):
        first = hand % 2  # the dealer draws first ...
        assert g.dealer == first and g.phase is Phase.DRAW and g.to_act == first
        while g.phase is Phase.DRAW:
            g.draw(g.to_act, True)
        second = 1 - first  # ... and the other player bids first and leads
        assert g.phase is Phase.BID and g.to_act == second
        g.bid(second, 3)
        g.bid(first, 3)
        assert g.to_act == second
        _finish_hand(g)
        assert g.hand_records[-1]["result"]["trick_winners"] is not None


def test_first_trick_two_clubs_a_void_player_with_only_spades_may_ruff() -> None:
    rs = Ruleset.preset("classic-online", first_trick_two_clubs=True)
    deal = [
        "2C 3C 4C 2H 3H 4H 5H 6H 7H 8H 9H 10H JH",
        "AS KS QS JS 10S 9S 8S 7S 6S 5S 4S 3S 2S",
        "5C 6C 7C 8C 9C 10C JC QC KC AC QH KH AH",
        "AD KD QD JD 10D 9D 8D 7D 6D 5D 4D 3D 2D",
    ]
    g = game_from(deal, rs, dealer=2)  # seat 3 would lead, but seat 0 holds 2C
    bid_all(g, [1, 1, 13, 1])
    assert g.to_act == 0
    g.play(0, C("2C"))
    assert len(g.legal_cards(1)) == 13  # only spades: any of them
    g.play(1, C("2S"))
    assert g.view(0).spades_broken


def test_first_trick_lowest_club_when_the_two_is_out_of_the_deck() -> None:
    rs = Ruleset.preset("cutthroat", num_seats=3, first_trick_two_clubs=True)
    assert C("2C") not in rs.deck and rs.hand_size == 17
    g = Game.new(rs, seed=3, dealer=0)
    _bid_round(g)
    holder = next(s for s in range(3) if g.hand(s) >> C("3C") & 1)
    assert g.to_act == holder and g.legal_cards(holder) == [C("3C")]
    with pytest.raises(FirstTrickRule):
        g.play(holder, next(c for c in cards_of(g.hand(holder)) if c != C("3C")))


def _bid_round(g: Game) -> None:
    while g.phase is Phase.BID:
        g.bid(g.to_act, g.legal_bids(g.to_act)[1])


def test_a_leader_left_with_only_spades_leads_one_and_breaks_them() -> None:
    deal = [
        "AH AS KS QS JS 10S 9S 8S 7S 6S 5S 4S 3S",
        "2S KH QH JH 10H 9H 8H 7H 6H 5H 4H 3H 2H",
        "AC KC QC JC 10C 9C 8C 7C 6C 5C 4C 3C 2C",
        "AD KD QD JD 10D 9D 8D 7D 6D 5D 4D 3D 2D",
    ]
    g = game_from(deal, "classic-online", dealer=3)
    bid_all(g, [12, 1, 1, 1])
    with pytest.raises(SpadesNotBroken):
        g.play(0, C("AS"))
    for card in ("AH", "KH", "AC", "AD"):
        g.play(g.to_act, C(card))
    assert g.to_act == 0 and not g.view(0).spades_broken and len(g.legal_cards(0)) == 12
    g.play(0, C("3S"))
    assert g.view(2).spades_broken
    assert g.legal_cards(1) == [C("2S")]  # seat 1 must follow spades with its one spade


# -- replay refuses each kind of bad record at the first bad action -----------------------------


def _record(**changes: Any) -> dict[str, Any]:
    rec: dict[str, Any] = {
        "format": "spades-hand/1",
        "ruleset": "standard",
        "dealer": 3,
        "deal": [h.split() for h in DEAL],
        "bids": [[0, 3], [1, 3], [2, 3], [3, 3]],
        "plays": [],
    }
    rec.update(changes)
    return rec


def _refusal(rec: dict[str, Any]) -> str:
    with pytest.raises(RecordError) as info:
        replay(rec)
    return str(info.value)


FTC = {"preset": "classic-online", "first_trick_two_clubs": True}


@pytest.mark.parametrize(
    ("changes", "expected"),
    [
        (
            {"ruleset": FTC, "dealer": 0, "bids": [[1, 3], [2, 3], [3, 3], [0, 3]], "plays": ["3D"]},
            "plays[0]: the first trick must be led with 2C",
        ),
        ({"ruleset": "whiz"}, "bids[0]: seat 0 may not bid 3: whiz: it must bid its 7 spades or nil"),
        (
            {"ruleset": "suicide", "bids": [[0, 3], [1, "nil"], [2, 3], [3, 3]]},
            "bids[2]: seat 2 may not bid 3: suicide: it must bid nil",
        ),
        (
            {"ruleset": {"preset": "standard", "board": 4}, "bids": [[0, "nil"], [1, 3], [2, 3], [3, 3]]},
            "bids[2]: seat 2 may not bid 3: the board is 4 per team",
        ),
        (
            {
                "bids": [[0, 4], [1, 3], [2, "blind_nil"], [3, 3]],
                "passes": [[2, ["10H", "9H", "8H"]], [2, ["AS", "KS", "QS"]]],
            },
            "passes[1]: seat 2 already passed",
        ),
        (
            {"bids": [[0, 4], [1, 3], [2, "blind_nil"], [3, 3]], "passes": [[1, ["AH", "KH", "JH"]]]},
            "passes[0]: seat 1 has no cards to pass",
        ),
        (
            {"bids": [[0, 4], [1, 3], [2, "blind_nil"], [3, 3]], "passes": [[2, ["AS", "9H", "8H"]]]},
            "passes[0]: AS is not held by seat 2",
        ),
        ({"passes": [[2, ["10H", "9H", "8H"]]]}, "passes[0]: no cards are passed in this hand"),
        ({"bids": [[0, 3], [1, 3], [2, 3], [3, 3], [0, 4]]}, "bids[4]: bidding is already over"),
        ({"before": {"scores": [0, 0], "bags": [0, -3]}}, "before.bags[1]: bags can't be negative (-3)"),
        (
            {"before": {"scores": [0, 0], "bags": [10, 0]}},
            "before.bags[0]: 10 bags can't be carried: the bag limit is 10",
        ),
    ],
)
def test_replay_names_the_first_bad_action(changes: dict[str, Any], expected: str) -> None:
    assert _refusal(_record(**changes)) == expected


def test_replay_accepts_carried_bags_below_the_limit_and_without_one() -> None:
    rec = _record(bids=[[0, 13], [1, 1], [2, 1], [3, 1]], before={"scores": [0, 0], "bags": [9, 0]})
    assert "plays" in _refusal(rec)  # the deal and the bids are fine: only the plays are missing
    rec["ruleset"] = {"preset": "standard", "bag_limit": None}
    rec["before"]["bags"] = [25, 3]
    assert _refusal(rec) == "plays: the record ends after 0 of 52 cards"


# -- the nil exchange ---------------------------------------------------------------------------


def test_nil_exchange_sizes_simultaneity_and_views() -> None:
    rs = Ruleset.preset("standard", nil_pass=1)
    g = game_from(DEAL, rs, dealer=3)
    for s in range(4):
        g.look(s)
    bid_all(g, ["nil", 3, 4, 3])
    assert g.phase is Phase.PASS and g.seats_to_act() == [0, 2]
    assert [g.pass_size(s) for s in range(4)] == [1, 0, 1, 0]
    assert g.view(0).passed is None and g.view(0).received is None
    g.pass_cards(0, [C("2C")])
    # the card leaves at once; nothing arrives before the partner has passed too
    v0, v2 = g.view(0), g.view(2)
    assert v0.passed == 1 << C("2C") and v0.received is None and v0.hand_sizes[0] == 12
    assert v2.received is None and v2.passed is None and not g.hand(2) >> C("2C") & 1
    g.pass_cards(2, [C("10H")])
    v0 = g.view(0)
    assert v0.received == 1 << C("10H") and v0.hand_sizes == (13, 13, 13, 13)
    assert g.hand(2) >> C("2C") & 1 and g.phase is Phase.PLAY and g.to_act == 0
    assert g.view(1).passed is None and g.view(1).received is None


def test_blind_nil_beside_a_nil_passes_the_blind_nil_size() -> None:
    g = game_from(DEAL, Ruleset.preset("standard", nil_pass=1), dealer=3)
    bid_all(g, ["blind_nil", 3, "nil", 3])
    assert [g.pass_size(s) for s in range(4)] == [3, 0, 3, 0]


# -- bids: whiz, mirrors, suicide ---------------------------------------------------------------


def test_whiz_mirrors_and_suicide_bid_lists() -> None:
    g = game_from(DEAL, "whiz", dealer=3)
    assert sorted(str(b) for b in g.legal_bids(0)) == ["7", "nil"]
    g = game_from(DEAL, "mirrors", dealer=3)
    assert [str(b) for b in g.legal_bids(0)] == ["7"]
    bid_all(g, [7, 6, "nil"])
    assert [str(b) for b in g.legal_bids(3)] == ["nil"]  # seat 3 holds no spades
    g = game_from(DEAL, Ruleset.preset("suicide", blind_nil_allowed=False), dealer=3)
    g.bid(0, 3)
    g.bid(1, "nil")
    assert all(b.is_nil for b in g.legal_bids(2))  # partner bid a number: seat 2 must bid nil
    g.bid(2, "nil")
    assert not any(b.is_nil for b in g.legal_bids(3))  # partner bid nil: seat 3 must bid a number


# -- jokers, high deuces and decks --------------------------------------------------------------


def test_jokers_are_spades_for_following_and_leading() -> None:
    rs = Ruleset.preset("jokers-high")
    deal = [
        "BJ AH KH QH JH 10H 9H 8H 7H 6H 5H 4H 3H",
        "LJ AS KS QS JS 10S 9S 8S 7S 6S 5S 4S 3S",
        "2H AC KC QC JC 10C 9C 8C 7C 6C 5C 4C 3C",
        "2S AD KD QD JD 10D 9D 8D 7D 6D 5D 4D 3D",
    ]
    g = game_from(deal, rs, dealer=3)
    bid_all(g, [3, 3, 3, 3])
    assert C("BJ") not in g.legal_cards(0)  # a joker is a spade: not led before spades are broken
    g.play(0, C("AH"))
    assert set(g.legal_cards(1)) == set(cards_of(g.hand(1)))  # void in hearts: anything, a joker too
    g.play(1, C("LJ"))
    g.play(2, C("2H"))
    g.play(3, C("2S"))
    assert g.tricks == [0, 1, 0, 0] and g.view(0).spades_broken
    g.play(1, C("3S"))
    g.play(2, C("3C"))  # no spades left: any card
    g.play(3, C("3D"))
    assert g.legal_cards(0) == [C("BJ")]  # the big joker is seat 0's only spade: it must follow
    g.play(0, C("BJ"))
    assert g.tricks == [1, 1, 0, 0]


def test_high_deuces_follow_as_spades_not_as_their_printed_suit() -> None:
    rs = Ruleset.preset("deuces-high")
    deal = [
        "AD KD QD JD 10D 9D 8D 7D 6D 5D 4D 3D 2C",
        "2D 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS AH",
        "AC KC QC JC 10C 9C 8C 7C 6C 5C 4C 3C AS",
        "2S KH QH JH 10H 9H 8H 7H 6H 5H 4H 3H 2H",
    ]
    g = game_from(deal, rs, dealer=3)
    bid_all(g, [3, 3, 3, 3])
    g.play(0, C("AD"))
    # seat 1 holds 2D, but 2D is a spade: it is void in diamonds and may play anything
    assert set(g.legal_cards(1)) == set(cards_of(g.hand(1)))
    g.play(1, C("2D"))
    g.play(2, C("AS"))
    g.play(3, C("2H"))
    assert g.tricks == [0, 1, 0, 0]  # 2D beats the ace of spades
    g.play(1, C("3S"))
    g.play(2, C("3C"))
    assert g.legal_cards(3) == [C("2S")]  # 2S is seat 3's only spade: it must follow spades


def test_boston_needs_the_contract_made_not_just_every_trick() -> None:
    # a side that bids 14 (7 + 7) and takes all 13 is set: no Boston, no outright win
    rs = Ruleset.preset("classic-online", boston=True)
    side0, side1 = both(rs, bids(7, 0, 7, 0), [7, 0, 6, 0], [0, 0], [0, 0])
    assert side0.made is False and not side0.boston and side0.total == -140
    assert game_winner(rs, [-140, 0], [side0, side1], 1) == (None, None)


def test_boston_ends_a_real_game_below_the_target() -> None:
    rs = Ruleset.preset("classic-online", boston=True)
    deal = [
        "AS KS QS JS 10S 9S 8S 7S 6S 5S 4S 3S 2S",
        "AH KH QH JH 10H 9H 8H 7H 6H 5H 4H 3H 2H",
        "AC KC QC JC 10C 9C 8C 7C 6C 5C 4C 3C 2C",
        "AD KD QD JD 10D 9D 8D 7D 6D 5D 4D 3D 2D",
    ]
    g = game_from(deal, rs, dealer=3)
    bid_all(g, [13, 1, "nil", 1])
    while g.phase is Phase.PLAY:
        g.play(g.to_act, g.legal_cards(g.to_act)[-1])
    assert g.phase is Phase.GAME_OVER and g.winner == 0 and g.end_reason == "boston"
    assert g.scores[0] == 130 + 100 < rs.target_score


def test_misdeal_only_before_the_callers_team_has_bid() -> None:
    rs = Ruleset.preset("classic-online", misdeal_no_spades=True)
    g = game_from(DEAL, rs, dealer=0)  # seats 2 and 3 hold no spades; seat 1 bids first
    g.bid(1, 2)
    with pytest.raises(MisdealNotAllowed, match="your team has bid"):
        g.misdeal(3)  # its partner, seat 1, has bid
    events = g.misdeal(2)  # seat 2's side (0 + 2) has not bid yet
    assert [e.kind for e in events] == ["misdealt", "hand_dealt"]
    assert g.hand_no == 1 and g.phase is Phase.BID and all(b is None for b in g.bids)


@pytest.mark.parametrize(
    ("name", "options", "hand", "removed"),
    [
        ("cutthroat", {}, 17, {"2C"}),
        ("cutthroat", {"jokers": True}, 18, set()),
        ("five-player", {}, 10, {"2D", "2H"}),
        ("six-player", {}, 17, {"2C"}),
        ("jokers-high", {}, 13, {"2C", "2D"}),
        ("standard", {}, 13, set()),
    ],
)
def test_deck_sizes_remove_the_cards_rules_md_names(
    name: str, options: dict[str, Any], hand: int, removed: set[str]
) -> None:
    rs = Ruleset.preset(name, **options)
    faces = [c & 63 for c in rs.deck]
    assert rs.hand_size == hand and len(rs.deck) == hand * rs.num_seats
    assert {card_str(c) for c in range(52)} - {card_str(c) for c in faces} == removed
    assert all(faces.count(f) == rs.decks for f in set(faces))  # two decks: every face twice
    g = Game.new(rs, seed=4)
    assert [g.hand(s).bit_count() for s in range(rs.num_seats)] == [hand] * rs.num_seats


def test_board_is_covered_by_the_last_teammate_to_bid() -> None:
    rs = Ruleset.preset("six-player-threes", board=5, blind_nil_allowed=False)
    g = Game.new(rs, seed=1, dealer=5)
    g.bid(0, "nil")
    g.bid(1, "nil")
    assert Bid.NIL in g.legal_bids(2)  # seat 4 has not bid yet: seat 2 is free
    g.bid(2, 2)
    g.bid(3, 1)
    assert min(b.n for b in g.legal_bids(4)) == 3 and Bid.NIL not in g.legal_bids(4)
    with pytest.raises(BidNotAllowed, match="at least 5"):
        g.bid(4, 2)


SUITS = [
    "AS KS QS JS 10S 9S 8S 7S 6S 5S 4S 3S 2S",
    "AH KH QH JH 10H 9H 8H 7H 6H 5H 4H 3H 2H",
    "AC KC QC JC 10C 9C 8C 7C 6C 5C 4C 3C 2C",
    "AD KD QD JD 10D 9D 8D 7D 6D 5D 4D 3D 2D",
]


@pytest.mark.parametrize(("before", "over"), [([490, 490], True), ([560, 490], False)])
def test_both_sides_over_the_target_in_one_hand(before: list[int], over: bool) -> None:
    # seat 0 takes all 13 (side 0: 7 + 6 made, +130); side 1's two nils are made (+200)
    g = game_from(SUITS, "classic-online", dealer=3, scores=before)
    bid_all(g, [7, "nil", 6, "nil"])
    while g.phase is Phase.PLAY and g.hand_no == 1:
        g.play(g.to_act, g.legal_cards(g.to_act)[0])
    assert g.hand_records[0]["result"]["scores"] == [before[0] + 130, before[1] + 200]
    assert min(g.scores) >= 500
    if over:  # 620 against 690: the higher score wins
        assert g.phase is Phase.GAME_OVER and g.winner == 1 and g.end_reason == "target"
    else:  # 690 each: an exact tie plays another hand
        assert g.phase is not Phase.GAME_OVER and g.winner is None and g.hand_no == 2


# -- an independent statement of following suit, breaking spades and trick winners -------------

_HIGH = ["2H", "2C", "2D", "2S", "LJ", "BJ"]  # above the ace of spades, low to high


def _is_high(rs: Ruleset, card: int) -> bool:
    text = card_str(card & 63)
    return (
        text in ("LJ", "BJ")
        or (rs.deuces_high and text in ("2S", "2D"))
        or (rs.deuces_high_all and text in ("2C", "2H"))
    )


def _ref_suit(rs: Ruleset, card: int) -> int:
    return 3 if _is_high(rs, card) else (card & 63) // 13


def _ref_power(rs: Ruleset, card: int) -> int:
    if _is_high(rs, card):
        return 100 + _HIGH.index(card_str(card & 63))
    return (card & 63) % 13


def _ref_legal(g: Game, rs: Ruleset, seat: int, broken: bool, first_trick: bool, lead: int) -> set[int]:
    hand = set(cards_of(g.hand(seat)))
    spades = {c for c in hand if _ref_suit(rs, c) == 3}
    if g.trick:
        led = _ref_suit(rs, g.trick[0][1])
        follow = {c for c in hand if _ref_suit(rs, c) == led}
        if follow:
            return follow
        if first_trick and rs.first_trick_two_clubs:
            return (hand - spades) or hand
        return hand
    if first_trick and lead >= 0:
        return {lead}
    if rs.spades_must_be_broken and not broken:
        return (hand - spades) or hand
    return hand


def _ref_winner(rs: Ruleset, trick: list[tuple[int, int]]) -> int:
    spades = [(s, c) for s, c in trick if _ref_suit(rs, c) == 3]
    led = _ref_suit(rs, trick[0][1])
    pool = spades or [(s, c) for s, c in trick if _ref_suit(rs, c) == led]
    best = max(_ref_power(rs, c) for _, c in pool)
    tied = [s for s, c in pool if _ref_power(rs, c) == best]
    return tied[0] if rs.six_player_first_wins else tied[-1]


@pytest.mark.parametrize(
    "rs",
    [
        Ruleset.preset("classic-online"),
        Ruleset.preset("classic-online", first_trick_two_clubs=True),
        Ruleset.preset("jokers-high", deuces_high=True),
        Ruleset.preset("deuces-high", deuces_high_all=True, first_trick_two_clubs=True),
        Ruleset.preset("six-player", six_player_first_wins=False, blind_nil_allowed=False),
        Ruleset.preset("six-player-solo", first_trick_two_clubs=True),
        Ruleset.preset("cutthroat", jokers=True),
        Ruleset.preset("five-player"),
    ],
    ids=lambda rs: rs.to_dict().__repr__(),
)
def test_every_play_agrees_with_an_independent_reading_of_the_rules(rs: Ruleset) -> None:
    rng = random.Random(7)
    for seed in range(6):
        g = Game.new(rs, seed=seed)
        while g.phase is not Phase.PLAY:
            seat = g.seats_to_act()[0]
            acts = g.legal_actions(seat)
            g.apply(acts[rng.randrange(len(acts))])
        lead = (
            min(
                cards_of(
                    sum(g.hand(s) for s in range(g.n)) & sum(1 << c for c in rs.deck if _ref_suit(rs, c) == 0)
                ),
                key=lambda c: (c & 63, c),
            )
            if rs.first_trick_two_clubs
            else -1
        )
        if lead >= 0:
            assert g.to_act == next(s for s in range(g.n) if g.hand(s) >> lead & 1)
        broken, trick_no, hand_no = False, 0, g.hand_no
        while g.hand_no == hand_no and g.phase is Phase.PLAY:
            seat = g.to_act
            assert seat is not None
            expected = _ref_legal(g, rs, seat, broken, trick_no == 0, lead)
            assert set(g.legal_cards(seat)) == expected
            card = rng.choice(sorted(expected))
            trick = [*g.trick, (seat, card)]
            g.play(seat, card)
            broken = broken or _ref_suit(rs, card) == 3
            if len(trick) == g.n:
                winner = _ref_winner(rs, trick)
                trick_no += 1
                if trick_no < rs.hand_size:
                    assert g.to_act == winner and g.tricks[winner] >= 1
                else:
                    assert g.hand_records[-1]["result"]["trick_winners"][-1] == winner


# -- scoring, stated again from RULES.md, against score_hand on random hands ---------------------


def _ref_side(
    rs: Ruleset, b: list[Bid], tricks: list[int], seats: tuple[int, ...], score: int, bags: int
) -> tuple[int, int, bool]:
    """(score after, bags after, Boston) for one side, read straight from RULES.md 1 and 5."""
    points = gained = 0
    contract = [s for s in seats if not b[s].is_nil]
    for s in seats:
        if b[s].is_nil:
            value = rs.blind_nil_value if b[s].kind == "blind_nil" else rs.nil_value
            points += value if tricks[s] == 0 else -value
            gained += tricks[s]  # a nil bidder's tricks are bags, never contract tricks
    boston = False
    if contract:
        bid = sum(b[s].n for s in contract)
        blind = sum(b[s].n for s in contract if b[s].kind == "blind")
        took = sum(tricks[s] for s in contract)
        if took >= bid:
            points += 200 if rs.ten_for_200 and bid >= 10 else 10 * (bid - blind) + 20 * blind
            gained += took - bid
            boston = rs.boston and bid >= rs.hand_size and took == rs.hand_size
        else:
            points -= 200 if rs.ten_for_200 and bid >= 10 else 10 * bid
    points += gained * rs.bag_value
    bags += gained
    while rs.bag_limit and bags >= rs.bag_limit:
        bags -= rs.bag_limit
        points -= rs.bag_penalty
    return score + points, bags, boston


@pytest.mark.parametrize(
    "name", ["standard", "house", "short", "cutthroat", "six-player-threes", "six-player"]
)
def test_score_hand_agrees_with_rules_md_on_random_hands(name: str) -> None:
    rs = Ruleset.preset(name, bag_value=-10) if name == "short" else Ruleset.preset(name)
    rng = random.Random(name)
    kinds = [Bid.NIL, Bid.BLIND_NIL] + [Bid.of("blind", n) for n in range(1, 8)]
    for _ in range(300):
        b = [
            rng.choice(kinds) if rng.random() < 0.3 else Bid.tricks(rng.randrange(rs.hand_size + 1))
            for _ in range(rs.num_seats)
        ]
        cuts = sorted(rng.randrange(rs.hand_size + 1) for _ in range(rs.num_seats - 1))
        tricks = [hi - lo for lo, hi in zip([0, *cuts], [*cuts, rs.hand_size], strict=True)]
        scores = [rng.randrange(-300, 500) for _ in rs.sides]
        bags = [rng.randrange(rs.bag_limit or 10) for _ in rs.sides]
        for side in both(rs, b, tricks, scores, bags):
            ref = _ref_side(rs, b, tricks, side.seats, scores[side.side], bags[side.side])
            assert (side.score_after, side.bags_after, side.boston) == ref, (b, tricks)
