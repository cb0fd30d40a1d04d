"""League schedule: weekly local times, DST, skipped dates, lateness, Discord recurrence rules."""

from __future__ import annotations

from datetime import UTC, date, datetime, time, timedelta

import pytest

from bot.league import schedule as sch
from bot.league import schedule_input as typed
from bot.league.schedule import LATE, MISSED, ON_TIME, Schedule, ScheduleError

NY = "America/New_York"


def utc(*args: int) -> datetime:
    return datetime(*args, tzinfo=UTC)


def thursday_league(weeks: int = 8, first: date = date(2026, 10, 22), **kw: object) -> Schedule:
    return Schedule(weekday=3, at=time(20, 0), zone_name=NY, first_day=first, weeks=weeks, **kw)  # type: ignore[arg-type]


def test_20_00_stays_20_00_local_across_the_dst_change() -> None:
    # US clocks go back on Sunday 2026-11-01: 20:00 EDT is 00:00 UTC, 20:00 EST is 01:00 UTC
    nights = thursday_league(weeks=3).nights()
    assert [n.day for n in nights] == [date(2026, 10, 22), date(2026, 10, 29), date(2026, 11, 5)]
    assert all(n.start.hour == 20 and n.start.minute == 0 for n in nights)
    assert nights[1].start_utc == utc(2026, 10, 30, 0, 0)
    assert nights[2].start_utc == utc(2026, 11, 6, 1, 0)
    assert nights[2].start_utc - nights[1].start_utc == timedelta(days=7, hours=1)


def test_spring_forward_gap_moves_the_start_forward() -> None:
    # 02:30 does not exist in New York on 2027-03-14 (a Sunday): the wall clock shows 03:30
    s = Schedule(weekday=6, at=time(2, 30), zone_name=NY, first_day=date(2027, 3, 7), weeks=2)
    second = s.nights()[1]
    assert second.start_utc == utc(2027, 3, 14, 7, 30)
    assert (second.start.hour, second.start.minute) == (3, 30)


def test_skipped_dates_extend_the_season_and_keep_numbers_contiguous() -> None:
    s = thursday_league(weeks=3).skip(date(2026, 10, 29))
    nights = s.nights()
    assert [n.day for n in nights] == [date(2026, 10, 22), date(2026, 11, 5), date(2026, 11, 12)]
    assert [n.number for n in nights] == [1, 2, 3]
    assert s.unskip(date(2026, 10, 29)).nights()[1].day == date(2026, 10, 29)


@pytest.mark.parametrize(
    ("day", "why"),
    [
        (date(2026, 10, 23), "not a night"),
        (date(2026, 10, 15), "not a night"),
        (date(2027, 1, 7), "after the end"),
    ],
)
def test_skip_refuses_dates_that_are_not_league_nights(day: date, why: str) -> None:
    with pytest.raises(ScheduleError, match=why):
        thursday_league(weeks=3).skip(day)


def test_skip_twice_is_refused() -> None:
    s = thursday_league().skip(date(2026, 10, 29))
    with pytest.raises(ScheduleError, match="already skipped"):
        s.skip(date(2026, 10, 29))


def test_next_night_after_an_instant() -> None:
    s = thursday_league(weeks=2)
    assert s.next_night(utc(2026, 10, 1)).number == 1  # type: ignore[union-attr]
    # exactly at the start it is not "next" any more
    assert s.next_night(utc(2026, 10, 23, 0, 0)).number == 2  # type: ignore[union-attr]
    assert s.next_night(utc(2026, 10, 30, 0, 0)) is None


def test_checkin_opens_before_the_start() -> None:
    s = thursday_league(checkin_minutes=45)
    night = s.nights()[0]
    assert s.checkin_opens(night) == night.start_utc - timedelta(minutes=45)


def test_starting_after_picks_the_next_weekday_and_refuses_the_past() -> None:
    now = utc(2026, 10, 23, 1, 0)  # Thursday 21:00 in New York: tonight's 20:00 is gone
    s = Schedule.starting_after(now, weekday=3, at=time(20, 0), zone_name="america/new_york", weeks=8)
    assert s.first_day == date(2026, 10, 29)
    assert s.zone_name == NY
    s2 = Schedule.starting_after(now, weekday=3, at=time(22, 0), zone_name=NY, weeks=8)
    assert s2.first_day == date(2026, 10, 22)  # 22:00 tonight is still ahead
    with pytest.raises(ScheduleError, match="in the past"):
        Schedule.starting_after(
            now, weekday=3, at=time(20, 0), zone_name=NY, weeks=8, first_day=date(2026, 10, 22)
        )
    with pytest.raises(ScheduleError, match=r"not on the league.s weekday \(Thursday\)"):
        Schedule.starting_after(
            now, weekday=3, at=time(20, 0), zone_name=NY, weeks=8, first_day=date(2026, 10, 30)
        )


