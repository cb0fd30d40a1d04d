"""The game state machine: deal (or two-player draw), bidding, nil exchange, play, scoring.

Hot path notes: hands are int bitmasks, the per-ruleset tables (suit, power, suit masks) are
shared tuples, and ``clone`` copies only small flat lists. ``legal_mask`` / ``play`` do a handful
of integer operations per card.
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Callable, Iterable, Iterator, Sequence
from enum import StrEnum
from functools import lru_cache
from hashlib import sha256, shake_128
from itertools import combinations
from math import comb, floor
from operator import itemgetter
from struct import Struct
from typing import Any, cast, overload

from . import fair
from .actions import (
    DRAW_ACTIONS,
    LOOK_ACTIONS,
    MISDEAL_ACTIONS,
    PLAY_ACTIONS,
    Action,
    BidAction,
    DrawAction,
    Look,
    MisdealAction,
    PassAction,
    PlayAction,
    bid_action,
)
from .bids import Bid, BidKind, BidParseError
from .cards import (
    CLUBS,
    COPY_OFFSET,
    DIAMONDS,
    HEARTS,
    SPADES,
    SUIT_NAMES,
    SUIT_SINGULAR,
    bits,
    card_pretty,
    card_str,
    cards_of,
    join_words,
    pretty_list,
)
from .errors import (
    NOT_HELD,
    AlreadyLooked,
    BadPass,
    BidNotAllowed,
    CardNotHeld,
    FirstTrickRule,
    IllegalAction,
    MisdealNotAllowed,
    MustFollowSuit,
    NotYourTurn,
    SpadesNotBroken,
    WrongPhase,
)
from .events import (
    CARD_PLAYED,
    LOOKED,
    SPADES_BROKEN,
    BiddingDone,
    BidMade,
    CardDrawn,
    CardsPassed,
    Event,
    GameOver,
    HandDealt,
    HandScored,
    Looked,
    Misdealt,
    PassingDone,
    SideScore,
    TrickWon,
    bid_made,
)
from .fair import DealKey
from .playout import IDS, LANE, random_tricks
from .playout import fits as playout_fits
from .ruleset import Ruleset, Tables, tables, winning_play
from .scoring import game_winner, hand_totals, score_hand
from .view import View, seated_plays

_BIT = tuple(1 << c for c in range(128))
_SEED_V3 = b"spades-seeded-deal/3\n"


@lru_cache(maxsize=16)
def _sort_words(size: int) -> tuple[int, int, Struct]:
    """For a deck of ``size`` cards (at most 256): the mask that keeps bits 8..29 of each of
    ``size`` little-endian 32-bit words of an integer, the integer holding each word's position
    in its low 8 bits, and the ``struct`` of ``size`` such words."""
    assert size <= 256
    return (
        int.from_bytes(b"\x00\xff\xff\x3f" * size, "little"),
        int.from_bytes(b"".join(i.to_bytes(4, "little") for i in range(size)), "little"),
        Struct(f"<{size}I"),
    )


def shuffle_order(buf: bytes, size: int) -> bytes:
    """The deal order of a deck of ``size`` cards from ``4 * size`` random bytes: deck position
    ``i`` gets the key ``int.from_bytes(buf[4i:4i+4], "little") >> 8 & 0x3FFFFF`` (22 random
    bits); the positions sorted by key, equal keys in position order. Returned as bytes, one
    position a byte. One C-level sort of ``size`` small ints: each word is its key above its
    position (the low byte)."""
    keep, pos, words = _sort_words(size)
    ws = sorted(words.unpack((int.from_bytes(buf, "little") & keep | pos).to_bytes(4 * size, "little")))
    return words.pack(*ws)[::4]


RECORD_FORMAT = "spades-hand/1"
STATE_FORMAT = "spades-game/1"
_FAIR_PENDING = DealKey("", "")  # Game.new(fair=True) before its first deal
#: how a tie is broken when time is called (``Game.call_time``): one overtime hand (then a
#: draw), the fewest bags, or a draw
TIEBREAKS = ("overtime", "bags", "draw")


class Phase(StrEnum):
    DRAW = "draw"
    BID = "bid"
    PASS = "pass"
    PLAY = "play"
    GAME_OVER = "game_over"


_DRAW, _BID, _PASS, _PLAY, _OVER = Phase.DRAW, Phase.BID, Phase.PASS, Phase.PLAY, Phase.GAME_OVER

#: what a player tried to do, in the wrong phase (``WrongPhase``'s ``action`` field)
_DOING = {
    "look at your cards": "look",
    "bid": "bid",
    "pass cards": "pass",
    "call a misdeal": "misdeal",
    "draw": "draw",
    "play a card": "play",
}
_PHASE_WORDS = {
    _DRAW: "it's time to draw cards",
    _BID: "it's time to bid",
    _PASS: "it's time to pass cards",
    _PLAY: "the hand is being played",
    _OVER: "the game is over",
}


def _lead_or(deficit: int, solo: bool) -> str:
    """``you lead by 43`` / ``the scores are level`` / ``you trail by only 60``."""
    if deficit < 0:
        return f"you lead by {-deficit}"
    if deficit == 0:
        return "the scores are level"
    return f"you trail by only {deficit}"


def _no_bid(seat: int, bid: object, e: BidParseError, allowed: tuple[Bid, ...]) -> BidNotAllowed:
    """The refusal of a text that is no bid (``not_a_bid``; ``why`` and ``text`` say what)."""
    return BidNotAllowed(
        str(e),
        seat=seat,
        rule=f"seat {seat} made no valid bid ({e})",
        reason="not_a_bid",
        why=e.reason,
        text=e.text,
        bid=bid,
        allowed=allowed,
    )


def _side_standing(deficit: int) -> str:
    """``it leads by 43`` / ``the scores are level`` / ``it trails by 60``: the third-person
    form for ``IllegalAction.rule``."""
    if deficit < 0:
        return f"it leads by {-deficit}"
    if deficit == 0:
        return "the scores are level"
    return f"it trails by {deficit}"


def _nil_inference(
    t: Any, trick: Sequence[tuple[int, int]], alive: Sequence[int], unlikely: list[int]
) -> None:
    """What a nil bidder's following to ``trick`` says (added to ``unlikely``): a nil bidder
    ducks with the highest card of the led suit that stays under the trick's winner, so it
    holds none of the suit's cards between that card and the winner (led-suit cards all stay
    under a ruff); one that went over the winner while following held no card that stayed under."""
    suit, power = t.suit, t.power
    led_suit = suit[trick[0][1]]
    suit_cards = bits(t.suit_masks[led_suit])
    best = trick[0][1]
    for s_, c in trick[1:]:
        if suit[c] == led_suit and s_ in alive:
            ruffed = suit[best] != led_suit
            if ruffed or power[c] < power[best]:
                top = 10**9 if ruffed else power[best]
                for d in suit_cards:
                    if power[c] < power[d] < top:
                        unlikely[s_] |= 1 << d
            elif power[c] > power[best]:
                for d in suit_cards:
                    if power[d] < power[best]:
                        unlikely[s_] |= 1 << d
        if (suit[c] == suit[best] and power[c] > power[best]) or (suit[c] == SPADES and suit[best] != SPADES):
            best = c


def _discard_inference(
    t: Any, trick: Sequence[tuple[int, int]], alive: Sequence[int], low: Sequence[int], unlikely: list[int]
) -> None:
    """What a discard (a card of neither the led suit nor spades) says, added to ``unlikely``:
    a nil bidder still nil (``alive``) throws its most dangerous card that cannot win, so it
    holds no higher card of that suit; a seat whose side still needs tricks (``low``) throws
    its lowest, so it holds no lower card of it. (A side with its contract made may shed high
    cards to duck bags, or keep fighting to set: its discards say nothing here.)"""
    suit, power = t.suit, t.power
    led_suit = suit[trick[0][1]]
    for s_, c in trick[1:]:
        cs = suit[c]
        if cs in (led_suit, SPADES) or (s_ not in alive and s_ not in low):
            continue
        above = s_ in alive
        for d in bits(t.suit_masks[cs]):
            if (power[d] > power[c]) if above else (power[d] < power[c]):
                unlikely[s_] |= 1 << d


class Game:
    """One game of Spades. Create with ``Game.new(ruleset, seed=...)``.

    >>> game = Game.new("standard", seed=7, dealer=0)
    >>> game.phase, game.to_act, game.seats_to_act()
    (<Phase.BID: 'bid'>, 1, [1])
    >>> game.legal_bids(1)[:3], game.legal_bids(2)
    ([Bid(kind='tricks', n=1), Bid(kind='tricks', n=2), Bid(kind='tricks', n=3)], [])
    >>> game.legal_actions(1)[:2]
    [Look(seat=1), BidAction(seat=1, bid=Bid(kind='tricks', n=1))]
    >>> game.apply(BidAction(1, Bid.tricks(4)))
    [Looked(seat=1), BidMade(seat=1, bid=Bid(kind='tricks', n=4))]
    """

    __slots__ = (
        "_first_lead",
        "_forced_swaps",
        "_last_hand",
        "_records",
        "_seed_key",
        "_t",
        "auto_deal",
        "bags",
        "before_bags",
        "before_scores",
        "bid_log",
        "bids",
        "broken",
        "deal_key",
        "dealer",
        "dealt",
        "draw_keeps",
        "draw_seen",
        "end_reason",
        "first_leader",
        "given",
        "hand_no",
        "hands",
        "last_trick",
        "leader",
        "looked",
        "n",
        "overtime",
        "pass_log",
        "pass_sizes",
        "phase",
        "played",
        "plays",
        "received",
        "redeals",
        "rs",
        "salt",
        "scores",
        "seed",
        "sets",
        "stock",
        "stock_pos",
        "time_call",
        "to_act",
        "trick",
        "trick_no",
        "trick_winners",
        "tricks",
        "winner",
    )

    # class-level declarations of the slots (no values: a slot and a class attribute of the same
    # name cannot coexist); they tell the type checker what each slot holds
    rs: Ruleset
    _t: Tables
    n: int
    seed: int | str | None
    salt: str
    deal_key: DealKey | None  # fair deals: this hand's secret seed and salt (engine.fair)
    hand_no: int
    redeals: int
    dealer: int
    scores: list[int]
    bags: list[int]
    winner: int | None
    end_reason: str | None
    # time called (a league round's clock): how a tie after the last hand is broken, else None
    time_call: str | None
    overtime: bool  # the hand in progress is the overtime hand of a tie at time
    sets: list[int]  # contracts set per side so far, counted under ``Ruleset.set_limit`` only
    # a finished hand's record: the HAND_RECORD.md dict, or the tuple it is built from lazily
    _records: list[dict[str, Any] | tuple[Any, ...]]
    # the last scored hand: its HandScored, the index of its lazy record, or its dict once read
    _last_hand: HandScored | int | dict[str, Any] | None
    _forced_swaps: dict[int, list[int]] | None  # replay of two-player draws only
    # seeded deals: (seed, salt, the key derived from them) once derived (``_shuffle_bytes``)
    _seed_key: tuple[int | str, str, bytes] | None
    auto_deal: bool
    phase: Phase
    to_act: int | None
    hands: list[int]
    dealt: list[int]
    looked: list[bool]
    bids: list[Bid | None]
    bid_log: list[tuple[int, Bid]]
    pass_sizes: list[int]
    given: list[int]
    received: list[int]
    pass_log: list[tuple[int, int]]
    trick: list[tuple[int, int]]  # (seat, card) in play order
    leader: int | None
    trick_no: int
    tricks: list[int]
    played: int
    plays: list[int]
    trick_winners: list[int]
    last_trick: tuple[tuple[int, int], ...] | None
    broken: bool
    before_scores: list[int]
    before_bags: list[int]
    stock: list[int]
    stock_pos: int
    draw_keeps: list[bool]
    draw_seen: list[int]
    _first_lead: int
    first_leader: int | None

    # -- construction ---------------------------------------------------------------------
    @classmethod
    def new(
        cls,
        ruleset: Ruleset | str | None = None,
        seed: int | str | None = None,
        dealer: int | None = None,
        salt: str = "",
        fair: bool = False,
    ) -> Game:
        """A new game, first hand dealt. ``seed=None`` shuffles with random bytes from
        ``secrets``; an int or str seed makes every deal of the game reproducible (each hand's
        shuffle is derived from seed, salt, hand number and redeals, so no RNG state needs
        saving: seed version 3, see ``_shuffle_bytes`` and ``_start_hand``).
        ``fair=True``: each hand is dealt from its own committed key (``engine.fair``): a
        ``secrets`` key drawn when the hand is dealt (derived from ``seed`` when one is given).

        >>> a, b = Game.new("standard", seed=7), Game.new("standard", seed=7)
        >>> a.hands == b.hands and a.dealer == b.dealer
        True
        >>> from engine import hand_str
        >>> hand_str(Game.new("standard", seed=7, dealer=0).hands[1])
        '♠ J 10 9 8 5 3   ♥ Q   ♣ 9 8 6 5   ♦ 9 7'
        >>> Game.new("standard", seed=8).hands == a.hands
        False
        """
        rs = _ruleset(ruleset)
        g = cls._blank(rs)
        g.seed = seed
        g.salt = salt
        if fair:
            g.deal_key = _FAIR_PENDING
        if dealer is None:
            rng = secrets.SystemRandom() if seed is None else random.Random(f"{seed}|{salt}|dealer")
            dealer = rng.randrange(rs.num_seats)
        if not 0 <= dealer < rs.num_seats:
            raise ValueError(f"dealer must be a seat 0..{rs.num_seats - 1}")
        g.dealer = dealer
        g._start_hand()
        return g

    @classmethod
    def from_deal(
        cls,
        ruleset: Ruleset | str | None,
        hands: list[Iterable[int]] | list[int],
        dealer: int = 0,
        scores: Iterable[int] | None = None,
        bags: Iterable[int] | None = None,
        hand_no: int = 1,
    ) -> Game:
        """A game whose current hand was dealt as given (bitmasks or card-id lists): used by
        replay and tests. The two-player draw is skipped (the hands are the kept cards)."""
        rs = _ruleset(ruleset)
        g = cls._blank(rs)
        g.dealer = dealer
        g.hand_no = hand_no
        if scores is not None:
            g.scores = list(scores)
        if bags is not None:
            g.bags = list(bags)
        masks = [h if isinstance(h, int) else sum(1 << c for c in h) for h in hands]
        g._reset_hand_state()
        g.hands = masks
        g.dealt = list(masks)
        if rs.two_player_draw:
            # the kept cards are given: the draw is over, except that blind nil would have been
            # declared before it (replay does that through ``_predraw``)
            g._after_draw()
        else:
            g._begin_bidding()
        return g

    @classmethod
    def from_view(
        cls,
        view: View,
        rng: random.Random | None = None,
        next_hand: bool = False,
        tries: int = 50,
        candidates: int = 1,
        weigh: Callable[[list[int]], float] | None = None,
        spades: Sequence[int | None] | None = None,
    ) -> Game:
        """A full game consistent with what ``view.seat`` knows, the hidden cards dealt at random
        (for playouts: the bot never sees the real hands). Hidden cards respect the other seats'
        hand sizes, the cards this seat passed to its partner, and the voids shown in play
        (a seat that did not follow a suit holds none of it; a seat that led a spade before
        they were broken held nothing else), a nil bidder's following (see `_nil_inference`) and
        the seats' discards (`_discard_inference`).
        Bidding, the nil exchange (the seats that already gave are dealt their hands from before
        it) and play phases only. With ``next_hand=False`` the game stops (GAME_OVER phase)
        when the hand is scored. With ``weigh``, ``candidates`` deals of the hidden cards are
        drawn and one is kept with probability proportional to ``weigh(hands)`` (each seat's
        cards held, as in `hands`): sampling importance resampling, for what the rules and play
        cannot say (the bids: `engine.bots.inference`); only the kept deal becomes a game.
        ``spades``: per seat, how many spades it holds now when the rules make that public (a
        whiz or mirrors bid, less the spades it played), else None; such a seat is dealt exactly
        that many (a fact, like a void; a count that cannot be met is ignored)."""
        if view.seat is None:
            raise ValueError("a spectator view has no hand to build from")
        phase = Phase(view.phase)
        if phase is _PASS and view.ruleset.two_player_draw:
            raise ValueError("from_view does not rebuild the two-player draw's exchange")
        if phase is not _BID and phase is not _PLAY and phase is not _PASS:
            raise ValueError(f"from_view works in the bid, pass and play phases, not {phase}")
        rng = rng or random.Random()
        rs = view.ruleset
        g = cls._blank(rs)
        n, seat = g.n, view.seat
        t = g._t
        g.seed = rng.getrandbits(63)
        g.hand_no, g.dealer, g.phase, g.to_act = view.hand_no, view.dealer, phase, view.to_act
        g.scores, g.bags = list(view.scores), list(view.bags)
        g.before_scores = list(view.scores)
        g.before_bags = list(view.bags)
        g.bids = list(view.bids)
        first = (view.dealer + 1) % n
        g.bid_log = [(s, b) for s in ((first + i) % n for i in range(n)) if (b := view.bids[s]) is not None]
        g.tricks = list(view.tricks)
        g.trick_no = view.trick_no
        g.trick = list(view.current_trick)
        g.leader = view.leader
        g.first_leader = view.first_leader
        g.trick_winners = list(view.trick_winners)
        g.last_trick = view.last_trick
        g.broken = view.spades_broken
        g.plays = list(view.plays)
        g.played = view.played
        g.auto_deal = next_hand
        history = view.history
        # what the seat knows about where the hidden cards are
        own = view.hand or 0
        partner = rs.partner_of(seat)
        forced = [0] * n
        if view.passed and partner is not None:
            forced[partner] = view.passed & ~view.played
        void = [0] * n  # mask of cards each seat cannot hold
        unlikely = [0] * n  # cards a seat's play makes unlikely (dealt elsewhere while possible)
        spade_mask = t.suit_masks[SPADES]
        broken = False
        nils = [s_ for s_ in range(n) if s_ != seat and (b := view.bids[s_]) is not None and b.is_nil]
        # Seats playing for a contract (their side has no nil), and each side's tricks still needed.
        takers = [
            s_
            for s_ in range(n)
            if s_ != seat
            and (b := view.bids[s_]) is not None
            and not any((m := view.bids[x]) is not None and m.is_nil for x in rs.sides[rs.side_of(s_)])
        ]
        need_side = [
            sum(b.n for x in side if (b := view.bids[x]) is not None and not b.is_nil) for side in rs.sides
        ]
        for i in range(0, len(history), n):
            trick = history[i : i + n]
            led_seat, led = trick[0]
            led_suit = t.suit[led]
            if led_suit == SPADES and not broken and rs.spades_must_be_broken:
                void[led_seat] |= t.deck_mask & ~spade_mask
            alive = [s_ for s_ in nils if s_ not in view.trick_winners[: i // n]] if nils else []
            if alive:
                _nil_inference(t, trick, alive, unlikely)
            low = [s_ for s_ in takers if need_side[rs.side_of(s_)] > 0]
            if alive or low:
                _discard_inference(t, trick, alive, low, unlikely)
            if i // n < len(view.trick_winners) and view.trick_winners[i // n] not in nils:
                need_side[rs.side_of(view.trick_winners[i // n])] -= 1
            for s_, c in trick:
                if t.suit[c] != led_suit:
                    void[s_] |= t.suit_masks[led_suit]
                if t.suit[c] == SPADES:
                    broken = True
        hidden = t.deck_mask & ~own & ~view.played
        for f in forced:
            hidden &= ~f
        need = [view.hand_sizes[s_] - forced[s_].bit_count() for s_ in range(n)]
        need[seat] = 0
        hands = list(forced)
        hands[seat] = own
        if view.hand is None:  # not looked yet: its own cards are unknown too
            need[seat] = view.hand_sizes[seat]
            hands[seat] = 0
        if phase is _PASS:
            # The nil exchange: the other seats that already gave are dealt their hands from
            # before it (what they gave is unknown) and give again in the world.
            g._setup_passes()
            for s_ in range(n):
                if s_ != seat and g.pass_sizes[s_] and s_ not in view.seats_to_act:
                    need[s_] += g.pass_sizes[s_]
            if view.passed:
                g.given[seat] = view.passed
                g.pass_log.append((seat, view.passed))
        others = [s_ for s_ in range(n) if need[s_] > 0]
        # Spade counts the rules make public (whiz, mirrors): (seat, spades still to deal it).
        counted: list[tuple[int, int]] = []
        no_more = [0] * n
        for s_, total in enumerate(spades or ()):
            k = None if total is None else total - (hands[s_] & spade_mask).bit_count()
            if s_ in others and k is not None and 0 <= k <= need[s_]:
                counted.append((s_, k))
                no_more[s_] = spade_mask
        # The first half of the tries keeps the unlikely cards away too, the rest only the voids.
        soft = tries // 2 if any(unlikely) else 0

        def draw(allowed: list[int], k: int) -> int:
            pick = 0
            for c in rng.sample(allowed, k):
                pick |= 1 << c
            return pick

        def deal() -> list[int]:
            for attempt in range(tries + 1):
                relax = attempt == tries
                pool = hidden
                trial = list(hands)
                left = need
                ok = True
                if counted and not relax:
                    # The seats whose spade count is known get exactly that many spades first,
                    # and no more after.
                    left = list(need)
                    for s_, k in counted:
                        allowed = bits(pool & spade_mask & ~void[s_])
                        if len(allowed) < k:
                            ok = False
                            break
                        pick = draw(allowed, k)
                        trial[s_] |= pick
                        pool &= ~pick
                        left[s_] -= k
                    if not ok:
                        continue
                order = sorted(
                    others, key=lambda s_: ((pool & ~void[s_]).bit_count() - left[s_], rng.random())
                )
                for s_ in order:
                    banned = void[s_] | unlikely[s_] if attempt < soft else void[s_]
                    if counted and not relax:
                        banned |= no_more[s_]
                    allowed = bits(pool if relax else pool & ~banned)
                    if len(allowed) < left[s_]:
                        ok = False
                        break
                    pick = draw(allowed, left[s_])
                    trial[s_] |= pick
                    pool &= ~pick
                if ok:
                    return trial
            return hands  # pragma: no cover - the last try ignores every preference and fits

        if weigh is None or candidates <= 1:
            hands = deal()
        else:
            drawn = [deal() for _ in range(candidates)]
            weights = [weigh(d) for d in drawn]
            pick_at = rng.random() * sum(weights)
            hands = drawn[-1]
            for d, w in zip(drawn, weights, strict=True):
                pick_at -= w
                if pick_at < 0:
                    hands = d
                    break
        g.hands = hands
        plays_by = [0] * n
        for s_, c in history:
            plays_by[s_] |= 1 << c
        g.dealt = [hands[s_] | plays_by[s_] for s_ in range(n)]
        if phase is _PLAY and rs.first_trick_two_clubs and view.trick_no == 0:
            if g.trick:
                g._first_lead = g.trick[0][1]
            else:
                allcards = 0
                for h in hands:
                    allcards |= h
                lowest = next((c for c in t.lowest_club if allcards >> c & 1), -1)
                if lowest >= 0 and view.to_act is not None and hands[view.to_act] >> lowest & 1:
                    g._first_lead = lowest
        return g

    @classmethod
    def _predraw(
        cls, ruleset: Ruleset, hands: list[int], dealer: int, scores: list[int], bags: list[int], hand_no: int
    ) -> Game:
        """Two-player replay: the kept cards are known, the game waits in the DRAW phase (with an
        empty stock) for pre-draw blind nil bids; ``_after_draw()`` then moves on."""
        g = cls._blank(ruleset)
        g.dealer, g.hand_no, g.scores, g.bags = dealer, hand_no, list(scores), list(bags)
        g._reset_hand_state()
        g.hands = list(hands)
        g.phase = _DRAW
        g.to_act = dealer
        for s in range(g.n):
            g.looked[s] = not g._may_go_blind(s)
        return g

    @classmethod
    def _blank(cls, rs: Ruleset) -> Game:
        g = object.__new__(cls)
        n = rs.num_seats
        g.rs = rs
        g._t = tables(rs)
        g.n = n
        g.seed = None
        g.salt = ""
        g.deal_key = None
        g.hand_no = 1
        g.redeals = 0
        g.dealer = 0
        g.scores = [0] * rs.num_sides
        g.bags = [0] * rs.num_sides
        g.winner = None
        g.end_reason = None
        g.time_call = None
        g.overtime = False
        g.sets = [0] * rs.num_sides
        g._records = []
        g._last_hand = None
        g._forced_swaps = None
        g._seed_key = None
        g.auto_deal = True
        g._reset_hand_state()
        return g

    def _reset_hand_state(self) -> None:
        n = self.n
        self.phase = _BID
        self.to_act = None
        self.hands = [0] * n
        self.dealt = [0] * n
        self.looked = [True] * n
        self.bids = [None] * n
        self.bid_log = []
        self.pass_sizes = [0] * n
        self.given = [0] * n
        self.received = [0] * n
        self.pass_log = []
        self.trick = []
        self.leader = None
        self.trick_no = 0
        self.tricks = [0] * n
        self.played = 0
        self.plays = []
        self.trick_winners = []
        self.last_trick = None
        self.broken = False
        self.before_scores = list(self.scores)
        self.before_bags = list(self.bags)
        self.stock = []
        self.stock_pos = 0
        self.draw_keeps = []
        self.draw_seen = [0] * n
        self._first_lead = -1
        self.first_leader = None

    def _shuffle_bytes(self, size: int) -> bytes:
        """``4 * size`` random bytes for this hand's shuffle (``shuffle_order``), not a fair deal.

        Seeded games (seed version 3): ``shake_128(key + b"%d|%d" % (hand_no, redeals))``, its
        first ``4 * size`` bytes, where ``key = sha256(b"spades-seeded-deal/3\\n" +
        f"{seed}|{salt}".encode())`` is derived once per game (cached on the game, recomputed
        when ``seed`` or ``salt`` is not the one it was derived from), so every deal of a seeded
        game follows from seed, salt, hand number and redeal count, with no RNG state to save.
        Without a seed: ``secrets.token_bytes``."""
        seed = self.seed
        if seed is None:
            return secrets.token_bytes(4 * size)
        ck = self._seed_key
        if ck is None or ck[0] is not seed or ck[1] is not self.salt:
            key = sha256(_SEED_V3 + f"{seed}|{self.salt}".encode()).digest()
            ck = self._seed_key = (seed, self.salt, key)
        return shake_128(ck[2] + b"%d|%d" % (self.hand_no, self.redeals)).digest(4 * size)

    def _start_hand(self, quiet: bool = False) -> list[Event]:
        """Deal the hand (``quiet``: no ``HandDealt`` event, for playouts).

        A fair game deals from its hand's key (``engine.fair.deal_order``). Any other game deals
        ``shuffle_order(self._shuffle_bytes(len(deck)), len(deck))``: each card of the deck (in
        id order) gets a 22-bit key from the hand's random bytes (seeded: derived from seed, salt,
        hand number and redeals, see ``_shuffle_bytes``), the cards sorted by key (ties in deck
        order); the first ``hand_size`` cards go to seat 0, the next to seat 1, and so on (the
        two-player draw: that order is the stock)."""
        self._reset_hand_state()
        src = self._t.deck
        if self.deal_key is not None:  # fair deal: a new key per hand (a redeal keeps it)
            if self.redeals == 0 or self.deal_key is _FAIR_PENDING:
                self.deal_key = (
                    fair.new_key()
                    if self.seed is None
                    else fair.derived_key(self.seed, self.salt, self.hand_no)
                )
            deck: bytes | list[int] = fair.deal_order(self.deal_key.seed, src, self.redeals)
        else:
            size = len(src)
            deck = shuffle_order(self._shuffle_bytes(size), size)
            if src[-1] != size - 1:  # src: sorted ids; not 0..size-1
                deck = list(itemgetter(*deck)(src))
        n = self.n
        if self.rs.two_player_draw:
            self.stock = list(deck)
            self.phase = _DRAW
            self.to_act = self.dealer
            for s in range(n):
                self.looked[s] = not self._may_go_blind(s)  # blind nil is declared before drawing
            return [] if quiet else [HandDealt(self.hand_no, self.dealer)]
        k = self._t.hand_size
        # distinct bits: sum == or
        dealt = itemgetter(*deck[: n * k])(_BIT)
        hands = [sum(dealt[i : i + k]) for i in range(0, n * k, k)]
        self.hands = hands
        self.dealt = list(hands)
        self._begin_bidding()
        return [] if quiet else [HandDealt(self.hand_no, self.dealer)]

    def _begin_bidding(self) -> None:
        self.phase = _BID
        self.to_act = (self.dealer + 1) % self.n
        self.before_scores = list(self.scores)
        self.before_bags = list(self.bags)
        _, _, sides, blind_from, _ = _lean(self.rs)
        if blind_from is not None:
            # = not self._may_go_blind(s), once per side
            looked = self.looked
            for side, seats in enumerate(sides):
                seen = self._side_deficit(side) < blind_from
                for s in seats:
                    looked[s] = seen
        # else: _reset_hand_state already set every seat looked

    # -- small queries ---------------------------------------------------------------------
    @property
    def hand_records(self) -> list[dict[str, Any]]:
        """One HAND_RECORD.md record per finished hand, in order (built lazily: playouts that
        never read them don't pay for them)."""
        recs = self._records
        for i, r in enumerate(recs):
            if type(r) is tuple:
                recs[i] = _build_record(self.rs, *r)
        return cast("list[dict[str, Any]]", recs)  # every tuple was just built into its dict

    def _lazy_hand_scored(self, i: int) -> HandScored:
        """The ``HandScored`` of a hand finished quietly (record ``i`` still a tuple)."""
        r = self._records[i]
        assert type(r) is tuple
        rec = _build_record(self.rs, *r)
        self._records[i] = rec
        bd = _record_breakdown(self.rs, r)
        return HandScored(r[0], r[10], tuple(bd), r[11], r[12])

    @property
    def last_hand(self) -> dict[str, Any] | None:
        """The last scored hand (``HandScored.to_dict()``), or None before the first."""
        lh = self._last_hand
        if isinstance(lh, int):
            r = self._records[lh]
            if isinstance(r, tuple):
                lh = self._lazy_hand_scored(lh)
            else:  # the record was built: its result holds the same breakdown
                lh = HandScored(
                    r["hand_no"],
                    tuple(r["result"]["tricks"]),
                    tuple(_record_breakdown(self.rs, None, r)),
                    tuple(r["result"]["scores"]),
                    tuple(r["result"]["bags"]),
                )
        if lh is not None and not isinstance(lh, dict):
            lh = self._last_hand = lh.to_dict()
        return lh

    @property
    def ruleset(self) -> Ruleset:
        return self.rs

    @property
    def num_seats(self) -> int:
        return self.n

    @property
    def over(self) -> bool:
        return self.phase is _OVER

    def seats_to_act(self) -> list[int]:
        if self.phase is _PASS:
            return [s for s in range(self.n) if self.pass_sizes[s] and not self.given[s]]
        return [] if self.to_act is None else [self.to_act]

    @property
    def commitment(self) -> str | None:
        """Fair deals: the commitment to this hand's deal (public; the key stays secret until the
        hand record reveals it). None when the game does not deal fairly."""
        return None if self.deal_key is None else self.deal_key.commitment

    def has_looked(self, seat: int) -> bool:
        return self.looked[seat]

    def hand(self, seat: int) -> int:
        """The seat's current cards (bitmask), whether or not it looked: for trusted callers."""
        return self.hands[seat]

    def pass_size(self, seat: int) -> int:
        if self.phase is not _PASS or self.given[seat]:
            return 0
        return self.pass_sizes[seat]

    def deficit(self, seat: int) -> int:
        """How far the seat's side trails the best other side (negative when it leads)."""
        return self._side_deficit(self.rs.side_of(seat))

    def _side_deficit(self, side: int) -> int:
        scores = self.scores
        if len(scores) == 2:
            return scores[1 - side] - scores[side]
        others = [sc for i, sc in enumerate(scores) if i != side]
        return max(others) - scores[side]

    def _may_go_blind(self, seat: int) -> bool:
        rs = self.rs
        if not rs.blind_possible:
            return False
        d = self.deficit(seat)
        return rs.blind_nil_open(d) or rs.blind_bids_open(d)

    # -- legal moves -----------------------------------------------------------------------
    def legal_mask(self, seat: int) -> int:
        """Bitmask of the cards ``seat`` may play now (0 when it is not its turn to play)."""
        if self.phase is not _PLAY or seat != self.to_act:
            return 0
        hand = self.hands[seat]
        t = self._t
        trick = self.trick
        if trick:
            f = hand & t.suit_masks[t.suit[trick[0][1]]]
            if f:
                return f
            if self._first_lead >= 0 and self.trick_no == 0:
                return (hand & ~t.suit_masks[SPADES]) or hand
            return hand
        if self._first_lead >= 0 and self.trick_no == 0:
            return 1 << self._first_lead
        if not self.broken and self.rs.spades_must_be_broken:
            return (hand & ~t.suit_masks[SPADES]) or hand
        return hand

    def legal_cards(self, seat: int) -> list[int]:
        """Cards ``seat`` may play now, ascending id order ([] when it is not its turn)."""
        m = self.legal_mask(seat)
        # ``bits(m)``, inlined: one call fewer is ~5% of this query (measured on a follow)
        out = []
        while m:
            low = m & -m
            out.append(low.bit_length() - 1)
            m ^= low
        return out

    def legal_bids(self, seat: int) -> list[Bid]:
        if self.phase is not _BID or seat != self.to_act:
            return []
        return self._bid_options(seat)

    def _bid_options(self, seat: int) -> list[Bid]:
        rs = self.rs
        top = self._t.hand_size
        nspades = (self.hands[seat] & self._t.suit_masks[SPADES]).bit_count()
        opts: list[Bid]
        if (rs.mirrors or rs.whiz) and not self.looked[seat]:
            # the number bid is the spade count: offering it would show an unlooked seat its
            # cards, so it may only bid blind (or look first)
            opts = []
        elif rs.mirrors:
            opts = [Bid.tricks(nspades)] if nspades else [Bid.NIL]
        elif rs.whiz:
            if nspades:
                opts = [Bid.tricks(nspades)]
                if rs.nil_allowed:
                    opts.append(Bid.NIL)
            else:
                opts = [Bid.NIL if rs.nil_allowed else Bid.tricks(0)]
        else:
            opts = list(_plain_bids(rs, top)[0])
        if not self.looked[seat]:
            opts.extend(self._blind_options(seat))
        if rs.suicide:
            partner = rs.partner_of(seat)
            pb = self.bids[partner] if partner is not None else None
            if pb is not None:
                opts = [b for b in opts if b.is_nil != pb.is_nil]
        if rs.board:
            mates = [self.bids[s] for s in rs.teammates(seat)]
            if all(b is not None for b in mates):
                have = sum(b.n for b in mates if b is not None)
                opts = [b for b in opts if have + b.n >= rs.board]
        return opts

    def _blind_options(self, seat: int) -> tuple[Bid, ...]:
        """Blind bids open to ``seat`` by the rules and the score (whether it looked aside)."""
        return self._side_blinds(self.rs.side_of(seat))

    def _side_blinds(self, side: int) -> tuple[Bid, ...]:
        """Blind bids open to ``side``'s seats: ``blind_nil_open`` / ``blind_bids_open`` of its
        deficit, read as the ruleset's cached thresholds (`_lean`; a test checks them against
        those methods at every deficit)."""
        nil_from, bids_from, top = _lean(self.rs)[4]
        if nil_from is None and bids_from is None:
            return ()
        d = self._side_deficit(side)
        return _blind_bids(
            nil_from is not None and d >= nil_from, top if bids_from is not None and d >= bids_from else 0
        )

    def _bid_refusal(self, seat: int, bid: Bid) -> IllegalAction:
        """Explain why ``bid`` is not in ``_bid_options(seat)``."""
        rs = self.rs
        top = self._t.hand_size
        solo = not rs.partnerships
        allowed = tuple(self._bid_options(seat))
        nspades = (self.hands[seat] & self._t.suit_masks[SPADES]).bit_count()

        def refuse(
            msg: str, rule: str, reason: str, cls: type[IllegalAction] = BidNotAllowed, **fields: Any
        ) -> IllegalAction:
            return cls(
                msg,
                seat=seat,
                rule=f"seat {seat} may not bid {bid}: {rule}",
                reason=reason,
                bid=bid,
                allowed=allowed,
                **fields,
            )

        if bid.kind == "blind_nil":
            if not (rs.blind_nil_allowed and rs.nil_allowed):
                return refuse(
                    "Blind nil isn't allowed at this table.", "blind nil is not allowed", "blind_nil_off"
                )
            d = self.deficit(seat)
            if not rs.blind_nil_open(d):
                who = "you trail" if solo else "your team trails"
                return refuse(
                    f"Blind nil is only allowed when {who} by {rs.blind_nil_min_deficit} or more "
                    f"({_lead_or(d, solo)}).",
                    f"blind nil is only for a side behind by {rs.blind_nil_min_deficit} or more "
                    f"({_side_standing(d)})",
                    "blind_nil_deficit",
                    need=rs.blind_nil_min_deficit,
                    deficit=d,
                    solo=solo,
                )
        if bid.kind == "blind":
            if not rs.blind_bids:
                return refuse(
                    "Blind bids aren't allowed at this table.", "blind bids are not allowed", "blind_bids_off"
                )
            if bid.n > rs.blind_bid_max:
                return refuse(
                    f"Blind bids go from 1 to {rs.blind_bid_max}.",
                    f"blind bids go up to {rs.blind_bid_max}",
                    "blind_range",
                    n=rs.blind_bid_max,
                )
            d = self.deficit(seat)
            if not rs.blind_bids_open(d):
                who = "you trail" if solo else "your team trails"
                return refuse(
                    f"Blind bids are only allowed when {who} by {rs.blind_bid_min_deficit} or more "
                    f"({_lead_or(d, solo)}).",
                    f"blind bids are only for a side behind by {rs.blind_bid_min_deficit} or more "
                    f"({_side_standing(d)})",
                    "blind_bids_deficit",
                    need=rs.blind_bid_min_deficit,
                    deficit=d,
                    solo=solo,
                )
        if bid.is_blind and self.looked[seat]:
            what = "blind nil" if bid.kind == "blind_nil" else "a blind bid"
            return refuse(
                f"You've already looked at your cards, so you can't bid {what}.",
                "it already looked at its cards",
                "looked_blind_nil" if bid.kind == "blind_nil" else "looked_blind_bid",
                AlreadyLooked,
            )
        if bid.kind == "nil" and not rs.nil_allowed:
            return refuse(
                "Nil isn't allowed at this table: bid a number of tricks.", "nil is not allowed", "nil_off"
            )
        if bid.kind == "tricks" and bid.n > top:
            low = "0 (nil)" if rs.nil_allowed else "0"
            return refuse(
                f"Bids go from {low} to {top}.",
                f"bids go up to {top}",
                "bid_range",
                n=top,
                nil=rs.nil_allowed,
            )
        if (rs.mirrors or rs.whiz) and not bid.is_blind and not self.looked[seat]:
            which = "mirrors" if rs.mirrors else "whiz"
            return refuse(
                f"In {which} your bid is the number of spades you hold: look at your cards first.",
                f"{which}: it has not looked at its cards",
                "look_first",
                variant=which,
            )
        if rs.mirrors and not bid.is_blind:
            if nspades:
                return refuse(
                    f"In mirrors you must bid the number of spades you hold ({nspades}).",
                    f"mirrors: it must bid its {nspades} spades",
                    "mirrors_count",
                    n=nspades,
                )
            return refuse(
                "In mirrors you hold no spades, so you must bid nil.",
                "mirrors: it must bid nil",
                "mirrors_nil",
            )
        if rs.whiz and not bid.is_blind and bid not in allowed:
            nil = " or nil" if rs.nil_allowed else ""
            return refuse(
                f"In whiz you must bid the number of spades you hold ({nspades}){nil}.",
                f"whiz: it must bid its {nspades} spades{nil}",
                "whiz_count",
                n=nspades,
                nil=bool(nil),
            )
        if rs.suicide:
            partner = rs.partner_of(seat)
            pb = self.bids[partner] if partner is not None else None
            if pb is not None and pb.is_nil == bid.is_nil:
                if pb.is_nil:
                    return refuse(
                        "In suicide exactly one partner bids nil: your partner bid nil, so you "
                        "must bid a number.",
                        "suicide: its partner already bid nil",
                        "suicide_number",
                    )
                return refuse(
                    f"In suicide exactly one partner bids nil: your partner bid {pb.label}, so "
                    "you must bid nil.",
                    "suicide: it must bid nil",
                    "suicide_nil",
                    partner_bid=pb,
                )
        if rs.board:
            mates = [self.bids[s] for s in rs.teammates(seat)]
            if all(b is not None for b in mates):
                have = sum(b.n for b in mates if b is not None)
                need = rs.board - have
                if bid.n < need:
                    team = "You" if solo else "Your team"
                    return refuse(
                        f"{team} must bid at least {rs.board} in total: bid {need} or more.",
                        f"the board is {rs.board} per {'player' if solo else 'team'}",
                        "board",
                        board=rs.board,
                        n=need,
                        solo=solo,
                    )
        if bid in allowed:  # pragma: no cover - callers only ask for refused bids
            return refuse("That bid is allowed.", "allowed", "bid_refused")
        return refuse("That bid isn't allowed here.", "not allowed by the rules", "bid_refused")

    def legal_actions(self, seat: int) -> list[Action]:
        """Everything ``seat`` may do now. In the PASS phase this is a lazy sequence of every
        combination of ``pass_size`` cards (indexable, iterable, ``len``)."""
        ph = self.phase
        if ph is _PLAY:
            if seat != self.to_act:
                return []
            hand = self.hands[seat]
            trick = self.trick
            if self._first_lead >= 0:
                m = self.legal_mask(seat)
            elif trick:
                t = self._t
                m = hand & t.suit_masks[t.suit[trick[0][1]]] or hand
            elif self.broken or not self.rs.spades_must_be_broken:
                m = hand
            else:
                m = (hand & ~self._t.suit_masks[SPADES]) or hand
            row = PLAY_ACTIONS[seat]
            out: list[Action] = []
            while m:
                low = m & -m
                out.append(row[low.bit_length() - 1])
                m ^= low
            return out
        if not (type(seat) is int and 0 <= seat < self.n):
            return []
        if ph is _BID:
            acts: list[Action] = []
            if not self.looked[seat]:
                acts.append(LOOK_ACTIONS[seat])
            if seat == self.to_act:
                rs = self.rs
                if not (rs.mirrors or rs.whiz or rs.suicide or rs.board):
                    acts.extend(_plain_bids(rs, self._t.hand_size)[1][seat])
                    if not self.looked[seat]:
                        acts.extend(bid_action(seat, b) for b in self._blind_options(seat))
                else:
                    acts.extend(bid_action(seat, b) for b in self._bid_options(seat))
            if self._misdeal_ok(seat) and self.looked[seat]:
                acts.append(MISDEAL_ACTIONS[seat])
            return acts
        if ph is _PASS:
            k = self.pass_size(seat)
            if not k:
                return []
            ks = tuple(range(k + 1)) if self.rs.two_player_draw else (k,)
            # a lazy sequence stands in for the list (up to C(13,3) = 286 passes, built on demand)
            return PassChoices(seat, bits(self.hands[seat]), ks)  # type: ignore[return-value]
        if ph is _DRAW:
            acts = []
            if not self.looked[seat]:
                acts.append(LOOK_ACTIONS[seat])
                if self.bids[seat] is None and Bid.BLIND_NIL in self._blind_options(seat):
                    acts.append(bid_action(seat, Bid.BLIND_NIL))
            if seat == self.to_act and self.stock:
                acts.extend(DRAW_ACTIONS[seat])
            return acts
        return []

    def _misdeal_ok(self, seat: int) -> bool:
        rs = self.rs
        if not rs.misdeal_no_spades or self.phase is not _BID or self.bids[seat] is not None:
            return False
        if any(self.bids[s] is not None for s in rs.teammates(seat)):
            return False
        return not self.hands[seat] & self._t.suit_masks[SPADES]

    # -- actions ---------------------------------------------------------------------------
    def apply(self, action: Action) -> list[Event]:
        if type(action) is PlayAction:
            return self.play(action.seat, action.card)
        if isinstance(action, PlayAction):
            return self.play(action.seat, action.card)
        if isinstance(action, BidAction):
            return self.bid(action.seat, action.bid)
        if isinstance(action, PassAction):
            return self.pass_cards(action.seat, action.cards)
        if isinstance(action, Look):
            return self.look(action.seat)
        if isinstance(action, DrawAction):
            return self.draw(action.seat, action.keep)
        if isinstance(action, MisdealAction):
            return self.misdeal(action.seat)
        raise TypeError(f"{action!r} is not an action")

    def history(self) -> list[tuple[int, int]]:
        """Every (seat, card) played this hand, in order (public knowledge)."""
        return seated_plays(self.plays, self.first_leader, self.trick_winners, self.n)

    def _check_seat(self, seat: int) -> None:
        if not isinstance(seat, int) or not 0 <= seat < self.n:
            raise IllegalAction(
                f"There is no seat {seat} at this table.",
                seat=seat,
                rule=f"there is no seat {seat}",
                reason="no_seat",
                n=seat,
            )

    def _wrong_phase(self, seat: int, doing: str) -> WrongPhase:
        return WrongPhase(
            f"You can't {doing} now: {_PHASE_WORDS[self.phase]}.",
            seat=seat,
            rule=f"seat {seat} can't {doing} now: {_PHASE_WORDS[self.phase]}",
            reason="wrong_phase",
            phase=str(self.phase),
            action=_DOING[doing],
        )

    def _not_turn(self, seat: int) -> NotYourTurn:
        exp = self.to_act
        return NotYourTurn(
            f"It's seat {exp}'s turn, not yours.",
            seat=seat,
            rule=f"it is seat {exp}'s turn, not seat {seat}'s",
            reason="not_your_turn",
            expected_seat=exp,
        )

    def look(self, seat: int) -> list[Event]:
        self._check_seat(seat)
        if self.looked[seat]:
            raise AlreadyLooked(
                "You have already looked at your cards.",
                seat=seat,
                rule=f"seat {seat} already looked at its cards",
                reason="already_looked",
            )
        if self.phase is not _BID and self.phase is not _DRAW:
            raise self._wrong_phase(seat, "look at your cards")
        self.looked[seat] = True
        return [LOOKED[seat]]

    def bid(self, seat: int, bid: Bid | int | str) -> list[Event]:
        self._check_seat(seat)
        if self.phase is _DRAW and self.rs.two_player_draw:
            return self._predraw_blind_nil(seat, bid)
        if self.phase is not _BID:
            raise self._wrong_phase(seat, "bid")
        if seat != self.to_act:
            raise self._not_turn(seat)
        if type(bid) is Bid:
            b = bid
        else:
            try:
                b = Bid.parse(bid)
            except BidParseError as e:
                raise _no_bid(seat, bid, e, tuple(self._bid_options(seat))) from None
        rs = self.rs
        if b.n == 0 and b.kind == "tricks" and rs.nil_allowed:
            b = Bid.NIL
        if not (rs.mirrors or rs.whiz or rs.suicide or rs.board):
            plain = _plain_bids(rs, self._t.hand_size)[2]
            ok = (
                id(b) in plain
                or b in plain
                or (b.is_blind and not self.looked[seat] and b in self._blind_options(seat))
            )
        else:
            ok = b in self._bid_options(seat)
        if not ok:
            raise self._bid_refusal(seat, b)
        return self._commit_bid(seat, b)

    def _commit_bid(self, seat: int, b: Bid) -> list[Event]:
        """Record a bid already known to be legal for the seat to act."""
        if not self.looked[seat] and not b.is_blind:
            self.looked[seat] = True
            events: list[Event] = [LOOKED[seat], bid_made(seat, b)]
        else:
            events = [bid_made(seat, b)]
        self.bids[seat] = b
        self.bid_log.append((seat, b))
        if len(self.bid_log) < self.n:
            nxt = (seat + 1) % self.n
            while self.bids[nxt] is not None:  # two-player: a pre-draw blind nil already bid
                nxt = (nxt + 1) % self.n
            self.to_act = nxt
            return events
        events.extend(self._close_bidding())
        return events

    def _close_bidding(self) -> list[Event]:
        # bidding is over: every seat has a bid (no None left)
        events: list[Event] = [BiddingDone(tuple(self.bids))]  # type: ignore[arg-type]
        self._end_bidding()
        return events

    def _end_bidding(self) -> None:
        """Every seat has bid: the passes, or the play."""
        for s in range(self.n):
            self.looked[s] = True  # blind bidders see their cards once bidding is over
        self._setup_passes()
        if any(self.pass_sizes):
            self.phase = _PASS
            self.to_act = None
        else:
            self._begin_play()

    def _predraw_blind_nil(self, seat: int, bid: Bid | int | str) -> list[Event]:
        """Two-player: blind nil is declared before the seat draws its first card."""
        try:
            b = Bid.parse(bid)
        except BidParseError as e:
            raise _no_bid(seat, bid, e, ()) from None
        if b.kind != "blind_nil":
            raise BidNotAllowed(
                "Only blind nil can be bid before the draw; the other bids come after it.",
                seat=seat,
                rule=f"seat {seat} may not bid {b} before the draw",
                reason="predraw_blind_nil_only",
                bid=b,
                allowed=tuple(self._blind_options(seat)),
            )
        if self.bids[seat] is not None:
            raise BidNotAllowed(
                "You have already bid blind nil.",
                seat=seat,
                rule=f"seat {seat} already bid",
                reason="already_blind_nil",
                bid=b,
                allowed=(),
            )
        if b not in self._blind_options(seat) or self.looked[seat]:
            raise self._bid_refusal(seat, b)
        self.bids[seat] = b
        self.bid_log.append((seat, b))
        # Declared blind: from now on it draws as usual and sees each card it is offered (its
        # hand is still empty, so there is nothing left to look at).
        self.looked[seat] = True
        return [BidMade(seat, b)]

    def _after_draw(self) -> list[Event]:
        """Two-player: the draw is over. Blind nil bidders may exchange cards with the discards,
        then the others bid, starting with the second player."""
        self.dealt = list(self.hands)
        for s in range(self.n):
            self.looked[s] = True
        swappers = [s for s in range(self.n) if self.bids[s] is not None]
        if swappers and self.rs.blind_nil_pass:
            for s in swappers:
                self.pass_sizes[s] = self.rs.blind_nil_pass
            self.phase = _PASS
            self.to_act = None
            return []
        return self._open_bidding()

    def _open_bidding(self) -> list[Event]:
        self.phase = _BID
        for i in range(1, self.n + 1):
            s = (self.dealer + i) % self.n
            if self.bids[s] is None:
                self.to_act = s
                return []
        return self._close_bidding()

    def _setup_passes(self) -> None:
        rs = self.rs
        if not (rs.nil_pass or rs.blind_nil_pass) or rs.partner_of(0) is None:
            return
        bids = self.bids
        for a, b in _lean(rs)[2]:  # the sides: pairs of partners here
            # bidding is over: every seat has a bid (no None left)
            ka, kb = bids[a].kind, bids[b].kind  # type: ignore[union-attr]
            if ka == "blind_nil" and kb == "blind_nil":
                size = 0
            elif "blind_nil" in (ka, kb):
                size = rs.blind_nil_pass
            elif "nil" in (ka, kb):
                size = rs.nil_pass
            else:
                size = 0
            self.pass_sizes[a] = self.pass_sizes[b] = size

    def pass_cards(self, seat: int, cards: Iterable[int]) -> list[Event]:
        self._check_seat(seat)
        if self.phase is not _PASS:
            raise self._wrong_phase(seat, "pass cards")
        if self.rs.two_player_draw:
            return self._swap(seat, cards)
        k = self.pass_sizes[seat]
        if not k:
            raise BadPass(
                "You have no cards to pass this hand.",
                seat=seat,
                rule=f"seat {seat} has no cards to pass",
                reason="no_pass",
            )
        if self.given[seat]:
            raise BadPass(
                "You have already passed your cards.",
                seat=seat,
                rule=f"seat {seat} already passed",
                reason="passed",
            )
        cards = list(cards)
        mask = _card_mask(cards, seat)
        if len(cards) != k or mask.bit_count() != k:
            word = "card" if k == 1 else "cards"
            raise BadPass(
                f"You must pass exactly {k} {word}.",
                seat=seat,
                rule=f"seat {seat} must pass exactly {k} {word}, not {len(cards)}",
                reason="pass_size",
                size=k,
            )
        hand = self.hands[seat]
        if mask & ~hand:
            bad = min(c for c in cards if not hand >> c & 1)
            raise CardNotHeld(
                NOT_HELD,
                seat=seat,
                rule=f"{card_str(bad)} is not held by seat {seat}",
                reason="card_not_held",
                card=bad,
                private=("card",),
            )
        if self._give(seat, mask):
            return [CardsPassed(seat, k), PassingDone()]
        return [CardsPassed(seat, k)]

    def _give(self, seat: int, mask: int) -> bool:
        """A legal nil-exchange pass of ``mask`` by ``seat``; the partners swap once both gave.
        True when the passing is over (the play has begun)."""
        self.hands[seat] ^= mask
        self.given[seat] = mask
        self.pass_log.append((seat, mask))
        partner = self.rs.partner_of(seat)
        assert partner is not None
        if self.given[partner]:
            self.hands[seat] |= self.given[partner]
            self.hands[partner] |= mask
            self.received[seat] = self.given[partner]
            self.received[partner] = mask
        if self.seats_to_act():
            return False
        self._begin_play()
        return True

    def _swap(self, seat: int, cards: Iterable[int]) -> list[Event]:
        """Two-player blind nil: discard up to ``blind_nil_pass`` cards and take as many random
        cards from the discards."""
        if any(s == seat for s, _ in self.pass_log):
            raise BadPass(
                "You have already exchanged your cards.",
                seat=seat,
                rule=f"seat {seat} already exchanged",
                reason="exchanged",
            )
        k = self.pass_sizes[seat]
        if not k:
            raise BadPass(
                "You have no cards to exchange this hand.",
                seat=seat,
                rule=f"seat {seat} has no cards to exchange",
                reason="no_exchange",
            )
        cards = list(cards)
        mask = _card_mask(cards, seat)
        r = len(cards)
        if r > k or mask.bit_count() != r:
            raise BadPass(
                f"You may exchange at most {k} different cards.",
                seat=seat,
                rule=f"seat {seat} may exchange at most {k} cards, not {r}",
                reason="exchange_size",
                size=k,
            )
        hand = self.hands[seat]
        if mask & ~hand:
            bad = min(c for c in cards if not hand >> c & 1)
            raise CardNotHeld(
                NOT_HELD,
                seat=seat,
                rule=f"{card_str(bad)} is not held by seat {seat}",
                reason="card_not_held",
                card=bad,
                private=("card",),
            )
        out = 0
        for g_ in self.given:
            out |= g_
        pool = self._t.deck_mask & ~self.hands[0] & ~self.hands[1] & ~out
        forced = self._forced_swaps.get(seat) if self._forced_swaps is not None else None
        if forced is not None:
            repl = 0
            for c in forced:
                repl |= 1 << c
            if repl.bit_count() != r or repl & ~pool:
                raise BadPass(
                    "Those replacement cards did not come from the discards.",
                    seat=seat,
                    rule=f"seat {seat}'s {r} replacement cards must come from the discards",
                    reason="replacement",
                )
        elif self.deal_key is not None:
            repl = 0
            for c in fair.replacements(self.deal_key.seed, bits(pool), r, self.redeals, seat):
                repl |= 1 << c
        else:
            if self.seed is None:
                rng: random.Random = secrets.SystemRandom()
            else:
                rng = random.Random(f"{self.seed}|{self.salt}|{self.hand_no}|{self.redeals}|swap|{seat}")
            repl = 0
            for c in rng.sample(bits(pool), r):
                repl |= 1 << c
        self.hands[seat] = (hand ^ mask) | repl
        self.given[seat] = mask
        self.received[seat] = repl
        self.pass_sizes[seat] = 0
        self.pass_log.append((seat, mask))
        events: list[Event] = [CardsPassed(seat, r)]
        if not self.seats_to_act():
            events.append(PassingDone())
            events.extend(self._open_bidding())
        return events

    def _begin_play(self) -> None:
        self.phase = _PLAY
        leader = (self.dealer + 1) % self.n
        self._first_lead = -1
        if self.rs.first_trick_two_clubs:
            allcards = 0
            for h in self.hands:
                allcards |= h
            for c in self._t.lowest_club:
                if allcards >> c & 1:
                    self._first_lead = c
                    leader = next(s for s in range(self.n) if self.hands[s] >> c & 1)
                    break
        self.leader = leader
        self.first_leader = leader
        self.to_act = leader

    def misdeal(self, seat: int) -> list[Event]:
        self._check_seat(seat)
        if not self.rs.misdeal_no_spades:
            raise MisdealNotAllowed(
                "Misdeals aren't called at this table.",
                seat=seat,
                rule="misdeals are not allowed",
                reason="misdeal_off",
            )
        if not self._misdeal_ok(seat):
            if self.phase is not _BID:
                raise self._wrong_phase(seat, "call a misdeal")
            if self.hands[seat] & self._t.suit_masks[SPADES]:
                msg, rule = "You can only call a misdeal with no spades.", f"seat {seat} holds a spade"
                reason = "misdeal_spades"
            else:
                msg, rule = (
                    "It's too late to call a misdeal: your team has bid.",
                    f"seat {seat}'s team has already bid",
                )
                reason = "misdeal_late"
            raise MisdealNotAllowed(msg, seat=seat, rule=rule, reason=reason)
        self.redeals += 1
        events: list[Event] = [Misdealt(seat, self.hand_no)]
        events.extend(self._start_hand())
        return events

    def draw(self, seat: int, keep: bool) -> list[Event]:
        """Two-player draw: keep the top card (the next is discarded) or discard it (the next
        is kept)."""
        self._check_seat(seat)
        if self.phase is not _DRAW:
            raise self._wrong_phase(seat, "draw")
        if seat != self.to_act:
            raise self._not_turn(seat)
        events: list[Event] = []
        if not self.looked[seat]:
            self.looked[seat] = True  # drawing means seeing the cards: no blind nil after this
            events.append(Looked(seat))
        pos = self.stock_pos
        top, nxt = self.stock[pos], self.stock[pos + 1]
        if keep:
            self.hands[seat] |= 1 << top
            self.draw_seen[seat] |= 1 << nxt
        else:
            self.hands[seat] |= 1 << nxt
            self.draw_seen[seat] |= 1 << top
        self.stock_pos = pos + 2
        self.draw_keeps.append(bool(keep))
        events.append(CardDrawn(seat, self.hands[seat].bit_count()))
        if all(h.bit_count() >= self._t.hand_size for h in self.hands):
            events.extend(self._after_draw())
        else:
            self.to_act = 1 - seat
        return events

    def play(self, seat: int, card: int) -> list[Event]:
        if self.phase is not _PLAY:
            self._check_seat(seat)
            raise self._wrong_phase(seat, "play a card")
        if seat != self.to_act:
            self._check_seat(seat)
            raise self._not_turn(seat)
        hand = self.hands[seat]
        if type(card) is not int or card < 0:
            card = self._coerce_card(seat, card)
        bit = 1 << card
        if not hand & bit:
            if self.rs.decks == 2 and card < COPY_OFFSET and hand >> (card + COPY_OFFSET) & 1:
                return self.play(seat, card + COPY_OFFSET)  # the same face, from the second deck
            raise self._not_held(seat, card)
        t = self._t
        suit = t.suit
        trick = self.trick
        # fast legality: following the led suit, or a non-spade lead after spades broke
        if trick:
            if suit[card] != suit[trick[0][1]] and not self.legal_mask(seat) & bit:
                raise self._play_refusal(seat, card)
        elif ((suit[card] == SPADES and not self.broken) or self._first_lead >= 0) and not (
            self.legal_mask(seat) & bit
        ):
            raise self._play_refusal(seat, card)
        self.hands[seat] = hand ^ bit
        self.played |= bit
        trick.append((seat, card))
        self.plays.append(card)
        if not self.broken and suit[card] == SPADES:
            self.broken = True
            events: list[Event] = [CARD_PLAYED[seat][card], SPADES_BROKEN[seat]]
        else:
            events = [CARD_PLAYED[seat][card]]
        n = self.n
        if len(trick) < n:
            self.to_act = seat + 1 if seat + 1 < n else 0
            return events
        win_seat = self._close_trick()
        # _close_trick just set last_trick (hot path: no assert)
        events.append(TrickWon(win_seat, self.trick_no, self.last_trick))  # type: ignore[arg-type]
        if self.trick_no == t.hand_size:
            events.extend(self._finish_hand())
        return events

    def _close_trick(self) -> int:
        """Resolve the complete trick in ``self.trick``: count it, make its winner lead."""
        t = self._t
        trick = self.trick
        win_seat = winning_play(trick, t.suit, t.power, not self.rs.six_player_first_wins)[0]
        self.tricks[win_seat] += 1
        self.trick_no += 1
        self.trick_winners.append(win_seat)
        self.last_trick = tuple(trick)
        self.trick = []
        self.leader = win_seat
        self.to_act = win_seat
        return win_seat

    # -- fast paths for playouts (bots' search; the caller guarantees legality) -----------------
    def play_fast(self, card: int) -> None:
        """Play ``card`` for the seat to act, without legality checks or events.

        For search on a private copy (``clone`` / ``from_view``): ``card`` must come from
        ``legal_mask(g.to_act)``; anything else leaves the copy in a state the rules never
        reach. Only a card that is not in the hand at all is refused (``CardNotHeld``). State,
        scoring and records afterwards are exactly those of ``play``."""
        seat = self.to_act
        if self.phase is not _PLAY or seat is None:
            raise self._wrong_phase(-1 if seat is None else seat, "play a card")
        bit = 1 << card
        hand = self.hands[seat]
        if not hand & bit:
            raise self._not_held(seat, card)
        self.hands[seat] = hand ^ bit
        self.played |= bit
        trick = self.trick
        trick.append((seat, card))
        self.plays.append(card)
        if not self.broken and self._t.suit[card] == SPADES:
            self.broken = True
        if len(trick) < self.n:
            self.to_act = seat + 1 if seat + 1 < self.n else 0
            return
        self._close_trick()
        if self.trick_no == self._t.hand_size:
            self._finish_hand(quiet=True)

    def playout(
        self, rng: random.Random | None = None, policy: Callable[[Game, int, int], int] | None = None
    ) -> None:
        """Finish the current hand fast: scored, recorded and (with ``auto_deal``) the next hand
        dealt, exactly as the same moves through ``apply`` would leave it. For bots' search on a
        copy (``clone``, ``from_view``).

        Bidding, passing and the two-player draw (if the hand is not in play yet) take uniform
        random choices: ``legal_actions(seat)[int(rng.random() * len)]`` for the first seat in
        ``seats_to_act()``. Cards: ``policy(game, seat, legal_mask) -> card`` when given (an
        illegal card raises the usual ``IllegalAction``), else a uniform random legal card,
        ``legal_cards(seat)[int(rng.random() * k)]``, with no draw from ``rng`` when only one
        card is legal. No events are built. Does nothing once the game is over.

        >>> game = Game.new("standard", seed=7, dealer=0)
        >>> game.playout(random.Random(1))
        >>> game.hand_no, game.phase, game.scores
        (2, <Phase.BID: 'bid'>, [-170, -140])
        >>> len(game.hand_records), game.hand_records[0]["result"]["tricks"]
        (1, [4, 4, 2, 3])
        """
        if rng is None:
            rng = random.Random()
        hand_no = self.hand_no
        rs = self.rs
        lean_bids = not (rs.mirrors or rs.whiz or rs.suicide or rs.board or rs.misdeal_no_spades)
        while self.phase is not _PLAY:
            if self.phase is _OVER or self.hand_no != hand_no:
                return
            if self.phase is _BID and lean_bids:
                self._random_bids(rng)
                continue
            if self.phase is _PASS and not rs.two_player_draw:
                self._random_passes(rng)
                continue
            legal = self.legal_actions(self.seats_to_act()[0])
            self.apply(legal[int(rng.random() * len(legal))])
        if self.hand_no != hand_no:
            return
        if policy is None:
            if rs.decks == 1 and not rs.jokers and not rs.deuces_high:
                # the plain deck: cards one by one up to the next trick to lead (past the first
                # trick's two-of-clubs rule), then the rest in the fast loop of engine.playout
                rnd = rng.random
                while self.phase is _PLAY and self.hand_no == hand_no:
                    if playout_fits(self):
                        random_tricks(self, rnd)
                        return
                    if not self.trick and not (self._first_lead >= 0 and self.trick_no == 0):
                        break  # uneven hands at a trick to lead: the general loop
                    m = self.legal_mask(self.to_act)  # type: ignore[arg-type]  # set in PLAY
                    k = m.bit_count()
                    if k > 1:
                        for _ in range(int(rnd() * k)):
                            m &= m - 1
                    self.play_fast((m & -m).bit_length() - 1)
                else:
                    return
                self._playout_random(rng)
            else:
                self._playout_random(rng)
            return
        while self.phase is _PLAY and self.hand_no == hand_no:
            seat = self.to_act
            assert seat is not None  # in the PLAY phase one seat is always to act
            m = self.legal_mask(seat)
            card = policy(self, seat, m)
            if type(card) is not int or not m >> card & 1:
                if type(card) is int and 0 <= card < 128 and self.hands[seat] >> card & 1:
                    raise self._play_refusal(seat, card)
                raise self._not_held(seat, card)
            self.play_fast(card)

    def _random_bids(self, rng: random.Random) -> None:
        """The rest of the bidding, each step ``legal_actions(seat)[int(rng.random() * len)]``
        without building the list, for rulesets whose bids are the plain ones (no mirrors, whiz,
        suicide, board or misdeal): the list is [look] + plain bids + [blind bids] as there."""
        rs = self.rs
        plain, side_of = _lean(rs)[:2]
        k = len(plain)
        n = self.n
        bids, log, looked = self.bids, self.bid_log, self.looked
        rnd = rng.random
        seat = self.to_act
        assert seat is not None  # in the BID phase one seat is always to act
        blinds: list[tuple[Bid, ...] | None] = [None] * len(side_of)  # per side: by its deficit
        while True:
            if looked[seat]:
                b = plain[floor(rnd() * k)]
            else:
                side = side_of[seat]
                blind = blinds[side]
                if blind is None:
                    blind = blinds[side] = self._side_blinds(side)
                i = floor(rnd() * (1 + k + len(blind)))  # floor: int() of a float >= 0, faster
                if i == 0:  # look
                    looked[seat] = True
                    continue
                if i <= k:
                    b = plain[i - 1]
                    looked[seat] = True  # a seen bid: the seat looks (as ``_commit_bid``)
                else:
                    b = blind[i - 1 - k]
            bids[seat] = b
            log.append((seat, b))
            if len(log) >= n:
                break
            seat = seat + 1 if seat + 1 < n else 0
            while bids[seat] is not None:  # two-player: a pre-draw blind nil already bid
                seat = seat + 1 if seat + 1 < n else 0
        self.to_act = seat
        self._end_bidding()

    def _random_passes(self, rng: random.Random) -> None:
        """The nil exchange (not the two-player swap) to its end, each pass as
        ``legal_actions(seat)[int(rng.random() * len)]`` for ``seats_to_act()[0]``: the seats
        that still pass, lowest first (a pass never adds a seat that must pass)."""
        rnd = rng.random
        sizes, given, hands = self.pass_sizes, self.given, self.hands
        clubs, diamonds, hearts, spades = IDS
        for seat in range(self.n):
            k = sizes[seat]
            if k and not given[seat]:
                h = hands[seat]
                if h >> 52:
                    cards = bits(h)
                else:  # the plain deck's ids: four table reads instead of a loop per card
                    cards = [
                        *clubs[h & LANE],
                        *diamonds[h >> 13 & LANE],
                        *hearts[h >> 26 & LANE],
                        *spades[h >> 39],
                    ]
                m = len(cards)
                i = int(rnd() * comb(m, k))
                combos = _combinations(m, k)
                mask = 0
                for c in _unrank(cards, k, i) if combos is None else itemgetter(*combos[i])(cards):
                    mask |= 1 << c
                self._give(seat, mask)

    def _playout_random(self, rng: random.Random) -> None:
        """The rest of the hand with uniform random legal cards: one pass per trick, the trick
        resolved as it is played (the comparisons of ``winning_play``, inlined: a call per card
        would cost a measurable share of every playout). The lead and the follow pick their
        card with the same few lines, kept apart for the same reason."""
        t = self._t
        suit, smask, power = t.suit, t.suit_masks, t.power
        not_spades = ~smask[SPADES]
        must_break = self.rs.spades_must_be_broken
        last_wins = not self.rs.six_player_first_wins
        hand_size = t.hand_size
        n = self.n
        nxt = tuple((s + 1) % n for s in range(n))
        hands, plays, tricks, winners = self.hands, self.plays, self.tricks, self.trick_winners
        rnd = rng.random
        seat = self.to_act
        assert seat is not None  # in the PLAY phase one seat is always to act
        trick = self.trick
        broken = self.broken
        played = self.played
        trick_no = self.trick_no
        first = self._first_lead >= 0 and trick_no == 0
        while True:
            if trick:  # only when starting inside a trick
                led_mask = smask[suit[trick[0][1]]]
                win_seat, card = winning_play(trick, suit, power, last_wins)
                win_suit, win_power = suit[card], power[card]
                left = n - len(trick)
            else:
                hand = hands[seat]
                if first:
                    m = 1 << self._first_lead
                elif must_break and not broken:
                    m = (hand & not_spades) or hand
                else:
                    m = hand
                k = m.bit_count()
                if k > 1:
                    for _ in range(int(rnd() * k)):
                        m &= m - 1
                low = m & -m
                card = low.bit_length() - 1
                hands[seat] = hand ^ low
                played |= low
                trick.append((seat, card))
                plays.append(card)
                win_seat, win_suit, win_power = seat, suit[card], power[card]
                if win_suit == SPADES:
                    broken = True
                led_mask = smask[win_suit]
                left = n - 1
                seat = nxt[seat]
            for _ in range(left):
                hand = hands[seat]
                m = hand & led_mask
                if not m:
                    m = ((hand & not_spades) or hand) if first else hand
                k = m.bit_count()
                if k > 1:
                    for _ in range(int(rnd() * k)):
                        m &= m - 1
                low = m & -m
                card = low.bit_length() - 1
                hands[seat] = hand ^ low
                played |= low
                trick.append((seat, card))
                plays.append(card)
                cs = suit[card]
                if cs == win_suit:
                    p = power[card]
                    if p > win_power or (last_wins and p == win_power):
                        win_seat, win_power = seat, p
                elif cs == SPADES:  # the first spade on this trick (a spade led set it already)
                    win_seat, win_suit, win_power = seat, cs, power[card]
                    broken = True
                seat = nxt[seat]
            tricks[win_seat] += 1
            trick_no += 1
            winners.append(win_seat)
            self.last_trick = tuple(trick)
            trick = self.trick = []
            seat = win_seat
            first = False
            if trick_no == hand_size:
                self.broken, self.played, self.trick_no = broken, played, trick_no
                self.leader = self.to_act = win_seat
                self._finish_hand(quiet=True)
                return

    def _coerce_card(self, seat: int, card: Any) -> int:
        if isinstance(card, str):
            from .cards import CardParseError, parse_card

            try:
                return parse_card(card)
            except CardParseError as e:
                raise CardNotHeld(
                    str(e),
                    seat=seat,
                    rule=f"seat {seat} played no card ({e})",
                    reason="not_a_card",
                    card=card,
                    private=("card",),
                ) from None
        if isinstance(card, int) and not isinstance(card, bool) and 0 <= card < 128:
            return int(card)
        raise self._not_held(seat, card)

    def _not_held(self, seat: int, card: Any) -> CardNotHeld:
        if isinstance(card, int) and not isinstance(card, bool) and 0 <= card < 128 and card & 63 < 54:
            text = card_str(card)
        else:
            text = repr(card)
        return CardNotHeld(
            NOT_HELD,
            seat=seat,
            rule=f"{text} is not held by seat {seat}",
            reason="card_not_held",
            card=card,
            private=("card",),
        )

    def _play_refusal(self, seat: int, card: int) -> IllegalAction:
        t = self._t
        hand = self.hands[seat]
        legal = self.legal_mask(seat)
        playable = tuple(sorted(bits(legal), key=lambda c: (t.suit[c], t.power[c], c)))
        if self.trick:
            led = t.suit[self.trick[0][1]]
            if hand & t.suit_masks[led]:
                held = pretty_list(playable)
                return MustFollowSuit(
                    f"You must follow {SUIT_NAMES[led]}: you hold {held}.",
                    seat=seat,
                    rule=f"seat {seat} must follow {SUIT_NAMES[led]}",
                    reason="must_follow",
                    suit=led,
                    playable=playable,
                )
            return FirstTrickRule(
                "No spades on the first trick while you hold another suit.",
                seat=seat,
                rule=f"seat {seat} may not play a spade to the first trick",
                reason="first_no_spades",
                playable=playable,
            )
        if self._first_lead >= 0 and self.trick_no == 0:
            lead = card_pretty(self._first_lead)
            return FirstTrickRule(
                f"The first trick must be led with {lead}.",
                seat=seat,
                rule=f"the first trick must be led with {card_str(self._first_lead)}",
                reason="first_lead",
                card=self._first_lead,
                playable=playable,
            )
        suits = [s for s in (HEARTS, CLUBS, DIAMONDS) if hand & t.suit_masks[s]]
        words = ["a " + SUIT_SINGULAR[s] for s in suits]
        return SpadesNotBroken(
            f"Spades aren't broken yet: lead {join_words(words, 'or')}.",
            seat=seat,
            rule=f"seat {seat} led a spade before spades were broken",
            reason="spades_not_broken",
            suits=tuple(suits),
            playable=playable,
        )

    # -- scoring ---------------------------------------------------------------------------
    def _finish_hand(self, quiet: bool = False) -> list[Event]:
        """Score the hand, record it, end the game or deal the next hand. ``quiet`` (playouts):
        the breakdown, the ``HandScored`` event and the record are built only when read."""
        scored: HandScored | int | None
        breakdown: list[SideScore] | None
        rs = self.rs
        if quiet and not rs.boston and rs.set_limit is None:
            self.scores, self.bags = hand_totals(rs, self.bids, self.tricks, self.scores, self.bags)
            breakdown = None
            if max(self.scores) < rs.target_score and rs.lose_score is None and rs.max_hands is None:
                winner = reason = None  # what game_winner says when no end condition can hold
            else:
                winner, reason = game_winner(rs, self.scores, (), self.hand_no)
            scored = len(self._records)  # index of the lazy record
            events: list[Event] = []
        else:
            breakdown = score_hand(self.rs, self.bids, self.tricks, self.scores, self.bags)
            for sc in breakdown:
                self.scores[sc.side] = sc.score_after
                self.bags[sc.side] = sc.bags_after
                if sc.made is False and rs.set_limit is not None:
                    self.sets[sc.side] += 1  # (counted only when it matters: playouts skip it)
            winner, reason = game_winner(self.rs, self.scores, breakdown, self.hand_no, self.sets)
            scored = HandScored(
                self.hand_no, tuple(self.tricks), tuple(breakdown), tuple(self.scores), tuple(self.bags)
            )
            events = [scored]
        if winner is None and self.time_call is not None:
            winner, reason = self._winner_at_time()
        self._last_hand = scored
        # The pending record holds only ints, strs, bools, None and tuples of them (bids as
        # (seat, kind, n), the stock as a tuple), so the collector untracks it on its first pass:
        # a game's thousands of pending records (a long search or benchmark) cost the full
        # collections nothing to walk.
        self._records.append(
            (
                self.hand_no,
                self.dealer,
                tuple(self.dealt),
                tuple([(s, b.kind, b.n) for s, b in self.bid_log]),
                tuple(self.pass_log),
                tuple(self.plays),
                tuple(self.before_scores),
                tuple(self.before_bags),
                tuple(self.stock),
                tuple(self.draw_keeps),
                tuple(self.tricks),
                tuple(self.scores),
                tuple(self.bags),
                winner,
                tuple(self.trick_winners),
                breakdown,
                tuple(self.received),
                None if self.deal_key is None else (self.deal_key, self.redeals),
            )
        )
        if winner is not None or reason == "draw":
            self.winner = winner
            self.end_reason = reason
            self.phase = _OVER
            self.to_act = None
            if not quiet:
                events.append(GameOver(winner, tuple(self.scores), reason or "target"))
            return events
        if not self.auto_deal:
            self.phase = _OVER  # replay: the hand is over, nothing follows
            self.to_act = None
            return events
        self.hand_no += 1
        self.redeals = 0
        self.dealer = (self.dealer + 1) % self.n
        events.extend(self._start_hand(quiet))
        return events

    # -- time called -----------------------------------------------------------------------
    def call_time(self, tiebreak: str = "overtime") -> bool:
        """Time is called (a league round's clock ran out): the hand in progress is played to its
        end and is the last one. If the game has not ended by then, the highest score wins; a tie
        for it is broken by ``tiebreak`` (``TIEBREAKS``): ``overtime`` plays one more hand (a tie
        after it is a draw), ``bags`` gives it to the tied side with the fewest bags (equal bags:
        a draw), ``draw`` makes it a draw. A draw ends the game with ``winner`` None and
        ``end_reason`` ``"draw"``. False (and nothing changes) when the game is over or time was
        already called.

        >>> game = Game.new("standard", seed=3, dealer=0)
        >>> game.call_time("bags"), game.call_time("draw"), game.time_call, game.last_hand_now
        (True, False, 'bags', True)
        >>> import random
        >>> game.playout(random.Random(1))
        >>> game.over, game.hand_no
        (True, 1)
        """
        if tiebreak not in TIEBREAKS:
            raise ValueError(f"a tie at time is broken by one of {', '.join(TIEBREAKS)}, not {tiebreak!r}")
        if self.phase is _OVER or self.time_call is not None:
            return False
        self.time_call = tiebreak
        return True

    @property
    def last_hand_now(self) -> bool:
        """Whether the hand in progress is the game's last unless a tie plays on (time called)."""
        return self.time_call is not None and self.phase is not _OVER

    def _winner_at_time(self) -> tuple[int | None, str | None]:
        """After the last hand of a game whose time was called (no other end condition held):
        (winner, reason), (None, "draw"), or (None, None) to play the overtime hand."""
        best = max(self.scores)
        leaders = [i for i, x in enumerate(self.scores) if x == best]
        if len(leaders) == 1:
            return leaders[0], "overtime" if self.overtime else "time"
        if self.time_call == "overtime" and not self.overtime:
            self.overtime = True
            return None, None
        if self.time_call == "bags":
            fewest = min(self.bags[i] for i in leaders)
            least = [i for i in leaders if self.bags[i] == fewest]
            if len(least) == 1:
                return least[0], "bags"
        return None, "draw"

    # -- views -----------------------------------------------------------------------------
    def view(self, seat: int) -> View:
        """Exactly what ``seat`` may know now."""
        self._check_seat(seat)
        return self._make_view(seat)

    def public_view(self) -> View:
        """What a spectator may know: no hand at all."""
        return self._make_view(None)

    def _make_view(self, seat: int | None) -> View:
        looked = seat is not None and self.looked[seat]
        hand = self.hands[seat] if looked and seat is not None else None
        passed = received = None
        drawn = None
        seen = 0
        pass_size = 0
        legal: list[Action] = []
        legal_cards: tuple[int, ...] = ()
        if seat is not None:
            if self.given[seat]:
                passed = self.given[seat]
            if self.received[seat]:
                received = self.received[seat]
            if self.phase is _DRAW and seat == self.to_act and self.looked[seat] and self.stock:
                drawn = self.stock[self.stock_pos]
            seen = self.draw_seen[seat]
            pass_size = self.pass_size(seat)
            legal = self.legal_actions(seat)
            legal_cards = tuple(self.legal_cards(seat))
        return View(
            seat=seat,
            ruleset=self.rs,
            phase=str(self.phase),
            hand_no=self.hand_no,
            dealer=self.dealer,
            to_act=self.to_act,
            seats_to_act=tuple(self.seats_to_act()),
            hand=hand,
            looked=looked,
            hand_sizes=tuple(h.bit_count() for h in self.hands),
            bids=tuple(self.bids),
            tricks=tuple(self.tricks),
            trick_no=self.trick_no,
            current_trick=tuple(self.trick),
            leader=self.leader,
            last_trick=self.last_trick,
            last_trick_winner=self.trick_winners[-1] if self.trick_winners else None,
            trick_winners=tuple(self.trick_winners),
            played=self.played,
            spades_broken=self.broken,
            scores=tuple(self.scores),
            bags=tuple(self.bags),
            winner=self.winner,
            passed=passed,
            received=received,
            pass_size=pass_size,
            drawn_card=drawn,
            draw_discards=seen,
            legal=legal,
            legal_cards=legal_cards,
            tricks_per_hand=self._t.hand_size,
            last_hand=self.last_hand,
            plays=tuple(self.plays),
            first_leader=self.first_leader,
        )

    # -- copying and serialization ----------------------------------------------------------
    def clone(self) -> Game:
        """A cheap independent copy (flat lists copied, immutable parts shared)."""
        g = object.__new__(Game)
        g.rs = self.rs
        g._t = self._t
        g.n = self.n
        g.seed = self.seed
        g.salt = self.salt
        g.deal_key = self.deal_key
        g.hand_no = self.hand_no
        g.redeals = self.redeals
        g.dealer = self.dealer
        g.phase = self.phase
        g.to_act = self.to_act
        g.hands = self.hands[:]
        g.dealt = self.dealt[:]
        g.looked = self.looked[:]
        g.bids = self.bids[:]
        g.bid_log = self.bid_log[:]
        g.pass_sizes = self.pass_sizes[:]
        g.given = self.given[:]
        g.received = self.received[:]
        g.pass_log = self.pass_log[:]
        g.trick = self.trick[:]
        g.leader = self.leader
        g.trick_no = self.trick_no
        g.tricks = self.tricks[:]
        g.played = self.played
        g.plays = self.plays[:]
        g.trick_winners = self.trick_winners[:]
        g.last_trick = self.last_trick
        g.broken = self.broken
        g.scores = self.scores[:]
        g.bags = self.bags[:]
        g.before_scores = self.before_scores
        g.before_bags = self.before_bags
        g.winner = self.winner
        g.end_reason = self.end_reason
        g.time_call = self.time_call
        g.overtime = self.overtime
        g.sets = self.sets[:]
        g._records = self._records[:]
        g._last_hand = self._last_hand
        g._forced_swaps = self._forced_swaps  # replay only; never mutated
        g._seed_key = self._seed_key  # immutable
        g.auto_deal = self.auto_deal
        g.stock = self.stock  # never mutated in place
        g.stock_pos = self.stock_pos
        g.draw_keeps = self.draw_keeps[:]
        g.draw_seen = self.draw_seen[:]
        g._first_lead = self._first_lead
        g.first_leader = self.first_leader
        return g

    def to_dict(self) -> dict[str, Any]:
        """Exact JSON-safe state at any point (cards as ids, hands as id lists).

        >>> import json
        >>> game = Game.new("standard", seed=7, dealer=0)
        >>> _ = game.bid(1, 4)
        >>> copy = Game.from_dict(json.loads(json.dumps(game.to_dict())))
        >>> copy == game, copy.to_act, copy.bids
        (True, 2, [None, Bid(kind='tricks', n=4), None, None])
        """

        def ids(m: int) -> list[int]:
            return bits(m)

        out: dict[str, Any] = {
            "format": STATE_FORMAT,
            "ruleset": self.rs.to_dict(),
            "seed": self.seed,
            "salt": self.salt,
            "deal_key": None if self.deal_key is None else [self.deal_key.seed, self.deal_key.salt],
            "hand_no": self.hand_no,
            "redeals": self.redeals,
            "dealer": self.dealer,
            "phase": str(self.phase),
            "to_act": self.to_act,
            "hands": [ids(m) for m in self.hands],
            "dealt": [ids(m) for m in self.dealt],
            "looked": list(self.looked),
            "bids": [[s, b.to_json()] for s, b in self.bid_log],
            "pass_sizes": list(self.pass_sizes),
            "passes": [[s, ids(m)] for s, m in self.pass_log],
            "received": [ids(m) for m in self.received],
            "trick": [[s, c] for s, c in self.trick],
            "leader": self.leader,
            "trick_no": self.trick_no,
            "tricks": list(self.tricks),
            "plays": list(self.plays),
            "trick_winners": list(self.trick_winners),
            "last_trick": None if self.last_trick is None else [[s, c] for s, c in self.last_trick],
            "spades_broken": self.broken,
            "first_lead": self._first_lead,
            "first_leader": self.first_leader,
            "scores": list(self.scores),
            "bags": list(self.bags),
            "before": {"scores": list(self.before_scores), "bags": list(self.before_bags)},
            "winner": self.winner,
            "end_reason": self.end_reason,
            "auto_deal": self.auto_deal,
            "stock": list(self.stock),
            "stock_pos": self.stock_pos,
            "draw_keeps": list(self.draw_keeps),
            "draw_seen": [ids(m) for m in self.draw_seen],
            "last_hand": self.last_hand,
            "hand_records": list(self.hand_records),
        }
        # written only when in use, so saved games of before read and compare as they did
        if any(self.sets):
            out["sets"] = list(self.sets)
        if self.time_call is not None:
            out["time_call"] = self.time_call
            out["overtime"] = self.overtime
        return out

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Game:
        if d.get("format") != STATE_FORMAT:
            raise ValueError(f"not a saved game (format {d.get('format')!r}, expected {STATE_FORMAT!r})")
        rs = Ruleset.from_dict(d["ruleset"])
        g = cls._blank(rs)

        def mask(cs: list[int]) -> int:
            m = 0
            for c in cs:
                m |= 1 << c
            return m

        g.seed = d["seed"]
        g.salt = d["salt"]
        if d.get("deal_key"):
            g.deal_key = fair.DealKey(*d["deal_key"])
        g.hand_no = d["hand_no"]
        g.redeals = d["redeals"]
        g.dealer = d["dealer"]
        g.phase = Phase(d["phase"])
        g.to_act = d["to_act"]
        g.hands = [mask(h) for h in d["hands"]]
        g.dealt = [mask(h) for h in d["dealt"]]
        g.looked = list(d["looked"])
        g.bid_log = [(s, Bid.parse(b)) for s, b in d["bids"]]
        g.bids = [None] * g.n
        for s, b in g.bid_log:
            g.bids[s] = b
        g.pass_sizes = list(d["pass_sizes"])
        g.pass_log = [(s, mask(cs)) for s, cs in d["passes"]]
        g.given = [0] * g.n
        for s, m in g.pass_log:
            g.given[s] = m
        g.received = [mask(r) for r in d["received"]]
        g.trick = [(s, c) for s, c in d["trick"]]
        g.leader = d["leader"]
        g.trick_no = d["trick_no"]
        g.tricks = list(d["tricks"])
        g.plays = list(d["plays"])
        g.played = mask(g.plays)
        g.trick_winners = list(d["trick_winners"])
        g.last_trick = None if d["last_trick"] is None else tuple((s, c) for s, c in d["last_trick"])
        g.broken = d["spades_broken"]
        g._first_lead = d["first_lead"]
        g.first_leader = d.get("first_leader")
        g.scores = list(d["scores"])
        g.bags = list(d["bags"])
        g.before_scores = list(d["before"]["scores"])
        g.before_bags = list(d["before"]["bags"])
        g.winner = d["winner"]
        g.end_reason = d["end_reason"]
        if d.get("sets"):
            g.sets = [int(x) for x in d["sets"]]
        g.time_call = d.get("time_call")
        g.overtime = bool(d.get("overtime", False))
        g.auto_deal = d["auto_deal"]
        g.stock = list(d["stock"])
        g.stock_pos = d["stock_pos"]
        g.draw_keeps = list(d["draw_keeps"])
        g.draw_seen = [mask(m) for m in d["draw_seen"]]
        g._last_hand = d["last_hand"]
        g._records = list(d["hand_records"])
        return g

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Game):
            return NotImplemented
        return self.to_dict() == other.to_dict()

    __hash__ = None  # type: ignore[assignment]  # mutable and compared by value: unhashable

    def __repr__(self) -> str:
        return (
            f"<Game {self.rs.name} hand {self.hand_no} {self.phase} to_act={self.to_act} "
            f"scores={self.scores}>"
        )


