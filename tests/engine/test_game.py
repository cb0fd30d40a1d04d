"""Game rules through the public API: turns, following suit, breaking spades, blind nil, the nil
exchange, views, events, trick winners and the variants."""

import json

import pytest

from engine import (
    AlreadyLooked,
    BadPass,
    Bid,
    BidNotAllowed,
    CardNotHeld,
    FirstTrickRule,
    Game,
    HandScored,
    IllegalAction,
    MisdealNotAllowed,
    MustFollowSuit,
    NotYourTurn,
    Phase,
    Ruleset,
    SpadesNotBroken,
    WrongPhase,
    card_str,
    mask_of,
    parse_card,
)
from engine.actions import BidAction, DrawAction, Look, PassAction
from tests.engine.helpers import DEAL, bid_all, cards, game_from

C = parse_card


def test_bidding_starts_left_of_dealer_and_ends_with_dealer() -> None:
    g = game_from(DEAL, "classic-online", dealer=3)
    order = []
    while g.phase is Phase.BID:
        order.append(g.to_act)
        g.bid(g.to_act, 3)
    assert order == [0, 1, 2, 3]
    assert g.phase is Phase.PLAY and g.to_act == 0


def test_wrong_turn_is_refused_with_structured_fields() -> None:
    g = game_from(DEAL, "classic-online")
    with pytest.raises(NotYourTurn) as info:
        g.bid(2, 4)
    assert str(info.value) == "It's seat 0's turn, not yours."
    assert info.value.seat == 2 and info.value.expected_seat == 0 and info.value.code == "not_your_turn"
    with pytest.raises(WrongPhase, match="You can't play a card now: it's time to bid"):
        g.play(0, C("AS"))


def test_bid_range_and_zero_means_nil() -> None:
    g = game_from(DEAL, "classic-online")
    assert g.legal_bids(0) == [*[Bid.tricks(i) for i in range(1, 14)], Bid.NIL]
    assert g.legal_bids(1) == []
    with pytest.raises(BidNotAllowed, match=r"Bids go from 0 \(nil\) to 13"):
        g.bid(0, 14)
    with pytest.raises(BidNotAllowed, match="not a bid"):
        g.bid(0, "lots")
    with pytest.raises(BidNotAllowed, match="Blind nil isn't allowed"):
        g.bid(0, "blind nil")
    events = g.bid(0, 0)
    assert g.bids[0] == Bid.NIL and events[-1].to_dict() == {"kind": "bid_made", "seat": 0, "bid": "nil"}


def _play_first_trick_to_seat_0(g: Game) -> None:
    bid_all(g, [4, 3, 3, 3])


def test_must_follow_suit_message_names_own_cards() -> None:
    g = game_from(DEAL, "classic-online", dealer=0)  # seat 1 leads
    bid_all(g, [3, 3, 3, 3])
    assert g.to_act == 1
    g.play(1, C("AH"))
    g.play(2, C("2H"))
    g.play(3, C("9C"))  # void in hearts: anything goes
    with pytest.raises(MustFollowSuit) as info:
        g.play(0, C("2C"))
    e = info.value
    assert str(e) == "You must follow hearts: you hold 7♥ and Q♥."
    assert e.suit == 2 and set(e.playable) == {C("7H"), C("QH")} and e.code == "must_follow"
    assert e.rule == "seat 0 must follow hearts"
    assert sorted(g.legal_cards(0)) == sorted([C("7H"), C("QH")])
    with pytest.raises(CardNotHeld) as not_held:
        g.play(0, C("AC"))
    # the card in a field, never in the words: another player may hold it
    assert str(not_held.value) == "That card is not in your hand." and not_held.value.card == C("AC")
    events = g.play(0, C("QH"))
    won = events[-1]
    assert won.kind == "trick_won" and won.seat == 1 and won.trick_no == 1
    assert g.to_act == 1 and g.tricks == [0, 1, 0, 0]


