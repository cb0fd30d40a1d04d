"""A league's settings and the checks on what an admin types when creating or editing one."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from typing import Any

from bot.i18n import N_, ChoiceName, Joined, ListOf, _, join
from bot.lexicon.words import preset_name
from bot.model import DEFAULT_BID_SECONDS, DEFAULT_PLAY_SECONDS, MAX_TURN_SECONDS, MIN_TURN_SECONDS
from engine.ruleset import PRESETS, Ruleset

from .attendance import AttendanceRule
from .errors import LeagueInputError
from .schedule import Schedule, ScheduleError
from .seating import BOT, BYE, FIXED, FORMATS, LEFTOVERS, ROTATING, SOLO, THREES
from .standings import PointsRule

MAX_ROUNDS = 8
MIN_CHECKIN_MINUTES, MAX_CHECKIN_MINUTES = 5, 720  # how long before the start check-in opens
MAX_LATE_MINUTES = 120  # how long after the start a late check-in is taken (0: none)
DEFAULT_LATE_MINUTES = 30
MAX_MIN_PLAYERS = 64
MIN_ROUND_MINUTES = 5
MAX_ROUND_MINUTES = 240
NAME_MAX = 50

# What `/league create` and `/league edit` offer for each format and leftover rule (the slash
# command's choices: each client shows them in its own language). A refusal names a value by this
# label, never by the value the command sends (`fixed`, `bye`), which nobody sees.
FORMAT_LABELS = {
    ROTATING: "Rotating partners (individual standings)",
    FIXED: "Fixed partners (teams sign up together)",
    SOLO: "Solo (every seat for itself)",
}
LEFTOVER_LABELS = {
    BOT: "A bot fills the empty seats (unrated)",
    BYE: "Leftover players sit out a rotating bye",
    THREES: "A table of three (cutthroat), else a bye",
}


# When a round's time is up (``time_call``): the hand in progress is played to its end and a tie
# after it is broken by one overtime hand, the fewer bags or a draw (``engine.Game.call_time``),
# or the game stops at once and counts as it stands (a tie a draw), as leagues did before.
OVERTIME, FEWER_BAGS, DRAW, AS_IT_STANDS = "overtime", "bags", "draw", "as_it_stands"
TIME_CALLS = (OVERTIME, FEWER_BAGS, DRAW, AS_IT_STANDS)
# (offered by autocomplete, not as the command's choices: a choice's words count towards
# Discord's 8,000 characters per command in every language, and /league is near them)
TIME_CALL_LABELS = {
    OVERTIME: N_("finish the hand; a tie plays one overtime hand"),
    FEWER_BAGS: N_("finish the hand; a tie goes to the fewer bags"),
    DRAW: N_("finish the hand; a tie is a draw"),
    AS_IT_STANDS: N_("stop at once; the score as it stands counts"),
}


def label(text: str) -> Joined:
    """A choice as the reader's client shows it, in bold."""
    return join("**", ChoiceName(text), "**", sep="")


def labels(texts: Iterable[str]) -> ListOf:
    """Choices as the reader's client shows them: "**a**, **b** or **c**"."""
    return ListOf(tuple(label(t) for t in texts), "or")


def time_call_label(time_call: str) -> Joined:
    """A league's time call in words, in bold."""
    return join("**", _(TIME_CALL_LABELS.get(time_call, TIME_CALL_LABELS[OVERTIME])), "**", sep="")


def time_call_labels() -> ListOf:
    """Every time call in words (``**overtime** (finish the hand; …)``), for a refusal."""
    return ListOf(
        tuple(join(f"**{k}**", join("(", _(v), ")", sep="")) for k, v in TIME_CALL_LABELS.items()), "or"
    )


class SettingsError(LeagueInputError):
    """An invalid league setting; the message says what is allowed."""