_PLAIN_BIDS: dict[int, tuple[Ruleset, tuple[Bid, ...], list[list[BidAction]], frozenset[Bid | int]]] = {}


def _plain_bids(rs: Ruleset, top: int) -> tuple[tuple[Bid, ...], list[list[BidAction]], frozenset[Bid | int]]:
    """The number-or-nil bids of a ruleset (no blind, no constraint), cached per ruleset object:
    the bids, the interned BidActions per seat, and a set for membership tests (holding the
    bids and the ids of the interned ones: ``id(b) in s`` skips hashing the dataclass)."""
    entry = _PLAIN_BIDS.get(id(rs))
    if entry is None or entry[0] is not rs:
        lo = 1 if rs.nil_allowed else 0
        opts = tuple(Bid.tricks(i) for i in range(lo, top + 1)) + ((Bid.NIL,) if rs.nil_allowed else ())
        acts = [[bid_action(s, b) for b in opts] for s in range(rs.num_seats)]
        if len(_PLAIN_BIDS) > 256:
            _PLAIN_BIDS.clear()
        members: frozenset[Bid | int] = frozenset(opts) | frozenset(id(b) for b in opts)
        entry = _PLAIN_BIDS[id(rs)] = (rs, opts, acts, members)
    return entry[1], entry[2], entry[3]


