"""Time called on a game (a league round's clock), set N times loses, the ten-for value, and the
jokers-and-deuces preset."""

from __future__ import annotations

import json
import random

import pytest

from engine import TIEBREAKS, Bid, Game, GameOver, Phase, Ruleset, parse_card, score_hand
from engine.ruleset import tables
from engine.scoring import game_winner


def _tied_game(tiebreak: str, *, bags: tuple[int, int] = (0, 0), seed: int = 1) -> tuple[Game, int]:
    """A game in its first hand with time called, whose scores will be level at 100 after the
    hand a seeded playout plays (the same playout on a copy tells the hand's points first)."""
    game = Game.new("standard", seed=f"tie:{seed}", dealer=0)
    probe = game.clone()
    probe.auto_deal = False
    probe.playout(random.Random(seed))
    points = [probe.scores[i] - game.scores[i] for i in range(2)]
    gained = [probe.bags[i] - game.bags[i] for i in range(2)]
    game.scores = [100 - points[0], 100 - points[1]]
    game.bags = [bags[0], bags[1]]
    if any(b + g >= 10 for b, g in zip(bags, gained, strict=True)):
        pytest.skip("the bag penalty would break the tie")
    assert game.call_time(tiebreak)
    return game, seed


def _play_hand(game: Game, rng: random.Random) -> None:
    hand = game.hand_no
    while not game.over and game.hand_no == hand:
        game.playout(rng)


def test_time_called_plays_the_hand_in_progress_to_its_end_and_the_leader_wins() -> None:
    game = Game.new("standard", seed="lead", dealer=0)
    game.bid(1, 4)  # time is called in the middle of the bidding
    assert game.call_time() and game.last_hand_now
    game.scores = [300, 120]
    game.playout(random.Random(5))
    assert game.over and game.hand_no == 1  # no second hand was dealt
    assert len(game.hand_records) == 1 and len(game.hand_records[0]["plays"]) == 52
    assert game.winner == (0 if game.scores[0] > game.scores[1] else 1)
    assert game.end_reason == "time" and not game.last_hand_now


def test_a_tie_at_time_plays_one_overtime_hand() -> None:
    game, seed = _tied_game("overtime")
    rng = random.Random(seed)
    events = []
    game.playout(rng)
    assert game.scores == [100, 100]
    assert not game.over and game.overtime and game.hand_no == 2  # the overtime hand is dealt
    assert game.last_hand_now
    saved = Game.from_dict(json.loads(json.dumps(game.to_dict())))
    assert saved == game and saved.time_call == "overtime" and saved.overtime
    while not game.over:
        seat = game.seats_to_act()[0]
        events += game.apply(game.legal_actions(seat)[0])
    assert game.hand_no == 2  # one hand, not more
    over = [e for e in events if isinstance(e, GameOver)]
    assert len(over) == 1
    if game.scores[0] == game.scores[1]:
        assert game.winner is None and game.end_reason == "draw" and over[0].winner is None
    else:
        assert game.winner == game.scores.index(max(game.scores)) and game.end_reason == "overtime"


def test_a_tie_at_time_goes_to_the_fewer_bags_or_is_a_draw() -> None:
    game, seed = _tied_game("bags", bags=(0, 1))  # (the seeded hand makes no bag)
    game.playout(random.Random(seed))
    assert game.over and game.scores == [100, 100] and game.bags == [0, 1] and game.hand_no == 1
    assert game.winner == 0 and game.end_reason == "bags"
    level, seed = _tied_game("bags", bags=(3, 3))
    level.playout(random.Random(seed))
    assert level.over and level.bags == [3, 3]
    assert level.winner is None and level.end_reason == "draw"


def test_a_tie_at_time_is_a_draw_when_the_league_says_so() -> None:
    game, seed = _tied_game("draw")
    game.playout(random.Random(seed))
    assert game.over and game.winner is None and game.end_reason == "draw"
    assert game.to_dict()["winner"] is None and Game.from_dict(game.to_dict()).over


def test_time_is_called_once_and_not_on_a_finished_game() -> None:
    game = Game.new("standard", seed="once", dealer=0)
    assert game.call_time("draw") and not game.call_time("overtime") and game.time_call == "draw"
    with pytest.raises(ValueError):
        Game.new("standard", seed=1).call_time("coin")
    assert set(TIEBREAKS) == {"overtime", "bags", "draw"}
    game.playout(random.Random(2))
    assert game.over and not game.call_time("overtime")
    fresh = Game.new("standard", seed="fresh")
    assert "time_call" not in fresh.to_dict() and "sets" not in fresh.to_dict()