@pytest.mark.parametrize("weeks", [0, -1, 53])
def test_season_length_bounds(weeks: int) -> None:
    with pytest.raises(ScheduleError, match="1 to 52 weeks"):
        Schedule.starting_after(utc(2026, 1, 1), weekday=3, at=time(20), zone_name=NY, weeks=weeks)


def test_unknown_zone_is_refused_with_suggestions() -> None:
    with pytest.raises(ScheduleError, match="not an IANA time zone") as e:
        typed.parse_zone("New York")
    assert "America/New_York" in str(e.value)
    with pytest.raises(ScheduleError):
        typed.parse_zone("Mars/Olympus")
    assert typed.parse_zone("europe/london").key == "Europe/London"


def test_zone_suggestions_for_autocomplete() -> None:
    assert typed.zone_suggestions("america/new")[0] == "America/New_York"
    assert "Europe/Berlin" in typed.zone_suggestions("berl")
    assert len(typed.zone_suggestions("a")) <= 25
    assert "UTC" in typed.zone_suggestions("")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("20:00", time(20)),
        ("8pm", time(20)),
        ("8:30 pm", time(20, 30)),
        ("12am", time(0)),
        ("12pm", time(12)),
        ("7.15", time(7, 15)),
        ("20h30", time(20, 30)),
    ],
)
def test_parse_time(text: str, expected: time) -> None:
    assert typed.parse_time(text) == expected


@pytest.mark.parametrize("text", ["25:00", "13pm", "noon", "", "20:75"])
def test_parse_time_refuses(text: str) -> None:
    with pytest.raises(ScheduleError):
        typed.parse_time(text)


def test_parse_weekday() -> None:
    assert typed.parse_weekday("Thursday") == 3
    assert typed.parse_weekday("thu") == 3
    assert typed.parse_weekday("su") == 6
    with pytest.raises(ScheduleError):
        typed.parse_weekday("t")  # Tuesday or Thursday?
    with pytest.raises(ScheduleError):
        typed.parse_weekday("someday")


def test_lateness_within_and_beyond_the_grace() -> None:
    due = utc(2026, 10, 23, 0, 0)
    grace = timedelta(minutes=30)
    assert sch.lateness(due, due + timedelta(seconds=5), grace) == ON_TIME
    assert sch.lateness(due, due + timedelta(minutes=10), grace) == LATE
    assert sch.lateness(due, due + timedelta(minutes=31), grace) == MISSED


def test_skip_between_marks_nights_missed_during_a_pause() -> None:
    s = thursday_league(weeks=4)
    paused = s.skip_between(utc(2026, 10, 24), utc(2026, 11, 7), held=[date(2026, 10, 22)])
    assert [n.day for n in paused.nights()] == [
        date(2026, 10, 22),
        date(2026, 11, 12),
        date(2026, 11, 19),
        date(2026, 11, 26),
    ]


def test_retime_moves_future_nights_and_keeps_numbers() -> None:
    s = thursday_league(weeks=4)
    now = utc(2026, 10, 24)  # night 1 is over
    r = s.retime(now, weekday=1, at=time(19, 30), held=1)
    nights = r.nights()
    assert nights[0].number == 2 and nights[-1].number == 4
    assert nights[0].day == date(2026, 10, 27) and nights[0].start.hour == 19
    assert r.total_weeks == 4
    with pytest.raises(ScheduleError, match="held already"):
        s.retime(now, weeks=1, held=1)


