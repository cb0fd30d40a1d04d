"""Scoring one hand and deciding the end of the game (RULES.md section 1, 5).

Pure functions over bids and tricks, so every scoring rule is testable on its own and the game,
``replay`` and the bot's statistics all share the same arithmetic.
"""

from __future__ import annotations

from collections.abc import Sequence

from .bids import Bid
from .events import NilScore, SideScore
from .ruleset import Ruleset, tables


def score_hand(
    rs: Ruleset, bids: Sequence[Bid | None], tricks: Sequence[int], scores: Sequence[int], bags: Sequence[int]
) -> list[SideScore]:
    """Score one finished hand for every side.

    - Contract (sum of the side's non-nil bids) made: +10 per bid trick (+20 per trick bid
      blind), +``bag_value`` per overtrick; set: -10 per bid trick.
    - Each nil on its own: ±``nil_value`` (blind nil ±``blind_nil_value``). A nil bidder's tricks
      never count for the contract but are bags for the side.
    - Every ``bag_limit`` accumulated bags cost ``bag_penalty``; the remainder carries.
    - 10 for 200 (contract >= 10 scores ±``ten_for_value``, 200 by default) and Boston (bid and
      take every trick) apply when on.

    Seats 0 + 2 bid 3 + 3 and take 4 + 3; seat 1 bids 4 and takes 5 while its partner's nil fails
    with one trick:

    >>> from engine import Bid, Ruleset
    >>> bids = [Bid.tricks(3), Bid.tricks(4), Bid.tricks(3), Bid.NIL]
    >>> us, them = score_hand(Ruleset(), bids, [4, 5, 3, 1], scores=[0, 0], bags=[0, 0])
    >>> us.made, us.contract_points, us.bags, us.total
    (True, 60, 1, 61)
    >>> them.contract_points, them.nil_points, them.bags, them.total, them.score_after
    (40, -100, 2, -58, -58)
    """
    top = tables(rs).hand_size
    out = []
    for side, seats in enumerate(rs.sides):
        bid = blind_bid = ctricks = nil_tricks = nil_points = 0
        has_contract = False
        nils = []
        for s in seats:
            b = bids[s]
            tk = tricks[s]
            if b is None:
                raise ValueError(f"seat {s} has not bid")
            if b.is_nil:
                value = rs.blind_nil_value if b.kind == "blind_nil" else rs.nil_value
                pts = value if tk == 0 else -value
                nils.append(NilScore(s, b.kind, tk == 0, tk, pts))
                nil_points += pts
                nil_tricks += tk
            else:
                has_contract = True
                bid += b.n
                if b.kind == "blind":
                    blind_bid += b.n
                ctricks += tk
        made: bool | None
        notes = []
        if has_contract:
            made = ctricks >= bid
            if made:
                contract = 10 * (bid - blind_bid) + 20 * blind_bid
                over = ctricks - bid
            else:
                contract, over = -10 * bid, 0
        else:
            made, contract, over = None, 0, 0
        side_bags = over + nil_tricks
        bag_points = side_bags * rs.bag_value
        bonus = 0
        if rs.ten_for_200 and has_contract and bid >= 10:
            ten = rs.ten_for_value
            bonus = (ten if made else -ten) - contract
            notes.append(f"10 for {ten}")
        # Boston: the side bid every trick and took every trick (a bid above them is only set)
        boston = bool(rs.boston and made and bid >= top and ctricks >= top)
        if boston:
            notes.append("Boston")
        before, bags_before = scores[side], bags[side]
        bags_after, penalty, k = bags_before + side_bags, 0, 0
        if rs.bag_limit:
            while bags_after >= rs.bag_limit:
                bags_after -= rs.bag_limit
                penalty -= rs.bag_penalty
                k += 1
        total = contract + bag_points + nil_points + penalty + bonus
        out.append(
            SideScore(
                side,
                tuple(seats),
                bid,
                blind_bid,
                ctricks,
                made,
                contract,
                side_bags,
                bag_points,
                tuple(nils),
                nil_points,
                penalty,
                bonus,
                total,
                before,
                before + total,
                bags_before,
                bags_after,
                k,
                boston,
                tuple(notes),
            )
        )
    return out