_Lean = tuple[
    tuple[Bid, ...],
    tuple[int, ...],
    tuple[tuple[int, ...], ...],
    int | None,
    tuple[int | None, int | None, int],
]
_LEAN: dict[int, tuple[Ruleset, _Lean]] = {}


def _lean(rs: Ruleset) -> _Lean:
    """What the playout's bidding reads of a ruleset, cached per ruleset object: the plain bids
    (``_plain_bids``), each seat's side, the sides, and the least deficit at which a side may
    bid blind (``blind_nil_open`` or ``blind_bids_open``; None when it never may), and apart
    the least deficits for blind nil and for blind number bids (None: never) with the highest
    blind bid (``_blind_options`` as two comparisons)."""
    entry = _LEAN.get(id(rs))
    if entry is None or entry[0] is not rs:
        if len(_LEAN) > 256:
            _LEAN.clear()
        always = -(1 << 62)  # a min deficit of 0 is no score condition at all
        nil_from = (rs.blind_nil_min_deficit or always) if rs.blind_nil_allowed and rs.nil_allowed else None
        bids_from = (rs.blind_bid_min_deficit or always) if rs.blind_bids else None
        opens = [d for d in (nil_from, bids_from) if d is not None]
        entry = _LEAN[id(rs)] = (
            rs,
            (
                _plain_bids(rs, tables(rs).hand_size)[0],
                tuple(rs.side_of(s) for s in range(rs.num_seats)),
                rs.sides,
                min(opens) if opens else None,
                (nil_from, bids_from, rs.blind_bid_max),
            ),
        )
    return entry[1]


