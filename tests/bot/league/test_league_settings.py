"""League settings: bounds, format against the preset, names, slot clashes."""

from __future__ import annotations

from datetime import UTC, date, datetime, time, timedelta

import pytest

from bot.league.schedule import Schedule
from bot.league.settings import (
    LeagueSettings,
    SettingsError,
    check_format,
    check_name,
    clash,
    slot_key,
    team_size,
)
from bot.league.standings import PointsRule
from engine.ruleset import Ruleset


def test_settings_bounds() -> None:
    with pytest.raises(SettingsError, match="1 to 8 rounds"):
        LeagueSettings(rounds=0)
    with pytest.raises(SettingsError, match="5 to 240 minutes"):
        LeagueSettings(round_minutes=3)
    with pytest.raises(SettingsError, match="bye"):
        LeagueSettings(leftover="skip")
    s = LeagueSettings(rounds=3, round_minutes=40, leftover="bye", points=PointsRule(win=3), role_id=5)
    assert LeagueSettings.from_dict(s.to_dict()) == s
    assert s.night_length == timedelta(minutes=120)


def test_format_must_fit_the_preset() -> None:
    assert check_format("Rotating", Ruleset.preset("standard")) == "rotating"
    with pytest.raises(SettingsError, match="partnerships"):
        check_format("solo", Ruleset.preset("standard"))
    with pytest.raises(SettingsError, match="no partners"):
        check_format("fixed", Ruleset.preset("cutthroat"))
    with pytest.raises(SettingsError, match="Fixed partners"):
        check_format("swiss", Ruleset.preset("standard"))
    assert team_size("solo", Ruleset.preset("five-player")) == 1
    assert team_size("rotating", Ruleset.preset("six-player-threes")) == 3


def test_names() -> None:
    assert check_name("  Spades   Thursday ") == "Spades Thursday"
    for bad in ("", "x" * 51, "<@123> league", "@everyone night"):
        with pytest.raises(SettingsError):
            check_name(bad)


def test_clash_in_the_same_channel() -> None:
    now = datetime(2026, 10, 1, tzinfo=UTC)
    thu8 = Schedule(
        weekday=3, at=time(20), zone_name="America/New_York", first_day=date(2026, 10, 8), weeks=4
    )
    # 21:00 London is 16:00 New York: no overlap; 01:30 UTC Friday is 21:30 New York: inside the night
    london = Schedule(weekday=3, at=time(21), zone_name="Europe/London", first_day=date(2026, 10, 8), weeks=4)
    late = Schedule(weekday=4, at=time(1, 30), zone_name="UTC", first_day=date(2026, 10, 9), weeks=4)
    two_hours = timedelta(hours=2)
    assert clash(london, two_hours, [("Thursday", thu8, two_hours)], now=now) is None
    assert clash(late, two_hours, [("Thursday", thu8, two_hours)], now=now) == "Thursday"
    assert slot_key(thu8) == "3|20:00|America/New_York"


def test_a_table_of_three_needs_individuals_at_four_seat_tables() -> None:
    from bot.league.core import table_ruleset
    from bot.league.gateway import LeagueRefusal
    from bot.league.settings import check_leftover

    assert check_leftover("threes", "rotating", Ruleset.preset("standard")) == "threes"
    assert check_leftover("threes", "solo", Ruleset.preset("solo")) == "threes"
    for fmt, preset in (("fixed", "standard"), ("rotating", "six-player"), ("solo", "cutthroat")):
        with pytest.raises(SettingsError) as info:
            check_leftover("threes", fmt, Ruleset.preset(preset))
        assert info.value.code == "threes_format"
        assert LeagueRefusal.of(info.value).code == "threes_format"  # the code goes with the refusal
    assert check_leftover("bot", "fixed", Ruleset.preset("six-player")) == "bot"
    assert LeagueSettings.from_dict(LeagueSettings(leftover="threes").to_dict()).leftover == "threes"
    # the table of three plays cutthroat with the league's target and hand limit
    league = Ruleset.preset("standard", target_score=200, max_hands=3)
    three = table_ruleset(league, ((1,), (2,), (3,)))
    assert (three.name, three.num_seats, three.target_score, three.max_hands) == ("cutthroat", 3, 200, 3)
    assert table_ruleset(league, ((1, 2), (3, 4))) is league
    assert table_ruleset(Ruleset.preset("cutthroat"), ((1,), (2,), (3,))).name == "cutthroat"
