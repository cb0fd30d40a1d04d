"""Rules that bound the strong bot's card search, and the faults they prevent, counted.

The search (`engine.bots.strong`) compares candidate cards over a few dozen sampled deals. In a few
kinds of position one card is known to be right whatever the hidden cards are, and a noisy search
sometimes found the wrong one better (recorded positions, issue 30): `guard_candidates` takes the
cards that cannot be right out of the search before it starts. `play_faults` counts, for any bot's
card, the positions in which each guard applies (the chances) and the plays that break it (the
faults): the arena's fault counters.

- **An opponent's winning nil** (any seat): never overtaken while a card ducks it, unless the
  side's own contract needs this very trick (it cannot afford to lose another one).
- **A partner's live nil, on lead**: never a spade while another suit is held; holding only
  spades, the highest one (the nil can duck under it).
- **Third seat, the partner winning a side-suit trick**: no ruff while the partner's card is
  likely to hold (`Knowledge.p_survives` at least ``SAFE_WINNER``) and a discard exists.
- **Near the bag limit**: with the contract made, no live nil at the table, the bags carried
  plus this hand's within ``bag_margin`` of the limit and no opponent to set for the game
  (`HeuristicBot._want_tricks`), only cards that lose the trick so far (when one does).
"""

from __future__ import annotations

from collections.abc import Callable

from ..actions import PlayAction
from ..cards import SPADES
from ..view import View
from .knowledge import Knowledge, beats

#: The chance of holding the trick at which a partner's winning card is not ruffed in third seat
#: (the heuristic's own threshold for going over a partner).
SAFE_WINNER = 0.75

#: The fault counters `play_faults` reports, in the arena's order.
FAULT_KEYS = (
    "opp_nil_chances",
    "opp_nil_rescues",
    "nil_leads",
    "nil_spade_leads",
    "nil_low_spade_leads",
    "third_ruff_chances",
    "third_ruffs",
    "bag_limit_chances",
    "bag_limit_wins",
)


def _needs_this_trick(k: Knowledge) -> bool:
    """Whether the side's contract fails unless it takes this trick (every trick left is needed)."""
    need = k.side_need(k.my_side)
    return need > 0 and need >= k.tricks_left


def opp_nil_ducks(k: Knowledge, cards: list[int]) -> list[int] | None:
    """The cards that duck an opponent's live nil winning this trick, when the rule applies."""
    if k.winner is None or k.alive_nil(k.seat):
        return None
    win_seat, best = k.winner
    if win_seat not in k.opponents or not k.alive_nil(win_seat) or _needs_this_trick(k):
        return None
    ducks = [c for c in cards if not beats(k.ct, c, best)]
    return ducks or None


def nil_lead(k: Knowledge, cards: list[int]) -> list[int] | None:
    """The leads allowed with a partner's live nil: the side suits, else the highest spade."""
    if k.winner is not None or not any(k.alive_nil(m) for m in k.teammates):
        return None
    ct = k.ct
    side = [c for c in cards if ct.suit[c] != SPADES]
    if side:
        return side
    return [max(cards, key=lambda c: (ct.power[c], -c))]


def _any_live_nil(k: Knowledge) -> bool:
    return any(k.alive_nil(s) for s in range(k.n))


def third_seat_discards(k: Knowledge, cards: list[int]) -> list[int] | None:
    """In third seat, the partner winning a side-suit trick with a card likely to hold and this
    seat out of the suit: the discards (no ruff)."""
    if k.winner is None or len(k.view.current_trick) != 2 or not k.opps_after or _any_live_nil(k):
        return None
    win_seat, best = k.winner
    ct = k.ct
    if win_seat not in k.teammates or k.led_suit == SPADES or ct.suit[best] == SPADES:
        return None
    if any(ct.suit[c] == k.led_suit for c in cards):
        return None  # following suit: not a ruff
    if not any(ct.suit[c] == SPADES for c in cards):
        return None
    discards = [c for c in cards if ct.suit[c] != SPADES]
    if not discards or k.p_survives(best, k.opps_after) < SAFE_WINNER:
        return None
    return discards


def bag_limit_ducks(
    k: Knowledge, cards: list[int], bag_margin: int, want_tricks: Callable[[Knowledge], bool]
) -> list[int] | None:
    """Near the bag limit with the contract made: the cards that lose the trick so far."""
    rs = k.rs
    if not rs.bag_limit or k.winner is None or _any_live_nil(k) or k.is_nil(k.seat):
        return None
    bid = sum(b.n for s in rs.sides[k.my_side] if (b := k.view.bids[s]) is not None and not b.is_nil)
    if bid <= 0 or k.side_need(k.my_side) > 0:
        return None
    bags_now = k.view.bags[k.my_side] + k.side_overtricks(k.my_side)
    if rs.bag_limit - bags_now > bag_margin or want_tricks(k):
        return None
    _, best = k.winner
    ducks = [c for c in cards if not beats(k.ct, c, best)]
    return ducks or None


def guard_candidates(
    k: Knowledge, cards: list[int], bag_margin: int, want_tricks: Callable[[Knowledge], bool]
) -> list[int]:
    """``cards`` without those the rules above exclude (the first rule that applies decides)."""
    for allowed in (
        opp_nil_ducks(k, cards),
        nil_lead(k, cards),
        third_seat_discards(k, cards),
        bag_limit_ducks(k, cards, bag_margin, want_tricks),
    ):
        if allowed:
            return allowed
    return cards


def _never_wants(_: Knowledge) -> bool:
    return False


def play_faults(view: View, card: int, bag_margin: int = 3) -> dict[str, int]:
    """The fault counters (`FAULT_KEYS`) one card play adds: a chance wherever a rule applies, a
    fault where ``card`` breaks it. (The bag rule's chances skip the "opponent to set for the
    game" exception, which depends on the bot's judgement.)"""
    out: dict[str, int] = {}
    if view.hand is None:
        return out
    k = Knowledge(view)
    legal = [a.card for a in view.legal if isinstance(a, PlayAction)]
    if not legal:
        return out
    ducks = opp_nil_ducks(k, legal)
    if ducks is not None and len(ducks) < len(legal):
        out["opp_nil_chances"] = 1
        if card not in ducks:
            out["opp_nil_rescues"] = 1
    leads = nil_lead(k, legal)
    if leads is not None:
        out["nil_leads"] = 1
        if k.ct.suit[card] == SPADES:
            if any(k.ct.suit[c] != SPADES for c in legal):
                out["nil_spade_leads"] = 1
            elif card not in leads:
                out["nil_low_spade_leads"] = 1
    discards = third_seat_discards(k, legal)
    if discards is not None:
        out["third_ruff_chances"] = 1
        if card not in discards:
            out["third_ruffs"] = 1
    bag = bag_limit_ducks(k, legal, bag_margin, _never_wants)
    if bag is not None and len(bag) < len(legal):
        out["bag_limit_chances"] = 1
        if card not in bag:
            out["bag_limit_wins"] = 1
    return out