def test_a_game_that_reaches_the_target_in_the_last_hand_ends_as_usual() -> None:
    game = Game.new("standard", seed="target", dealer=0)
    game.scores = [495, 0]
    game.call_time("draw")
    game.playout(random.Random(3))
    assert game.over
    if game.scores[0] >= 500:
        assert game.end_reason == "target" and game.winner == 0


# ---- set N times loses ---------------------------------------------------------------------


def test_set_twice_loses_the_game() -> None:
    rs = Ruleset.preset("standard", set_limit=2)
    bids = [Bid.tricks(5), Bid.tricks(1), Bid.tricks(5), Bid.tricks(1)]
    tricks = [2, 4, 3, 4]  # seats 0 + 2 bid 10 and take 5: set; seats 1 + 3 make 2 with 6 bags
    hand = score_hand(rs, bids, tricks, scores=[300, 0], bags=[0, 0])
    assert [s.made for s in hand] == [False, True]
    scores = [s.score_after for s in hand]
    assert game_winner(rs, scores, hand, hand_no=3, sets=[1, 0]) == (None, None)
    assert game_winner(rs, scores, hand, hand_no=3, sets=[2, 0]) == (1, "sets")
    assert game_winner(Ruleset(), scores, hand, hand_no=3, sets=[2, 0]) == (None, None)


def test_sets_are_counted_in_play_and_end_the_game() -> None:
    rs = Ruleset.preset("standard", set_limit=1, target_score=10_000)
    rng = random.Random(4)
    game = Game.new(rs, seed="sets", dealer=0)
    while not game.over:
        seat = game.seats_to_act()[0]
        game.apply(rng.choice(game.legal_actions(seat)))
    assert game.end_reason == "sets"
    loser = game.sets.index(max(game.sets))
    assert game.sets[loser] >= 1 and game.winner != loser
    assert Game.from_dict(json.loads(json.dumps(game.to_dict()))).sets == game.sets


def test_set_limit_range() -> None:
    from engine import RulesetError

    with pytest.raises(RulesetError) as exc:
        Ruleset.preset("standard", set_limit=0)
    assert exc.value.reason == "out_of_range"
    assert "set 2 times loses" in Ruleset.preset("standard", set_limit=2).describe()
    assert "set once loses" in Ruleset.preset("standard", set_limit=1).describe()


# ---- the ten-for value ---------------------------------------------------------------------


@pytest.mark.parametrize(("value", "made"), [(150, True), (150, False), (200, True)])
def test_ten_for_value(value: int, made: bool) -> None:
    rs = Ruleset.preset("standard", ten_for_200=True, ten_for_value=value)
    bids = [Bid.tricks(5), Bid.tricks(1), Bid.tricks(5), Bid.tricks(1)]
    tricks = [6, 1, 5, 1] if made else [4, 2, 5, 2]
    us, _them = score_hand(rs, bids, tricks, scores=[0, 0], bags=[0, 0])
    assert us.contract_points + us.bonus_points == (value if made else -value)
    assert us.notes == (f"10 for {value}",)
    from engine.scoring import hand_totals

    assert hand_totals(rs, bids, tricks, [0, 0], [0, 0])[0][0] == us.total
    assert f"10 for {value}" in rs.describe() or value == 200


# ---- jokers and deuces high ----------------------------------------------------------------


def test_jokers_and_deuces_high_together() -> None:
    rs = Ruleset.preset("jokers-deuces")
    assert rs.jokers and rs.deuces_high and Ruleset.preset("jokers-deuces-high") == rs
    t = tables(rs)
    order = ["AS", "2D", "2S"]
    power = [t.power[parse_card(c)] for c in order]
    assert power == sorted(power)
    joker_low, joker_big = 52, 53
    assert t.power[joker_big] > t.power[joker_low] > t.power[parse_card("2S")]
    assert len(t.deck) == 52 and t.hand_size == 13
    assert parse_card("2C") not in t.deck and parse_card("2H") not in t.deck
    game = Game.new(rs, seed="jd")
    assert game.phase is Phase.BID
