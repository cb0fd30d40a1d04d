"""What the league service needs from Discord and the tables, and the small types it shares.

:class:`LeagueGateway` is the seam the bot wires (``bot.league.discord_io``); :class:`LeagueRefusal`
is the user-facing refusal the cog answers ephemerally.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, Protocol

from bot import lexicon
from bot.i18n import N_, Lazy, Msg, Text, _, _n, mention
from bot.storage.leagues import LeagueRow, NightRow
from engine.ruleset import Ruleset

from . import schedule as sch

TICK_SECONDS = 30.0
# a league's settings key: when it was created, in unix seconds of the league's clock
CREATED = "created"


class LeagueRefusal(Exception):
    """A user-facing refusal, answered ephemerally in the user's language: ``message`` is a lazy
    text (``bot.i18n``); ``str()`` of the exception is its English."""

    def __init__(self, message: Any, code: str | None = None, fields: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.code = code  # the refused input's code when it has one (``LeagueInputError.code``)
        self.fields: dict[str, Any] = dict(fields or {})

    @classmethod
    def of(cls, exc: BaseException) -> LeagueRefusal:
        """A refusal carrying another error's message whole: a lazy one as it is, the storage's
        refusals worded from their code (``storage_message``); the error's code and fields go with it."""
        code = getattr(exc, "code", None)
        fields = dict(getattr(exc, "fields", {}) or {})
        if exc.args and isinstance(exc.args[0], Lazy):
            return cls(exc.args[0], code, fields)
        return cls(storage_message(exc), code, fields)


# The league storage's refusals (``LeagueError.code`` and its ``fields``) as messages.
_STORAGE: dict[str, Callable[[dict[str, Any]], Msg]] = {
    "table_gone": lambda f: _("That table no longer exists."),
    "not_seated": lambda f: _("%(user)s is not seated at that table.", user=mention(int(f["user"]))),
    "seated": lambda f: _("%(user)s is already seated at that table.", user=mention(int(f["user"]))),
    "score_count": lambda f: _n(
        "Give %(n)s score, one per side.", "Give %(n)s scores, one per side.", int(f["n"])
    ),
    "own_partner": lambda f: _("Invite someone else: you can't be your own partner."),
    "same_partner": lambda f: _("Invite two different partners."),
    "no_partner": lambda f: _("Invite your partner: a team needs two players at least."),
    "self_on_team": lambda f: _("You are already on a team in this league."),
    "on_team": lambda f: _("%(user)s is already on a team in this league.", user=mention(int(f["user"]))),
    "team_name_taken": lambda f: _("A team called %(name)s is already in this league.", name=f["name"]),
    "no_invite": lambda f: _("You have no pending team invite in this league."),
    "slot_taken": lambda f: _("This channel already has a league night at that time."),
    "name_taken": lambda f: _("This server already has a league called %(name)s.", name=f["name"]),
    "stale": lambda f: _("The league was changed at the same time; please try again."),
    "on_roster": lambda f: _("%(user)s is already on the roster.", user=mention(int(f["user"]))),
    "signed_up": lambda f: _("You're already signed up."),
    "invite_pending": lambda f: _("You have a pending team invite."),
    "removed_by_admin": lambda f: _(
        "A league admin took you off this league's roster; ask them to add you back."
    ),
    "not_on_roster": lambda f: _("%(user)s is not on this league's roster.", user=mention(int(f["user"]))),
    "night_gone": lambda f: _("This league night no longer exists."),
    "checkin_closed": lambda f: _("Check-in for this night is closed."),
    "checkin_not_open": lambda f: _("Check-in for this night is not open yet."),
    "checked_in": lambda f: _("You're already checked in."),
    "checked_out": lambda f: _("You already said you can't make it."),
    "table_void": lambda f: _("That table is void: a void table has no result to award."),
    "forfeited": lambda f: _("That table is already forfeited."),
}


def storage_codes() -> frozenset[str]:
    """The league storage's refusal codes the league words (a test checks storage has no other)."""
    return frozenset(_STORAGE)


def storage_message(exc: BaseException) -> Msg:
    """One of the league storage's refusals (``LeagueError``) as a message, from its ``code`` and
    ``fields``; a code without words gets a general refusal (and a warning naming the code)."""
    code = str(getattr(exc, "code", ""))
    build = _STORAGE.get(code)
    if build is not None:
        return build(dict(getattr(exc, "fields", {})))
    return lexicon.unknown("league", code)


@dataclass(frozen=True)
class TableOutcome:
    """How a league table's game ended (or stood when time was called)."""

    scores: list[int]
    bags: list[int]
    winner_side: int | None
    complete: bool
    game_id: int | None = None
    # {player: (the seat's actions, of those the bot's)} as the game ended ({} when not known)
    seats: dict[int, tuple[int, int]] = field(default_factory=dict)


