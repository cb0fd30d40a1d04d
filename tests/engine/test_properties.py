"""Property tests: random legal games under every preset (and the main option combinations) keep
every invariant at every step."""

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import (
    PRESETS,
    Bid,
    Game,
    IllegalAction,
    Phase,
    Ruleset,
    card_str,
    parse_card,
)
from engine.actions import BidAction, PassAction, PlayAction
from engine.record import replay
from engine.ruleset import tables
from tests.engine.helpers import VARIANTS

FAST = settings(
    max_examples=10, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow]
)


def _check_conservation(g: Game) -> None:
    t = tables(g.rs)
    limbo = 0  # passed cards not yet received
    for s in range(g.n):
        partner = g.rs.partner_of(s)
        if partner is not None and g.given[s] and not g.received[partner]:
            limbo |= g.given[s]  # two-player exchanges go to the discards instead
    held = 0
    total = limbo.bit_count() + g.played.bit_count()
    for h in g.hands:
        assert not held & h, "a card is in two hands"
        held |= h
        total += h.bit_count()
    trick_cards = 0
    for _, c in g.trick:
        trick_cards |= 1 << c
    assert trick_cards & ~g.played == 0
    assert not (held & g.played) and not (held & limbo)
    everything = held | g.played | limbo
    assert everything & ~t.deck_mask == 0, "a card from outside the deck"
    if g.phase is Phase.DRAW:
        return
    if g.rs.two_player_draw:
        assert total == 2 * t.hand_size
    else:
        assert everything == t.deck_mask and total == len(t.deck)


def _check_views(g: Game) -> None:
    for s in range(g.n):
        v = g.view(s)
        assert v.hand is None or v.hand == g.hands[s]
        own = g.hands[s] | g.given[s] | g.received[s] | g.dealt[s]
        for private in (v.passed, v.received):
            assert private is None or private & ~own == 0
        if v.hand is None:
            assert not g.has_looked(s)
        # the JSON of a view names no card another seat still holds
        text = json.dumps(v.to_dict())
        for other in range(g.n):
            if other == s:
                continue
            known = own | g.played  # it may name its own and played faces (two decks: either copy)
            own_faces = {c & 63 for c in range(128) if known >> c & 1}
            hidden = g.hands[other] & ~own  # (and cards it gave away)
            while hidden:
                low = hidden & -hidden
                hidden ^= low
                card = low.bit_length() - 1
                if card & 63 not in own_faces:
                    assert f'"{card_str(card)}"' not in text
    pub = g.public_view()
    assert pub.hand is None and pub.passed is None and pub.received is None


def _check_illegal_refused(g: Game, rng: random.Random) -> None:
    before = g.to_dict()
    acting = set(g.seats_to_act())
    idle = [s for s in range(g.n) if s not in acting]
    attempts = []
    if idle:
        s = rng.choice(idle)
        attempts += [PlayAction(s, rng.choice(tables(g.rs).deck)), BidAction(s, Bid.tricks(1))]
    if g.phase is Phase.PLAY and g.to_act is not None:
        s = g.to_act
        illegal = [
            c
            for c in tables(g.rs).deck
            if not g.legal_mask(s) >> c & 1
            and not (g.rs.decks == 2 and g.legal_mask(s) >> ((c + 64) % 128) & 1)
        ]
        if illegal:
            attempts.append(PlayAction(s, rng.choice(illegal)))
        attempts.append(BidAction(s, Bid.tricks(3)))
    if g.phase is Phase.PASS:
        s = rng.choice(sorted(acting))
        attempts.append(PassAction(s, tuple(list(range(g.pass_size(s) + 1)))))
    for action in attempts:
        with pytest.raises(IllegalAction):
            g.apply(action)
        assert g.to_dict() == before


def _play(rs: Ruleset, seed: int, rng: random.Random, hands: int = 1) -> Game:
    g = Game.new(rs, seed=seed)
    steps = 0
    while len(g.hand_records) < hands and g.phase is not Phase.GAME_OVER:
        _check_conservation(g)
        if steps % 3 == 0:
            _check_views(g)
            _check_illegal_refused(g, rng)
        snapshot = json.loads(json.dumps(g.to_dict()))
        restored = Game.from_dict(snapshot)
        assert restored == g and restored.to_dict() == snapshot
        seat = rng.choice(g.seats_to_act())
        acts = g.legal_actions(seat)
        assert acts, f"seat {seat} has nothing to do in {g.phase}"
        action = acts[rng.randrange(len(acts))]
        events = g.apply(action)
        assert events and restored.apply(action) is not None
        assert restored == g
        steps += 1
        for e in events:
            json.dumps(e.to_dict())
            if e.kind == "hand_scored":
                assert sum(e.tricks) == tables(rs).hand_size
                assert list(e.scores) == [b.score_after for b in e.breakdown]
    return g


@pytest.mark.parametrize("name", sorted(VARIANTS))
@FAST
@given(seed=st.integers(0, 2**31), rnd=st.randoms(use_true_random=False))
def test_random_hands_keep_every_invariant(name: str, seed: int, rnd: random.Random) -> None:
    rs = VARIANTS[name]
    g = _play(rs, seed, rnd)
    assert g.hand_records
    for rec in g.hand_records:
        result = replay(json.loads(json.dumps(rec)))
        assert result == rec["result"]
    last = g.hand_records[-1]["result"]
    assert last["scores"] == g.scores and last["bags"] == g.bags
    assert sum(last["tricks"]) == tables(rs).hand_size


@settings(max_examples=3, deadline=None, derandomize=True)
@given(seed=st.integers(0, 2**31))
def test_whole_games_end_with_a_winner(seed: int) -> None:
    """Short games (to 100) finish; the winner has the unique top score."""
    rs = Ruleset.preset("standard", target_score=100, lose_score=-100)
    rng = random.Random(seed)
    g = Game.new(rs, seed=seed)
    while g.phase is not Phase.GAME_OVER and g.hand_no < 60:
        seat = rng.choice(g.seats_to_act())
        acts = g.legal_actions(seat)
        g.apply(acts[rng.randrange(len(acts))])
    if g.phase is Phase.GAME_OVER:
        assert g.winner is not None and g.scores[g.winner] == max(g.scores)
        assert sorted(g.scores).count(max(g.scores)) == 1
        assert g.hand_records[-1]["result"]["winner"] == g.winner
        assert g.legal_actions(0) == [] and g.seats_to_act() == []


@settings(max_examples=200, deadline=None, derandomize=True)
@given(card=st.sampled_from([*range(52), 52, 53]), lower=st.booleans(), pad=st.booleans())
def test_card_text_round_trips(card: int, lower: bool, pad: bool) -> None:
    text = card_str(card)
    text = text.lower() if lower else text
    text = f"  {text} " if pad else text
    assert parse_card(text) == card


@settings(max_examples=60, deadline=None, derandomize=True)
@given(
    name=st.sampled_from(sorted(PRESETS)),
    target=st.integers(50, 1000),
    bag_limit=st.one_of(st.none(), st.integers(1, 15)),
    mercy=st.one_of(st.none(), st.integers(-500, -1)),
)
def test_rulesets_round_trip_through_json(
    name: str, target: int, bag_limit: int | None, mercy: int | None
) -> None:
    rs = Ruleset.preset(name, target_score=target, bag_limit=bag_limit, lose_score=mercy)
    assert Ruleset.from_dict(json.loads(json.dumps(rs.to_dict()))) == rs
    assert Ruleset.from_dict(json.loads(json.dumps(rs.to_json()))) == rs
    assert rs.describe().startswith(f"{name}: to {target}")