@lru_cache(maxsize=64)
def _blind_bids(nil: bool, top: int) -> tuple[Bid, ...]:
    """Blind nil (when ``nil``), then blind 1..``top``."""
    return ((Bid.BLIND_NIL,) if nil else ()) + tuple(Bid.of("blind", i) for i in range(1, top + 1))


def _ruleset(rs: Ruleset | str | None) -> Ruleset:
    if rs is None:
        return Ruleset()
    if isinstance(rs, str):
        return Ruleset.preset(rs)
    return rs


def _record_breakdown(
    rs: Ruleset, r: tuple[Any, ...] | None, rec: dict[str, Any] | None = None
) -> list[SideScore]:
    """The scoring breakdown of a finished hand, from its pending record tuple (recomputed when
    the hand was finished quietly) or from a built record (recomputed from its bids)."""
    if r is not None:
        if r[15] is not None:
            return r[15]
        bid_log = [(s, Bid.of(k, n)) for s, k, n in r[3]]
        tricks, before_scores, before_bags = r[10], r[6], r[7]
    else:
        assert rec is not None
        bid_log = [(s, Bid.parse(b)) for s, b in rec["bids"]]
        tricks, before_scores = rec["result"]["tricks"], rec["before"]["scores"]
        before_bags = rec["before"]["bags"]
    bids: list[Bid | None] = [None] * rs.num_seats
    for s, b in bid_log:
        bids[s] = b
    return score_hand(rs, bids, tricks, before_scores, before_bags)