@dataclass(frozen=True)
class SeatState:
    """A human's seat at a live league table: its actions, the bot's share of them, and whether the
    bot plays it now (the player is away, left or checked out)."""

    acts: int
    auto: int
    absent: bool

    @property
    def own(self) -> int:
        """The actions the player made themselves."""
        return max(0, self.acts - self.auto)


class LeagueGateway(Protocol):
    """What the service needs from Discord and the table machinery (wired by the bot)."""

    async def post(
        self, channel_id: int, content: str, *, role_id: int | None = None, users: Sequence[int] = ()
    ) -> int | None:
        """Post a message; returns its id (None when it could not be posted). Only ``role_id`` and
        ``users`` are pinged (never @everyone, nobody else the text mentions)."""

    async def post_checkin(
        self, channel_id: int, night_id: int, content: str, *, role_id: int | None
    ) -> int | None:
        """Post the check-in message with its Check in / Can't make it buttons."""

    async def edit_checkin(
        self,
        channel_id: int,
        message_id: int,
        night_id: int,
        content: str,
        *,
        closed: bool,
        playing: bool = False,
    ) -> None:
        """Update the check-in message (the list of players; once closed, the buttons of a night
        under way when ``playing``, else none)."""

    async def open_table(
        self,
        *,
        guild_id: int,
        channel_id: int,
        title: str,
        seats: list[int | None],
        ruleset: Ruleset,
        league_table_id: int,
        settings: dict[str, Any] | None = None,
    ) -> tuple[int, int] | None:
        """Open a live table for these seats (None = a bot) in a new thread of ``channel_id`` (or the
        channel itself), with the league's turn timers and time call (``settings``: ``bid_seconds``,
        ``play_seconds``, ``time_call``); returns (thread or channel id, table id), None when it
        could not."""

    async def table_outcome(self, table_id: int) -> TableOutcome | None:
        """The result of a table whose game is over; None while it is still being played."""

    async def call_time(self, table_id: int, time_call: str = "as_it_stands") -> TableOutcome | None:
        """Time is up at a table: with ``as_it_stands`` stop it and return its scores as they stand;
        otherwise make the hand in progress its last (the league's ``time_call`` breaks a tie after
        it) and return None until the game ends (again: nothing more happens)."""

    async def dm(self, guild_id: int, user_id: int, content: Text) -> bool:
        """A direct message to a member, in the server's language; False when it cannot be delivered
        (the member's DMs are closed)."""

    async def missing_thread_permissions(self, channel_id: int) -> list[str]:
        """The permissions (flags) the bot lacks to open a thread per table in ``channel_id``."""

    async def stop_table(self, table_id: int, *, cancelled: bool, forfeit: bool = False) -> None:
        """Stop a live table without a result (``cancelled``: the night is cancelled; ``forfeit``:
        an admin awarded the table by forfeit; else this table was voided by an admin), saying so at
        the table."""

    async def substitute(self, table_id: int, out_id: int, in_id: int, *, guild_id: int) -> bool:
        """Give a player's seat at a live table to another player; False if it could not."""

    async def seat_states(self, table_id: int) -> dict[int, SeatState] | None:
        """The humans' seats of a live table ({player: state}); None when the table is not live."""

    async def release_seat(self, table_id: int, user_id: int) -> bool:
        """The player is out for tonight: the bot plays their seat from now on; False if it could not."""

    async def offer_seat(
        self, channel_id: int, league_table_id: int, out_id: int, standby_id: int, content: str
    ) -> int | None:
        """Post a "Take this seat" offer in a table's thread or channel, pinging only ``standby_id``."""

    async def sync_event(
        self,
        league: LeagueRow,
        night: sch.Night | None,
        *,
        recurrence: dict[str, Any] | None,
        event_id: int | None,
    ) -> int | None:
        """Create the Discord scheduled event for ``night`` (``event_id`` None), or show ``night``
        on the scheduled event ``event_id``; returns the event id to keep (None if none could be
        made). ``night`` None is the old contract's cancel (kept for callers: status 4)."""

    async def event_status(self, league: LeagueRow, event_id: int) -> int | None:
        """The Discord scheduled event's status (1 scheduled, 2 active, 3 completed, 4 cancelled);
        None when it is gone. Raises when Discord could not be asked."""

    async def set_event_status(self, league: LeagueRow, event_id: int, status: int) -> bool:
        """Move the scheduled event to ``status`` (Discord allows 1->2, 2->3, 1->4); False if refused."""

    async def event_users(self, league: LeagueRow, event_id: int) -> list[int]:
        """The members who marked the scheduled event "Interested" (empty when it cannot be read)."""

    async def tell_admins(self, league: LeagueRow, content: str) -> None:
        """Tell the league's admins something went wrong (a missed night, a table that failed)."""


