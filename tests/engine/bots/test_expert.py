"""The expert bot (heuristic + Monte-Carlo card play): legal everywhere and deterministic. That it is
not worse than the heuristic bot it refines, on duplicate deals, is ``bench/strength.py`` (run by
``.ci/run``)."""

from __future__ import annotations

import random

import pytest

from engine import PRESETS, Game, Phase, Ruleset
from engine.arena import play_game
from engine.bots import BOT_NAMES, get_bot
from engine.bots.expert import ExpertBot, greedy_policy, hand_value
from engine.bots.heuristic import HeuristicBot


def quick_expert(seed: int) -> ExpertBot:
    """Small, fixed search (no time cap in practice) so tests are fast and deterministic."""
    return ExpertBot(seed, worlds=6, min_worlds=6, time_limit=10.0)


def test_expert_is_a_named_bot() -> None:
    assert "expert" in BOT_NAMES
    assert isinstance(get_bot("expert", seed=1), ExpertBot)


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_greedy_policy_always_picks_a_legal_card(name: str) -> None:
    rs = PRESETS[name]
    rng = random.Random(name)
    for seed in range(6):
        g = Game.new(rs, seed=f"greedy:{seed}")
        while g.phase is not Phase.PLAY:
            seat = g.seats_to_act()[0]
            legal = g.legal_actions(seat)
            g.apply(legal[rng.randrange(len(legal))])
        hand_no = g.hand_no
        while g.phase is Phase.PLAY and g.hand_no == hand_no:
            seat = g.to_act
            assert seat is not None
            mask = g.legal_mask(seat)
            card = greedy_policy(g, seat, mask)
            assert mask >> card & 1
            g.play(seat, card)


def test_greedy_policy_wins_cheaply_and_ducks_for_a_partner() -> None:
    from tests.engine.helpers import bid_all, cards, game_from

    deal = [
        "AS KS QS JS 10S 9S 8S 7H QH 2C 3C 2D 3D",
        "7S 6S 5S 4S 3S 2S AH KH JH 4C 5C 4D 5D",
        "10H 9H 8H 6H 5H 4H 3H 2H 6C 7C 8C 6D 7D",
        "9C 10C JC QC KC AC 8D 9D 10D JD QD KD AD",
    ]
    g = game_from(deal, "standard", dealer=3)  # seat 0 bids and leads first
    bid_all(g, [4, 3, 2, 4])
    g.play(0, cards("7H")[0])
    assert greedy_policy(g, 1, g.legal_mask(1)) == cards("JH")[0]  # the cheapest winner
    g.play(1, cards("JH")[0])
    # seat 2's partner (seat 0) is beaten: it cannot win hearts, so it throws its lowest heart
    assert greedy_policy(g, 2, g.legal_mask(2)) == cards("2H")[0]


def test_hand_value_is_my_side_minus_the_others() -> None:
    rs = Ruleset.preset("standard")
    assert hand_value(rs, 0, [100, 50], [160, 40]) == 70
    assert hand_value(rs, 1, [100, 50], [160, 40]) == -70
    solo = Ruleset.preset("cutthroat")
    assert hand_value(solo, 2, [0, 0, 0], [30, -10, 50]) == 40


@pytest.mark.parametrize("name", ["standard", "two-player", "cutthroat", "six-player", "jokers-high"])
def test_expert_plays_whole_hands_legally(name: str) -> None:
    rs = PRESETS[name]
    bots = [ExpertBot(s, worlds=2, min_worlds=2, time_limit=10.0) for s in range(rs.num_seats)]
    g, scored = play_game(rs, bots, seed=f"expert:{name}", hand_budget=1)  # type: ignore[arg-type]
    assert len(scored) == 1 or g.phase is Phase.GAME_OVER


@pytest.mark.parametrize(
    "options",
    [
        {"nil_pass": 2, "first_trick_two_clubs": True},
        {"blind_bids": True, "blind_bid_min_deficit": 0, "ten_for_200": True, "boston": True},
        {"jokers": True, "deuces_high": True, "spades_must_be_broken": False},
        {"misdeal_no_spades": True, "board": 4},
    ],
)
def test_expert_plays_legally_with_house_rules(options: dict) -> None:
    rs = Ruleset.preset("standard", **options)
    bots = [
        ExpertBot(s, worlds=2, min_worlds=2, time_limit=10.0) if s % 2 else HeuristicBot(s)
        for s in range(rs.num_seats)
    ]
    g, scored = play_game(rs, bots, seed="house", hand_budget=1)  # type: ignore[arg-type]
    assert len(scored) == 1 or g.phase is Phase.GAME_OVER


def test_expert_is_deterministic_and_keeps_the_heuristic_card_without_evidence() -> None:
    g = Game.new("standard", seed=21)
    rng = random.Random(3)
    while g.phase is not Phase.PLAY or len(g.legal_cards(g.to_act or 0)) < 3:
        seat = g.seats_to_act()[0]
        legal = g.legal_actions(seat)
        g.apply(legal[rng.randrange(len(legal))])
    seat = g.to_act
    assert seat is not None
    view = g.view(seat)
    assert quick_expert(5).act(view) == quick_expert(5).act(view)
    stubborn = ExpertBot(5, worlds=4, min_worlds=4, time_limit=10.0, margin=1e9)
    assert stubborn.act(view) == HeuristicBot(5).act(view)


def test_distinct_cards_merges_touching_cards_only() -> None:
    from engine.bots.expert import distinct_cards
    from tests.engine.helpers import bid_all, cards, game_from

    deal = [
        "AS KS QS JS 10S 9S 8S 7H QH 2C 3C 2D 3D",
        "7S 6S 5S 4S 3S 2S AH KH JH 4C 5C 4D 5D",
        "10H 9H 8H 6H 5H 4H 3H 2H 6C 7C 8C 6D 7D",
        "9C 10C JC QC KC AC 8D 9D 10D JD QD KD AD",
    ]
    g = game_from(deal, "standard", dealer=2)  # seat 3 leads
    bid_all(g, [6, 4, 3, 3])
    view = g.view(3)
    legal = g.legal_cards(3)
    # 9C..AC touch (one group), 8D..AD touch (another): two representatives
    got = distinct_cards(view, legal, cards("QC")[0])
    assert sorted(got) == sorted([cards("QC")[0], cards("8D")[0]])
    view0 = g.view(0)
    spades_and_more = g.hands[0]
    from engine.cards import cards_of

    got0 = distinct_cards(view0, cards_of(spades_and_more), cards("AS")[0])
    # AS..8S one group; 7H and QH are split by JH, 10H, 9H, 8H held elsewhere; 2C 3C; 2D 3D
    assert len(got0) == 5 and cards("AS")[0] in got0
