"""Views: play history, and playout games built from a view without seeing the hidden cards."""

import random

import pytest

from engine import Game, Phase, Ruleset, mask_of, parse_card
from engine.ruleset import tables
from engine.view import seated_plays
from tests.engine.helpers import DEAL, bid_all, cards, game_from

C = parse_card


def _first_trick_with_a_void() -> Game:
    g = game_from(DEAL, "classic-online", dealer=0)  # seat 1 leads
    bid_all(g, [3, 3, 3, 3])
    for seat, card in ((1, "AH"), (2, "2H"), (3, "9C"), (0, "7H"), (1, "4C")):
        g.play(seat, C(card))
    return g


def test_view_history_lists_every_play_with_its_seat() -> None:
    g = _first_trick_with_a_void()
    v = g.view(2)
    assert v.history == ((1, C("AH")), (2, C("2H")), (3, C("9C")), (0, C("7H")), (1, C("4C")))
    assert list(v.history) == g.history()
    assert v.first_leader == 1


def test_seated_plays_follows_each_tricks_winner_round_the_table() -> None:
    # three seats: seat 2 leads trick one, seat 0 wins it and leads trick two
    plays = [C("AH"), C("2H"), C("3H"), C("KS"), C("4D")]
    assert seated_plays(plays, 2, [0], 3) == [
        (2, C("AH")),
        (0, C("2H")),
        (1, C("3H")),
        (0, C("KS")),
        (1, C("4D")),
    ]
    assert seated_plays([], None, [], 4) == []
    with pytest.raises(ValueError, match="nobody led"):
        seated_plays(plays, None, [0], 3)


def test_from_view_keeps_what_the_seat_knows_and_deals_the_rest() -> None:
    g = _first_trick_with_a_void()
    v = g.view(2)
    hearts = tables(g.rs).suit_masks[2]
    for k in range(30):
        w = Game.from_view(v, random.Random(k))
        assert w.hands[2] == g.hands[2]
        assert [h.bit_count() for h in w.hands] == [h.bit_count() for h in g.hands]
        union = 0
        for h in w.hands:
            assert not union & h
            union |= h
        assert union | w.played == tables(g.rs).deck_mask
        assert w.hands[3] & hearts == 0  # seat 3 showed out of hearts
        assert w.to_act == g.to_act and w.trick == g.trick and w.tricks == g.tricks
        assert w.legal_actions(2) == g.legal_actions(2) and w.phase is Phase.PLAY
    # the hidden hands really vary between samples
    samples = {tuple(Game.from_view(v, random.Random(k)).hands) for k in range(10)}
    assert len(samples) > 1


def test_from_view_playouts_finish_the_hand_only() -> None:
    g = _first_trick_with_a_void()
    rng = random.Random(3)
    for k in range(5):
        w = Game.from_view(g.view(g.to_act), random.Random(k))  # type: ignore[arg-type]
        while w.phase is Phase.PLAY:
            seat = w.to_act
            legal = w.legal_cards(seat)  # type: ignore[arg-type]
            w.play(seat, legal[rng.randrange(len(legal))])  # type: ignore[arg-type]
        assert w.phase is Phase.GAME_OVER and w.winner is None
        assert sum(w.hand_records[0]["result"]["tricks"]) == 13
    w = Game.from_view(g.view(2), random.Random(1), next_hand=True)
    while w.hand_no == g.hand_no:
        seat = w.seats_to_act()[0]
        w.apply(w.legal_actions(seat)[0])
    assert w.phase is Phase.BID or w.phase is Phase.GAME_OVER


def test_from_view_knows_the_cards_it_passed() -> None:
    g = game_from(DEAL, "standard")
    bid_all(g, ["blind_nil", 4, 5, 4])
    g.pass_cards(0, cards("AS KS QS"))
    g.pass_cards(2, cards("2H 3H 4H"))
    v = g.view(0)
    for k in range(10):
        w = Game.from_view(v, random.Random(k))
        assert w.hands[2] & mask_of(cards("AS KS QS")) == mask_of(cards("AS KS QS"))


def test_from_view_refuses_other_phases() -> None:
    g = game_from(DEAL, "standard")
    bid_all(g, ["blind_nil", 4, 5, 4])
    w = Game.from_view(g.view(0))  # the nil exchange is rebuilt (tests/engine/bots/test_strong_passing.py)
    assert w.phase is Phase.PASS and w.hands[0] == g.hands[0]
    draw = Game.new(Ruleset.preset("two-player"), seed=1)
    with pytest.raises(ValueError, match="bid, pass and play phases"):
        Game.from_view(draw.view(draw.seats_to_act()[0]))
    with pytest.raises(ValueError, match="spectator"):
        Game.from_view(g.public_view())
    g2 = Game.new(Ruleset.preset("standard"), seed=1)
    w = Game.from_view(g2.view(g2.to_act), random.Random(0))  # type: ignore[arg-type]
    assert w.phase is Phase.BID and sum(h.bit_count() for h in w.hands) == 52
