"""A rule-based bot that plays like a sound partner.

Bidding counts likely tricks (aces, protected honours, trump length, ruffing shortness); nil only
with a hand that has nothing high and few trumps; blind nil only when far behind. In play it covers
a partner's nil, tries to set an opponent's nil, ducks once the contract is made (harder when bags
are close to the limit), plays second hand low and third hand high, never overtakes a partner's
safe winner, ruffs when void and draws trumps when it holds the top ones. Card counting uses the
view's ``played`` mask; risks are rough hypergeometric estimates (see `knowledge.Knowledge`).

One decision takes well under a millisecond.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from ..actions import (
    Action,
    BidAction,
    DrawAction,
    Look,
    MisdealAction,
    PassAction,
    PlayAction,
)
from ..cards import bits
from ..ruleset import Ruleset
from ..view import View
from . import Bot
from .knowledge import TRUMP, CardTables, Knowledge, beats, card_tables

# -- hand evaluation (pure functions of a hand and the rules) --------------------------------------


def _round_factor(rnd: int, share: float) -> float:
    """How likely the ``rnd``-th round (0-based) of a side suit still goes unruffed."""
    return max(0.0, min(1.0, 1.0 - max(0.0, rnd + 1 - share * 0.6) * 0.35))


def estimate_tricks(hand: int, rs: Ruleset) -> float:
    """Expected tricks a hand takes on its own: honours that are protected, trump length beyond an
    even share, and ruffs from short side suits with trumps to spare."""
    return _raw_estimate(hand, rs) * _table_scale(rs)


#: Per ruleset, the parts of `_raw_estimate` for one suit holding, trumps and side suits apart
#: (see `_suit_parts`). Full, one ruleset's hold ~22,000 holdings, ~5 MB; at most `_PARTS_KEPT`
#: rulesets are kept.
_PARTS_KEPT = 8
_PARTS: dict[Ruleset, tuple[dict[int, Any], dict[int, Any]]] = {}


def _suit_parts(rs: Ruleset) -> tuple[dict[int, Any], dict[int, Any]]:
    """The caches of `_trump_part` and `_side_part` for ``rs``. A hand's estimate adds the
    same increments in the same order as computed afresh, so the float sum is identical."""
    parts = _PARTS.get(rs)
    if parts is None:
        if len(_PARTS) >= _PARTS_KEPT:
            _PARTS.clear()
        parts = _PARTS[rs] = ({}, {})
    return parts


def _trump_part(ct: CardTables, held: int) -> tuple[tuple[float, ...], int, int]:
    """The trumps' increments to the estimate (in order), their count and the honour tricks."""
    trumps = sorted(bits(held), key=lambda c: -ct.power[c])
    s_len = len(trumps)
    honour_tricks = 0
    incs: list[float] = []
    for i, c in enumerate(trumps):
        higher_out = (ct.above[c] & ~held).bit_count()
        lower_mine = s_len - 1 - i
        if higher_out == 0:
            incs.append(1.0)
            honour_tricks += 1
        elif lower_mine >= higher_out:
            incs.append(0.9 if higher_out == 1 else 0.75 if higher_out == 2 else 0.55)
            honour_tricks += 1
        elif lower_mine + 1 >= higher_out:
            incs.append(0.35)
    return tuple(incs), s_len, honour_tricks


def _side_part(ct: CardTables, rs: Ruleset, suit: int, held: int) -> tuple[tuple[float, ...], int, bool]:
    """A side suit's honour increments (in order, zeros left out: adding 0.0 changes no sum),
    its length, and whether a card of the suit beats its top card."""
    cards = sorted(bits(held), key=lambda c: -ct.power[c])
    length = len(cards)
    share = ct.suit_masks[suit].bit_count() / rs.num_seats
    incs: list[float] = []
    for rnd, c in enumerate(cards):
        higher_out = (ct.above[c] & ~held).bit_count()
        lower_mine = length - 1 - rnd
        if higher_out == 0:
            v = 1.0 if rs.decks == 1 else 0.8
        elif higher_out == 1 and lower_mine >= 1:
            v = 0.7
        elif higher_out == 2 and lower_mine >= 2:
            v = 0.35
        else:
            continue
        if (x := v * _round_factor(rnd, share)) != 0.0:
            incs.append(x)
    return tuple(incs), length, bool(cards) and bool(ct.above[cards[0]] & ~held)