def test_spades_not_broken_then_broken_by_a_ruff() -> None:
    g = game_from(DEAL, "classic-online", dealer=3)
    bid_all(g, [7, 3, 1, 2])
    with pytest.raises(SpadesNotBroken) as info:
        g.play(0, C("AS"))
    assert str(info.value) == "Spades aren't broken yet: lead a heart, a club or a diamond."
    assert C("AS") not in g.legal_cards(0)
    g.play(0, C("2D"))
    g.play(1, C("4D"))
    g.play(2, C("6D"))
    g.play(3, C("AD"))
    assert g.to_act == 3
    g.play(3, C("KD"))
    g.play(0, C("3D"))
    g.play(1, C("5D"))
    events = g.play(2, C("7D"))
    assert [e.kind for e in events] == ["card_played", "trick_won"]
    g.play(3, C("QD"))
    events = g.play(0, C("8S"))  # void in diamonds: ruffs and breaks spades
    assert [e.kind for e in events] == ["card_played", "spades_broken"]
    g.play(1, C("2S"))
    events = g.play(2, C("2H"))
    assert events[-1].seat == 0  # the ruff wins
    assert C("AS") in g.legal_cards(0)
    assert g.view(1).spades_broken


def test_leader_with_only_spades_may_lead_them() -> None:
    deal = [
        "AS KS QS JS 10S 9S 8S 7S 6S 5S 4S 3S 2S",
        "AH KH QH JH 10H 9H 8H 7H 6H 5H 4H 3H 2H",
        "AC KC QC JC 10C 9C 8C 7C 6C 5C 4C 3C 2C",
        "AD KD QD JD 10D 9D 8D 7D 6D 5D 4D 3D 2D",
    ]
    g = game_from(deal, "classic-online", dealer=3)
    bid_all(g, [13, 1, 1, 1])
    assert len(g.legal_cards(0)) == 13
    g.play(0, C("2S"))
    for seat in (1, 2, 3):
        g.play(seat, g.legal_cards(seat)[0])
    assert g.tricks[0] == 1


def test_full_hand_scores_and_deals_the_next() -> None:
    deal = [
        "AS KS QS JS 10S 9S 8S 7S 6S 5S 4S 3S 2S",
        "AH KH QH JH 10H 9H 8H 7H 6H 5H 4H 3H 2H",
        "AC KC QC JC 10C 9C 8C 7C 6C 5C 4C 3C 2C",
        "AD KD QD JD 10D 9D 8D 7D 6D 5D 4D 3D 2D",
    ]
    g = game_from(deal, Ruleset.preset("classic-online", boston=True), dealer=3)
    bid_all(g, [13, 1, "nil", 2])
    events = []
    while g.phase is Phase.PLAY:
        seat = g.to_act
        events += g.play(seat, g.legal_cards(seat)[0])
    scored = next(e for e in events if isinstance(e, HandScored))
    assert scored.tricks == (13, 0, 0, 0)
    side0 = scored.breakdown[0]
    assert side0.contract_points == 130 and side0.nil_points == 100 and side0.boston
    assert g.phase is Phase.GAME_OVER and g.winner == 0 and g.end_reason == "boston"
    assert events[-1].to_dict()["kind"] == "game_over"
    rec = g.hand_records[0]
    assert rec["bids"] == [[0, 13], [1, 1], [2, "nil"], [3, 2]]
    assert rec["result"]["tricks"] == [13, 0, 0, 0]


def test_blind_nil_before_looking() -> None:
    g = game_from(DEAL, "standard")
    assert not any(g.has_looked(s) for s in range(4))
    assert g.view(0).hand is None and g.view(2).hand is None
    assert Bid.BLIND_NIL in g.legal_bids(0)
    g.bid(0, "blind nil")
    assert not g.has_looked(0)
    events = g.bid(1, 4)  # bidding a number implies looking
    assert [e.kind for e in events] == ["looked", "bid_made"]
    assert g.view(1).hand == mask_of(cards(DEAL[1]))
    g.look(2)
    assert Bid.BLIND_NIL not in g.legal_bids(2)
    with pytest.raises(AlreadyLooked, match="already looked at your cards, so you can't bid blind nil"):
        g.bid(2, "blind_nil")
    with pytest.raises(AlreadyLooked):
        g.look(2)


def test_blind_nil_deficit_message() -> None:
    rs = Ruleset.preset("standard", blind_nil_min_deficit=100)
    g = game_from(DEAL, rs, scores=[143, 100])
    assert g.has_looked(0)  # blind nil cannot apply to the leading side: cards seen at once
    with pytest.raises(BidNotAllowed) as info:
        g.bid(0, "blind nil")
    assert str(info.value) == (
        "Blind nil is only allowed when your team trails by 100 or more (you lead by 43)."
    )
    g2 = game_from(DEAL, rs, scores=[0, 100])
    assert not g2.has_looked(0) and Bid.BLIND_NIL in g2.legal_bids(0)
    assert g2.has_looked(1)