@dataclass
class NightView:
    """A night of a league with its schedule entry (for posts and commands)."""

    league: LeagueRow
    night: NightRow


def _utc(seconds: int | float) -> datetime:
    return datetime.fromtimestamp(seconds, UTC)


def _unix(dt: datetime) -> int:
    return int(dt.timestamp())


def seating_label(fmt: str) -> Text:
    labels = {"fixed": _("Fixed partners"), "rotating": _("Rotating partners"), "solo": _("Solo")}
    return labels.get(fmt, fmt)


# Why a night was missed: stored as a code in the audit entry's detail (``why``), worded when the
# history is read, in the reader's language.
MISSED_REASONS: dict[str, str] = {"bot_offline": N_("the bot was not running at the start")}


def missed_reason(code: str) -> Text:
    """A missed night's reason (a code of :data:`MISSED_REASONS`) as a lazy message."""
    known = MISSED_REASONS.get(code)
    return Msg(known) if known is not None else code


def audit_reason(detail: dict[str, Any], reason: str | None) -> Text | None:
    """The reason an audit entry shows: an admin's own words as typed, or a stored code worded in
    the reader's language. (Entries written before the code stored the English words: those read
    as the same message.)"""
    if isinstance(detail.get("why"), str):
        return missed_reason(detail["why"])
    if reason and reason in MISSED_REASONS.values():
        return Msg(reason)
    return reason or None


def _audit_detail(detail: dict[str, Any]) -> Text:
    if not detail:
        return ""
    if "after" in detail:
        scores = detail["after"].get("scores")
        shown = " – ".join(map(str, scores)) if isinstance(scores, list) else str(scores)
        return _(
            " (round %(round)s, table %(table)s: now %(scores)s)",
            round=detail.get("round"),
            table=detail.get("table"),
            scores=shown,
        )
    if "side" in detail and "user" in detail:
        return _(
            " (round %(round)s, table %(table)s: %(user)s's side forfeits)",
            round=detail.get("round"),
            table=detail.get("table"),
            user=mention(detail["user"]),
        )
    if "out" in detail:
        return f" ({mention(detail['out'])} → {mention(detail['in'])})"
    if "date" in detail:
        return f" ({detail['date']})"
    if "user" in detail:
        return f" ({mention(detail['user'])})"
    return ""


#: the audit log's actions as the league history shows them
AUDIT_ACTIONS: dict[str, str] = {
    "correct": N_("result corrected"),
    "sub": N_("substitution"),
    "remove": N_("player removed"),
    "skip": N_("night skipped"),
    "start_early": N_("night started early"),
    "start_late": N_("start moved"),
    "reopen_checkin": N_("check-in re-opened"),
    "missed": N_("night missed"),
    "no_show": N_("no-show"),
    "checked_out": N_("checked out for the night"),
    "dropped": N_("dropped after no-shows"),
    "pause": N_("league paused"),
    "resume": N_("league resumed"),
    "end": N_("season ended"),
    "cancel": N_("night cancelled"),
    "void": N_("table voided"),
    "forfeit": N_("table forfeited"),
    "cancelled": N_("night cancelled (too few players)"),
}


def audit_action(action: str) -> Text:
    known = AUDIT_ACTIONS.get(action)
    return Msg(known) if known else action.replace("_", " ")


_NIGHT_STATUS = {
    "scheduled": N_("scheduled"),
    "checkin": N_("checking in"),
    "playing": N_("under way"),
    "finished": N_("finished"),
    "missed": N_("missed"),
    "cancelled": N_("cancelled"),
    "skipped": N_("skipped"),
}
_TEAM_STATUS = {"active": N_("active"), "pending": N_("invite pending"), "removed": N_("removed")}


def night_status(status: str) -> Text:
    known = _NIGHT_STATUS.get(status)
    return Msg(known) if known else status


def team_status(status: str) -> Text:
    known = _TEAM_STATUS.get(status)
    return Msg(known) if known else status


def status_text(league: LeagueRow) -> Text:
    """Why a league that is not running refuses: paused, ended or archived."""
    if league.status == "paused":
        return _("**%(league)s** is paused (`/league resume`).", league=league.name)
    if league.status == "ended":
        return _("**%(league)s**'s season is over (`/league season` starts a new one).", league=league.name)
    if league.status == "archived":
        return _("**%(league)s** is archived.", league=league.name)
    return _("**%(league)s** is running.", league=league.name)


_LEAGUE_STATUS = {
    "active": N_("running"),
    "paused": N_("paused"),
    "ended": N_("season over"),
    "archived": N_("archived"),
}


def league_status(status: str) -> Text:
    known = _LEAGUE_STATUS.get(status)
    return Msg(known) if known else status
