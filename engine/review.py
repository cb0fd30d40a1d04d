"""A hand review: one seat's decisions in a finished hand beside the strong bot's.

The hand's record (docs/HAND_RECORD.md) is replayed to each of the seat's decisions (its bid, then
each card it played) and the strong bot (`engine.bots.strong.StrongBot`) is asked what it would
have done there: the same cards, the same earlier bids and plays, the same score situation, and
only what that seat could see (its `View`). Where the bot's choice differs, its search scores both
choices in the same sampled deals (`StrongBot.estimate`) and the difference is the points the bot
expected its choice to gain (its estimate, not a certainty: the other hands are sampled).

>>> import json
>>> record = json.load(open("docs/examples/standard-hand.json"))
>>> review = review_hand(record, 2, worlds=4, time_limit=None)  # seat 2, 4 sampled deals a search
>>> review.bid.player, review.bid.bot, review.plays_reviewed
(Bid(kind='tricks', n=3), Bid(kind='tricks', n=3), 13)
>>> from engine.cards import card_str
>>> [(d.trick, card_str(d.player), card_str(d.bot), d.gain) for d in review.plays]
[(5, 'AD', '2D', 60.5), (6, '8C', 'KD', 29.8)]
>>> HandReview.from_dict(review.to_dict()) == review
True
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal

from .actions import Action, BidAction, Look, PlayAction
from .bids import Bid
from .bots.expert import distinct_cards
from .bots.strong import StrongBot
from .errors import RecordError
from .game import Game, Phase
from .record import _card, _held_copy, _replay_passes, load_game

__all__ = ["Decision", "HandReview", "review_hand", "reviewable"]

Kind = Literal["bid", "play"]


@dataclass(frozen=True)
class Decision:
    """One decision of the seat: what it did and what the strong bot would have done there.

    ``trick`` is the trick (1-based) of a play, 0 for the bid; ``player`` / ``bot`` a `Bid` or a
    card (an int, as `engine.cards`); ``gain`` the points the bot's search expected its choice to
    gain over the player's (0 when they are the same; it can be a little below 0, the search's
    noise, when the bot's choice came from its rules and not from the comparison)."""

    kind: Kind
    trick: int
    player: Bid | int
    bot: Bid | int
    gain: float

    @property
    def differs(self) -> bool:
        return self.player != self.bot

    def to_dict(self) -> dict[str, Any]:
        def out(x: Bid | int) -> Any:
            return x.to_json() if isinstance(x, Bid) else x

        return {
            "kind": self.kind,
            "trick": self.trick,
            "player": out(self.player),
            "bot": out(self.bot),
            "gain": self.gain,
        }

    @staticmethod
    def from_dict(d: dict[str, Any]) -> Decision:
        kind: Kind = "bid" if d["kind"] == "bid" else "play"

        def back(x: Any) -> Bid | int:
            return Bid.parse(x) if kind == "bid" else int(x)

        return Decision(kind, int(d["trick"]), back(d["player"]), back(d["bot"]), float(d["gain"]))


@dataclass(frozen=True)
class HandReview:
    """A seat's hand reviewed: its bid beside the bot's, and the plays where the bot would have
    played another card, the largest expected gain first."""

    seat: int
    hand_no: int
    bid: Decision
    plays: tuple[Decision, ...]
    plays_reviewed: int

    @property
    def bid_within_one(self) -> bool | None:
        """Whether the seat's bid was within one trick of the bot's (None when either is a nil:
        a nil and a number are not near one another)."""
        p, b = self.bid.player, self.bid.bot
        assert isinstance(p, Bid) and isinstance(b, Bid)
        if p.is_nil or b.is_nil:
            return None if p != b else True
        return abs(p.n - b.n) <= 1

    def top(self, n: int) -> tuple[Decision, ...]:
        """The ``n`` plays with the largest expected gain."""
        return self.plays[:n]

    def to_dict(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "hand_no": self.hand_no,
            "bid": self.bid.to_dict(),
            "plays": [d.to_dict() for d in self.plays],
            "plays_reviewed": self.plays_reviewed,
        }

    @staticmethod
    def from_dict(d: dict[str, Any]) -> HandReview:
        return HandReview(
            int(d["seat"]),
            int(d["hand_no"]),
            Decision.from_dict(d["bid"]),
            tuple(Decision.from_dict(x) for x in d["plays"]),
            int(d["plays_reviewed"]),
        )


@dataclass
class _Point:
    """The game just before one of the seat's decisions, and what the seat did there."""

    game: Game
    kind: Kind
    trick: int
    actual: Bid | int


def reviewable(record: dict[str, Any]) -> bool:
    """Whether the hand of ``record`` can be reviewed: any but a two-player draw (its cards were
    drawn one by one, a decision the review does not replay). Raises ``RecordError`` when the
    record does not load."""
    return load_game(record).phase is not Phase.DRAW