def _raw_estimate(hand: int, rs: Ruleset) -> float:
    ct = card_tables(rs)
    trump_cache, side_cache = _suit_parts(rs)
    est = 0.0
    held = hand & ct.suit_masks[TRUMP]
    part = trump_cache.get(held)
    if part is None:
        part = trump_cache[held] = _trump_part(ct, held)
    incs, s_len, honour_tricks = part
    for x in incs:
        est += x
    trump_share = ct.suit_masks[TRUMP].bit_count() / rs.num_seats
    long_extra = max(0, s_len - math.ceil(trump_share))
    low_trumps = s_len - honour_tricks
    used_for_length = min(long_extra, low_trumps)
    est += 0.8 * used_for_length
    spare = max(0, low_trumps - used_for_length)
    for suit in range(4):
        if suit == TRUMP:
            continue
        held = hand & ct.suit_masks[suit]
        side = side_cache.get(held)  # (the suits' holdings are disjoint masks; empty is empty)
        if side is None:
            side = side_cache[held] = _side_part(ct, rs, suit, held)
        incs, length, beaten = side
        for x in incs:
            est += x
        if spare and s_len:
            if length == 0:
                use = min(spare, 2)
                est += 0.85 * use
                spare -= use
            elif length == 1:
                # A small singleton ruffs from the second round, a singleton ace from the next.
                est += 0.6 if beaten else 0.4
                spare -= 1
            elif length == 2:
                est += 0.2
    return est


def _table_scale(rs: Ruleset) -> float:
    """Scale raw estimates so that, over random hands, they average the same share of the tricks
    as in standard four-handed Spades (fewer tricks go round at five, more at three). Sampled with
    a fixed seed, so it is deterministic; cached per deck shape."""
    if rs.two_player_draw:
        # Drawn hands are far from random (players keep their good cards); measured in play.
        return 1.1
    return _share(rs.num_seats, rs.decks, rs.jokers, rs.deuces_high, rs.deuces_high_all) / _share(
        4, 1, False, False, False
    )


@lru_cache(maxsize=32)
def _share(num_seats: int, decks: int, jokers: bool, deuces_high: bool, deuces_all: bool) -> float:
    """Fair share of tricks over the mean raw estimate of random hands for one deck shape."""
    r = Ruleset(
        name="sample",
        num_seats=num_seats,
        decks=decks,
        jokers=jokers,
        deuces_high=deuces_high,
        deuces_high_all=deuces_all,
        partnerships=False,
        blind_nil_pass=0,
        nil_pass=0,
    )
    deck = list(r.deck)
    rng = random.Random(20261129)
    total = 0.0
    samples = 200
    for _ in range(samples):
        rng.shuffle(deck)
        mask = 0
        for c in deck[: r.hand_size]:
            mask |= 1 << c
        total += _raw_estimate(mask, r)
    return (r.hand_size / r.num_seats) / (total / samples)


def nil_danger(hand: int, rs: Ruleset) -> float:
    """How likely a hand is to be forced to take a trick: 0 is a safe nil, 1 is borderline,
    anything with an ace, a high trump or four trumps is well above."""
    ct = card_tables(rs)
    d = 0.0
    trumps = bits(hand & ct.suit_masks[TRUMP])
    s_len = len(trumps)
    for c in trumps:
        higher_out = (ct.above[c] & ~hand).bit_count()
        if higher_out <= 3:
            d += 3.0
        elif higher_out <= 5:
            d += 1.5
        elif higher_out <= 7:
            d += 0.5
    if s_len >= 4:  # four trumps are as good as a high one: no nil (the docstring's "well above")
        d += (s_len - 2) * 1.5
    elif s_len == 3:
        d += 0.5
    for suit in range(4):
        if suit == TRUMP:
            continue
        cards = sorted(bits(hand & ct.suit_masks[suit]), key=lambda c: ct.power[c])
        for lower_mine, c in enumerate(cards):
            higher_out = (ct.above[c] & ~hand).bit_count()
            if higher_out == 0:
                d += 3.0  # a bare or long ace: sooner or later it wins a trick
                continue
            need = {1: 3, 2: 2, 3: 1}.get(higher_out, 0) * rs.decks
            if lower_mine < need:
                d += (need - lower_mine) * 0.6
    return d


