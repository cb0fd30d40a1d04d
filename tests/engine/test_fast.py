"""The fast paths (``playout``, ``play_fast``) leave a game exactly as the same moves through
the validated ``play``/``apply`` path do: same tricks, scores, records and next deal."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import (
    CardNotHeld,
    Game,
    IllegalAction,
    MustFollowSuit,
    Phase,
    Ruleset,
    RulesetError,
    SpadesNotBroken,
    card_str,
    parse_card,
)
from engine.actions import BidAction, DrawAction, Look, PlayAction
from engine.bids import Bid
from engine.game import Game as GameClass
from engine.ruleset import tables
from engine.scoring import hand_totals, score_hand
from tests.engine.helpers import VARIANTS


def reference_hand(g: Game, rng: random.Random) -> None:
    """One hand through the public validated API, drawing from ``rng`` as ``playout`` does."""
    hand_no = g.hand_no
    while g.phase is not Phase.GAME_OVER and g.hand_no == hand_no:
        seat = g.seats_to_act()[0]
        if g.phase is Phase.PLAY:
            cards = g.legal_cards(seat)
            card = cards[int(rng.random() * len(cards))] if len(cards) > 1 else cards[0]
            g.play(seat, card)
        else:
            legal = g.legal_actions(seat)
            g.apply(legal[int(rng.random() * len(legal))])


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_playout_scores_exactly_like_play(name: str) -> None:
    rs = VARIANTS[name]
    for seed in range(12):
        slow = Game.new(rs, seed=f"fast:{seed}", dealer=seed % rs.num_seats)
        fast = slow.clone()
        r1, r2 = random.Random(seed), random.Random(seed)
        for _ in range(3):
            if slow.phase is Phase.GAME_OVER:
                break
            reference_hand(slow, r1)
            fast.playout(r2)
            assert fast.to_dict() == slow.to_dict()
        assert fast.hand_records == slow.hand_records
        assert r1.random() == r2.random()  # both consumed the same draws


@pytest.mark.parametrize("name", ["standard", "six-player", "jokers-high", "first-trick-2c", "cutthroat"])
def test_play_fast_matches_play(name: str) -> None:
    rs = VARIANTS[name]
    rng = random.Random(7)
    for seed in range(20):
        slow = Game.new(rs, seed=seed)
        while slow.phase is not Phase.PLAY:  # bid/pass at random
            seat = slow.seats_to_act()[0]
            legal = slow.legal_actions(seat)
            slow.apply(legal[rng.randrange(len(legal))])
        fast = slow.clone()
        hand_no = slow.hand_no
        while slow.hand_no == hand_no and slow.phase is Phase.PLAY:
            seat = slow.to_act
            assert seat is not None and fast.to_act == seat
            cards = slow.legal_cards(seat)
            assert fast.legal_mask(seat) == sum(1 << c for c in cards)
            card = rng.choice(cards)
            slow.play(seat, card)
            fast.play_fast(card)
            assert fast.to_dict() == slow.to_dict()


def test_playout_with_a_policy_uses_its_cards() -> None:
    seen: list[tuple[int, int]] = []

    def highest(g: GameClass, seat: int, mask: int) -> int:
        assert g.to_act == seat and mask == g.legal_mask(seat)
        seen.append((seat, mask))
        return mask.bit_length() - 1

    g = Game.new("standard", seed=3)
    ref = g.clone()
    g.playout(random.Random(1), policy=highest)
    assert len(seen) == 52
    rng = random.Random(1)
    while ref.phase is not Phase.PLAY:
        seat = ref.seats_to_act()[0]
        legal = ref.legal_actions(seat)
        ref.apply(legal[int(rng.random() * len(legal))])
    while ref.hand_no == 1:
        seat = ref.to_act
        assert seat is not None
        ref.play(seat, max(ref.legal_cards(seat)))
    assert g.to_dict() == ref.to_dict()


def test_playout_refuses_an_illegal_policy_card() -> None:
    g = Game.new("standard", seed=5)
    with pytest.raises(CardNotHeld):
        g.playout(random.Random(0), policy=lambda g_, s, m: 60)
    g = Game.new("standard", seed=5)
    # a held card that is not legal, whenever there is one (there is, at some point of a hand)
    with pytest.raises((MustFollowSuit, SpadesNotBroken)):
        for _ in range(3):
            g.playout(random.Random(0), policy=lambda g_, s, m: (g_.hand(s) & ~m or m).bit_length() - 1)


def test_playout_from_view_stops_after_the_hand() -> None:
    g = Game.new("standard", seed=11)
    rng = random.Random(2)
    for _ in range(10):  # bids and a few cards
        seat = g.seats_to_act()[0]
        legal = g.legal_actions(seat)
        g.apply(legal[rng.randrange(len(legal))])
    seat = g.to_act
    assert seat is not None
    sim = Game.from_view(g.view(seat), rng=random.Random(4))
    sim.playout(random.Random(5))
    assert sim.phase is Phase.GAME_OVER
    assert sum(sim.hand_records[-1]["result"]["tricks"]) == 13
    before = sim.to_dict()
    sim.playout(random.Random(5))  # nothing left to play
    assert sim.to_dict() == before


def test_play_fast_refuses_a_card_not_held_and_wrong_phase() -> None:
    g = Game.new(Ruleset.preset("standard"), seed=1)
    with pytest.raises(IllegalAction):
        g.play_fast(0)  # bidding
    for _ in range(4):
        seat = g.to_act
        assert seat is not None
        g.bid(seat, 3)
    seat = g.to_act
    assert seat is not None
    missing = next(c for c in range(52) if not g.hand(seat) >> c & 1)
    with pytest.raises(IllegalAction):
        g.play_fast(missing)
    assert g.played == 0


@pytest.mark.parametrize("name", ["standard", "six-player", "first-trick-2c", "jokers-high", "solo"])
def test_playout_from_inside_a_trick_matches_play(name: str) -> None:
    rs = VARIANTS[name]
    for seed in range(15):
        slow = Game.new(rs, seed=f"mid:{seed}")
        rng = random.Random(seed)
        while slow.phase is not Phase.PLAY:
            seat = slow.seats_to_act()[0]
            legal = slow.legal_actions(seat)
            slow.apply(legal[rng.randrange(len(legal))])
        for _ in range(rng.randrange(3 * rs.num_seats)):  # stop anywhere, often mid-trick
            seat = slow.to_act
            assert seat is not None
            slow.play(seat, rng.choice(slow.legal_cards(seat)))
        fast = slow.clone()
        r1, r2 = random.Random(seed), random.Random(seed)
        reference_hand(slow, r1)
        fast.playout(r2)
        assert fast.to_dict() == slow.to_dict()


@settings(max_examples=300, deadline=None, derandomize=True)
@given(st.sampled_from(sorted(VARIANTS)), st.data())
def test_hand_totals_match_score_hand(name: str, data: st.DataObject) -> None:
    rs = VARIANTS[name]
    if rs.boston:
        rs = rs.with_options(boston=False)
    top = tables(rs).hand_size
    kinds = (
        [Bid.NIL, Bid.BLIND_NIL]
        + [Bid.tricks(i) for i in range(top + 1)]
        + [Bid.of("blind", i) for i in range(1, 8)]
    )
    bids = [data.draw(st.sampled_from(kinds)) for _ in range(rs.num_seats)]
    split = sorted(
        data.draw(st.lists(st.integers(0, top), min_size=rs.num_seats - 1, max_size=rs.num_seats - 1))
    )
    tricks = [b - a for a, b in zip([0, *split], [*split, top], strict=True)]
    scores = data.draw(st.lists(st.integers(-600, 600), min_size=rs.num_sides, max_size=rs.num_sides))
    bags = data.draw(st.lists(st.integers(0, 12), min_size=rs.num_sides, max_size=rs.num_sides))
    breakdown = score_hand(rs, bids, tricks, scores, bags)
    assert hand_totals(rs, bids, tricks, scores, bags) == (
        [sc.score_after for sc in breakdown],
        [sc.bags_after for sc in breakdown],
    )


@pytest.mark.parametrize("name", ["standard", "house"])  # lazy breakdown; Boston: scored at once
def test_quiet_hand_reads_the_same_in_any_order_and_round_trips(name: str) -> None:
    slow = Game.new(name, seed=9)
    reference_hand(slow, random.Random(4))
    fast = Game.new(name, seed=9)
    fast.playout(random.Random(4))
    first = fast.clone()
    assert first.hand_records == slow.hand_records  # the record first, then the last hand
    assert first.last_hand == slow.last_hand
    second = fast.clone()
    assert second.last_hand == slow.last_hand  # the last hand first, then the record
    assert second.hand_records == slow.hand_records
    assert Game.from_dict(fast.to_dict()).to_dict() == slow.to_dict()


def replay_hand(g: Game, rec: dict) -> None:
    """Finish ``g``'s hand with the bids, passes, draws and cards of its hand record that are
    still to come, each found in ``legal_actions`` (so each was legal) and applied with ``apply``."""
    bids = [(s, Bid.parse(b)) for s, b in rec["bids"]][len(g.bid_log) :]
    passes = [(s, sorted(cs)) for s, cs in rec["passes"]][len(g.pass_log) :]
    keeps = rec.get("draw", {}).get("keeps", [])[len(g.draw_keeps) :]
    plays = rec["plays"][len(g.plays) :]
    hand_no = g.hand_no
    while g.hand_no == hand_no and g.phase is not Phase.GAME_OVER:
        seat = g.seats_to_act()[0]
        legal = g.legal_actions(seat)
        bid = next((a for a in legal if isinstance(a, BidAction) and bids and bids[0] == (seat, a.bid)), None)
        if g.phase is Phase.PLAY:
            want = plays.pop(0)
            action = next(a for a in legal if isinstance(a, PlayAction) and card_str(a.card) == want)
        elif g.phase is Phase.PASS:
            s, cs = passes.pop(0)
            assert s == seat
            action = next(a for a in legal if sorted(card_str(c) for c in a.cards) == cs)
        elif bid is not None:
            bids.pop(0)
            action = bid
        elif g.phase is Phase.DRAW and keeps:
            keep = keeps.pop(0)
            action = next(a for a in legal if isinstance(a, DrawAction) and a.keep == keep)
        else:  # a seen bid (mirrors, whiz) from a seat that has not looked: it looked first
            action = next(a for a in legal if isinstance(a, Look))
        g.apply(action)
    assert not plays and not passes and not bids and not keeps


@pytest.mark.parametrize("name", sorted(VARIANTS))
@settings(max_examples=8, deadline=None, derandomize=True)
@given(seed=st.integers(0, 2**31), steps=st.integers(0, 60), rnd=st.randoms(use_true_random=False))
def test_playout_equals_a_replay_of_its_choices(name: str, seed: int, steps: int, rnd: random.Random) -> None:
    """From any point of a hand (bidding, passing, the start of a trick or inside one), the hand
    ``playout`` plays replays move by move through ``legal_actions``/``apply`` to the same game:
    every card it chose was legal and the state, scores and record are those of the step API."""
    rs = VARIANTS[name]
    g = Game.new(rs, seed=seed, dealer=seed % rs.num_seats)
    hand_no = g.hand_no
    for _ in range(steps):  # walk some way into the hand at random
        if g.phase is Phase.GAME_OVER or g.hand_no != hand_no:
            return
        seat = g.seats_to_act()[0]
        legal = g.legal_actions(seat)
        g.apply(legal[rnd.randrange(len(legal))])
    if g.hand_no != hand_no:
        return
    stepped = g.clone()
    records = len(g.hand_records)
    g.playout(random.Random(rnd.getrandbits(32)))
    rec = g.hand_records[records]
    replay_hand(stepped, rec)
    assert stepped.to_dict() == g.to_dict()
    assert stepped.hand_records == g.hand_records
    assert stepped.last_hand == g.last_hand


@pytest.mark.parametrize("name", ["standard", "cutthroat", "five-player", "first-trick-2c", "no-nil"])
def test_playout_from_a_view_inside_a_trick_matches_play(name: str) -> None:
    """The search case: a game rebuilt from a view, a trick in progress; the fast card loop takes
    over at the next trick and leaves what the validated path leaves with the same draws."""
    rs = VARIANTS[name]
    for seed in range(15):
        g = Game.new(rs, seed=seed)
        rng = random.Random(seed)
        inside = 1 + seed % (rs.num_seats - 1)  # cards on the trick when the view is taken
        while g.phase is not Phase.PLAY or len(g.trick) != inside or g.trick_no < seed % 5:
            legal = g.legal_actions(g.seats_to_act()[0])
            g.apply(legal[rng.randrange(len(legal))])
        seat = g.to_act
        assert seat is not None
        sim = Game.from_view(g.view(seat), rng=random.Random(seed))
        slow = sim.clone()
        sim.playout(random.Random(seed + 1))
        reference_hand(slow, random.Random(seed + 1))
        assert sim.to_dict() == slow.to_dict()
        assert sim.hand_records == slow.hand_records


def test_fast_card_loop_takes_the_plain_decks_only() -> None:
    from engine.playout import fits

    for name, rs in VARIANTS.items():
        g = Game.new(rs, seed=4)
        rng = random.Random(4)
        while g.phase is not Phase.PLAY:
            legal = g.legal_actions(g.seats_to_act()[0])
            g.apply(legal[rng.randrange(len(legal))])
        plain = rs.decks == 1 and not rs.jokers and not rs.deuces_high
        assert fits(g) == (plain and not rs.first_trick_two_clubs), name
        if g.trick_no == 0 and not g.trick and rs.num_seats > 1:
            seat = g.to_act
            assert seat is not None
            g.play(seat, g.legal_cards(seat)[0])
            assert not fits(g)  # inside a trick: card by card until the next lead


@pytest.mark.parametrize("seed", [0, 7, "table:42", "x" * 40])
def test_seeded_deal_is_seed_version_3(seed: int | str) -> None:
    """Seeded games (not fair) deal as documented (seed version 3): the key
    ``sha256(b"spades-seeded-deal/3\\n" + f"{seed}|{salt}")``, per hand ``shake_128(key +
    b"{hand_no}|{redeals}")``, 4 bytes per card of the deck in id order, each card's sort key
    the little-endian word's bits 8..29, cards sorted by key (ties in deck order), dealt 13 a
    seat from seat 0 (seeded deals are replayed: this pins them)."""
    import hashlib

    def reference(hand_no: int, redeals: int, salt: str) -> list[int]:
        key = hashlib.sha256(b"spades-seeded-deal/3\n" + f"{seed}|{salt}".encode()).digest()
        buf = hashlib.shake_128(key + f"{hand_no}|{redeals}".encode()).digest(4 * 52)
        keys = [int.from_bytes(buf[4 * i : 4 * i + 4], "little") >> 8 & (1 << 22) - 1 for i in range(52)]
        order = sorted(range(52), key=lambda c: (keys[c], c))
        return [sum(1 << c for c in order[i * 13 : (i + 1) * 13]) for i in range(4)]

    first = Game.new("standard", seed=seed, salt="s", dealer=0)
    assert first.dealt == reference(1, 0, "s")
    g = Game.new("standard", seed=seed, salt="s")
    g.hand_no, g.redeals = 3, 1
    g._start_hand()
    assert g.dealt == reference(3, 1, "s")
    # the cached key follows the seed and salt (from_view and tests set them after creation)
    g.seed, g.salt = f"{seed}!", "t"
    g._start_hand()
    seed = f"{seed}!"
    assert g.dealt == reference(3, 1, "t")
    c = g.clone()
    c.hand_no = 4
    c._start_hand()
    assert c.dealt == reference(4, 1, "t")
    back = Game.from_dict(c.to_dict())
    back._start_hand()
    assert back.dealt == c.dealt


def test_shuffle_order_ties_and_unseeded_deals() -> None:
    """Equal keys keep deck order; the low byte of a word (not part of the key) is ignored;
    unseeded deals are whole deals from ``secrets`` bytes."""
    from engine.game import shuffle_order

    words = [5 << 8, 3 << 8 | 0xFF, 5 << 8 | 0x01, 1 << 8, 0x3FFFFF00 | 0xC0000000]
    buf = b"".join(w.to_bytes(4, "little") for w in words)
    assert list(shuffle_order(buf, 5)) == [3, 1, 0, 2, 4]
    for _ in range(5):
        g = Game.new("standard")
        assert sorted(map(int.bit_count, g.dealt)) == [13] * 4
        assert sum(g.dealt) == (1 << 52) - 1
    two = Game.new("two-player", seed=3)
    assert sorted(two.stock) == list(range(52))


def test_playout_module_does_not_import_game() -> None:
    """engine.game imports engine.playout; the loop types the game by a Protocol instead of
    importing it back (not even under TYPE_CHECKING, which the import contracts ignore)."""
    import ast
    from pathlib import Path

    import engine.playout

    tree = ast.parse(Path(engine.playout.__file__).read_text(encoding="utf-8"))
    nodes = list(ast.walk(tree))
    imported = {(node.module or "", node.level) for node in nodes if isinstance(node, ast.ImportFrom)}
    imported |= {(a.name, 0) for node in nodes if isinstance(node, ast.Import) for a in node.names}
    assert ("game", 1) not in imported and ("engine.game", 0) not in imported
    assert ("ruleset", 1) in imported  # the walk does see the module's relative imports


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_lean_blind_threshold_matches_the_rules(name: str) -> None:
    """The playout's cached "least deficit for a blind bid" (and apart: for blind nil, for blind
    number bids) says what ``blind_nil_open`` / ``blind_bids_open`` say at every deficit, whatever
    the blind options."""
    from engine.game import _lean

    base = VARIANTS[name]
    for nil_min, bid_min, blind_bids, blind_nil in [
        (0, 100, False, True),
        (100, 0, True, True),
        (200, 50, True, False),
        (0, 0, True, True),
        (150, 100, False, False),
    ]:
        try:
            rs = base.with_options(
                blind_nil_min_deficit=nil_min,
                blind_bid_min_deficit=bid_min,
                blind_bids=blind_bids,
                blind_nil_allowed=blind_nil,
            )
        except RulesetError:  # a variant that refuses these blind options
            continue
        blind_from = _lean(rs)[3]
        nil_from, bids_from, blind_max = _lean(rs)[4]
        for d in range(-400, 401, 25):
            opens = rs.blind_nil_open(d) or rs.blind_bids_open(d)
            assert (blind_from is not None and d >= blind_from) == opens, (rs, d)
            assert (nil_from is not None and d >= nil_from) == rs.blind_nil_open(d), (rs, d)
            assert (bids_from is not None and d >= bids_from) == rs.blind_bids_open(d), (rs, d)
        assert blind_max == rs.blind_bid_max


@pytest.mark.parametrize("name", ["standard", "no-nil", "cutthroat", "five-player"])
def test_fast_card_loop_from_many_positions_matches_the_step_api(name: str) -> None:
    """The plain-deck loop resolves a trick by comparing card ids (a spade's id is above every
    other card). From 120 random trick boundaries of seeded hands (spades broken or not, voids
    and ruffs already shown), a seeded ``playout`` leaves what ``play`` leaves with the same draws,
    and every trick it recorded went to the seat ``winning_play`` names."""
    from engine.ruleset import winning_play

    rs = VARIANTS[name]
    t = tables(rs)
    pick = random.Random(name)
    for i in range(120):
        g = Game.new(rs, seed=f"many:{i}", dealer=i % rs.num_seats)
        while g.phase is not Phase.PLAY:
            legal = g.legal_actions(g.seats_to_act()[0])
            g.apply(legal[pick.randrange(len(legal))])
        for _ in range(pick.randrange(t.hand_size) * rs.num_seats):  # whole tricks
            seat = g.to_act
            assert seat is not None
            g.play(seat, pick.choice(g.legal_cards(seat)))
        fast, slow = g.clone(), g.clone()
        fast.auto_deal = slow.auto_deal = False
        r1, r2 = random.Random(i), random.Random(i)
        fast.playout(r1)
        reference_hand(slow, r2)
        assert fast.to_dict() == slow.to_dict()
        assert fast.hand_records == slow.hand_records
        assert r1.random() == r2.random()
        rec = fast.hand_records[-1]
        plays = [parse_card(c) for c in rec["plays"]]
        leader = fast.first_leader
        for k, winner in enumerate(rec["result"]["trick_winners"]):
            cards = plays[k * rs.num_seats : (k + 1) * rs.num_seats]
            trick = [((leader + j) % rs.num_seats, c) for j, c in enumerate(cards)]
            assert winning_play(trick, t.suit, t.power, not rs.six_player_first_wins)[0] == winner
            leader = winner