def decision_points(record: dict[str, Any], seat: int) -> list[_Point]:
    """The game (a copy) before each of ``seat``'s bid and plays in the hand of ``record``, with
    what it did there. Raises ``RecordError`` when the record does not replay (as `replay`)."""
    g = load_game(record)
    n = g.n
    if not 0 <= seat < n:
        raise RecordError("", f"there is no seat {seat}")
    if g.phase is Phase.DRAW:
        raise RecordError("", "two-player hands (drawn cards) are not reviewed")
    bids = record.get("bids")
    plays = record.get("plays")
    passes = record.get("passes") or []
    if not isinstance(bids, list) or not isinstance(plays, list) or not isinstance(passes, list):
        raise RecordError("", "the record needs bids and plays")
    points: list[_Point] = []
    passes_done = False
    for i, entry in enumerate(bids):
        if g.phase is Phase.PASS and not passes_done:
            _replay_passes(g, record, passes)
            passes_done = True
        pos = f"bids[{i}]"
        if not (isinstance(entry, list) and len(entry) == 2) or g.phase is not Phase.BID:
            raise RecordError(pos, "a bid out of place")
        who, b = int(entry[0]), Bid.parse(entry[1])
        if who == seat:
            points.append(_Point(g.clone(), "bid", 0, b))
        try:
            g.bid(who, b)
        except Exception as e:
            raise RecordError(pos, str(e)) from None
    if g.phase is Phase.PASS and not passes_done:
        _replay_passes(g, record, passes)
    for i, text in enumerate(plays):
        pos = f"plays[{i}]"
        card = _card(text, pos)
        if g.phase is not Phase.PLAY:
            raise RecordError(pos, "the hand is already over")
        player = g.to_act
        assert player is not None
        card = _held_copy(g, player, card)
        if player == seat:
            points.append(_Point(g.clone(), "play", g.trick_no + 1, card))
        try:
            g.play(player, card)
        except Exception as e:
            raise RecordError(pos, str(e)) from None
    return points


def _bot_bid(bot: StrongBot, g: Game, seat: int) -> tuple[list[Action], Bid]:
    """The bot's bid for ``seat`` (a look first when it looks) and the actions it took."""
    actions: list[Action] = []
    for _ in range(3):
        action = bot.act(g.view(seat))
        actions.append(action)
        g.apply(action)
        if isinstance(action, BidAction):
            return actions, action.bid
        if not isinstance(action, Look):
            break
    raise RecordError("", "the bot did not bid")  # pragma: no cover - a bid turn ends in a bid


def review_hand(
    record: dict[str, Any],
    seat: int,
    *,
    seed: int | str = 0,
    time_limit: float | None = 0.15,
    worlds: int = 24,
    clock: Callable[[], float] = time.perf_counter,
) -> HandReview:
    """``seat``'s decisions in the hand of ``record`` beside the strong bot's (see the module).

    ``time_limit``: seconds per search (the bot's decision, then the estimate of a difference)
    measured by ``clock`` (``time.process_time``: CPU seconds, so a loaded machine gets the same
    review); None for no cap (``worlds`` sampled deals each, the same answer on any machine).
    Raises ``RecordError`` when the record does not replay."""
    points = decision_points(record, seat)
    bot = StrongBot(seed, worlds=worlds, time_limit=time_limit, clock=clock)
    bid: Decision | None = None
    plays: list[Decision] = []
    reviewed = 0
    hand_no = int(record.get("hand_no", 1) or 1)
    for p in points:
        g = p.game
        if p.kind == "bid":
            assert isinstance(p.actual, Bid)
            if not g.looked[seat] and not p.actual.is_blind:
                g.apply(Look(seat))  # the seat looked at its cards before a bid that is not blind
            view = g.view(seat)
            taken, choice = _bot_bid(bot, g.clone(), seat)
            gain = 0.0
            if choice != p.actual:
                mine: list[Action] = [BidAction(seat, p.actual)]
                values = bot.estimate(view, [taken, mine])
                gain = values[0] - values[1]
            bid = Decision("bid", 0, p.actual, choice, round(gain, 1))
            continue
        assert isinstance(p.actual, int)
        reviewed += 1
        view = g.view(seat)
        action = bot.act(view)
        card = action.card if isinstance(action, PlayAction) else p.actual
        if len(distinct_cards(view, [card, p.actual], card)) == 1:
            continue  # the same card, or one that does the same (Q or J with the K out: either)
        values = bot.estimate(view, [[PlayAction(seat, card)], [PlayAction(seat, p.actual)]])
        plays.append(Decision("play", p.trick, p.actual, card, round(values[0] - values[1], 1)))
    if bid is None:
        raise RecordError("bids", f"seat {seat} did not bid")
    plays.sort(key=lambda d: (-d.gain, d.trick))
    return HandReview(seat, hand_no, bid, tuple(plays), reviewed)