def test_blind_nil_exchange_is_simultaneous_and_private() -> None:
    g = game_from(DEAL, "standard")
    bid_all(g, ["blind_nil", 4, 5, 4])
    assert g.phase is Phase.PASS and g.to_act is None
    assert sorted(g.seats_to_act()) == [0, 2]
    assert g.pass_size(0) == 3 and g.pass_size(1) == 0
    acts = g.legal_actions(0)
    assert len(acts) == 286 and acts[0] in acts and all(isinstance(a, PassAction) for a in acts[:5])
    with pytest.raises(BadPass, match="You must pass exactly 3 cards"):
        g.pass_cards(0, cards("AS KS"))
    with pytest.raises(CardNotHeld):
        g.pass_cards(0, cards("AS KS AH"))
    with pytest.raises(BadPass, match="no cards to pass"):
        g.pass_cards(1, cards("AH KH JH"))
    with pytest.raises(WrongPhase):
        g.play(0, C("AS"))
    g.pass_cards(0, cards("AS KS QS"))
    v0 = g.view(0)
    assert v0.passed == mask_of(cards("AS KS QS")) and v0.received is None
    assert v0.hand is not None and v0.hand & mask_of(cards("AS KS QS")) == 0
    assert Game.from_dict(json.loads(json.dumps(g.to_dict()))) == g  # mid-pass
    v2 = g.view(2)
    assert v2.received is None and v2.hand == mask_of(cards(DEAL[2]))
    with pytest.raises(BadPass, match="already passed"):
        g.pass_cards(0, cards("JS 10S 9S"))
    events = g.pass_cards(2, cards("2H 3H 4H"))
    assert [e.kind for e in events] == ["cards_passed", "passing_done"]
    assert events[0].to_dict() == {"kind": "cards_passed", "seat": 2, "count": 3}
    assert g.view(0).received == mask_of(cards("2H 3H 4H"))
    assert g.view(2).received == mask_of(cards("AS KS QS"))
    assert g.phase is Phase.PLAY
    while g.phase is Phase.PLAY:
        seat = g.to_act
        g.play(seat, g.legal_cards(seat)[0])
    rec_passes = g.hand_records[0]["passes"]
    assert rec_passes == [[0, ["AS", "KS", "QS"]], [2, ["4H", "3H", "2H"]]]


def test_both_blind_nils_pass_nothing() -> None:
    g = game_from(DEAL, "standard")
    bid_all(g, ["blind_nil", 4, "blind_nil", 4])
    assert g.phase is Phase.PLAY


def test_views_never_show_other_hands() -> None:
    g = game_from(DEAL, "classic-online")
    bid_all(g, [3, 3, 3, 3])
    for seat in range(4):
        v = g.view(seat)
        assert v.hand == mask_of(cards(DEAL[seat]))
        text = json.dumps(v.to_dict())
        for other in range(4):
            if other != seat:
                for c in cards(DEAL[other]):
                    assert f'"{card_str(c)}"' not in text
    pub = g.public_view()
    assert pub.hand is None and pub.legal == [] and pub.hand_sizes == (13, 13, 13, 13)


def test_illegal_actions_change_nothing() -> None:
    g = game_from(DEAL, "standard")
    before = g.to_dict()
    for bad in (
        lambda: g.bid(1, 3),
        lambda: g.play(0, C("AS")),
        lambda: g.pass_cards(0, []),
        lambda: g.bid(0, 99),
        lambda: g.view(9),
        lambda: g.draw(0, True),
    ):
        with pytest.raises(IllegalAction):
            bad()
    assert g.to_dict() == before


def test_first_trick_two_clubs() -> None:
    rs = Ruleset.preset("classic-online", first_trick_two_clubs=True)
    g = game_from(DEAL, rs, dealer=0)
    bid_all(g, [3, 3, 3, 3])
    assert g.to_act == 0 and g.legal_cards(0) == [C("2C")]
    with pytest.raises(FirstTrickRule, match="must be led with 2♣"):
        g.play(0, C("3D"))
    g.play(0, C("2C"))
    g.play(1, C("4C"))
    g.play(2, C("6C"))
    g.play(3, C("AC"))
    assert g.to_act == 3
    # in the first trick a void player may not ruff while holding another suit
    deal = [
        "2C 3C AS KS 2H 3H 4H 5H 6H 7H 8H 9H 10H",
        "AD KD QD JD 10D 9D 8D 7D 6D 5D 4D 3D 2D",
        "4C 5C 6C 7C 8C 9C 10C JC QC KC AC JH QH",
        "QS JS 10S 9S 8S 7S 6S 5S 4S 3S 2S KH AH",
    ]
    g = game_from(deal, rs, dealer=2)
    bid_all(g, [3, 3, 3, 3])
    assert g.to_act == 0
    g.play(0, C("2C"))
    g.play(1, C("AD"))
    g.play(2, C("AC"))
    assert set(g.legal_cards(3)) == {C("KH"), C("AH")}
    with pytest.raises(FirstTrickRule):
        g.play(3, C("QS"))


