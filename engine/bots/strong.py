"""The strong bot: sampled-deal search for bidding, nil and blind nil, and every card.

It keeps the heuristic bot as its model of the other seats and as the default for each of its own
choices, and replaces that default when the search over sampled deals finds better on average:

- **Bidding** (`_search_bid`): the heuristic's bid, the bids around it and nil (when the hand is
  not hopeless for it) are each tried in the same sampled deals (the hidden hands drawn from what
  this seat knows): the other seats still to bid bid as the heuristic does, the nil exchange is
  made, the hand is played out, and the hand is scored with the real scoring (sets, bags and the
  bag penalty, nils), each bag carried counting as its share of the bag penalty (``bid_debt``)
  and a set costing ``set_risk`` points per trick bid on top of the rules' (risk aversion).
  A game decided by this hand adds ``win_bonus`` (score situation: near the target, near the bag
  limit, far behind all show up in the scored points and the debt).
  Before that, `bid_from_deals` plays each of half as many sampled deals out once with the side
  playing for every trick and scores every numbered bid on the side's tricks (the same set
  risk, bag debt and win bonus; a deal one trick short of the contract counts ``short_made`` as
  made, a measured calibration for the strong side's play); the best of them joins the bids
  compared (a third of the decision's time; without it the heuristic's bid and its neighbours
  are compared as before). A nil made in under ``nil_floor`` of the compared deals is never
  bid, the heuristic's own nil included: the best other bid is.
- **The nil exchange** (`_pass`): the heuristic's pass and a few others (`pass_candidates`)
  compared in the same way, the sampled deals rebuilt in the passing phase.
- **Blind nil** (`_look_or_blind`): only when far enough behind for it to matter
  (``blind_search_deficit``); the same search with this seat's own hand unknown too, blind nil
  against looking and bidding as the heuristic, looking the default (the heuristic's choice
  plays no part: the score situation, the partner's bid and the exchange are in the deals).
- **Cards** (`_play_card`): every distinct legal card in the same sampled worlds and roll-outs
  (common random numbers), nil play included (covering a partner's nil, setting an opponent's).
  Roll-outs play the heuristic's card for every seat, except that with probability ``explore``
  a seat of its own side (not a nil bidder) plays the greedy policy's card instead, so the
  evaluation also sees its own side's plays the heuristic would not make (the opponents stay
  the heuristic: a choice must not look good because the model's opponents blunder).
  Sampling uses what play has shown: voids (a seat that did not
  follow), the cards passed, spades led before they were broken, a nil bidder's following
  (its duck under the winner, its going over) and the discards (a nil bidder throws its highest
  card of a suit, a seat playing for its contract its lowest): preferences, `Game.from_view`.
- **The bids are read** (`world_sampler`, every search above): of ``bid_draws`` deals drawn for
  each sampled deal, one is kept in proportion to how well the other seats' hands fit their
  bids, so a seat that bid 6 holds the honours it bid on and a nil bidder rarely an ace.
  Measured (500 duplicate deals, two seeds): the edge over the heuristic rose from +26-28 to
  +30-33 points a hand, the sets fell from 7-9 % to 5-5.5 %, the bags from 1.01 to 0.92-0.96
  (bench/README.md).
- **The contract first, then the bags**: a card with which the side is set in more sampled
  deals than with the heuristic's card is never taken; once the contract is made, or while the
  heuristic's card makes it in every sampled deal, a bag counts as its share of the bag penalty
  (``play_debt``, ``safe_debt``), so the search ducks tricks the side does not need.
- **Sure things first** (`forced_candidates`): as last player to a trick the result of each card
  is known, so it never overtakes its partner's winning card, never rescues an opponent's nil it
  can set with a losing card, and never ducks when its side still needs tricks and a card wins.

Each decision is capped at ``time_limit`` seconds (after ``min_worlds`` worlds); ``worlds`` fixes
the number of sampled deals (with ``time_limit=None`` the result does not depend on the
machine's speed). Strength and speed: ``bench/README.md``.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence
from typing import Any, cast

from ..actions import Action, BidAction, Look, PassAction, PlayAction
from ..bids import Bid
from ..cards import bits
from ..game import Game, Phase
from ..ruleset import Ruleset
from ..scoring import game_winner, score_hand
from ..view import View
from .expert import ExpertBot, distinct_cards, forced_candidates, greedy_policy
from .guards import guard_candidates
from .heuristic import HeuristicBot, card_danger, estimate_tricks, nil_danger
from .inference import world_sampler
from .knowledge import Knowledge, card_tables


class _RolloutView:
    """The fields of a `View` that `Knowledge` and the heuristic's card play read, filled straight
    from a game in a roll-out (building a frozen `View` with its legal actions for every card
    of every roll-out cost a third of the search)."""

    __slots__ = (
        "bags",
        "bids",
        "current_trick",
        "hand",
        "hand_sizes",
        "last_trick",
        "played",
        "ruleset",
        "scores",
        "seat",
        "trick_no",
        "tricks",
        "tricks_per_hand",
    )

    def __init__(self, g: Game, seat: int) -> None:
        self.seat = seat
        self.ruleset = g.rs
        self.hand = g.hands[seat]
        self.current_trick = g.trick
        self.played = g.played
        self.tricks_per_hand = g._t.hand_size
        self.trick_no = g.trick_no
        self.bids = g.bids
        self.tricks = g.tricks
        self.hand_sizes = [h.bit_count() for h in g.hands]
        self.scores = g.scores
        self.bags = g.bags
        self.last_trick = g.last_trick


#: The fewest searched deals on which ``nil_floor`` may bar a nil.
NIL_FLOOR_DEALS = 8
#: Racing under a time cap (`StrongBot._race`): the deals searched at which options clearly
#: behind the base are dropped, and how many standard errors behind is clearly.
RACE_CHECKPOINTS = frozenset({8, 16, 32, 64})
RACE_SE = 3.0


def rollout_view(g: Game, seat: int) -> View:
    """What a roll-out policy reads of ``seat``'s view (see `_RolloutView`); valid until the
    next card is played."""
    return cast(View, _RolloutView(g, seat))


def _set_bid(g: Game, side: int) -> int:
    """The tricks ``side`` bid in the hand just played out in ``g`` if it was set there, else 0.
    (A searched world is made with ``next_hand=False``: its bids and tricks stay after scoring.)"""
    bid = took = 0
    for s in g.rs.sides[side]:
        b = g.bids[s]
        if b is not None and not b.is_nil:
            bid += b.n
            took += g.tricks[s]
    return bid if took < bid else 0


def _shortfall(rs: Ruleset, bids: Sequence[Bid | None], tricks: Sequence[int], side: int) -> int:
    """How many tricks ``side``'s numbered bidders took short of their contract (0 when made or
    without a contract)."""
    bid = took = 0
    for s in rs.sides[side]:
        b = bids[s]
        if b is not None and not b.is_nil:
            bid += b.n
            took += tricks[s]
    return max(0, bid - took)


def _side_made(view: View, side: int) -> bool:
    """Whether ``side`` has already taken the tricks its numbered bids promise."""
    bid = took = 0
    for s in view.ruleset.sides[side]:
        b = view.bids[s]
        if b is not None and not b.is_nil:
            bid += b.n
            took += view.tricks[s]
    return bid > 0 and took >= bid


class StrongBot(ExpertBot):
    name = "strong"

    def __init__(
        self,
        seed: int | str | None = None,
        *,
        worlds: int = 24,
        min_worlds: int = 4,
        time_limit: float | None = 0.25,
        margin: float = 1.0,
        bid_worlds: int | None = None,
        explore: float = 0.05,
        win_bonus: float = 100.0,
        blind_deficit: int = 150,
        blind_search_deficit: int = 100,
        confidence: float = 1.0,
        nil_penalty: float = 40.0,
        blind_penalty: float = 20.0,
        play_debt: float = 1.0,
        bid_debt: float = 1.0,
        safe_debt: float = 1.0,
        set_risk: float = 15.0,
        contract_first: bool = True,
        short_made: float = 0.5,
        search_short_made: float = 0.5,
        bid_draws: int = 8,
        bid_spread: float = 1.0,
        nil_floor: float = 0.55,
        clock: Callable[[], float] = time.perf_counter,
        **options: Any,
    ) -> None:
        """``worlds`` / ``min_worlds`` / ``time_limit``: sampled deals per decision, at most / at
        least / the cap in seconds (None: no cap, always ``worlds``); ``bid_worlds``: deals per
        bid or blind nil decision (default ``4 * worlds``, at least 16); ``margin``: points per
        hand by which a choice must beat the heuristic's on average; ``explore``: chance per
        roll-out card of the greedy policy's card instead of the heuristic's (own side only);
        ``win_bonus``: points counted for winning (or losing) the game in the searched hand;
        ``blind_deficit``: how far behind before the bids take more risk (``set_risk`` halved);
        ``blind_search_deficit``: how far behind before blind nil is searched at all (looking
        otherwise; the search, not the heuristic, decides, see `_look_or_blind`); ``confidence``:
        standard errors by which a choice must beat the heuristic's (see `_pick`);
        ``nil_penalty`` / ``blind_penalty``: points a nil / a blind nil must gain on top (the
        model's partner covers better than a real one may, and a nil set costs its side bags as
        well; 40 instead of 20 for a nil moved its rate and success by under a point,
        bench/README.md); ``play_debt`` / ``bid_debt``: the share of its bag debt
        (each bag carried brings the bag penalty a ``bag_limit``-th nearer) counted against a bag
        in card play once the side's contract is made / in bidding (0: a bag is worth its +1);
        ``safe_debt``: before the contract is made, the share counted when the heuristic's card
        makes the contract in every sampled deal (only cards that also make it in every deal are
        then compared: the contract first, then the bags); ``set_risk``: in bidding, points per
        trick bid counted on top of the rules' 10 in a sampled deal where the side is set (risk
        aversion: the sampled deals are optimistic about the side's play, and a set costs more
        than its points in a game; halved when ``blind_deficit`` or more behind, where the side
        must take chances); ``contract_first``: in card play
        never prefer a card with which the side is set in more sampled deals than with the
        heuristic's card (see `_pick`); ``short_made``: in `bid_from_deals`, the share of a
        sampled deal in which the side falls exactly one trick short of its contract that counts
        as made exactly instead (the roll-outs' play is the heuristic's, and the strong side makes
        more of its close contracts than they do: a measured calibration, see `bid_from_deals`);
        ``search_short_made``: the same share in the searched bids' played-out deals (`_value`;
        it trades bags for sets: with 24 sampled deals a card the strong side is set in ~5 % of
        hands, and half of a deal one short counted as made moves it to ~7 % and the bags from
        ~1.15 to ~1.0 a hand, bench/README.md); ``bid_draws`` / ``bid_spread``: deals drawn per
        sampled deal to keep the one that fits the bids / the width in tricks of a numbered
        bid's fit (`engine.bots.inference`; 1 / 0 turn the reading of the bids off);
        ``nil_floor``: a nil (the heuristic's own included) made in fewer than this share of the
        searched bids' sampled deals is never bid, the best other bid is (0: off; the roll-outs'
        nil success predicts the real one within a few points, see `_pick`); ``clock``: the
        seconds the time cap is measured in (``time.process_time``: CPU time, so a capped search
        does the same work however loaded the machine is; the arena's ``--cap``).
        Measured choices: bench/README.md."""
        super().__init__(
            seed,
            worlds=worlds,
            min_worlds=min_worlds,
            time_limit=1e9 if time_limit is None else time_limit,
            margin=margin,
            **options,
        )
        # one bid a hand: it can afford more deals than a card, and needs them (sets vs bags)
        self.bid_worlds = max(16, 4 * worlds) if bid_worlds is None else bid_worlds
        self.clock = clock
        self.capped = time_limit is not None  # racing only then (`_compare`)
        self.explore = explore
        self.win_bonus = win_bonus
        self.blind_deficit = blind_deficit
        self.blind_search_deficit = blind_search_deficit
        self.confidence = confidence
        self.nil_penalty = nil_penalty
        self.blind_penalty = blind_penalty
        self.play_debt = play_debt
        self.bid_debt = bid_debt
        self.set_risk = set_risk
        self._debt = self.play_debt  # the share in force for the decision being searched
        self._set_risk = 0.0  # set_risk while a bid is searched
        self.contract_first = contract_first
        self.short_made = short_made
        self.search_short_made = search_short_made
        self.bid_draws = bid_draws
        self.bid_spread = bid_spread
        self.nil_floor = nil_floor
        self._contract_first = contract_first  # off while a bid is searched
        self.safe_debt = safe_debt
        self._safe_debt = 0.0  # the debt share of a card search before the contract is made
        self.model = HeuristicBot(self.seed)  # how the other seats are assumed to bid and pass
        self.stats: dict[str, int] = {}

    # -- values ------------------------------------------------------------------------------
    def _value(self, view: View, g: Game, debt_share: float | None = None) -> float:
        seat = view.seat
        assert seat is not None
        rs = view.ruleset
        side = rs.side_of(seat)
        # Bags carried are a debt: each brings the bag penalty a tenth nearer (without the debt
        # a bag looks like +1 point unless the penalty falls in this very hand).
        share = self._debt if debt_share is None else debt_share
        debt = share * rs.bag_penalty / rs.bag_limit if rs.bag_limit else 0.0
        deltas = [
            (a - debt * ab) - (b - debt * bb)
            for a, b, ab, bb in zip(g.scores, view.scores, g.bags, view.bags, strict=True)
        ]
        others = [d for i, d in enumerate(deltas) if i != side]
        v = deltas[side] - (sum(others) / len(others) if others else 0.0)
        if g.winner is not None:
            v += self.win_bonus if g.winner == side else -self.win_bonus
        if self._set_risk:
            v -= self._set_risk * _set_bid(g, side)
            if self.search_short_made and _shortfall(rs, g.bids, g.tricks, side) == 1:
                v += self.search_short_made * (self._made_value(view, g, side, debt) - v)
        return v

    def _made_value(self, view: View, g: Game, side: int, debt: float) -> float:
        """`_value` of a searched bid's hand had ``side`` taken one more trick (this seat's, or
        its partner's when this seat bid nil): the contract it missed by one made exactly (the
        calibration ``search_short_made``, see `_deal_bid_value`)."""
        rs = view.ruleset
        seat = view.seat or 0
        tricks = list(g.tricks)
        takers = [s for s in rs.sides[side] if (b := g.bids[s]) is not None and not b.is_nil]
        tricks[seat if seat in takers else takers[0]] += 1
        bids = list(g.bids)
        breakdown = score_hand(rs, bids, tricks, view.scores, view.bags)
        deltas = [
            (b.score_after - debt * b.bags_after) - (b.score_before - debt * b.bags_before) for b in breakdown
        ]
        others = [d for i, d in enumerate(deltas) if i != side]
        v = deltas[side] - (sum(others) / len(others) if others else 0.0)
        winner, _ = game_winner(rs, [b.score_after for b in breakdown], breakdown, g.hand_no)
        if winner is not None:
            v += self.win_bonus if winner == side else -self.win_bonus
        return v

    def _policy(self, rng: random.Random, me: int) -> Callable[[Game, int, int], int]:
        explore = self.explore

        def policy(g: Game, seat: int, mask: int) -> int:
            if mask & (mask - 1) == 0:
                return mask.bit_length() - 1
            # Exploration only for this side's own later plays (not a nil's): the opponents stay
            # the sharp model, so no choice looks good because the opponents blunder.
            if explore and g.rs.side_of(seat) == g.rs.side_of(me) and rng.random() < explore:
                b = g.bids[seat]
                if b is None or not b.is_nil:
                    return greedy_policy(g, seat, mask)
            return self._choose_card(Knowledge(rollout_view(g, seat)), bits(mask))

        return policy

    def _finish(self, g: Game, roll: int, me: int, before_play: Callable[[Game], None] | None = None) -> None:
        """Bids and passes of the seats still to act (the heuristic's), then the hand
        (``before_play`` changes the game once the bidding and passing are over)."""
        hand_no = g.hand_no
        guard = 0
        while g.phase is not Phase.PLAY and g.phase is not Phase.GAME_OVER and g.hand_no == hand_no:
            s = g.seats_to_act()[0]
            g.apply(self.model.act(g.view(s)))
            guard += 1
            if guard > 64:  # pragma: no cover - bidding always ends
                raise RuntimeError("bidding did not end in a roll-out")
        if g.phase is Phase.PLAY and g.hand_no == hand_no:
            if before_play is not None:
                before_play(g)
            rng = random.Random(roll)
            g.playout(rng, policy=self._policy(rng, me))

    def _compare(
        self,
        view: View,
        options: Sequence[Any],
        base: Any,
        start: Callable[[Game, Any], None],
        worlds: int,
        penalties: Sequence[float] | None = None,
    ) -> Any:
        """The option with the best mean value over sampled worlds (``base`` unless another beats
        it, see `_pick`). ``start(world_copy, option)`` applies the option; ``penalties`` (per
        option) are subtracted from its mean gain before the comparison."""
        if len(options) <= 1:
            return base
        rng = self.rng_for(view)
        sample = world_sampler(view, self.bid_draws, self.bid_spread)
        deadline = self.clock() + self.time_limit
        values: list[list[float]] = [[] for _ in options]
        sets = [0] * len(options)  # sampled deals in which the side is set, with contract_first
        side = view.ruleset.side_of(view.seat or 0)
        count_sets = self._contract_first
        # Before the contract is made, bags count as debt only if it looks safe (see `_pick`).
        safe_debt = count_sets and self._safe_debt > 0
        debt_values: list[list[float]] = [[] for _ in options]
        me = view.seat or 0
        # This seat's nil bids among the options, and the sampled deals in which each was made.
        nils = [isinstance(o, BidAction) and o.bid.kind == "nil" and o.seat == me for o in options]
        nils_made = [0] * len(options)
        bi = options.index(base)
        # Racing (with a time cap only): an option clearly behind the base is dropped at the
        # checkpoints, so the cap's time goes to the contenders (more deals each). Not with a
        # nil among the options (the nil floor can bar the base) nor in the contract-first
        # debt mode (its values are only chosen at the end).
        race = self.capped and not any(nils) and not safe_debt
        alive = list(range(len(options)))
        n = 0
        last = 0.0
        for _ in range(worlds):
            t0 = self.clock()
            if n >= self.min_worlds and t0 + last > deadline:
                break
            if race and n in RACE_CHECKPOINTS and len(alive) > 2:
                alive = self._race(values, bi, n, alive, penalties)
            world = sample(rng)
            roll = rng.getrandbits(64)
            for i in alive:
                opt = options[i]
                g = world.clone()
                start(g, opt)
                self._finish(g, roll, me)
                values[i].append(self._value(view, g))
                if nils[i] and g.tricks[me] == 0:
                    nils_made[i] += 1
                if count_sets and _set_bid(g, side):
                    sets[i] += 1
                if safe_debt:
                    debt_values[i].append(self._value(view, g, self._safe_debt))
            n += 1
            last = self.clock() - t0
        self.stats["worlds"] = self.stats.get("worlds", 0) + n
        # decisions searched, and those the time cap cut short of their sampled deals
        kind = "bid" if worlds == self.bid_worlds else "card"
        self.stats[f"{kind}_searches"] = self.stats.get(f"{kind}_searches", 0) + 1
        if n < worlds:
            self.stats[f"{kind}_cut"] = self.stats.get(f"{kind}_cut", 0) + 1
        if len(alive) < len(options):
            self.stats["raced_out"] = self.stats.get("raced_out", 0) + len(options) - len(alive)
            keep = alive
            chosen = self._pick(
                [values[i] for i in keep],
                keep.index(bi),
                n,
                None if penalties is None else [penalties[i] for i in keep],
                [sets[i] for i in keep] if count_sets else None,
            )
            return options[keep[chosen]]
        if safe_debt and sets[bi] == 0:
            # The contract made in every sampled deal with the base card: ducking the bags is
            # worth it, but only with cards that also make it in every deal.
            return options[self._pick(debt_values, bi, n, penalties, sets)]
        # With fewer deals (a bid short of time in Discord) one unlucky deal would bar a good nil.
        barred = [
            nil and n >= NIL_FLOOR_DEALS and made < self.nil_floor * n
            for nil, made in zip(nils, nils_made, strict=True)
        ]
        return options[self._pick(values, bi, n, penalties, sets if count_sets else None, barred)]

    def _race(
        self, values: list[list[float]], bi: int, n: int, alive: list[int], penalties: Sequence[float] | None
    ) -> list[int]:
        """``alive`` without the options whose paired mean gain over the base (less its penalty)
        is below zero by more than ``RACE_SE`` standard errors after ``n`` deals."""
        base_vals = values[bi]
        out = []
        for i in alive:
            if i != bi:
                diffs = [a - b for a, b in zip(values[i], base_vals, strict=True)]
                mean = sum(diffs) / n
                var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
                extra = penalties[i] if penalties is not None else 0.0
                if mean - extra + RACE_SE * math.sqrt(var / n) < 0:
                    continue
            out.append(i)
        return out

    def _pick(
        self,
        values: list[list[float]],
        bi: int,
        n: int,
        penalties: Sequence[float] | None = None,
        sets: Sequence[int] | None = None,
        barred: Sequence[bool] | None = None,
    ) -> int:
        """The option to take: the base unless another's mean beats it by ``margin`` and by
        ``confidence`` standard errors of the paired difference (the best of several noisy means
        is optimistic: without the test a few sampled deals pick long shots, such as a nil that
        happened to make in 5 of 6 deals). With ``sets`` (per option, the sampled deals in which
        the side was set) the contract comes first: an option set in more deals than the base is
        never taken, however many bags it saves. A ``barred`` option (a nil made in too few
        sampled deals, ``nil_floor``) is never taken: when the base is barred, the option with the
        best mean among the others is. Measured on 89 nils of the strong side, a nil made in under
        half of its sampled deals was made in 40 % of the real hands, one made in 50-70 % of them
        in 74 %."""
        if n < 2:
            return bi
        if barred is not None and barred[bi]:
            free = [i for i in range(len(values)) if not barred[i]]
            if free:
                return max(free, key=lambda i: sum(values[i]))
        base_vals = values[bi]
        best_i, best_score = bi, 0.0
        for i, vals in enumerate(values):
            if i == bi or (sets is not None and sets[i] > sets[bi]) or (barred is not None and barred[i]):
                continue
            diffs = [a - b for a, b in zip(vals, base_vals, strict=True)]
            mean = sum(diffs) / n
            var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
            se = math.sqrt(var / n)
            extra = penalties[i] if penalties is not None else 0.0
            score = mean - self.confidence * se - extra
            if mean - extra > self.margin and score > best_score:
                best_i, best_score = i, score
        return best_i

    # -- bidding -----------------------------------------------------------------------------
    def _bid(self, view: View, legal: Sequence[Action]) -> Action:
        base = super()._bid(view, legal)
        if not isinstance(base, BidAction):
            return base
        bids = [a for a in legal if isinstance(a, BidAction)]
        numbered = sorted((a for a in bids if a.bid.kind == "tricks"), key=lambda a: a.bid.n)
        if view.ruleset.suicide or view.ruleset.mirrors or view.ruleset.whiz or view.ruleset.board:
            return base  # forced shapes of bid: the heuristic's rules for them stand
        options: list[Action] = [base]
        if base.bid.kind == "tricks" and numbered:
            ns = [a.bid.n for a in numbered]
            i = ns.index(base.bid.n) if base.bid.n in ns else 0
            for j in (i - 1, i + 1, i + 2):
                if 0 <= j < len(numbered) and numbered[j] not in options:
                    options.append(numbered[j])
        else:
            est = estimate_tricks(view.hand or 0, view.ruleset)
            near = min(numbered, key=lambda a: abs(a.bid.n - est), default=None)
            if near is not None:
                options.append(near)
        # The side's tricks over sampled deals (played out with the heuristic's bid) score every
        # numbered bid at once; the best of them joins the bids compared below.
        started = self.clock()
        if numbered and base.bid.kind == "tricks":
            scored = self.bid_from_deals(
                view, numbered, base, max(8, self.bid_worlds // 2), started + self.time_limit / 3
            )
            if scored is not None and scored not in options:
                options.append(scored)
        nil = next((a for a in bids if a.bid.kind == "nil"), None)
        seat = view.seat or 0
        mates = view.ruleset.teammates(seat)
        mate_nil = any((b := view.bids[m]) is not None and b.is_nil for m in mates)
        if (
            nil is not None
            and nil not in options
            and not mate_nil
            and nil_danger(view.hand or 0, view.ruleset) <= self.nil_threshold * 1.3
        ):
            options.append(nil)

        def start(g: Game, opt: Action) -> None:
            g.apply(opt)

        penalties = [
            self.nil_penalty if isinstance(o, BidAction) and o.bid.is_nil and o is not base else 0.0
            for o in options
        ]
        limit = self.time_limit
        self.time_limit = max(0.0, limit - (self.clock() - started))  # the decision's budget
        try:
            return self._bid_compare(view, options, base, start, penalties)
        finally:
            self.time_limit = limit

    def bid_from_deals(
        self, view: View, numbered: Sequence[BidAction], base: BidAction, worlds: int, deadline: float
    ) -> BidAction | None:
        """The numbered bid with the best expected score over sampled deals, or None when the
        time ran out before ``min_worlds`` deals. Each deal (hidden hands drawn from what this
        seat knows) is bid on by the heuristic (``base`` for this seat) and played out once with
        this seat's bid raised to every trick, so its side plays for all the tricks it can take
        (with the bid's own number the roll-out ducks once it is made, and a low bid looks
        right whatever the hand); the side's tricks in it then score every candidate bid with
        the rules' scoring (a set when it could not take the contract; sets, bags
        and the bag penalty), a bag carried counting as its share of the penalty (``bid_debt``),
        a set costing `bid_set_risk` per trick bid on top, and a game won or lost by the hand
        ``win_bonus``: so near the bag limit the bags weigh more, near the target or far behind
        the win weighs. A deal one trick short counts ``short_made`` as made exactly
        (`_deal_bid_value`)."""
        seat = view.seat or 0
        rs = view.ruleset
        side = rs.side_of(seat)
        rng = random.Random(self.rng_for(view).getrandbits(64) ^ 0x5EED)
        sample = world_sampler(view, self.bid_draws, self.bid_spread)
        debt = self.bid_debt * rs.bag_penalty / rs.bag_limit if rs.bag_limit else 0.0
        risk = self.bid_set_risk(view)
        totals = [0.0] * len(numbered)
        n = 0
        every = Bid.tricks(view.tricks_per_hand)

        def greedy(g: Game) -> None:
            g.bids[seat] = every

        for _ in range(worlds):
            if n >= self.min_worlds and self.clock() > deadline:
                break
            g = sample(rng)
            g.apply(base)
            self._finish(g, rng.getrandbits(64), seat, greedy)
            if any(b is None for b in g.bids):  # pragma: no cover - the hand is always bid
                continue
            bids = list(g.bids)
            for i, a in enumerate(numbered):
                bids[seat] = a.bid
                totals[i] += self._deal_bid_value(view, bids, g.tricks, side, debt, risk, g.hand_no)
            n += 1
        self.stats["bid_deals"] = self.stats.get("bid_deals", 0) + n
        if n < self.min_worlds:
            return None
        best = max(range(len(numbered)), key=lambda i: (totals[i], -abs(numbered[i].bid.n - base.bid.n)))
        return numbered[best]

    def _deal_bid_value(
        self,
        view: View,
        bids: list[Any],
        tricks: Sequence[int],
        side: int,
        debt: float,
        risk: float,
        hand_no: int,
    ) -> float:
        """`_bid_value` of a sampled deal, calibrated: when the side's roll-out fell exactly one
        trick short of the contract, ``short_made`` of the value is that of making it exactly
        (one more trick for this seat). Measured (bench/README.md): at the bids the strong bot
        chose, its roll-outs' tricks predicted a set in 13 % of hands and the strong side was set
        in 7.4 %; counting every deal one trick short as made predicted 4.8 %."""
        v = self._bid_value(view, bids, tricks, side, debt, risk, hand_no)
        if self.short_made and _shortfall(view.ruleset, bids, tricks, side) == 1:
            made = list(tricks)
            made[view.seat or 0] += 1
            v += self.short_made * (self._bid_value(view, bids, made, side, debt, risk, hand_no) - v)
        return v

    def _bid_value(
        self,
        view: View,
        bids: list[Any],
        tricks: Sequence[int],
        side: int,
        debt: float,
        risk: float,
        hand_no: int,
    ) -> float:
        """This side's points from a hand with ``bids`` and ``tricks`` (see `bid_from_deals`)."""
        breakdown = score_hand(view.ruleset, bids, tricks, view.scores, view.bags)
        sc = breakdown[side]
        v = sc.score_after - sc.score_before - debt * (sc.bags_after - sc.bags_before)
        if sc.made is False:
            v -= risk * sc.bid
        winner, _ = game_winner(view.ruleset, [b.score_after for b in breakdown], breakdown, hand_no)
        if winner is not None:
            v += self.win_bonus if winner == side else -self.win_bonus
        return v

    def bid_set_risk(self, view: View) -> float:
        """`set_risk` in this score situation: half of it when far behind."""
        deficit, _ = self._deficit(view)
        return self.set_risk / 2 if deficit >= self.blind_deficit else self.set_risk

    def _bid_compare(
        self,
        view: View,
        options: Sequence[Any],
        base: Any,
        start: Callable[[Game, Any], None],
        penalties: Sequence[float],
    ) -> Any:
        """`_compare` for a bid: the bidding shares of bag debt and set risk in force."""
        self._debt, self._set_risk, self._contract_first = self.bid_debt, self.bid_set_risk(view), False
        try:
            return self._compare(view, options, base, start, self.bid_worlds, penalties)
        finally:
            self._debt, self._set_risk = self.play_debt, 0.0
            self._contract_first = self.contract_first

    def _look_or_blind(self, view: View, legal: Sequence[Action]) -> Action:
        base = super()._look_or_blind(view, legal)
        blind = next((a for a in legal if isinstance(a, BidAction) and a.bid.kind == "blind_nil"), None)
        look = next((a for a in legal if isinstance(a, Look)), None)
        rs = view.ruleset
        if blind is None or look is None or rs.two_player_draw or not rs.teammates(view.seat or 0):
            return base
        mates = rs.teammates(view.seat or 0)
        if any((b := view.bids[m]) is not None and b.is_nil for m in mates):
            return look  # two nils on one side rarely both make it
        deficit, _ = self._deficit(view)
        if deficit < self.blind_search_deficit:
            return look
        # The simulation decides, not the heuristic: looking is the default, and blind nil is
        # taken when it beats looking (and then bidding as the heuristic on the sampled hand)
        # by ``blind_penalty`` over the sampled deals: the score situation (the scoring and the
        # game won or lost), the partner's bid (made, or the heuristic's after the blind nil)
        # and the exchange (the heuristic's passes) are all in them. Half the turn's time: the
        # bid after a look needs the rest.
        options: list[Action] = [look, blind]
        penalties = [0.0, self.blind_penalty]
        limit = self.time_limit
        self.time_limit = limit / 2
        try:
            return self._bid_compare(view, options, look, self._start_look_or_blind, penalties)
        finally:
            self.time_limit = limit

    def _start_look_or_blind(self, g: Game, opt: Action) -> None:
        # The sampled world has every hand looked at (its own hand was sampled too).
        if isinstance(opt, Look):
            g.apply(self.model.act(g.view(opt.seat)))  # look, then bid as the heuristic would
        else:
            g.looked[opt.seat] = False
            g.apply(opt)

    # -- the nil exchange -----------------------------------------------------------------------
    def _pass(self, view: View, seat: int) -> PassAction:
        """The heuristic's pass unless another candidate does better over sampled deals (the
        other seats' passes the heuristic's, then the hand played out and scored as a bid is)."""
        base = super()._pass(view, seat)
        rs = view.ruleset
        if rs.two_player_draw or view.passed:
            return base
        options = [base, *(PassAction(seat, c) for c in self.pass_candidates(view, seat, base.cards))]
        unique: list[PassAction] = []
        for o in options:
            if o not in unique:
                unique.append(o)

        def start(g: Game, opt: PassAction) -> None:
            g.apply(opt)

        return cast(PassAction, self._bid_compare(view, unique, base, start, [0.0] * len(unique)))

    @staticmethod
    def pass_candidates(view: View, seat: int, chosen: Sequence[int]) -> list[tuple[int, ...]]:
        """A few passes besides the heuristic's ``chosen``: for a nil bidder the most dangerous
        cards in other orders (the highest spades first; each chosen card swapped for the next
        most dangerous); for its partner the lowest cards overall, and each chosen card swapped
        for the next lowest of the heuristic's order."""
        hand = view.hand or 0
        size = len(chosen)
        ct = card_tables(view.ruleset)
        cards = bits(hand)
        mine = view.bids[seat]
        if mine is not None and mine.is_nil:
            order = sorted(cards, key=lambda c: (card_danger(c, hand, ct), ct.power[c]), reverse=True)
            extra = [tuple(sorted(sorted(cards, key=lambda c: ct.power[c], reverse=True)[:size]))]
        else:
            order = sorted(cards, key=lambda c: (ct.power[c], c))
            extra = [tuple(sorted(order[:size]))]
        spare = [c for c in order if c not in chosen][:2]
        out = list(extra)
        for i in range(size):
            for c in spare[:1] if size > 2 else spare:
                swapped = list(chosen)
                swapped[i] = c
                out.append(tuple(sorted(swapped)))
        return [c for c in out if len(set(c)) == size][:5]

    # -- card play ---------------------------------------------------------------------------
    def _play_card(self, view: View, k: Knowledge, cards: list[int]) -> int:
        cards = guard_candidates(k, forced_candidates(k, cards), self.bag_margin, self._want_tricks)
        base = self._choose_card(k, cards)
        cards = distinct_cards(view, cards, base)
        if len(cards) == 1:
            return base

        def start(g: Game, card: int) -> None:
            g.play_fast(card)

        # Bags count as debt only once the contract is made: ducking cannot set the side then.
        side = view.ruleset.side_of(view.seat or 0)
        made = _side_made(view, side)
        self._debt = self.play_debt if made else 0.0
        self._safe_debt = 0.0 if made else self.safe_debt
        try:
            return int(self._compare(view, cards, base, start, self.worlds))
        finally:
            self._debt, self._safe_debt = self.play_debt, 0.0

    def estimate(
        self, view: View, choices: Sequence[Sequence[Action]], worlds: int | None = None
    ) -> list[float]:
        """The search's expected value (points for this seat's side, less the opponents', in the
        units `_compare` weighs its options in) of each of ``choices`` in ``view``: each choice a
        few actions of this seat (a bid, a card; a ``Look`` in it is skipped, the sampled deals
        having every hand looked at), all tried in the same sampled deals and roll-outs (common
        random numbers), so the difference of two is the points one is expected to gain over the
        other. The bidding shares of bag debt and set risk count for bids, the card play's for
        cards; ``worlds`` (default the decision's) is capped by ``time_limit`` like a decision."""
        if not choices:
            return []
        is_bid = not any(isinstance(a, PlayAction) for c in choices for a in c)
        worlds = worlds or (self.bid_worlds if is_bid else self.worlds)
        me = view.seat or 0
        side = view.ruleset.side_of(me)
        if is_bid:
            self._debt, self._set_risk = self.bid_debt, self.bid_set_risk(view)
        else:
            self._debt = self.play_debt if _side_made(view, side) else 0.0
        rng = self.rng_for(view)
        sample = world_sampler(view, self.bid_draws, self.bid_spread)
        deadline = self.clock() + self.time_limit
        totals = [0.0] * len(choices)
        n = 0
        try:
            for _ in range(worlds):
                if n >= max(1, self.min_worlds) and self.clock() > deadline:
                    break
                world = sample(rng)
                roll = rng.getrandbits(64)
                for i, choice in enumerate(choices):
                    g = world.clone()
                    for a in choice:
                        if isinstance(a, Look):
                            continue
                        if isinstance(a, BidAction) and a.bid.is_blind:
                            g.looked[a.seat] = False
                        g.apply(a)
                    self._finish(g, roll, me)
                    totals[i] += self._value(view, g)
                n += 1
        finally:
            self._debt, self._set_risk = self.play_debt, 0.0
        return [t / n for t in totals]

    def act(self, view: View) -> Action:
        action = super().act(view)
        if isinstance(action, PlayAction):
            self.stats["cards"] = self.stats.get("cards", 0) + 1
        return action