def _build_record(
    rs: Ruleset,
    hand_no: int,
    dealer: int,
    dealt: tuple[int, ...],
    bids_made: tuple[tuple[int, BidKind, int], ...],
    pass_log: tuple[tuple[int, int], ...],
    plays: tuple[int, ...],
    before_scores: tuple[int, ...],
    before_bags: tuple[int, ...],
    stock: tuple[int, ...],
    keeps: tuple[bool, ...],
    tricks: tuple[int, ...],
    scores: tuple[int, ...],
    bags: tuple[int, ...],
    winner: int | None,
    trick_winners: tuple[int, ...],
    breakdown: list[SideScore] | None,
    received: tuple[int, ...] = (),
    deal: tuple[DealKey, int] | None = None,
) -> dict[str, Any]:
    bid_log = [(s, Bid.of(k, n)) for s, k, n in bids_made]
    if breakdown is None:  # finished quietly: the same pure scoring, now
        bids: list[Bid | None] = [None] * rs.num_seats
        for s, b in bid_log:
            bids[s] = b
        breakdown = score_hand(rs, bids, tricks, before_scores, before_bags)
    rec: dict[str, Any] = {
        "format": RECORD_FORMAT,
        "ruleset": rs.to_json(),
        "hand_no": hand_no,
        "dealer": dealer,
        "deal": [[card_str(c) for c in cards_of(m)] for m in dealt],
        "bids": [[s, b.to_json()] for s, b in bid_log],
        "passes": [[s, [card_str(c) for c in cards_of(m)]] for s, m in pass_log],
        "plays": [card_str(c) for c in plays],
        "before": {"scores": list(before_scores), "bags": list(before_bags)},
    }
    if rs.two_player_draw and pass_log:
        rec["replacements"] = [[s, [card_str(c) for c in cards_of(received[s])]] for s, _ in pass_log]
    if rs.two_player_draw and stock:
        rec["draw"] = {"stock": [card_str(c) for c in stock], "keeps": list(keeps)}
    if deal is not None:  # the hand is over: reveal its key
        key, redeal = deal
        rec["fair"] = {
            "scheme": fair.SCHEME,
            "commitment": key.commitment,
            "seed": key.seed,
            "salt": key.salt,
            "redeal": redeal,
        }
    rec["result"] = result_dict(
        list(tricks), list(scores), list(bags), winner, list(trick_winners), breakdown
    )
    return rec