def test_trick_winners_with_jokers_and_deuces() -> None:
    rs = Ruleset.preset("jokers-high", deuces_high=True)
    g = Game.new(rs, seed=1)
    from engine.ruleset import tables

    t = tables(rs)
    order = sorted([C("AS"), C("2S"), C("2D"), 52, 53, C("KS")], key=lambda c: t.power[c])
    assert [card_str(c) for c in order] == ["KS", "AS", "2D", "2S", "LJ", "BJ"]
    assert t.suit[C("2D")] == 3 and C("2C") not in rs.deck and C("2D") in rs.deck
    assert g.phase is Phase.BID


def test_two_decks_first_or_last_identical_card_wins() -> None:
    for first_wins, winner in ((True, 0), (False, 3)):
        rs = Ruleset.preset("six-player", six_player_first_wins=first_wins, blind_nil_allowed=False)
        g = Game.new(rs, seed=4, dealer=5)
        bid_all(g, [1] * 6)
        # give seat 0 and seat 3 the two aces of spades and let spades lead (test setup)
        hands = g.hands
        as0, as1 = C("AS"), C("AS") + 64
        for s in range(6):
            hands[s] &= ~((1 << as0) | (1 << as1))
        hands[0] |= 1 << as0
        hands[3] |= 1 << as1
        g.broken = True
        g.play(0, as0)
        for s in (1, 2):
            g.play(s, g.legal_cards(s)[0])
        g.play(3, "AS")  # either copy is accepted by text
        for s in (4, 5):
            g.play(s, g.legal_cards(s)[0])
        assert g.trick_winners[0] == winner, first_wins


def test_whiz_mirrors_suicide_board_bids() -> None:
    g = game_from(DEAL, "whiz")
    assert g.legal_bids(0) == [Bid.tricks(7), Bid.NIL]
    with pytest.raises(BidNotAllowed, match="In whiz you must bid the number of spades you hold \\(7\\)"):
        g.bid(0, 5)
    g = game_from(DEAL, "mirrors")
    assert g.legal_bids(0) == [Bid.tricks(7)]
    bid_all(g, [7, 6])
    assert g.legal_bids(2) == [Bid.NIL]
    g = game_from(DEAL, "suicide")
    bid_all(g, [4, 3])
    assert g.legal_bids(2) == [Bid.NIL]
    with pytest.raises(BidNotAllowed, match="your partner bid 4, so you must bid nil"):
        g.bid(2, 2)
    g.bid(2, "nil")
    assert g.legal_bids(3) == [Bid.NIL]  # seat 1 bid a number
    g = game_from(DEAL, Ruleset.preset("classic-online", board=4))
    bid_all(g, ["nil", 1])
    assert min(b.n for b in g.legal_bids(2)) == 4
    with pytest.raises(BidNotAllowed, match="Your team must bid at least 4 in total: bid 4 or more"):
        g.bid(2, 3)


def test_blind_bids_need_a_deficit() -> None:
    rs = Ruleset.preset("standard", blind_bids=True)
    g = game_from(DEAL, rs, scores=[0, 150])
    assert Bid.of("blind", 7) in g.legal_bids(0)
    g.bid(0, "blind 6")
    assert not g.has_looked(0)
    with pytest.raises(BidNotAllowed, match="only allowed when your team trails by 100"):
        g.bid(1, "blind 5")


def test_misdeal_on_no_spades() -> None:
    rs = Ruleset.preset("classic-online", misdeal_no_spades=True)
    g = game_from(DEAL, rs)
    with pytest.raises(MisdealNotAllowed, match="only call a misdeal with no spades"):
        g.misdeal(0)
    g.seed = 7
    events = g.misdeal(3)  # seat 3 holds no spades
    assert [e.kind for e in events] == ["misdealt", "hand_dealt"]
    assert g.phase is Phase.BID and g.redeals == 1 and g.hand_no == 1
    assert g.hands != [mask_of(cards(h)) for h in DEAL]


