"""The league's Discord payloads validate against Discord's OpenAPI spec."""

from __future__ import annotations

import gzip
import json
from datetime import UTC, date, datetime, time
from types import SimpleNamespace
from typing import Any

import jsonschema

from bot.league import schedule as sch
from bot.league.discord_io import CheckinButton, DiscordLeagueGateway, checkin_view
from bot.storage.leagues import LeagueRow
from fakediscord.validation.spec import SPEC_PATH


def schema(name: str) -> dict[str, Any]:
    spec = json.loads(gzip.decompress(SPEC_PATH.read_bytes()))
    return {"$ref": f"#/components/schemas/{name}", "components": spec["components"]}


def league_row(schedule: sch.Schedule) -> LeagueRow:
    return LeagueRow(
        id=1,
        guild_id=1,
        channel_id=10,
        name="Spades Thursday",
        status="active",
        format="rotating",
        ruleset={"name": "standard"},
        settings={"rounds": 3, "round_minutes": 40},
        schedule=sch.to_dict(schedule),
        slot_key="",
        season=1,
        version=1,
        created_by=5,
        created_at=0,
        updated_at=0,
    )


def test_event_payload_with_and_without_recurrence_is_valid() -> None:
    s = sch.Schedule(weekday=3, at=time(20), zone_name="Europe/Berlin", first_day=date(2027, 4, 1), weeks=6)
    gateway = DiscordLeagueGateway(SimpleNamespace(get_channel=lambda _id: SimpleNamespace(name="spades")))  # type: ignore[arg-type]
    night = s.nights()[0]
    rule = sch.recurrence_rule(s, datetime(2027, 3, 1, tzinfo=UTC))
    assert rule is not None
    for recurrence in (rule, None):
        payload = gateway.event_payload(league_row(s), night, recurrence)
        jsonschema.validate(payload, schema("ExternalScheduledEventCreateRequest"))
        assert payload["scheduled_start_time"] == "2027-04-01T18:00:00+00:00"  # 20:00 CEST
        assert payload["scheduled_end_time"] == "2027-04-01T20:00:00+00:00"  # 3 rounds of 40 minutes
        assert payload["entity_metadata"] == {"location": "#spades"}
        assert "Europe/Berlin" in payload["description"]


def test_checkin_buttons_are_persistent_and_short() -> None:
    view = checkin_view(123456)
    ids = [getattr(item, "custom_id", None) for item in view.children]
    assert ids == ["lg:ci:123456:in", "lg:ci:123456:sub", "lg:ci:123456:out"]
    assert view.timeout is None
    import re

    assert re.fullmatch(CheckinButton.__discord_ui_compiled_template__, ids[0])  # type: ignore[attr-defined]


def test_the_events_end_is_the_nights_real_length_across_a_dst_change() -> None:
    """2 rounds of 45 minutes from 01:30 local: a 90-minute event in March and October (wall-clock
    arithmetic made it 30 minutes in March and 150 in October)."""
    gateway = DiscordLeagueGateway(SimpleNamespace(get_channel=lambda _id: None))  # type: ignore[arg-type]
    for day in (date(2027, 3, 28), date(2026, 10, 25)):
        s = sch.Schedule(weekday=6, at=time(1, 30), zone_name="Europe/Warsaw", first_day=day, weeks=1)
        row = league_row(s)
        row.settings = {"rounds": 2, "round_minutes": 45}
        payload = gateway.event_payload(row, s.nights()[0], None)
        start = datetime.fromisoformat(payload["scheduled_start_time"])
        end = datetime.fromisoformat(payload["scheduled_end_time"])
        assert (end - start).total_seconds() == 90 * 60
