"""Guild scheduled events: created, read, edited (with the status changes Discord allows) and
deleted by the bot, with their gateway events when it asked for them.

As Discord does: an external event begins by itself at its start time (SCHEDULED -> ACTIVE); the
only status changes are SCHEDULED -> ACTIVE, ACTIVE -> COMPLETED and SCHEDULED -> CANCELED; a
COMPLETED or CANCELED event can no longer be edited; the members who marked an event
"Interested" are read with ``GET .../users``."""

from __future__ import annotations

from typing import Any

from discord import Permissions

from .. import validation
from ..gateway import INTENT_SCHEDULED_EVENTS
from ..models import Guild, Json, ScheduledEvent
from ..state import FakeState
from .checks import Checks
from .wire import ApiError, Request, int_param

SCHEDULED, ACTIVE, COMPLETED, CANCELED = 1, 2, 3, 4
EXTERNAL = 3
ALLOWED = ((SCHEDULED, ACTIVE), (ACTIVE, COMPLETED), (SCHEDULED, CANCELED))


class EventRoutes:
    """``/guilds/{guild_id}/scheduled-events``."""

    def __init__(self, state: FakeState, checks: Checks) -> None:
        self.state = state
        self.gateway = state.gateway
        self.checks = checks

    def _event(self, guild: Guild, req: Request) -> ScheduledEvent:
        event = guild.scheduled_events.get(int_param(req.params["event_id"]))
        if event is None:
            raise ApiError(404, 10070, "Unknown Guild Scheduled Event")
        self._begin_if_due(event)
        return event

    def _begin_if_due(self, event: ScheduledEvent) -> None:
        """An external event begins by itself at its start time (Discord starts it)."""
        if event.status != SCHEDULED or event.data.get("entity_type") != EXTERNAL:
            return
        start = validation.parse_time(event.data.get("scheduled_start_time"))
        if start is not None and start <= self.state.clock.now():
            event.data["status"] = ACTIVE
            if self.gateway.intents & INTENT_SCHEDULED_EVENTS:
                self.gateway.dispatch("GUILD_SCHEDULED_EVENT_UPDATE", event.data)

    def _check_event(self, guild: Guild, data: Json) -> None:
        errors = validation.check_limits("scheduled_event", data)
        if data.get("entity_type") in (1, 2):
            cid = int_param(data.get("channel_id") or 0)
            if cid not in guild.channels:
                errors.append("channel_id: a stage/voice event needs a channel of this guild")
        start = data.get("scheduled_start_time")
        if start and validation.parse_time(start) is not None and data.get("status", 1) == 1:
            when = validation.parse_time(start)
            if when is not None and when < self.state.clock.now():
                errors.append("scheduled_start_time: Cannot schedule event in the past.")
        if errors:
            raise ApiError(400, 50035, "Invalid Form Body", errors=errors, violation=True)

    async def list_events(self, req: Request) -> tuple[int, Any]:
        events = list(self.checks.guild(req).scheduled_events.values())
        for e in events:
            self._begin_if_due(e)
        return 200, [e.data for e in events]

    async def list_users(self, req: Request) -> tuple[int, Any]:
        """Who marked the event "Interested" (by user id, ``limit`` up to 100, after ``after``)."""
        guild = self.checks.guild(req)
        event = self._event(guild, req)
        limit = int(req.query.get("limit", 100))
        if not 1 <= limit <= 100:
            raise ApiError(400, 50035, "Invalid Form Body", errors=["limit: 1 to 100"], violation=True)
        users = sorted(event.interested, key=lambda u: u.id)
        if "after" in req.query:
            users = [u for u in users if u.id > int_param(req.query["after"])]
        if "before" in req.query:
            users = [u for u in users if u.id < int_param(req.query["before"])]
        return 200, [
            {
                "guild_scheduled_event_id": str(event.id),
                "user_id": str(u.id),
                "user": u.payload(),
                "response": 1,
            }
            for u in users[:limit]
        ]

    async def create_event(self, req: Request) -> tuple[int, Any]:
        guild = self.checks.guild(req)
        self.checks.check_body("POST", "/guilds/{guild_id}/scheduled-events", req.body)
        have = guild.member(self.state.bot_user).base_permissions
        if not have & (Permissions(manage_events=True).value | Permissions(create_events=True).value):
            raise ApiError(403, 50013, "Missing Permissions (manage_events)")
        body = req.body or {}
        self._check_event(guild, body)
        eid = self.state.snowflake()
        data: Json = {
            "id": str(eid),
            "guild_id": str(guild.id),
            "channel_id": body.get("channel_id"),
            "creator_id": str(self.state.bot_user.id),
            "creator": self.state.bot_user.payload(),
            "name": body["name"],
            "description": body.get("description"),
            "scheduled_start_time": body["scheduled_start_time"],
            "scheduled_end_time": body.get("scheduled_end_time"),
            "privacy_level": body.get("privacy_level", 2),
            "status": 1,
            "entity_type": body["entity_type"],
            "entity_id": None,
            "entity_metadata": body.get("entity_metadata"),
            "user_count": 0,
            "image": None,
            "recurrence_rule": body.get("recurrence_rule"),
            "guild_scheduled_event_exceptions": [],
        }
        guild.scheduled_events[eid] = ScheduledEvent(id=eid, guild=guild, data=data)
        if self.gateway.intents & INTENT_SCHEDULED_EVENTS:
            self.gateway.dispatch("GUILD_SCHEDULED_EVENT_CREATE", data)
        return 200, data

    async def get_event(self, req: Request) -> tuple[int, Any]:
        guild = self.checks.guild(req)
        return 200, self._event(guild, req).data

    async def edit_event(self, req: Request) -> tuple[int, Any]:
        guild = self.checks.guild(req)
        self.checks.check_body("PATCH", "/guilds/{guild_id}/scheduled-events/{event_id}", req.body)
        event = self._event(guild, req)
        merged = dict(event.data) | (req.body or {})
        if event.status in (COMPLETED, CANCELED):
            raise ApiError(
                400,
                50035,
                "Invalid Form Body",
                errors=["status: a completed or canceled event can no longer be updated"],
                violation=True,
            )
        if "status" in (req.body or {}):
            old, new = event.data["status"], req.body["status"]
            if (old, new) not in ALLOWED and old != new:
                raise ApiError(
                    400,
                    50035,
                    "Invalid Form Body",
                    errors=[f"status: cannot go from {old} to {new}"],
                    violation=True,
                )
        moved = "scheduled_start_time" in (req.body or {})
        self._check_event(guild, merged | {"status": merged.get("status", SCHEDULED) if moved else 0})
        event.data = merged
        if self.gateway.intents & INTENT_SCHEDULED_EVENTS:
            self.gateway.dispatch("GUILD_SCHEDULED_EVENT_UPDATE", merged)
        return 200, merged

    async def delete_event(self, req: Request) -> tuple[int, Any]:
        guild = self.checks.guild(req)
        event = self._event(guild, req)
        del guild.scheduled_events[event.id]
        if self.gateway.intents & INTENT_SCHEDULED_EVENTS:
            self.gateway.dispatch("GUILD_SCHEDULED_EVENT_DELETE", event.data)
        return 204, None
