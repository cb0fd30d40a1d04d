"""Hand records (HAND_RECORD.md): export is ``Game.hand_records``; this module replays them.

``replay(record)`` re-runs one hand through the same ``Game`` rules that played it, so a record
is scored exactly as the live game scored it, and the first action the rules refuse is reported
by its position (``plays[17]: 9H is not held by seat 2``). ``hand_replay(record)`` reads a finished
hand trick by trick (``HandReplay``: the deal, the passes, each trick and who held what before it).
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .bids import Bid, BidParseError
from .cards import COPY_OFFSET, CardParseError, bits, card_str, parse_card
from .errors import IllegalAction, RecordError, RulesetError
from .game import RECORD_FORMAT, Game, Phase
from .ruleset import Ruleset, tables

if TYPE_CHECKING:
    from .fair import DealKey


def _int(value: Any, position: str, what: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise RecordError(position, f"{what} must be a whole number, not {json.dumps(value)}")
    return value


def _card(text: Any, position: str) -> int:
    if not isinstance(text, str):
        raise RecordError(position, f"{json.dumps(text)} is not a card")
    try:
        return parse_card(text)
    except CardParseError as e:
        raise RecordError(position, str(e)) from None


def _held_copy(g: Game, seat: int, card: int) -> int:
    """In two-deck games a card text names either copy: use the one the seat holds."""
    if g.rs.decks == 2 and not g.hands[seat] >> card & 1 and g.hands[seat] >> (card + COPY_OFFSET) & 1:
        return card + COPY_OFFSET
    return card


def load_game(record: Any) -> Game:
    """The game at the start of the recorded hand (deal checked), ready for its bids."""
    if not isinstance(record, dict):
        raise RecordError("", "a hand record is a JSON object")
    fmt = record.get("format", RECORD_FORMAT)
    if fmt != RECORD_FORMAT:
        raise RecordError("format", f"unknown format {json.dumps(fmt)}; expected {RECORD_FORMAT}")
    try:
        rs = Ruleset.from_dict(record.get("ruleset", "standard"))
    except (RulesetError, TypeError) as e:
        raise RecordError("ruleset", str(e)) from None
    n = rs.num_seats
    dealer = _int(record.get("dealer"), "dealer", "the dealer")
    if not 0 <= dealer < n:
        raise RecordError("dealer", f"there is no seat {dealer} in a {n}-seat game")
    hand_no = _int(record.get("hand_no", 1), "hand_no", "the hand number")
    deal = record.get("deal")
    if not isinstance(deal, list) or len(deal) != n:
        raise RecordError("deal", f"the deal must list the cards of all {n} seats")
    t = tables(rs)
    deck_faces = Counter(c & 63 for c in t.deck)
    seen: Counter[int] = Counter()
    hands = []
    for s, cards in enumerate(deal):
        if not isinstance(cards, list):
            raise RecordError(f"deal[{s}]", "a seat's cards must be a list")
        if len(cards) != t.hand_size:
            raise RecordError(f"deal[{s}]", f"seat {s} holds {len(cards)} cards, not {t.hand_size}")
        m = 0
        for i, text in enumerate(cards):
            c = _card(text, f"deal[{s}][{i}]")
            if not deck_faces[c]:
                raise RecordError(f"deal[{s}][{i}]", f"{card_str(c)} is not in the {rs.name} deck")
            if seen[c] >= deck_faces[c]:
                raise RecordError(f"deal[{s}][{i}]", f"{card_str(c)} is dealt twice")
            copy = c + COPY_OFFSET * seen[c]
            seen[c] += 1
            m |= 1 << copy
        hands.append(m)
    before = record.get("before") or {}
    if not isinstance(before, dict):
        raise RecordError("before", "before must be an object with scores and bags")
    sides = rs.num_sides
    scores = before.get("scores", [0] * sides)
    bags = before.get("bags", [0] * sides)
    for key, vals in (("scores", scores), ("bags", bags)):
        if not isinstance(vals, list) or len(vals) != sides:
            raise RecordError(f"before.{key}", f"{key} must list {sides} sides")
        for i, v in enumerate(vals):
            _int(v, f"before.{key}[{i}]", key)
            # bags that reach the limit are paid for at once, so a running count never shows them
            if key == "bags" and v < 0:
                raise RecordError(f"before.bags[{i}]", f"bags can't be negative ({v})")
            if key == "bags" and rs.bag_limit and v >= rs.bag_limit:
                raise RecordError(
                    f"before.bags[{i}]", f"{v} bags can't be carried: the bag limit is {rs.bag_limit}"
                )
    if rs.two_player_draw:
        # the deal is the kept cards; the game waits in the draw for pre-draw blind nil bids
        g = Game._predraw(rs, hands, dealer, scores, bags, hand_no)
    else:
        g = Game.from_deal(rs, hands, dealer=dealer, scores=scores, bags=bags, hand_no=hand_no)
    g.auto_deal = False
    return g


def replay(record: dict[str, Any], *, deal_key: DealKey | None = None, redeal: int = 0) -> dict[str, Any]:
    """Replay one hand record; return ``{tricks, scores, bags, winner, trick_winners,
    breakdown}`` or raise ``RecordError`` naming the first bad action.

    ``deal_key`` (``engine.verify``): the two-player blind nil replacements are drawn from
    that key as the live game drew them, and must be the ones the record lists.

    >>> import random
    >>> game = Game.new("standard", seed=7, dealer=0)
    >>> game.playout(random.Random(1))
    >>> record = game.hand_records[0]
    >>> result = replay(record)
    >>> result["tricks"], result["scores"], result["winner"]
    ([4, 4, 2, 3], [-170, -140], None)
    >>> record["plays"][0], record["plays"][1] = record["plays"][1], record["plays"][0]
    >>> replay(record)
    Traceback (most recent call last):
    ...
    engine.errors.RecordError: plays[0]: ...
    """
    g = replay_game(record, deal_key=deal_key, redeal=redeal)
    return dict(g.hand_records[-1]["result"])


def replay_game(record: dict[str, Any], *, deal_key: DealKey | None = None, redeal: int = 0) -> Game:
    """``replay``, returning the game once the hand is over (``history()``, ``first_leader``,
    ``trick_winners`` and ``hand_records[-1]`` read the hand trick by trick)."""
    g = load_game(record)
    if deal_key is not None:
        g.deal_key = deal_key
        g.redeals = redeal
    n = g.n
    bids = record.get("bids")
    if not isinstance(bids, list):
        raise RecordError("bids", "bids must be a list of [seat, bid]")
    passes = record.get("passes") or []
    if not isinstance(passes, list):
        raise RecordError("passes", "passes must be a list of [seat, cards]")
    passes_done = False

    def parse_bid(i: int) -> tuple[int, Bid]:
        pos = f"bids[{i}]"
        entry = bids[i]
        if not (isinstance(entry, list) and len(entry) == 2):
            raise RecordError(pos, "a bid is written [seat, bid]")
        seat = _int(entry[0], pos, "the seat")
        if not 0 <= seat < n:
            raise RecordError(pos, f"there is no seat {seat}")
        try:
            return seat, Bid.parse(entry[1])
        except BidParseError as e:
            raise RecordError(pos, str(e)) from None

    i = 0
    if g.phase is Phase.DRAW:  # two-player: blind nils were declared before the draw
        while i < len(bids):
            seat, b = parse_bid(i)
            if b.kind != "blind_nil":
                break
            try:
                g.bid(seat, b)
            except IllegalAction as e:
                raise RecordError(f"bids[{i}]", e.rule) from None
            i += 1
        g._after_draw()
    first = i
    for i in range(first, len(bids)):
        if g.phase is Phase.PASS and not passes_done:
            _replay_passes(g, record, passes)
            passes_done = True
        pos = f"bids[{i}]"
        seat, b = parse_bid(i)
        if g.phase is not Phase.BID:
            raise RecordError(pos, "bidding is already over")
        if seat != g.to_act:
            raise RecordError(pos, f"it is seat {g.to_act}'s turn to bid, not seat {seat}'s")
        try:
            g.bid(seat, b)
        except IllegalAction as e:
            raise RecordError(pos, e.rule) from None
    if g.phase is Phase.BID:
        raise RecordError("bids", f"only {len(bids)} of {n} seats bid")
    if g.phase is Phase.PASS and not passes_done:
        _replay_passes(g, record, passes)
        passes_done = True
    if passes and not passes_done:
        raise RecordError("passes[0]", "no cards are passed in this hand")
    plays = record.get("plays")
    if not isinstance(plays, list):
        raise RecordError("plays", "plays must be a list of cards")
    for i, text in enumerate(plays):
        pos = f"plays[{i}]"
        card = _card(text, pos)
        if g.phase is not Phase.PLAY:
            raise RecordError(pos, "the hand is already over")
        player = g.to_act
        assert player is not None
        try:
            g.play(player, _held_copy(g, player, card))
        except IllegalAction as e:
            raise RecordError(pos, e.rule) from None
    if g.phase is Phase.PLAY:
        total = g._t.hand_size * n
        raise RecordError("plays", f"the record ends after {len(plays)} of {total} cards")
    built = g.hand_records[-1]
    if deal_key is not None and built.get("replacements") != (record.get("replacements") or None):
        raise RecordError("replacements", "the replacement cards are not the ones the seed deals")
    return g


def _replay_passes(g: Game, record: dict[str, Any], passes: list[Any]) -> None:
    n = g.n
    if g.rs.two_player_draw:
        repl = record.get("replacements") or []
        if not isinstance(repl, list):
            raise RecordError("replacements", "replacements must be a list of [seat, cards]")
        forced: dict[int, list[int]] = {}
        for i, entry in enumerate(repl):
            pos = f"replacements[{i}]"
            if not (isinstance(entry, list) and len(entry) == 2 and isinstance(entry[1], list)):
                raise RecordError(pos, "replacements are written [seat, [cards]]")
            seat = _int(entry[0], pos, "the seat")
            forced[seat] = [_card(t, f"{pos}[{j}]") for j, t in enumerate(entry[1])]
        if g.deal_key is None:  # with a key (verify) the engine draws them as in the live game
            g._forced_swaps = forced
    for i, entry in enumerate(passes):
        pos = f"passes[{i}]"
        if not (isinstance(entry, list) and len(entry) == 2 and isinstance(entry[1], list)):
            raise RecordError(pos, "a pass is written [seat, [cards]]")
        seat = _int(entry[0], pos, "the seat")
        if not 0 <= seat < n:
            raise RecordError(pos, f"there is no seat {seat}")
        if g.phase is not Phase.PASS:
            raise RecordError(pos, "no cards are passed now")
        if (
            g.rs.two_player_draw
            and g.deal_key is None
            and g._forced_swaps is not None
            and seat not in g._forced_swaps
        ):
            raise RecordError(pos, f"the record has no replacement cards for seat {seat}")
        cards: list[int] = []
        for j, t in enumerate(entry[1]):
            c = _held_copy(g, seat, _card(t, f"{pos}[{j}]"))
            if c in cards and g.rs.decks == 2:
                c ^= COPY_OFFSET  # the same face twice: both copies
            cards.append(c)
        try:
            g.pass_cards(seat, cards)
        except IllegalAction as e:
            raise RecordError(pos, e.rule) from None
    if g.phase is Phase.PASS:
        owing = g.seats_to_act()
        raise RecordError("passes", f"seat {owing[0]} must pass {g.pass_size(owing[0])} cards")


def replay_file(path: str) -> dict[str, Any]:
    """Read a JSON record from ``path`` ("-" for stdin) and replay it."""
    return replay(read_record(path))


def read_record(path: str) -> Any:
    """The JSON read from ``path`` ("-" for stdin); ``RecordError`` when unreadable."""
    import sys

    try:
        if path == "-":
            text = sys.stdin.read()
        else:
            with open(path, encoding="utf-8") as f:
                text = f.read()
    except OSError as e:
        raise RecordError("", f"cannot read {path}: {e.strerror or e}") from None
    try:
        record = json.loads(text)
    except json.JSONDecodeError as e:
        raise RecordError("", f"{path} is not JSON: {e.msg} at line {e.lineno} column {e.colno}") from None
    return record


@dataclass(frozen=True)
class Trick:
    no: int  # 1-based
    plays: tuple[tuple[int, int], ...]  # (seat, card) in play order
    winner: int


@dataclass(frozen=True)
class HandReplay:
    """A finished hand read trick by trick (rebuilt by the engine from the record)."""

    record: dict[str, Any]
    ruleset: Ruleset
    hand_no: int
    dealer: int
    dealt: tuple[int, ...]  # per seat, a card mask, as dealt (two-player: as kept after the draw)
    bids: tuple[tuple[int, Any], ...]  # (seat, the bid as the record holds it: 4, "nil", "blind 6")
    passes: tuple[tuple[int, tuple[int, ...]], ...]
    tricks: tuple[Trick, ...]
    result: dict[str, Any]

    @property
    def steps(self) -> int:
        """The deal and bids, one step per trick, the scoring."""
        return len(self.tricks) + 2

    def held_before(self, trick_no: int) -> list[int]:
        """Each seat's cards before trick ``trick_no`` (1-based) was played (after any pass)."""
        hands = list(self.after_pass)
        for t in self.tricks[: trick_no - 1]:
            for seat, card in t.plays:
                hands[seat] &= ~(1 << card)
        return hands

    @property
    def after_pass(self) -> list[int]:
        hands = list(self.dealt)
        for seat, cards in self.passes:
            for c in cards:
                hands[seat] &= ~(1 << c)
        n = len(hands)
        if self.ruleset.two_player_draw:
            for seat, cards in (tuple(x) for x in self.record.get("replacements") or []):
                for c in cards:
                    hands[seat] |= 1 << parse_card(c)
            return hands
        for seat, cards in self.passes:  # partners swap: the cards arrive at the partner
            partner = self.ruleset.partner_of(seat)
            if partner is not None and partner < n:
                for c in cards:
                    hands[partner] |= 1 << c
        return hands


def hand_replay(record: dict[str, Any]) -> HandReplay:
    """Rebuild a finished hand from its record, trick by trick; raises ``RecordError`` when it does
    not replay."""
    g = replay_game(record)
    n = g.n
    history = g.history()
    tricks = []
    for i in range(0, len(history), n):
        no = i // n + 1
        tricks.append(Trick(no, tuple(history[i : i + n]), g.trick_winners[no - 1]))
    bids = tuple((int(s), b) for s, b in record.get("bids", []))
    passes = tuple((s, tuple(bits(m))) for s, m in g.pass_log)
    return HandReplay(
        record,
        g.rs,
        g.hand_no,
        g.dealer,
        tuple(g.dealt),
        bids,
        passes,
        tuple(tricks),
        dict(g.hand_records[-1]["result"]),
    )