def hand_totals(
    rs: Ruleset, bids: Sequence[Bid | None], tricks: Sequence[int], scores: Sequence[int], bags: Sequence[int]
) -> tuple[list[int], list[int]]:
    """The scores and bags after the hand: ``score_after``/``bags_after`` of ``score_hand``
    without building the breakdown (the playout fast path). Boston is not decided here:
    callers use ``score_hand`` when ``rs.boston`` is on."""
    new_scores = list(scores)
    new_bags = list(bags)
    nil_value, blind_nil_value, bag_value = rs.nil_value, rs.blind_nil_value, rs.bag_value
    limit, ten = rs.bag_limit, rs.ten_for_200
    for side, seats in enumerate(rs.sides):
        bid = blind_bid = ctricks = side_bags = points = 0
        has_contract = False
        for s in seats:
            b = bids[s]
            tk = tricks[s]
            if b is None:
                raise ValueError(f"seat {s} has not bid")
            kind = b.kind
            if kind == "tricks":  # the common case first
                has_contract = True
                bid += b.n
                ctricks += tk
            elif kind == "nil" or kind == "blind_nil":
                value = blind_nil_value if kind == "blind_nil" else nil_value
                points += value if tk == 0 else -value
                side_bags += tk
            else:  # blind
                has_contract = True
                bid += b.n
                blind_bid += b.n
                ctricks += tk
        if has_contract:
            if ctricks >= bid:
                contract = 10 * (bid - blind_bid) + 20 * blind_bid
                side_bags += ctricks - bid
                if ten and bid >= 10:
                    contract = rs.ten_for_value
            else:
                contract = -10 * bid
                if ten and bid >= 10:
                    contract = -rs.ten_for_value
            points += contract
        points += side_bags * bag_value
        b_after = bags[side] + side_bags
        if limit:
            while b_after >= limit:
                b_after -= limit
                points -= rs.bag_penalty
        new_scores[side] = scores[side] + points
        new_bags[side] = b_after
    return new_scores, new_bags


def game_winner(
    rs: Ruleset,
    scores: Sequence[int],
    breakdown: Sequence[SideScore],
    hand_no: int,
    sets: Sequence[int] = (),
) -> tuple[int | None, str | None]:
    """(winning side, reason) once the game is over after ``hand_no``, else (None, None).

    Boston wins outright; then a side set ``set_limit`` times (``sets``: each side's contracts
    set so far, this hand's included) loses, the highest score of the other sides winning; then
    mercy (a side at or below ``lose_score`` ends the game), the target, and ``max_hands`` end it
    with the highest score winning. An exact tie for the highest score always plays another hand.

    >>> from engine import Bid, Ruleset
    >>> rs = Ruleset()
    >>> hand = score_hand(rs, [Bid.tricks(3)] * 4, [4, 3, 3, 3], scores=[440, 300], bags=[0, 0])
    >>> after = [side.score_after for side in hand]
    >>> after, game_winner(rs, after, hand, hand_no=9)
    ([501, 360], (0, 'target'))
    >>> game_winner(rs, [480, 360], hand, hand_no=9)
    (None, None)

    Set twice loses, whatever the score:

    >>> twice = Ruleset(set_limit=2)
    >>> game_winner(twice, [180, 20], hand, hand_no=4, sets=[2, 0])
    (1, 'sets')
    >>> game_winner(twice, [180, 20], hand, hand_no=4, sets=[1, 1])
    (None, None)
    """

    def top(among: Sequence[int] | None = None) -> int | None:
        pool = range(len(scores)) if among is None else among
        best = max(scores[i] for i in pool)
        leaders = [i for i in pool if scores[i] == best]
        return leaders[0] if len(leaders) == 1 else None

    bostons = [sc.side for sc in breakdown if sc.boston]
    if len(bostons) == 1:
        return bostons[0], "boston"
    if rs.set_limit is not None and sets:
        out = [i for i, n in enumerate(sets) if n >= rs.set_limit]
        if out:
            left = [i for i in range(len(scores)) if i not in out] or list(range(len(scores)))
            w = top(left)
            if w is not None:
                return w, "sets"
    if rs.lose_score is not None and min(scores) <= rs.lose_score:
        w = top()
        if w is not None:
            return w, "mercy"
    if max(scores) >= rs.target_score:
        w = top()
        if w is not None:
            return w, "target"
    if rs.max_hands is not None and hand_no >= rs.max_hands:
        w = top()
        if w is not None:
            return w, "max_hands"
    return None, None