def card_danger(card: int, known: int, ct: CardTables) -> float:
    """How likely a card is to win a trick a nil bidder does not want (higher is worse). ``known``
    holds the cards that cannot be above it any more (my hand, cards already played)."""
    higher_out = (ct.above[card] & ~known).bit_count()
    if ct.suit[card] == TRUMP:
        if higher_out <= 3:
            return 10.0 + (3 - higher_out)
        return 6.0 + max(0, 8 - higher_out) / 2  # low trumps hurt when a suit runs out
    return {0: 9.0, 1: 7.0, 2: 5.0, 3: 3.5}.get(higher_out, 2.0 - higher_out / 20)


def card_keep_value(card: int, hand: int, rs: Ruleset) -> float:
    """Two-player draw: how much a card is worth keeping (0..1)."""
    ct = card_tables(rs)
    higher_out = (ct.above[card] & ~hand).bit_count()
    if ct.suit[card] == TRUMP:
        return 1.0 if higher_out <= 4 else 0.75
    if higher_out == 0:
        return 1.0
    if higher_out == 1:
        return 0.75
    if higher_out == 2:
        return 0.45
    return 0.1


def forced_candidates(k: Knowledge, cards: list[int]) -> list[int]:
    """The cards worth searching when this seat plays last to a trick, where each card's result
    is certain: a nil still alive never wins a trick it can lose, a partner's live nil is
    always overtaken when a card can, a partner's other winner never is, an opponent's live nil
    that a losing card sets is never rescued, and the side never ducks while it still needs
    tricks and a card wins. Other positions: ``cards`` unchanged."""
    if k.after or k.winner is None:
        return cards
    ct = k.ct
    win_seat, best = k.winner
    winners = [c for c in cards if beats(ct, c, best)]
    losers = [c for c in cards if not beats(ct, c, best)]
    if k.alive_nil(k.seat):
        return losers or cards
    if win_seat in k.teammates:
        if k.alive_nil(win_seat):
            return winners or cards
        return losers or cards
    if k.alive_nil(win_seat):
        return losers or cards
    if k.side_need(k.my_side) > 0 and not k.is_nil(k.seat):
        return winners or cards
    return cards


# -- the bot -------------------------------------------------------------------------------------