def result_dict(
    tricks: list[int],
    scores: list[int],
    bags: list[int],
    winner: int | None,
    trick_winners: list[int],
    breakdown: list[SideScore],
) -> dict[str, Any]:
    """The HAND_RECORD.md result plus trick winners and the per-side breakdown."""
    return {
        "tricks": list(tricks),
        "scores": list(scores),
        "bags": list(bags),
        "winner": winner,
        "trick_winners": list(trick_winners),
        "breakdown": [sc.to_dict() for sc in breakdown],
    }


__all__ = ["RECORD_FORMAT", "STATE_FORMAT", "Game", "Phase", "result_dict"]


@lru_cache(maxsize=32)
def _combinations(n: int, k: int) -> tuple[tuple[int, ...], ...] | None:
    """Every ``k``-combination of the positions ``0..n-1`` in lexicographic order (the order
    of ``_unrank``), when there are at most 5,000 of them (else None); ``k >= 2`` (an
    itemgetter of one position returns the card itself, not a tuple)."""
    if k < 2 or comb(n, k) > 5000:
        return None
    return tuple(combinations(range(n), k))


def _unrank(cards: list[int], k: int, i: int) -> list[int]:
    """The ``i``-th ``k``-combination of ``cards`` in lexicographic order (``PassChoices``)."""
    n = len(cards)
    out: list[int] = []
    start = 0
    for left in range(k, 0, -1):
        for j in range(start, n):
            c = comb(n - j - 1, left - 1)
            if i < c:
                out.append(cards[j])
                start = j + 1
                break
            i -= c
    return out


