"""When league nights happen: weekly local times in an IANA zone, DST-correct.

A league meets on one weekday at one *local* wall-clock time (20:00 stays 20:00 in New York across
a DST change, so the UTC instant moves by an hour). A season is ``weeks`` nights that are actually
held: a skipped date (holiday) or a date that fell while the league was paused does not count, so the
season ends a week later. Everything here is pure: instants are aware ``datetime`` objects.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field, replace
from datetime import UTC, date, datetime, time, timedelta
from itertools import pairwise
from zoneinfo import ZoneInfo

from bot.i18n import N_, Msg, _, _n

from .schedule_input import ScheduleError, check_weeks, parse_zone, weekday_name

DEFAULT_CHECKIN_MINUTES = 30
DEFAULT_GRACE_MINUTES = 30

# Discord's recurrence rule enums (OpenAPI RecurrenceRuleFrequencies / RecurrenceRuleWeekdays)
DISCORD_WEEKLY = 2


# --- local time arithmetic ------------------------------------------------------------------------


def local_instant(day: date, at: time, zone: ZoneInfo) -> datetime:
    """The aware instant of ``at`` on ``day`` in ``zone``.

    An ambiguous time (the hour repeated when clocks go back) is its first occurrence; a time that
    does not exist (the hour skipped when clocks go forward) moves forward by the gap, as a wall
    clock would show it (02:30 on a spring-forward night is 03:30).
    """
    naive = datetime.combine(day, at).replace(tzinfo=zone, fold=0)
    # round trip through UTC: normalizes a non-existent local time to the real instant
    return naive.astimezone(UTC).astimezone(zone)


def to_utc(dt: datetime) -> datetime:
    if dt.tzinfo is None:
        raise ValueError("naive datetime: pass an aware instant")
    return dt.astimezone(UTC)


# --- the schedule ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Night:
    """One scheduled night of a season."""

    number: int  # 1-based within the season (skipped dates have no number)
    day: date  # the local date
    start: datetime  # aware, in the league's zone

    @property
    def start_utc(self) -> datetime:
        return self.start.astimezone(UTC)

    @property
    def key(self) -> str:
        """Stable id of the night within its league (the local date)."""
        return self.day.isoformat()


@dataclass(frozen=True)
class Schedule:
    """A season's schedule: weekday, local time, zone, first date, length and the skipped dates."""

    weekday: int
    at: time
    zone_name: str
    first_day: date
    weeks: int
    skipped: frozenset[date] = field(default_factory=frozenset)
    checkin_minutes: int = DEFAULT_CHECKIN_MINUTES
    grace_minutes: int = DEFAULT_GRACE_MINUTES
    first_number: int = 1  # > 1 after a re-time mid-season: the nights already held keep theirs

    def __post_init__(self) -> None:
        if not 0 <= self.weekday <= 6:
            raise ScheduleError(_("The weekday is 0 (Monday) to 6 (Sunday)."), "weekday_range")
        if self.first_day.weekday() != self.weekday:
            raise ScheduleError(
                _(
                    "The first night (%(date)s) is not on the league's weekday (%(weekday)s).",
                    date=self.first_day.isoformat(),
                    weekday=weekday_name(self.weekday),
                ),
                "first_night_weekday",
            )
        check_weeks(self.weeks)
        if not 0 <= self.checkin_minutes <= 24 * 60:
            raise ScheduleError(_("Check-in opens 0 to 1440 minutes before the start."), "checkin_range")
        if not 0 <= self.grace_minutes <= 24 * 60:
            raise ScheduleError(_("The grace period is 0 to 1440 minutes."), "grace_range")
        parse_zone(self.zone_name)

    @property
    def zone(self) -> ZoneInfo:
        return ZoneInfo(self.zone_name)

    @classmethod
    def starting_after(
        cls,
        now: datetime,
        *,
        weekday: int,
        at: time,
        zone_name: str,
        weeks: int,
        first_day: date | None = None,
        checkin_minutes: int = DEFAULT_CHECKIN_MINUTES,
        grace_minutes: int = DEFAULT_GRACE_MINUTES,
    ) -> Schedule:
        """A new season whose first night is ``first_day`` or the next ``weekday`` after ``now``.

        Refuses a first night that is already in the past (ScheduleError).
        """
        zone = parse_zone(zone_name)
        check_weeks(weeks)
        local_now = to_utc(now).astimezone(zone)
        if first_day is None:
            day = local_now.date() + timedelta(days=(weekday - local_now.weekday()) % 7)
            if local_instant(day, at, zone) <= local_now:
                day += timedelta(days=7)
        else:
            day = first_day
            if day.weekday() != weekday:
                raise ScheduleError(
                    _(
                        "%(date)s is not on the league's weekday (%(weekday)s).",
                        date=day.isoformat(),
                        weekday=weekday_name(weekday),
                    ),
                    "date_weekday",
                )
            if local_instant(day, at, zone) <= local_now:
                raise ScheduleError(
                    _(
                        "%(date)s at %(time)s (%(zone)s) is in the past; choose a later date.",
                        date=day.isoformat(),
                        time=at.strftime("%H:%M"),
                        zone=zone.key,
                    ),
                    "date_past",
                )
        return cls(
            weekday=weekday,
            at=at,
            zone_name=zone.key,
            first_day=day,
            weeks=weeks,
            checkin_minutes=checkin_minutes,
            grace_minutes=grace_minutes,
        )

    # --- the nights ---

    def dates(self) -> Iterator[date]:
        """Every candidate date from the first night on, weekly (skipped ones included)."""
        day = self.first_day
        while True:
            yield day
            day += timedelta(days=7)

    def nights(self) -> list[Night]:
        """The season's held nights in order: ``weeks`` of them, skipped dates passed over."""
        out: list[Night] = []
        zone = self.zone
        for day in self.dates():
            if len(out) >= self.weeks:
                break
            if day in self.skipped:
                continue
            out.append(Night(self.first_number + len(out), day, local_instant(day, self.at, zone)))
        return out

    def night_on(self, day: date) -> Night | None:
        return next((n for n in self.nights() if n.day == day), None)

    @property
    def last_night(self) -> Night:
        return self.nights()[-1]

    def next_night(self, after: datetime) -> Night | None:
        """The first night starting strictly after ``after``; None when the season is over."""
        after = to_utc(after)
        return next((n for n in self.nights() if n.start_utc > after), None)

    def checkin_opens(self, night: Night) -> datetime:
        """When check-in opens: ``checkin_minutes`` of real time before the start (UTC arithmetic:
        an aware datetime's own ``-`` is wall-clock arithmetic, which lands inside a DST gap or an
        hour off across a change)."""
        return night.start_utc - timedelta(minutes=self.checkin_minutes)

    def grace(self) -> timedelta:
        return timedelta(minutes=self.grace_minutes)

    # --- changes (each returns a new schedule) ---

    def skip(self, day: date) -> Schedule:
        """Skip one night (the season gets one date longer). ScheduleError if not a league date."""
        if day.weekday() != self.weekday or day < self.first_day:
            raise ScheduleError(
                _(
                    "%(date)s is not a night of this league (it meets on %(weekday)s from %(first)s).",
                    date=day.isoformat(),
                    weekday=weekday_name(self.weekday),
                    first=self.first_day.isoformat(),
                ),
                "not_a_night",
            )
        if day in self.skipped:
            raise ScheduleError(_("%(date)s is already skipped.", date=day.isoformat()), "already_skipped")
        if self.night_on(day) is None:
            raise ScheduleError(
                _("%(date)s is after the end of the season.", date=day.isoformat()), "after_season"
            )
        return replace(self, skipped=self.skipped | {day})

    def unskip(self, day: date) -> Schedule:
        if day not in self.skipped:
            raise ScheduleError(_("%(date)s is not skipped.", date=day.isoformat()), "not_skipped")
        return replace(self, skipped=self.skipped - {day})

    def skip_between(self, start: datetime, end: datetime, held: Iterable[date] = ()) -> Schedule:
        """Skip every night starting in [start, end) that was not held (a pause, missed nights)."""
        done = set(held)
        start, end = to_utc(start), to_utc(end)
        extra = {n.day for n in self.nights() if start <= n.start_utc < end and n.day not in done}
        # the season's nights move as dates are skipped: repeat until stable
        result = replace(self, skipped=self.skipped | extra)
        while True:
            more = {
                n.day for n in result.nights() if start <= n.start_utc < end and n.day not in done
            } - result.skipped
            if not more:
                return result
            result = replace(result, skipped=result.skipped | more)

    def retime(
        self,
        now: datetime,
        *,
        weekday: int | None = None,
        at: time | None = None,
        zone_name: str | None = None,
        weeks: int | None = None,
        held: int = 0,
    ) -> Schedule:
        """The schedule with a new weekday, time, zone or season length, from ``now`` on.

        ``weeks`` is the whole season's length; ``held`` nights are over and keep their numbers, so
        the new schedule's first night is number ``held + 1``.
        """
        weekday = self.weekday if weekday is None else weekday
        at = self.at if at is None else at
        zone = parse_zone(zone_name or self.zone_name)
        total = self.total_weeks if weeks is None else check_weeks(weeks)
        remaining = total - held
        if remaining < 1:
            raise ScheduleError(
                _n(
                    "%(n)s night has been held already: the season must be longer than %(n)s week.",
                    "%(n)s nights have been held already: the season must be longer than %(n)s weeks.",
                    held,
                ),
                "season_too_short",
            )
        # the same week as the first night (a Thursday league moved to Tuesday meets that week's
        # Tuesday), unless that is already past: then the next such weekday
        preferred = self.first_day - timedelta(days=self.first_day.weekday()) + timedelta(days=weekday)
        first: date | None = None
        if local_instant(preferred, at, zone) > to_utc(now):
            first = preferred
        new = Schedule.starting_after(
            now,
            weekday=weekday,
            at=at,
            zone_name=zone.key,
            weeks=remaining,
            first_day=first,
            checkin_minutes=self.checkin_minutes,
            grace_minutes=self.grace_minutes,
        )
        keep = frozenset(d for d in self.skipped if d.weekday() == weekday and d >= new.first_day)
        return replace(new, skipped=keep, first_number=held + 1)

    @property
    def total_weeks(self) -> int:
        """The season's length, nights held before a re-time included."""
        return self.first_number - 1 + self.weeks


