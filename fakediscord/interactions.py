"""Interactions the fake sends to the bot: their payloads (guild or DM), their tokens, delivery
over the gateway and the wait for the initial response within Discord's 3 s, and the deferred
responses the bot never completed ("thinking")."""

from __future__ import annotations

import asyncio
import contextlib
import secrets
import time

from .models import DM_APP_PERMISSIONS, Channel, DMChannel, Guild, Json, User
from .records import FakeDiscordUsageError, InteractionRecord, InteractionResult, Violation
from .state import FakeState

#: Discord: the initial response must arrive within 3 s of the interaction.
INTERACTION_DEADLINE = 3.0
#: Discord: interaction tokens (follow-ups, @original) are valid for 15 minutes.
TOKEN_LIFETIME = 15 * 60.0


class Interactions:
    """Every interaction sent, by id and by token: made (:meth:`create`), sent to the bot and waited
    on (:meth:`send`), and those still unanswered or "thinking"."""

    def __init__(self, state: FakeState) -> None:
        self.state = state
        self.gateway = state.gateway
        self.interactions: dict[int, InteractionRecord] = {}
        self.by_token: dict[str, InteractionRecord] = {}
        self._thinking_seen: set[int] = set()

    def create(self, type_: int, user: User, channel: Channel | DMChannel, data: Json) -> InteractionRecord:
        iid = self.state.snowflake()
        token = "aW50ZXJhY3Rpb246" + secrets.token_urlsafe(48)
        payload: Json = {
            "id": str(iid),
            "application_id": str(self.state.application_id),
            "type": type_,
            "data": data,
            "channel_id": str(channel.id),
            "token": token,
            "version": 1,
            "locale": user.locale,
            "entitlements": [],
            "entitlement_sku_ids": [],
            "attachment_size_limit": 10485760,
        }
        if isinstance(channel, DMChannel):
            payload |= {
                "channel": channel.payload(),
                "user": user.payload(),
                "app_permissions": str(DM_APP_PERMISSIONS),
                "authorizing_integration_owners": {"0": "0"},
                "context": 1,
            }
            return self._register(iid, token, type_, user, channel, None, payload)
        guild = channel.guild
        member = guild.member(user)
        payload |= {
            "guild_id": str(guild.id),
            "guild": {"id": str(guild.id), "locale": guild.preferred_locale, "features": guild.features},
            "channel": channel.payload() | {"permissions": str(member.permissions_in(channel))},
            "member": member.payload(permissions_in=channel),
            "app_permissions": str(guild.member(self.state.bot_user).permissions_in(channel)),
            "guild_locale": guild.preferred_locale,
            "authorizing_integration_owners": {"0": str(guild.id)},
            "context": 0,
        }
        return self._register(iid, token, type_, user, channel, guild, payload)

    def _register(
        self,
        iid: int,
        token: str,
        type_: int,
        user: User,
        channel: Channel | DMChannel,
        guild: Guild | None,
        payload: Json,
    ) -> InteractionRecord:
        record = InteractionRecord(
            id=iid,
            token=token,
            type=type_,
            user=user,
            channel=channel,
            guild=guild,
            created=self.state.clock.now(),
            payload=payload,
        )
        self.interactions[iid] = record
        self.by_token[token] = record
        return record

    async def send(self, record: InteractionRecord) -> InteractionResult:
        if not self.gateway.connected and self.gateway.session is None:
            raise FakeDiscordUsageError("the bot is not connected (use fake.run_bot(bot))")
        self.gateway.dispatch("INTERACTION_CREATE", record.payload)
        self.state.last_activity = time.monotonic()
        while not record.responded.is_set():
            idle = (
                self.state.inflight == 0
                and time.monotonic() - self.state.last_activity > self.state.quiet_period
            )
            if record.errors and idle:
                break  # the bot's answer was rejected and it is not trying again: the user sees a failure
            if record.age(self.state.clock.now()) > INTERACTION_DEADLINE:
                reason = f"no initial response within {INTERACTION_DEADLINE:g} s (the user sees a failure)"
                record.errors.append(reason)
                self.state.record_violation(
                    Violation(kind="no_response", reason=reason, status=0, code=10062)
                )
                break
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(record.responded.wait(), 0.02)
        return InteractionResult(record)

    def unanswered(self) -> list[InteractionRecord]:
        """Interactions still inside their 3 s window with no answer (and no rejected attempt)."""
        now = self.state.clock.now()
        return [
            r
            for r in self.interactions.values()
            if r.response_type is None and not r.errors and r.age(now) <= INTERACTION_DEADLINE
        ]

    def thinking(self) -> list[InteractionRecord]:
        """Deferred responses (type 5) the bot never completed: users still see "thinking..."."""
        return [
            r
            for r in self.interactions.values()
            if r.original is not None
            and r.original.loading
            and not r.original.deleted
            and r.id not in self._thinking_seen
        ]

    def take_thinking(self) -> list[InteractionRecord]:
        """Return :meth:`thinking` and stop reporting those (for tests that leave one on purpose)."""
        found = self.thinking()
        self._thinking_seen.update(r.id for r in found)
        return found