@dataclass(frozen=True)
class LeagueSettings:
    rounds: int = 2
    round_minutes: int = 45
    leftover: str = BOT
    points: PointsRule = field(default_factory=PointsRule)
    role_id: int | None = None  # pinged when check-in opens
    admin_role_id: int | None = None  # may run the league besides Manage Server
    events: bool = True  # keep a Discord scheduled event for each night
    late_minutes: int = DEFAULT_LATE_MINUTES  # late check-ins after the start join the next round
    min_players: int = 0  # fewer checked in at the start: the night is cancelled (0: two, as always)
    attendance: AttendanceRule = field(default_factory=AttendanceRule)  # no-shows, subs
    time_call: str = OVERTIME  # what happens when a round's time is up (TIME_CALLS)
    bid_seconds: int = DEFAULT_BID_SECONDS  # the league tables' turn timers
    play_seconds: int = DEFAULT_PLAY_SECONDS
    # duplicate rounds: every full table of a round plays the same deals; standings in matchpoints
    duplicate: bool = False

    def __post_init__(self) -> None:
        if not 0 <= self.late_minutes <= MAX_LATE_MINUTES:
            raise SettingsError(
                _(
                    "Late check-in lasts 0 to %(max)s minutes after the start (you gave %(n)s).",
                    max=MAX_LATE_MINUTES,
                    n=self.late_minutes,
                ),
                "late_minutes_range",
            )
        if not 0 <= self.min_players <= MAX_MIN_PLAYERS:
            raise SettingsError(
                _(
                    "The minimum of players for a night is 0 to %(max)s (you gave %(n)s).",
                    max=MAX_MIN_PLAYERS,
                    n=self.min_players,
                ),
                "min_players_range",
            )
        if not 1 <= self.rounds <= MAX_ROUNDS:
            raise SettingsError(
                _("A night has 1 to %(max)s rounds (you gave %(n)s).", max=MAX_ROUNDS, n=self.rounds),
                "rounds_range",
            )
        if not MIN_ROUND_MINUTES <= self.round_minutes <= MAX_ROUND_MINUTES:
            raise SettingsError(
                _(
                    "A round lasts %(min)s to %(max)s minutes (you gave %(n)s).",
                    min=MIN_ROUND_MINUTES,
                    max=MAX_ROUND_MINUTES,
                    n=self.round_minutes,
                ),
                "round_minutes_range",
            )
        if self.time_call not in TIME_CALLS:
            raise SettingsError(
                _("For time_call choose %(choices)s.", choices=time_call_labels()),
                "bad_time_call",
            )
        for seconds, code in (
            (self.bid_seconds, "bid_seconds_range"),
            (self.play_seconds, "play_seconds_range"),
        ):
            if not MIN_TURN_SECONDS <= seconds <= MAX_TURN_SECONDS:
                raise SettingsError(
                    _(
                        "Turn timers are %(min)s to %(max)s seconds (you gave %(n)s).",
                        min=MIN_TURN_SECONDS,
                        max=MAX_TURN_SECONDS,
                        n=seconds,
                    ),
                    code,
                )
        if self.leftover not in LEFTOVERS:
            raise SettingsError(
                _("For leftover players choose %(choices)s.", choices=labels(LEFTOVER_LABELS.values())),
                "bad_leftover",
            )

    @property
    def night_length(self) -> timedelta:
        return timedelta(minutes=self.rounds * self.round_minutes)

    def to_dict(self) -> dict[str, Any]:
        return {
            "rounds": self.rounds,
            "round_minutes": self.round_minutes,
            "leftover": self.leftover,
            "points": self.points.to_dict(),
            "role_id": self.role_id,
            "admin_role_id": self.admin_role_id,
            "events": self.events,
            "late_minutes": self.late_minutes,
            "min_players": self.min_players,
            "attendance": self.attendance.to_dict(),
            "time_call": self.time_call,
            "bid_seconds": self.bid_seconds,
            "play_seconds": self.play_seconds,
            "duplicate": self.duplicate,
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> LeagueSettings:
        return cls(
            rounds=int(d.get("rounds", 2)),
            round_minutes=int(d.get("round_minutes", 45)),
            leftover=str(d.get("leftover", BOT)),
            points=PointsRule.from_dict(d.get("points")),
            role_id=d.get("role_id"),
            admin_role_id=d.get("admin_role_id"),
            events=bool(d.get("events", True)),
            late_minutes=int(d.get("late_minutes", DEFAULT_LATE_MINUTES)),
            min_players=int(d.get("min_players", 0)),
            attendance=AttendanceRule.from_dict(d.get("attendance")),
            time_call=str(d.get("time_call", OVERTIME)),
            bid_seconds=int(d.get("bid_seconds", DEFAULT_BID_SECONDS)),
            play_seconds=int(d.get("play_seconds", DEFAULT_PLAY_SECONDS)),
            duplicate=bool(d.get("duplicate", False)),
        )

    @property
    def table_settings(self) -> dict[str, Any]:
        """What a league table is opened with besides its rules: the turn timers."""
        return {"bid_seconds": self.bid_seconds, "play_seconds": self.play_seconds}

    def with_changes(self, **changes: Any) -> LeagueSettings:
        return replace(self, **changes)


_MENTION = re.compile(r"<[@#&!:a-z]*\d+>|@everyone|@here", re.IGNORECASE)


def check_name(name: str) -> str:
    text = " ".join((name or "").split())
    if not text:
        raise SettingsError(_("Give the league a name, like `Spades Thursday`."), "name_missing")
    if len(text) > NAME_MAX:
        raise SettingsError(
            _("A name is at most %(max)s characters (that one has %(n)s).", max=NAME_MAX, n=len(text)),
            "name_too_long",
        )
    if _MENTION.search(text):
        raise SettingsError(_("A name cannot contain mentions."), "name_mentions")
    return text


def check_format(fmt: str, ruleset: Ruleset) -> str:
    """The format must fit the preset: partners need a partnership preset, solo a solo one."""
    fmt = (fmt or "").strip().lower()
    if fmt not in FORMATS:
        raise SettingsError(
            _("Choose a format: %(choices)s.", choices=labels(FORMAT_LABELS.values())), "bad_format"
        )
    if fmt == SOLO and ruleset.partnerships:
        solo = tuple(preset_name(n) for n, rs in PRESETS.items() if not rs.partnerships)
        raise SettingsError(
            _(
                "The %(preset)s preset is played in partnerships: choose the format %(choices)s,"
                " or a preset without partners (%(presets)s).",
                preset=preset_name(ruleset.name),
                choices=labels((FORMAT_LABELS[ROTATING], FORMAT_LABELS[FIXED])),
                presets=ListOf(solo, "or"),
            ),
            "format_partnerships",
        )
    if fmt in (FIXED, ROTATING) and not ruleset.partnerships:
        raise SettingsError(
            _(
                "The %(preset)s preset has no partners: choose the format %(solo)s, or a preset with"
                " partners.",
                preset=preset_name(ruleset.name),
                solo=label(FORMAT_LABELS[SOLO]),
            ),
            "format_no_partners",
        )
    return fmt


def check_leftover(leftover: str, fmt: str, ruleset: Ruleset) -> str:
    """A table of three (cutthroat) is for individuals at a league of four-seat tables."""
    if leftover == THREES and (fmt == FIXED or ruleset.num_seats != 4):
        raise SettingsError(
            _(
                "%(threes)s needs individual players at tables of four: choose %(choices)s.",
                threes=label(LEFTOVER_LABELS[THREES]),
                choices=labels((LEFTOVER_LABELS[BOT], LEFTOVER_LABELS[BYE])),
            ),
            "threes_format",
        )
    return leftover


def team_size(fmt: str, ruleset: Ruleset) -> int:
    return 1 if fmt == SOLO or not ruleset.partnerships else ruleset.team_size


def slot_key(schedule: Schedule) -> str:
    """What the database keeps unique per channel: weekday, local time and zone."""
    return f"{schedule.weekday}|{schedule.at:%H:%M}|{schedule.zone_name}"


def clash(
    new: Schedule,
    new_length: timedelta,
    others: list[tuple[str, Schedule, timedelta]],
    *,
    now: datetime,
) -> str | None:
    """The name of another league in the same channel whose nights overlap the new one's, if any
    (nights after ``now``, the league clock's time).

    Two nights overlap when one starts before the other's last round is due to end.
    """
    mine = [n.start_utc for n in new.nights() if n.start_utc > now]
    for name, sched, length in others:
        theirs = [n.start_utc for n in sched.nights() if n.start_utc > now]
        for a in mine:
            for b in theirs:
                if a <= b < a + new_length or b <= a < b + length:
                    return name
    return None


def check_schedule(schedule: Schedule, now: datetime) -> None:
    if schedule.next_night(now) is None:
        raise ScheduleError(_("Every night of that season is already in the past."), "season_past")


def check_checkin_minutes(minutes: int) -> int:
    """How long before the start check-in opens, as an admin typed it."""
    if not MIN_CHECKIN_MINUTES <= minutes <= MAX_CHECKIN_MINUTES:
        raise SettingsError(
            _(
                "Check-in opens %(min)s to %(max)s minutes before the start (you gave %(n)s).",
                min=MIN_CHECKIN_MINUTES,
                max=MAX_CHECKIN_MINUTES,
                n=minutes,
            ),
            "checkin_minutes_range",
        )
    return minutes