def ends_at(night: Night, length: timedelta) -> datetime:
    """When a night of ``length`` ends: real time after its start (UTC), not wall-clock time."""
    return night.start_utc + length


# --- late starts ----------------------------------------------------------------------------------


ON_TIME = "on_time"
LATE = "late"
MISSED = "missed"


def lateness(
    scheduled: datetime, now: datetime, grace: timedelta, *, tolerance: timedelta = timedelta(seconds=60)
) -> str:
    """Whether something due at ``scheduled`` and noticed at ``now`` runs on time, late or not at all.

    ``tolerance`` absorbs timer jitter: within it the run is on time (and says nothing). After it,
    up to ``grace``, the run is late (and says so); beyond the grace it is missed.
    """
    delay = to_utc(now) - to_utc(scheduled)
    if delay <= tolerance:
        return ON_TIME
    if delay <= grace:
        return LATE
    return MISSED


# --- Discord scheduled events ---------------------------------------------------------------------


def same_offset(nights: list[Night]) -> bool:
    """True when every night has the same UTC offset (no DST change in between)."""
    offsets = {n.start.utcoffset() for n in nights}
    return len(offsets) <= 1


def recurrence_rule(schedule: Schedule, after: datetime) -> dict[str, object] | None:
    """A Discord ``recurrence_rule`` for the remaining nights, or None when one cannot express them.

    Discord repeats an event at a fixed UTC instant each week and applications may not set its end
    or count, so the rule is only used when the remaining nights are exactly weekly (no skipped
    date in between) and keep the same UTC offset (no DST change). Otherwise the bot creates one
    event per night and the next one after it, which is always right.
    """
    rest = [n for n in schedule.nights() if n.start_utc > to_utc(after)]
    if len(rest) < 2 or not same_offset(rest):
        return None
    for a, b in pairwise(rest):
        if b.day - a.day != timedelta(days=7):
            return None
    start = rest[0].start_utc
    return {
        "start": start.isoformat(),
        "frequency": DISCORD_WEEKLY,
        "interval": 1,
        "by_weekday": [start.weekday()],  # the UTC weekday of the start instant
    }


