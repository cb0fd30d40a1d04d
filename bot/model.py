"""The table model: ``Table``, ``Seat``, their serialisation, and the ``Result`` of an action.

Knows nothing about who shows a table or when: no Discord, no tasks, no storage calls.
"""

from __future__ import annotations

import copy
import dataclasses
import functools
import time
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from bot.i18n import Text, _
from bot.storage import FinishedGame, TableRow
from engine import Game, Ruleset

DEFAULT_PLAY_SECONDS = 60
DEFAULT_BID_SECONDS = 90
MIN_TURN_SECONDS = 15
MAX_TURN_SECONDS = 600
AWAY_AFTER_TIMEOUTS = 2
BOT_NAMES = ("Bea", "Ray", "Kit", "Max", "Ivy", "Sol")
DATA_VERSION = 1
LIVE = ("open", "playing")
# a table's settings key: the client language of the member who opened it (its public language on
# a server that has none of its own, and the language of the host's direct messages)
HOST_LANGUAGE = "host_language"


@dataclass
class Seat:
    """One chair at the table: a human (user_id) or a bot (user_id None)."""

    user_id: int | None
    name: str
    bot: bool = False
    away: bool = False
    left: bool = False  # the player left mid-game: the bot plays the seat until they come back
    timeouts: int = 0
    acts: int = 0  # bumped every time anything acts for this seat: the stamp of its hand views
    auto_acts: int = 0  # of those, the ones the bot made for a human (timed out, away, left)

    @property
    def automatic(self) -> bool:
        """True when the heuristic bot acts for this seat (a bot, a human marked away or gone)."""
        return self.bot or self.away or self.left

    @property
    def label(self) -> str:
        if self.bot or self.user_id is None:
            return f"🤖 {self.name}"
        return f"<@{self.user_id}>"

    def to_dict(self) -> dict[str, Any]:
        # (written out: ``dataclasses.asdict`` deep-copies field by field, ~10x slower, on every save)
        return {
            "user_id": self.user_id,
            "name": self.name,
            "bot": self.bot,
            "away": self.away,
            "left": self.left,
            "timeouts": self.timeouts,
            "acts": self.acts,
            "auto_acts": self.auto_acts,
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Seat:
        return cls(
            **{
                k: d[k]
                for k in ("user_id", "name", "bot", "away", "left", "timeouts", "acts", "auto_acts")
                if k in d
            }
        )


@functools.lru_cache(maxsize=256)
def _ruleset_data(rs: Ruleset) -> dict[str, Any]:
    return rs.to_dict()


def _ruleset_dict(rs: Ruleset) -> dict[str, Any]:
    """``rs.to_dict()`` (a ruleset is frozen: computed once, copied for each save)."""
    return dict(_ruleset_data(rs))


@dataclass
class Table:
    """A live table: seats, settings and (once started) the engine game."""

    id: int
    guild_id: int
    channel_id: int
    host_id: int
    status: str
    ruleset: Ruleset
    preset: str
    seats: list[Seat | None]
    settings: dict[str, Any]
    game: Game | None = None
    game_no: int = 1
    message_id: int | None = None
    deadline: float | None = None  # unix seconds: when the current turn times out
    stamp: int = 0  # bumped by every accepted action: changes whenever the live message would
    started_at: int | None = None  # unix seconds
    rematch_id: int | None = None
    row: TableRow | None = field(default=None, repr=False)

    # ---- derived -------------------------------------------------------------------------
    @property
    def num_seats(self) -> int:
        return len(self.seats)

    def seat_of(self, user_id: int) -> int | None:
        for i, s in enumerate(self.seats):
            if s is not None and not s.bot and s.user_id == user_id:
                return i
        return None

    def humans(self) -> list[int]:
        return [s.user_id for s in self.seats if s is not None and not s.bot and s.user_id is not None]

    def empty_seats(self) -> list[int]:
        return [i for i, s in enumerate(self.seats) if s is None]

    def label(self, seat: int) -> str:
        s = self.seats[seat]
        return s.label if s is not None else _("seat %(n)s", n=seat + 1)

    def seats_to_act(self) -> list[int]:
        if self.game is None or self.status != "playing":
            return []
        return list(self.game.seats_to_act())

    def turn_seconds(self) -> int:
        """Seconds a human gets for the current phase (bids and passes use the bid timer)."""
        if self.game is not None and self.game.phase.name == "PLAY":
            return int(self.settings.get("play_seconds", DEFAULT_PLAY_SECONDS))
        return int(self.settings.get("bid_seconds", DEFAULT_BID_SECONDS))

    # ---- persistence ---------------------------------------------------------------------
    def to_data(self) -> dict[str, Any]:
        return {
            "v": DATA_VERSION,
            "ruleset": _ruleset_dict(self.ruleset),
            "preset": self.preset,
            "seats": [s.to_dict() if s is not None else None for s in self.seats],
            "settings": self.settings,
            "game": self.game.to_dict() if self.game is not None else None,
            "game_no": self.game_no,
            "message_id": self.message_id,
            "deadline": self.deadline,
            "stamp": self.stamp,
            "started_at": self.started_at,
            "rematch_id": self.rematch_id,
        }

    @classmethod
    def from_row(cls, row: TableRow) -> Table:
        d = row.data
        game = Game.from_dict(d["game"]) if d.get("game") else None
        return cls(
            id=row.id,
            guild_id=row.guild_id,
            channel_id=row.channel_id,
            host_id=row.host_id,
            status=row.status,
            ruleset=Ruleset.from_dict(d["ruleset"]),
            preset=d.get("preset", "standard"),
            seats=[Seat.from_dict(s) if s is not None else None for s in d["seats"]],
            settings=dict(d.get("settings") or {}),
            game=game,
            game_no=d.get("game_no", 1),
            message_id=d.get("message_id"),
            deadline=d.get("deadline"),
            stamp=d.get("stamp", 0),
            started_at=d.get("started_at"),
            rematch_id=d.get("rematch_id"),
            row=row,
        )

    def copy(self) -> Table:
        """A working copy for one action: the game is cloned, seats are copied."""
        return dataclasses.replace(
            self,
            seats=[copy.copy(s) for s in self.seats],
            settings=dict(self.settings),
            game=self.game.clone() if self.game is not None else None,
        )


#: what an answer offers to do next: ``fill`` the empty seats with bots and start, confirm
#: ``leave`` (the bot plays the seat for the rest of the game), confirm ``abandon`` the table
OfferKind = Literal["fill", "leave", "abandon"]


@dataclass(frozen=True)
class Offer:
    """A next step an answer offers as a button (the caller draws it, in the reader's language)."""

    kind: OfferKind
    table_id: int


#: why the table service refuses an action (``Result.code``): a stable name tests and callers
#: tell refusals apart by; the words are the ``Result.message`` (a catalog text), its fields the
#: ``Result.fields``. A refusal the engine or the house rules give keeps their own code instead
#: (``IllegalAction.reason``, ``HouseRulesError.code``: see :func:`refuse_as`).
TableCode = Literal[
    # finding the table
    "no_table",
    "no_such_table",
    "closed",
    "already_closed",
    "game_over",
    "damaged",
    "channel_busy",
    # saving
    "save_failed",
    "moving",
    "changed_meanwhile",
    # who may
    "host_only",
    "host_or_admin_only",
    "not_seated",
    "not_playing",
    "player_not_seated",
    "already_plays",
    # seats and teams
    "already_started",
    "not_started",
    "already_seated",
    "already_in_seat",
    "already_on_team",
    "seat_range",
    "team_range",
    "seat_taken",
    "team_full",
    "table_full",
    "seats_mismatch",
    "seats_empty",
    "already_left",
    "not_away",
    "no_bot_in_seat",
    "bot_seat_in_game",
    "kick_self",
    "substitute_before_start",
    "substitute_a_bot",
    "seat_not_absent",
    # playing
    "moved_on",
    "not_your_turn",
    "nobody_to_act",
    "not_a_bid",
    "not_a_card",
    "bad_argument",
    "deal_failed",
    # rematches
    "not_over",
    "rematch_not_player",
    "rematch_open",
    "rematch_nobody_left",
    "rematch_left",
    # a new table's options
    "unknown_preset",
    "server_rules_broken",
    "timer_range",
    "unknown_bot_level",
]


@dataclass
class Result:
    """What an action answers to the user who asked (always ephemeral).

    A refusal (``ok`` False) carries a ``code`` (a :data:`TableCode`, or the engine's or the house
    rules' own code for theirs) and the ``fields`` its words are made from. ``show_hand`` asks the
    caller to show (or refresh in place) that user's hand panel. ``stale`` marks a click on an old
    hand view. ``offer`` asks for a button under the answer.
    """

    ok: bool
    message: Text = ""  # a lazy message: rendered in the language of the user who asked
    show_hand: bool = False
    stale: bool = False
    table: Table | None = None
    offer: Offer | None = None
    code: str | None = None  # None for an answer that is not a refusal
    fields: dict[str, Any] = field(default_factory=dict)


def ok(message: Text = "", **kw: Any) -> Result:
    return Result(True, message, **kw)


def refuse(code: TableCode, message: Text, *, fields: Mapping[str, Any] | None = None, **kw: Any) -> Result:
    """The table service's refusal ``code``, said with ``message``; its ``fields`` are the
    message's parameters unless given."""
    if fields is None:
        fields = getattr(message, "params", None) or {}
    return refuse_as(code, message, fields, **kw)


def refuse_as(code: str, message: Text, fields: Mapping[str, Any], **kw: Any) -> Result:
    """A refusal another layer gave (the engine's reason, a house-rules code), passed on with its
    own ``code`` and ``fields`` (the public ones: never a card the engine marks private)."""
    return Result(False, message, code=code, fields=dict(fields), **kw)


MOVED_ON = _("This hand has moved on: here is your current hand.")
NO_TABLE = _("There is no Spades table in this channel. Open one with `/spades new`.")
GAME_OVER = _("This game is over. Open a new table with `/spades new`.")
CLOSED = _("This table is closed. Open a new one with `/spades new`.")
SAVE_FAILED = _("Sorry, I couldn't save that just now; nothing changed. Please try again.")
MOVING = _(
    "This table is being handed over to another of the bot's processes right now; "
    "please try again in a few seconds."
)


def set_aside_post(table_id: int) -> Text:
    """The channel's notice that its table could not be restored and was closed."""
    return _(
        "⚠️ Table %(table_id)s could not be restored after the bot restarted, so it was closed: sorry! "
        "The channel is free: open a new table with `/spades new`.",
        table_id=table_id,
    )


def damaged_post(table_id: int) -> Text:
    """The channel's notice that its table is damaged and still blocks the channel."""
    return _(
        "⚠️ Table %(table_id)s could not be restored after the bot restarted: it is damaged in the "
        "bot's database, and a new table cannot open in this channel until the bot's operator "
        "repairs it. Sorry!",
        table_id=table_id,
    )


def damaged(table_id: int) -> Text:
    return _(
        "The last table in this channel (table %(table_id)s) is damaged in the bot's database, and "
        "a new one cannot open here until the bot's operator repairs it (it is in their log). "
        "You can play in another channel meanwhile.",
        table_id=table_id,
    )


def now() -> float:
    return time.time()


def unix_now() -> int:
    return int(time.time())


def humans_to_act(t: Table) -> list[int]:
    """Seats to act now whose human plays them (not a bot, not away, not gone)."""
    return [s for s in t.seats_to_act() if (seat := t.seats[s]) is not None and not seat.automatic]


def next_deadline(old: Table, new: Table, touched: Iterable[int], now: float) -> float | None:
    """When the humans to act now time out. Someone who was already on the clock in the same
    phase of the same hand, and did not just act, keeps their deadline: one partner's pass (or
    a seat handed to the bot) must not restart the other's timer. ``now``: the clock's time."""
    humans = set(humans_to_act(new))
    if not humans:
        return None
    if (
        old.deadline is not None
        and old.game is not None
        and new.game is not None
        and old.game.hand_no == new.game.hand_no
        and old.game.phase.name == new.game.phase.name
        and humans <= set(humans_to_act(old)) - set(touched)
    ):
        return old.deadline
    return now + new.turn_seconds()


def players(t: Table, *, with_side: bool) -> list[dict[str, Any]]:
    """The seats as storage records them (a hand's or a game's players)."""
    out = []
    for i, s in enumerate(t.seats):
        p: dict[str, Any] = {
            "seat": i,
            "user_id": None if s is None or s.bot else s.user_id,
            "is_bot": s is None or s.bot,
        }
        if with_side:
            # how much of the game the bot played for this human (a mostly-bot seat is not rated)
            p["bot_share"] = round(s.auto_acts / s.acts, 3) if s is not None and not s.bot and s.acts else 0.0
            p["side"] = t.ruleset.side_of(i)
            # an empty seat has no name: the reader's words for it ("miejsce 3") are written when read
            p["name"] = s.name if s is not None else ""
        out.append(p)
    return out


def finished_game(t: Table) -> FinishedGame:
    """The storage record of a table whose game just ended."""
    g = t.game
    assert g is not None
    sides = [
        {"seats": list(seats), "score": int(g.scores[i]), "bags": int(g.bags[i])}
        for i, seats in enumerate(t.ruleset.sides)
    ]
    return FinishedGame(
        table_id=t.id,
        guild_id=t.guild_id,
        channel_id=t.channel_id,
        game_no=t.game_no,
        ruleset=t.ruleset.to_dict(),
        hands=len(g.hand_records),
        winner_side=g.winner,
        started_at=t.started_at or unix_now(),
        finished_at=unix_now(),
        sides=sides,
        players=players(t, with_side=True),
    )