class PassChoices(Sequence[PassAction]):
    """Every way to pass ``k`` of ``cards`` for each ``k`` in ``ks``, built on demand
    (C(13,3) = 286 actions otherwise)."""

    __slots__ = ("_cards", "_ks", "_len", "seat")

    def __init__(self, seat: int, cards: list[int], ks: tuple[int, ...] | int) -> None:
        self.seat = seat
        self._cards = cards
        self._ks = (ks,) if isinstance(ks, int) else tuple(ks)
        self._len = sum(comb(len(cards), k) for k in self._ks)

    def __len__(self) -> int:
        return self._len

    @overload
    def __getitem__(self, i: int) -> PassAction: ...
    @overload
    def __getitem__(self, i: slice) -> list[PassAction]: ...

    def __getitem__(self, i: int | slice) -> PassAction | list[PassAction]:
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(self._len))]
        if i < 0:
            i += self._len
        if not 0 <= i < self._len:
            raise IndexError("pass choice out of range")
        cards = self._cards
        n = len(cards)
        for k in self._ks:
            size = comb(n, k)
            if i >= size:
                i -= size
                continue
            return PassAction(self.seat, tuple(_unrank(cards, k, i)))
        raise IndexError("pass choice out of range")  # pragma: no cover

    def __iter__(self) -> Iterator[PassAction]:
        for k in self._ks:
            for combo in combinations(self._cards, k):
                yield PassAction(self.seat, combo)

    def __contains__(self, action: object) -> bool:
        return (
            isinstance(action, PassAction)
            and action.seat == self.seat
            and len(action.cards) in self._ks
            and len(set(action.cards)) == len(action.cards)
            and all(c in self._cards for c in action.cards)
        )

    def __eq__(self, other: object) -> bool:
        if isinstance(other, PassChoices | list | tuple):
            return list(self) == list(other)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]  # mutable and compared by value: unhashable

    def __repr__(self) -> str:
        return f"<PassChoices seat={self.seat} {self._ks} of {len(self._cards)}: {self._len} ways>"


def _card_mask(cards: list[Any], seat: int) -> int:
    """The bit mask of the cards a seat passes or exchanges; a refusal for anything not a card."""
    mask = 0
    for c in cards:
        if not isinstance(c, int) or isinstance(c, bool) or c < 0:
            raise BadPass(
                f"{c!r} is not a card.",
                seat=seat,
                rule=f"seat {seat} passed a non-card",
                reason="not_a_card",
                card=c,
                private=("card",),
            )
        mask |= 1 << c
    return mask