def test_two_player_draw() -> None:
    g = Game.new("two-player", seed=3, dealer=0)
    assert g.phase is Phase.DRAW and g.to_act == 0
    # blind nil is on (RULES.md section 3): the top card stays hidden until the seat looks
    assert g.view(0).drawn_card is None and not g.has_looked(0)
    assert Look(0) in g.legal_actions(0) and BidAction(0, Bid.BLIND_NIL) in g.legal_actions(0)
    g.look(0)
    top = g.view(0).drawn_card
    assert top is not None and g.view(1).drawn_card is None
    assert Look(0) not in g.legal_actions(0)
    g.draw(0, True)
    assert g.view(0).hand == 1 << top
    with pytest.raises(NotYourTurn):
        g.draw(0, False)
    turns = 1
    while g.phase is Phase.DRAW:
        g.draw(g.to_act, turns % 3 == 0)
        turns += 1
    assert turns == 26 and [h.bit_count() for h in g.hands] == [13, 13]
    assert g.phase is Phase.BID and g.to_act == 1  # the second player bids and leads
    bid_all(g, [4, 4])
    assert g.to_act == 1
    while g.phase is Phase.PLAY:
        g.play(g.to_act, g.legal_cards(g.to_act)[0])
    rec = g.hand_records[0]
    assert len(rec["draw"]["stock"]) == 52 and len(rec["draw"]["keeps"]) == 26
    assert g.dealer == 1 and g.phase is Phase.DRAW and g.to_act == 1


def test_two_player_without_blind_nil_shows_the_top_card_at_once() -> None:
    rs = Ruleset.preset("two-player", blind_nil_allowed=False)
    g = Game.new(rs, seed=3, dealer=0)
    assert g.has_looked(0) and g.has_looked(1)
    assert g.view(0).drawn_card is not None
    assert g.legal_actions(0) == [DrawAction(0, True), DrawAction(0, False)]
    with pytest.raises(BidNotAllowed):
        g.bid(1, "blind nil")


def test_clone_is_independent() -> None:
    g = game_from(DEAL, "classic-online")
    c = g.clone()
    bid_all(c, [3, 3, 3, 3])
    assert g.phase is Phase.BID and c.phase is Phase.PLAY and g.bids == [None] * 4


def test_two_player_blind_nil_is_declared_before_the_draw_and_swaps_with_discards() -> None:
    from engine.record import replay

    g = Game.new("two-player", seed=8, dealer=0)
    assert not g.has_looked(0) and not g.has_looked(1)
    assert g.view(0).drawn_card is None  # not looked: the top card stays hidden
    g.bid(1, "blind nil")  # the second player declares before its first draw
    with pytest.raises(BidNotAllowed, match="Only blind nil can be bid before the draw"):
        g.bid(0, 4)
    events = g.draw(0, True)
    assert [e.kind for e in events] == ["looked", "card_drawn"]
    with pytest.raises(AlreadyLooked):
        g.bid(0, "blind nil")
    while g.phase is Phase.DRAW:
        g.draw(g.to_act, False)
    assert g.phase is Phase.PASS and g.seats_to_act() == [1] and g.pass_size(1) == 3
    choices = g.legal_actions(1)
    assert len(choices) == 1 + 13 + 78 + 286  # exchange 0 to 3 cards
    with pytest.raises(BadPass, match="at most 3"):
        g.pass_cards(1, (*g.legal_actions(1)[-1].cards, g.legal_actions(1)[1].cards[0]))
    given = choices[-1].cards
    g.pass_cards(1, given)
    v = g.view(1)
    assert v.passed == mask_of(given) and v.received is not None and v.received.bit_count() == 3
    assert v.received & (g.hands[0] | mask_of(given)) == 0
    assert g.phase is Phase.BID and g.to_act == 0  # the blind nil bidder has bid already
    g.bid(0, 5)
    assert g.phase is Phase.PLAY and g.to_act == 1
    while g.phase is Phase.PLAY:
        g.play(g.to_act, g.legal_cards(g.to_act)[0])
    rec = g.hand_records[0]
    assert rec["bids"] == [[1, "blind_nil"], [0, 5]]
    assert len(rec["replacements"][0][1]) == 3
    assert replay(rec) == rec["result"]
    assert rec["result"]["breakdown"][1]["nils"][0]["kind"] == "blind_nil"