def test_recurrence_rule_only_without_dst_change_or_gaps() -> None:
    # crossing the DST change: Discord would keep the UTC time and drift an hour; no rule
    assert sch.recurrence_rule(thursday_league(weeks=8), utc(2026, 10, 1)) is None
    s = Schedule(weekday=3, at=time(20), zone_name=NY, first_day=date(2027, 4, 1), weeks=6)
    rule = sch.recurrence_rule(s, utc(2027, 3, 1))
    assert rule is not None
    assert rule["frequency"] == sch.DISCORD_WEEKLY and rule["interval"] == 1
    # 20:00 EDT on a Thursday is 00:00 UTC on the Friday
    assert rule["by_weekday"] == [4]
    assert rule["start"] == "2027-04-02T00:00:00+00:00"
    assert sch.recurrence_rule(s.skip(date(2027, 4, 15)), utc(2027, 3, 1)) is None


def test_recurrence_rule_validates_against_the_discord_spec() -> None:
    import gzip
    import json

    import jsonschema

    from fakediscord.validation.spec import SPEC_PATH

    spec = json.loads(gzip.decompress(SPEC_PATH.read_bytes()))
    schema = {"$ref": "#/components/schemas/RecurrenceRule", "components": spec["components"]}
    s = Schedule(weekday=3, at=time(20), zone_name="UTC", first_day=date(2027, 1, 7), weeks=6)
    rule = sch.recurrence_rule(s, utc(2027, 1, 1))
    assert rule is not None
    jsonschema.validate(rule, schema)


def test_schedule_round_trips_through_a_dict() -> None:
    s = thursday_league(weeks=5).skip(date(2026, 11, 5))
    assert sch.from_dict(sch.to_dict(s)) == s


def test_zone_suggestions_rank_common_zones_and_the_readers_own_first() -> None:
    assert typed.zone_suggestions("Lon")[0] == "Europe/London"  # not Arctic/Longyearbyen
    assert "Arctic/Longyearbyen" in typed.zone_suggestions("Lon")
    assert typed.zone_suggestions("par")[0] == "Europe/Paris"
    assert typed.zone_suggestions("", locales=("pl",))[0] == "Europe/Warsaw"
    assert typed.zone_suggestions("europe/", locales=("cs", "en-US"))[0] == "Europe/Prague"
    assert typed.zone_suggestions("", locales=("en-GB",))[0] == "Europe/London"
    assert typed.zone_suggestions("", locales=("en-US",))[0] == "America/New_York"
    # the reader's locale before the server's
    assert typed.zone_suggestions("", locales=("ru", "pl"))[:2] == ["Europe/Moscow", "Asia/Yekaterinburg"]
    assert len(typed.zone_suggestions("", locales=("ru",))) == 25 and "UTC" in typed.zone_suggestions("")


WARSAW = "Europe/Warsaw"


@pytest.mark.parametrize(
    ("zone", "day", "start_utc"),
    [
        # clocks jump from 02:00 to 03:00: 30 wall-clock minutes before 03:15 is 02:45, which
        # does not exist (read as 02:45 +01:00, it is 30 minutes *after* the start)
        (WARSAW, date(2027, 3, 28), utc(2027, 3, 28, 1, 15)),
        (NY, date(2027, 3, 14), utc(2027, 3, 14, 7, 15)),
    ],
)
def test_checkin_opens_before_a_start_just_after_the_spring_forward_gap(
    zone: str, day: date, start_utc: datetime
) -> None:
    s = Schedule(weekday=6, at=time(3, 15), zone_name=zone, first_day=day, weeks=1)
    (night,) = s.nights()
    assert night.start_utc == start_utc
    assert s.checkin_opens(night) == start_utc - timedelta(minutes=30)


@pytest.mark.parametrize(
    ("zone", "day"),
    [
        (WARSAW, date(2027, 3, 28)),  # spring forward at 02:00
        (WARSAW, date(2026, 10, 25)),  # fall back at 03:00
        (NY, date(2027, 3, 14)),
        (NY, date(2026, 11, 1)),
    ],
)
def test_a_night_across_a_dst_change_lasts_its_real_length(zone: str, day: date) -> None:
    """A 01:30 night of 2 x 45 minutes ends 90 real minutes later, whichever way the clocks go."""
    s = Schedule(weekday=6, at=time(1, 30), zone_name=zone, first_day=day, weeks=1)
    (night,) = s.nights()
    assert night.start.utcoffset() != sch.ends_at(night, timedelta(minutes=90)).astimezone(s.zone).utcoffset()
    assert sch.ends_at(night, timedelta(minutes=90)) - night.start_utc == timedelta(minutes=90)
    assert night.start_utc - s.checkin_opens(night) == timedelta(minutes=30)