#: "every Thursday at 20:00 America/New_York", one text per weekday (the day's form differs per language)
WEEKLY: tuple[str, ...] = (
    N_("Mondays at %(time)s %(zone)s"),
    N_("Tuesdays at %(time)s %(zone)s"),
    N_("Wednesdays at %(time)s %(zone)s"),
    N_("Thursdays at %(time)s %(zone)s"),
    N_("Fridays at %(time)s %(zone)s"),
    N_("Saturdays at %(time)s %(zone)s"),
    N_("Sundays at %(time)s %(zone)s"),
)


def describe(schedule: Schedule) -> Msg:
    """``Thursdays at 20:00 America/New_York``."""
    return Msg(
        WEEKLY[schedule.weekday], params={"time": schedule.at.strftime("%H:%M"), "zone": schedule.zone_name}
    )


def to_dict(schedule: Schedule) -> dict[str, object]:
    return {
        "weekday": schedule.weekday,
        "at": schedule.at.strftime("%H:%M"),
        "zone": schedule.zone_name,
        "first_day": schedule.first_day.isoformat(),
        "weeks": schedule.weeks,
        "skipped": sorted(d.isoformat() for d in schedule.skipped),
        "checkin_minutes": schedule.checkin_minutes,
        "grace_minutes": schedule.grace_minutes,
        "first_number": schedule.first_number,
    }


def from_dict(d: dict[str, object]) -> Schedule:
    return Schedule(
        weekday=int(d["weekday"]),  # type: ignore[call-overload]
        at=time.fromisoformat(str(d["at"])),
        zone_name=str(d["zone"]),
        first_day=date.fromisoformat(str(d["first_day"])),
        weeks=int(d["weeks"]),  # type: ignore[call-overload]
        skipped=frozenset(date.fromisoformat(str(x)) for x in d.get("skipped", ()) or ()),  # type: ignore[attr-defined]
        checkin_minutes=int(d.get("checkin_minutes", DEFAULT_CHECKIN_MINUTES)),  # type: ignore[call-overload]
        grace_minutes=int(d.get("grace_minutes", DEFAULT_GRACE_MINUTES)),  # type: ignore[call-overload]
        first_number=int(d.get("first_number", 1)),  # type: ignore[call-overload]
    )