def _finish_hand_with_lowest(g: Game) -> list:
    events: list = []
    hand_no = g.hand_no
    while g.phase is not Phase.GAME_OVER and g.hand_no == hand_no:
        seat = g.seats_to_act()[0]
        acts = g.legal_actions(seat)
        bids = [a for a in acts if getattr(a, "bid", None) is not None]
        events += g.apply(bids[0] if bids else acts[0])
    return events


def test_deuces_high_2d_is_a_trump_that_beats_the_ace() -> None:
    deal = [
        "AS KS QS JS 10S 9S 8S 7S 6S 5S 4S 3S AH",
        "2D KH QH JH 10H 9H 8H 7H 6H 5H 4H 3H 2H",
        "AC KC QC JC 10C 9C 8C 7C 6C 5C 4C 3C 2C",
        "AD KD QD JD 10D 9D 8D 7D 6D 5D 4D 3D 2S",
    ]
    rs = Ruleset.preset("deuces-high", blind_nil_allowed=False, blind_nil_pass=0)
    g = game_from(deal, rs, dealer=3)
    bid_all(g, [3, 3, 3, 3])
    g.play(0, C("AH"))
    with pytest.raises(MustFollowSuit):
        g.play(1, C("2D"))  # 2D is a spade here: seat 1 still holds hearts
    g.play(1, C("2H"))
    g.play(2, C("2C"))
    events = g.play(3, C("2S"))  # void in hearts: 2S ruffs
    assert events[-1].seat == 3
    assert g.view(0).spades_broken


def test_solo_five_and_three_player_hands() -> None:
    for name, seats, size in (("five-player", 5, 10), ("cutthroat", 3, 17), ("solo", 4, 13)):
        g = Game.new(name, seed=2, dealer=0)
        assert [h.bit_count() for h in g.hands] == [size] * seats
        events = _finish_hand_with_lowest(g)
        scored = next(e for e in events if isinstance(e, HandScored))
        assert len(scored.breakdown) == seats and sum(scored.tricks) == size
        assert all(len(b.seats) == 1 for b in scored.breakdown)
    g = Game.new(Ruleset.preset("cutthroat", jokers=True), seed=1)
    assert [h.bit_count() for h in g.hands] == [18, 18, 18]


def test_six_player_teams_of_three_score_together() -> None:
    g = Game.new("six-player-threes", seed=5)
    events = _finish_hand_with_lowest(g)
    scored = next(e for e in events if isinstance(e, HandScored))
    assert [b.seats for b in scored.breakdown] == [(0, 2, 4), (1, 3, 5)]
    assert sum(scored.tricks) == 17
    for b in scored.breakdown:  # contract tricks plus the nil bidders' tricks make the side's
        assert b.tricks + sum(n.tricks for n in b.nils) == sum(scored.tricks[s] for s in b.seats)


def test_max_hands_ends_the_game_on_the_higher_score() -> None:
    g = Game.new(Ruleset.preset("classic-online", max_hands=2), seed=9)
    events = _finish_hand_with_lowest(g) + _finish_hand_with_lowest(g)
    assert len(g.hand_records) == 2
    if g.scores[0] != g.scores[1]:
        assert g.phase is Phase.GAME_OVER and g.end_reason == "max_hands"
        assert g.winner == (0 if g.scores[0] > g.scores[1] else 1)
        assert events[-1].to_dict()["reason"] == "max_hands"
    else:  # a tie plays on
        assert g.phase is not Phase.GAME_OVER


def test_mercy_rule_ends_the_game() -> None:
    rs = Ruleset.preset("classic-online", lose_score=-200)
    g = game_from(DEAL, rs, dealer=3, scores=[-150, 40])
    bid_all(g, [13, 1, 13, 1])  # side 0 is set at 26: -260
    events = _finish_hand_with_lowest(g)
    assert g.phase is Phase.GAME_OVER and g.winner == 1 and g.end_reason == "mercy"
    assert events[-1].kind == "game_over"


@pytest.mark.parametrize("bad", [200, -1, "ZZ", None, 54, True, 3.5])
def test_bad_card_values_are_refused_as_illegal_actions(bad: object) -> None:
    g = game_from(DEAL, "classic-online")
    bid_all(g, [3, 3, 3, 3])
    before = g.to_dict()
    with pytest.raises(CardNotHeld):
        g.play(0, bad)  # type: ignore[arg-type]
    with pytest.raises(IllegalAction):
        g.pass_cards(0, [bad])  # type: ignore[list-item]
    assert g.to_dict() == before
    assert g.legal_actions(7) == [] and g.legal_cards(7) == [] and g.legal_bids(-1) == []