class HeuristicBot(Bot):
    name = "heuristic"

    def __init__(
        self,
        seed: int | str | None = None,
        *,
        nil_threshold: float = 1.8,
        blind_nil_deficit: int = 150,
        bid_bias: float = 0.15,
        set_ratio: float = 2.0,
        bag_margin: int = 3,
        last_rules: bool = False,
    ) -> None:
        """``nil_threshold``: the highest `nil_danger` it bids nil with (partnership play);
        ``blind_nil_deficit``: how far behind its side must be to bid blind nil;
        ``bid_bias``: added to the trick estimate before rounding down;
        ``set_ratio``: with its contract made it still fights for tricks while an opponent needs
        at least 1/set_ratio of the tricks left; ``bag_margin``: bags short of the limit at which it
        stops that and only ducks; ``last_rules``: as last player, choose only among
        `forced_candidates` (the ``normal`` level)."""
        super().__init__(seed)
        self.nil_threshold = nil_threshold
        self.blind_nil_deficit = blind_nil_deficit
        self.bid_bias = bid_bias
        self.set_ratio = set_ratio
        self.bag_margin = bag_margin
        self.last_rules = last_rules

    def act(self, view: View) -> Action:
        legal = view.legal
        if not legal:
            raise ValueError("This seat has nothing to do now")
        if len(legal) == 1 and not isinstance(legal[0], PassAction):
            return legal[0]
        first = legal[0]
        if isinstance(first, PlayAction):
            return self._play(view, legal)
        if isinstance(first, PassAction):
            return self._pass(view, first.seat)  # legal may be a lazy sequence of every pass
        if isinstance(first, DrawAction):
            return self._draw(view, legal)
        if any(isinstance(a, MisdealAction) for a in legal):
            return self._misdeal(view, legal)
        if isinstance(first, Look):
            return self._look_or_blind(view, legal)
        if isinstance(first, BidAction):
            return self._bid(view, legal)
        return first

    # -- before the bid ---------------------------------------------------------------------
    def _deficit(self, view: View) -> tuple[int, int]:
        """(how far my side trails the best other side, the best other side's score)."""
        rs = view.ruleset
        seat = view.seat or 0
        mine = view.scores[rs.side_of(seat)]
        others = [sc for i, sc in enumerate(view.scores) if i != rs.side_of(seat)]
        best = max(others) if others else mine
        return best - mine, best

    def _look_or_blind(self, view: View, legal: Sequence[Action]) -> Action:
        look = next(a for a in legal if isinstance(a, Look))
        blind_nil = next((a for a in legal if isinstance(a, BidAction) and a.bid.kind == "blind_nil"), None)
        if blind_nil is None:
            return look
        rs = view.ruleset
        seat = view.seat or 0
        deficit, best = self._deficit(view)
        mates = rs.teammates(seat)
        if any((b := view.bids[m]) is not None and b.is_nil for m in mates):
            return look
        desperate = deficit >= self.blind_nil_deficit or (
            deficit >= self.blind_nil_deficit // 2 and best >= rs.target_score - 150
        )
        if not mates and rs.two_player_draw:
            # Two-player: the bidder builds its hand in the draw (discarding every high card it
            # is offered) and then swaps up to blind_nil_pass cards, so blind nil is a real
            # chance; still only when far behind and the opponent is close to winning.
            desperate = deficit >= self.blind_nil_deficit * 2 or (
                deficit >= self.blind_nil_deficit and best >= rs.target_score - 150
            )
        elif not mates:
            desperate = False  # nobody passes to a solo blind nil or covers it: nearly always set
        return blind_nil if desperate else look

    def _misdeal(self, view: View, legal: Sequence[Action]) -> Action:
        rs = view.ruleset
        hand = view.hand or 0
        call = next(a for a in legal if isinstance(a, MisdealAction))
        if rs.nil_allowed and nil_danger(hand, rs) <= self.nil_threshold * 1.5:
            others = [a for a in legal if not isinstance(a, MisdealAction)]
            if others:
                return self._bid(view, others) if isinstance(others[0], BidAction) else others[0]
        if estimate_tricks(hand, rs) < 2.5:
            return call
        others = [a for a in legal if not isinstance(a, MisdealAction)]
        if others and isinstance(others[0], BidAction):
            return self._bid(view, others)
        return others[0] if others else call

    # -- bidding ------------------------------------------------------------------------------
    def _bid(self, view: View, legal: Sequence[Action]) -> Action:
        rs = view.ruleset
        seat = view.seat or 0
        hand = view.hand or 0
        bids = [a for a in legal if isinstance(a, BidAction)]
        if not bids:
            return legal[0]
        nil = next((a for a in bids if a.bid.kind == "nil"), None)
        numbered = [a for a in bids if a.bid.kind == "tricks"]
        est = estimate_tricks(hand, rs)
        danger = nil_danger(hand, rs)
        mates = rs.teammates(seat)
        mate_bids = [b for m in mates if (b := view.bids[m]) is not None]
        if nil is not None:
            threshold = self.nil_threshold
            if not mates:
                # Nobody covers a solo nil and everyone else tries to set it.
                threshold *= 0.3 if rs.num_seats >= 5 else 0.1
            if any(b.is_nil for b in mate_bids):
                threshold = -1.0  # two nils rarely both make it
            elif mate_bids and sum(b.n for b in mate_bids) >= 4:
                threshold *= 1.3  # a strong partner covers well
            if rs.suicide and not mate_bids:
                threshold = max(threshold, 4.0)  # one of us must bid nil: the safer hand
            if numbered and min(a.bid.n for a in numbered) >= est + 2:
                threshold *= 2  # whiz and the like: the only number allowed is a likely set
            if not numbered or (danger <= threshold and est <= 2.0):
                return nil
        if not numbered:
            return bids[0]
        # Round a little down (a set costs far more than a bag), a little up when bags are near.
        side = rs.side_of(seat)
        bag_room = (rs.bag_limit - view.bags[side]) if rs.bag_limit else 99
        bias = self.bid_bias + 0.2 if bag_room <= 2 else self.bid_bias
        target = math.floor(est + bias)
        others_total = sum(b.n for b in view.bids if b is not None)
        if others_total + target > view.tricks_per_hand + 1:
            target -= 1
        if mates and mate_bids and any(b.is_nil for b in mate_bids):
            target = max(target, 2)  # covering a nil takes tricks anyway
        target = max(1, target)

        def distance(a: BidAction) -> tuple[float, int]:
            return (abs(a.bid.n - target), a.bid.n)

        return min(numbered, key=distance)

    # -- passing ------------------------------------------------------------------------------
    def _pass(self, view: View, seat: int) -> PassAction:
        size = view.pass_size
        hand = view.hand or 0
        rs = view.ruleset
        ct = card_tables(rs)
        cards = bits(hand)
        my_bid = view.bids[seat]
        if my_bid is not None and my_bid.is_nil:
            # Give away what could win a trick: high trumps first, then the unprotected honours.
            chosen = sorted(cards, key=lambda c: (card_danger(c, hand, ct), ct.power[c]), reverse=True)[:size]
        else:
            # Partner of a nil: low side cards, from the shortest suits (voids to ruff with later).
            def cost(c: int) -> tuple[int, int, int]:
                suit = ct.suit[c]
                length = (hand & ct.suit_masks[suit]).bit_count()
                return (1 if suit == TRUMP else 0, ct.power[c] // 4, length)

            chosen = sorted(cards, key=cost)[:size]
        return PassAction(seat, tuple(sorted(chosen)))

    # -- two-player draw ----------------------------------------------------------------------
    def _draw(self, view: View, legal: Sequence[Action]) -> Action:
        card = view.drawn_card
        keep = next((a for a in legal if isinstance(a, DrawAction) and a.keep), legal[0])
        toss = next((a for a in legal if isinstance(a, DrawAction) and not a.keep), legal[0])
        if card is None:
            return keep
        value = card_keep_value(card, view.hand or 0, view.ruleset)
        mine = view.bids[view.seat] if view.seat is not None else None
        if mine is not None and mine.is_nil:
            return keep if value < 0.5 else toss  # blind nil before the draw: keep the low cards
        return keep if value >= 0.5 else toss

    # -- play ---------------------------------------------------------------------------------
    def _play(self, view: View, legal: Sequence[Action]) -> Action:
        plays = {a.card: a for a in legal if isinstance(a, PlayAction)}
        cards = list(plays)
        if len(cards) == 1:
            return plays[cards[0]]
        return plays[self._play_card(view, Knowledge(view), cards)]

    def _play_card(self, view: View, k: Knowledge, cards: list[int]) -> int:
        """The card to play among ``cards`` (two or more legal ones); `ExpertBot` searches here."""
        if self.last_rules:
            cards = forced_candidates(k, cards)
        return self._choose_card(k, cards)

    def _choose_card(self, k: Knowledge, cards: list[int]) -> int:
        seat = k.seat
        if k.alive_nil(seat):
            return self._play_nil(k, cards)
        nil_mates = [m for m in k.teammates if k.alive_nil(m)]
        if nil_mates:
            return self._play_cover(k, cards, nil_mates)
        nil_opps = [o for o in k.opponents if k.alive_nil(o)]
        if nil_opps and not k.is_nil(seat):
            choice = self._play_set_nil(k, cards, nil_opps)
            if choice is not None:
                return choice
        if self._want_tricks(k):
            return self._play_to_win(k, cards)
        return self._play_to_duck(k, cards)

    # Goals ------------------------------------------------------------------------------------
    def _want_tricks(self, k: Knowledge) -> bool:
        """Whether this seat should still try to take tricks."""
        if k.is_nil(k.seat):
            return False  # a busted nil: every trick is a bag
        need = k.side_need(k.my_side)
        if need > 0:
            return True
        rs = k.rs
        # An opponent who would win the game by making its contract must be set, bags or not.
        for side in range(len(rs.sides)):
            if side == k.my_side:
                continue
            opp_need = k.side_need(side)
            if 0 < opp_need <= k.tricks_left:
                bid = sum(b.n for s in rs.sides[side] if (b := k.view.bids[s]) is not None and not b.is_nil)
                if k.view.scores[side] + 10 * bid >= rs.target_score > k.view.scores[k.my_side]:
                    return True
        bags_now = k.view.bags[k.my_side] + k.side_overtricks(k.my_side)
        near_limit = rs.bag_limit is not None and rs.bag_limit - bags_now <= self.bag_margin
        if near_limit or rs.bag_value < 0:
            return False
        # Contract made: keep fighting only to set an opponent who still needs many tricks.
        for side in range(len(rs.sides)):
            if side == k.my_side:
                continue
            opp_need = k.side_need(side)
            if opp_need > 0 and opp_need * self.set_ratio >= k.tricks_left:
                return True
        return False

    # Helpers ----------------------------------------------------------------------------------
    def _lowest(self, ct: CardTables, cards: list[int]) -> int:
        return min(cards, key=lambda c: (ct.power[c], c))

    def _highest(self, ct: CardTables, cards: list[int]) -> int:
        return max(cards, key=lambda c: (ct.power[c], -c))

    def _cheapest_equal(self, k: Knowledge, card: int, cards: list[int]) -> int:
        """The lowest of ``cards`` that is worth as much as ``card`` (no unseen card between)."""
        target = k.higher_unseen(card)
        ct = k.ct
        same = [
            c
            for c in cards
            if ct.suit[c] == ct.suit[card] and ct.power[c] <= ct.power[card] and k.higher_unseen(c) == target
        ]
        return self._lowest(ct, same) if same else card

    def _discard_low(self, k: Knowledge, cards: list[int]) -> int:
        """A card to throw away when not following: low, non-trump, from a short suit, never a
        guarded honour when a worse card will do."""
        ct = k.ct
        side_cards = [c for c in cards if ct.suit[c] != TRUMP] or cards

        def key(c: int) -> tuple[int, int, int]:
            suit = ct.suit[c]
            length = (k.hand & ct.suit_masks[suit]).bit_count()
            master = 1 if not k.higher_unseen(c) else 0
            return (master, ct.power[c] + 2 * length, c)

        return min(side_cards, key=key)

    def _relative_low(self, k: Knowledge, cards: list[int]) -> int:
        """The card most likely to be beaten: the most unseen cards above it in its suit."""
        ct = k.ct
        side_cards = [c for c in cards if ct.suit[c] != TRUMP] or cards
        return max(side_cards, key=lambda c: (k.higher_unseen(c).bit_count(), -ct.power[c], -c))

    # Own nil ----------------------------------------------------------------------------------
    def _play_nil(self, k: Knowledge, cards: list[int]) -> int:
        ct = k.ct
        if k.winner is None:
            return self._relative_low(k, cards)
        best = k.winner[1]
        under = [c for c in cards if not beats(ct, c, best)]
        if under:
            following = [c for c in under if ct.suit[c] == k.led_suit]
            if following:
                return self._highest(ct, following)
            # Void: throw the most dangerous card that cannot win here.
            return max(under, key=lambda c: (card_danger(c, k.hand | k.played, ct), ct.power[c], -c))
        # Every card wins for now: hope someone after me goes over.
        if k.after:
            return self._lowest(ct, cards)
        return self._highest(ct, cards)

    # Partner's nil -----------------------------------------------------------------------------
    def _play_cover(self, k: Knowledge, cards: list[int], nil_mates: list[int]) -> int:
        ct = k.ct
        played_seats = {s for s, _ in k.view.current_trick}
        if k.winner is None:
            # Lead high: the highest side-suit master, else the highest card, so the nil can duck.
            masters = [c for c in cards if not k.higher_unseen(c) and ct.suit[c] != TRUMP]
            if masters:
                return max(masters, key=lambda c: (k.unseen_in(ct.suit[c]).bit_count(), ct.power[c]))
            side = [c for c in cards if ct.suit[c] != TRUMP]
            if side:
                return max(side, key=lambda c: (ct.power[c], -k.higher_unseen(c).bit_count()))
            return self._highest(ct, cards)
        win_seat, best = k.winner
        if win_seat in nil_mates:
            over = [c for c in cards if beats(ct, c, best)]
            if over:
                following = [c for c in over if ct.suit[c] != TRUMP] or over
                return self._lowest(ct, following)
            return self._lowest(ct, cards)
        if any(m in k.after for m in nil_mates):
            # The nil plays after me: set the bar as high as I can.
            following = [c for c in cards if ct.suit[c] == k.led_suit]
            if following:
                top = self._highest(ct, following)
                # Raise the bar if I can; if an opponent already set it higher, save my cards.
                return top if beats(ct, top, best) else self._lowest(ct, following)
            trumps = [c for c in cards if ct.suit[c] == TRUMP and beats(ct, c, best)]
            if trumps:
                return self._lowest(ct, trumps)
            return self._discard_low(k, cards)
        if all(m in played_seats for m in nil_mates):
            # The nil is safe this trick: set an opponent's nil if one is still alive (a nil
            # winning this trick must not be rescued), else play for the contract.
            nil_opps = [o for o in k.opponents if k.alive_nil(o)]
            if nil_opps:
                choice = self._play_set_nil(k, cards, nil_opps)
                if choice is not None:
                    return choice
            if self._want_tricks(k):
                return self._play_to_win(k, cards)
            return self._play_to_duck(k, cards)
        return self._play_to_win(k, cards)

    # Opponent's nil ----------------------------------------------------------------------------
    def _play_set_nil(self, k: Knowledge, cards: list[int], nil_opps: list[int]) -> int | None:
        ct = k.ct
        if k.winner is None:
            return self._relative_low(k, cards)
        win_seat, best = k.winner
        played_seats = {s for s, _ in k.view.current_trick}
        if win_seat in nil_opps:
            under = [c for c in cards if not beats(ct, c, best)]
            if under:
                following = [c for c in under if ct.suit[c] == k.led_suit] or under
                return self._highest(ct, following)
            return self._lowest(ct, cards)
        if any(o in k.after for o in nil_opps):
            # The nil plays after me: stay low so the nil may be forced over.
            following = [c for c in cards if ct.suit[c] == k.led_suit]
            if following:
                return self._lowest(ct, following)
            if win_seat in k.teammates and ct.suit[best] != TRUMP:
                return self._discard_low(k, cards)
            non_trump = [c for c in cards if ct.suit[c] != TRUMP]
            if non_trump:
                return self._discard_low(k, non_trump)
            return None
        if all(o in played_seats for o in nil_opps):
            return None  # the nil escaped this trick; play normally
        return None

    # Taking tricks -----------------------------------------------------------------------------
    def _play_to_win(self, k: Knowledge, cards: list[int]) -> int:
        ct = k.ct
        if k.winner is None:
            return self._lead_to_win(k, cards)
        win_seat, best = k.winner
        partner_winning = win_seat in k.teammates
        winners = [c for c in cards if beats(ct, c, best)]
        following = [c for c in cards if ct.suit[c] == k.led_suit]
        if partner_winning:
            partner_safe = k.p_survives(best, k.opps_after) >= 0.75 or not k.opps_after
            if partner_safe or not winners:
                return self._lowest(ct, following) if following else self._discard_low(k, cards)
            # Third hand high: go over a partner's weak card when mine is clearly safer.
            partner_p = k.p_survives(best, k.opps_after)
            best_p, mine = max(((k.p_survives(c, k.opps_after), -ct.power[c]), c) for c in winners)
            if best_p[0] >= partner_p + 0.25:
                return mine
            return self._lowest(ct, following) if following else self._discard_low(k, cards)
        if not winners:
            return self._lowest(ct, following) if following else self._discard_low(k, cards)
        if not k.opps_after:
            return self._lowest(ct, winners)
        safe = [c for c in winners if k.p_survives(c, k.opps_after) >= 0.8]
        if safe:
            return self._lowest(ct, safe)
        if following:
            if k.mates_after:
                # Second hand low: my partner still plays after the opponents.
                return self._lowest(ct, following)
            # Third hand high (the cheapest of equals): force the opponents' honours out.
            return self._cheapest_equal(k, self._highest(ct, winners), winners)
        # Void in the led suit: ruff with the cheapest trump that takes the lead.
        return self._lowest(ct, winners)

    def _lead_to_win(self, k: Knowledge, cards: list[int]) -> int:
        ct = k.ct
        trumps = [c for c in cards if ct.suit[c] == TRUMP]
        side = [c for c in cards if ct.suit[c] != TRUMP]
        opps = tuple(s for s in k.opponents)
        # Draw trumps when I hold the top one and plenty of them.
        unseen_trumps = k.unseen_in(TRUMP).bit_count()
        if trumps and unseen_trumps:
            top = self._highest(ct, trumps)
            my_trumps = (k.hand & ct.suit_masks[TRUMP]).bit_count()
            if not k.higher_unseen(top) and my_trumps * 2 >= unseen_trumps:
                return top
        # Cash a side-suit winner that is unlikely to be ruffed.
        cash = [c for c in side if not k.higher_unseen(c) and k.p_survives(c, opps) >= 0.7]
        if cash:
            return max(cash, key=lambda c: (k.p_survives(c, opps), ct.power[c]))
        # Lead a singleton to ruff later when I have trumps to spare.
        if len(trumps) >= 2:
            singles = [
                c
                for c in side
                if (k.hand & ct.suit_masks[ct.suit[c]]).bit_count() == 1 and k.higher_unseen(c)
            ]
            if singles:
                return self._lowest(ct, singles)
        if side:
            # Low from a long suit; keep honours that need the suit led to them (a guarded king).
            def key(c: int) -> tuple[int, int, int, int]:
                suit = ct.suit[c]
                mine = k.hand & ct.suit_masks[suit]
                top = max(bits(mine), key=lambda x: ct.power[x])
                guarded_honour = 1 if k.higher_unseen(top).bit_count() == 1 else 0
                ruff = max((k.p_void(o, suit) * k.p_holds_trump(o) for o in opps), default=0.0)
                return (guarded_honour, round(ruff * 4), -mine.bit_count(), ct.power[c])

            return min(side, key=key)
        return (
            self._highest(ct, trumps)
            if not k.higher_unseen(self._highest(ct, trumps))
            else self._lowest(ct, trumps)
        )

    # Avoiding tricks (bags) --------------------------------------------------------------------
    def _play_to_duck(self, k: Knowledge, cards: list[int]) -> int:
        ct = k.ct
        if k.winner is None:
            return self._relative_low(k, cards)
        _, best = k.winner
        under = [c for c in cards if not beats(ct, c, best)]
        if under:
            following = [c for c in under if ct.suit[c] == k.led_suit]
            if following:
                return self._highest(ct, following)
            # Void: shed the card most likely to win a later trick.
            return max(
                under, key=lambda c: (ct.suit[c] != TRUMP, -k.higher_unseen(c).bit_count(), ct.power[c], -c)
            )
        if k.after:
            return self._lowest(ct, cards)
        return self._highest(ct, cards)
