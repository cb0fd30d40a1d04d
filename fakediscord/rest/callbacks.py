"""The bot's answers to interactions: the initial response (within 3 s, once, of a type the
interaction allows), follow-ups (the first one after a deferral replaces the "thinking" message),
and ``@original`` and follow-up messages read, edited and deleted with the interaction token
(valid 15 minutes)."""

from __future__ import annotations

from typing import Any

from .. import validation
from ..interactions import INTERACTION_DEADLINE, TOKEN_LIFETIME, Interactions
from ..models import EPHEMERAL, LOADING, Json, Message
from ..models.messages import json_copy
from ..records import InteractionRecord
from ..state import FakeState
from ..store import MessageStore
from .checks import Checks
from .wire import ApiError, Request, has_content, int_param


class CallbackRoutes:
    """``/interactions/{id}/{token}/callback`` and ``/webhooks/{application_id}/{token}/...``."""

    def __init__(self, state: FakeState, checks: Checks, desk: Interactions, store: MessageStore) -> None:
        self.state = state
        self.checks = checks
        self.desk = desk
        self.store = store

    def _record_for(self, iid: str, token: str) -> InteractionRecord:
        record = self.desk.by_token.get(token)
        if record is None or str(record.id) != iid:
            raise ApiError(404, 10062, "Unknown interaction", violation=True, kind="unknown_interaction")
        return record

    async def callback(self, req: Request) -> tuple[int, Any]:
        record = self._record_for(req.params["interaction_id"], req.params["interaction_token"])
        try:
            return self._respond(record, req)
        except ApiError as err:
            if record.response_type is None:
                record.errors.append(f"initial response rejected: {err.code} {err.message} {err.errors}")
            raise

    def _respond(self, record: InteractionRecord, req: Request) -> tuple[int, Any]:
        age = record.age(self.state.clock.now())
        if age > INTERACTION_DEADLINE:
            raise ApiError(
                404,
                10062,
                f"Unknown interaction (initial response {age:.2f} s after the interaction; the limit is 3 s)",
                violation=True,
                kind="late_response",
            )
        if record.response_type is not None:
            raise ApiError(
                400,
                40060,
                "Interaction has already been acknowledged.",
                violation=True,
                kind="double_response",
            )
        body = req.body
        if not isinstance(body, dict) or not isinstance(body.get("type"), int):
            raise ApiError(400, 50035, "Invalid Form Body", errors=["type: required integer"], violation=True)
        ctype = body["type"]
        allowed = {2: {4, 5, 9}, 3: {4, 5, 6, 7, 9}, 4: {8}, 5: {4, 5, 6, 7}}[record.type]
        if ctype not in allowed:
            raise ApiError(
                400,
                50035,
                "Invalid Form Body",
                errors=[
                    f"type: callback type {ctype} is not valid for interaction type {record.type} "
                    f"(allowed {sorted(allowed)})"
                ],
                violation=True,
            )
        if ctype in (6, 7) and record.source_message is None:
            raise ApiError(
                400, 50035, "Invalid Form Body", errors=["type: no message to update"], violation=True
            )
        kind = {4: "message", 7: "message", 8: "autocomplete", 9: "modal"}.get(ctype)
        data = body.get("data") or {}
        if kind == "message" and isinstance(data, dict):
            self.checks.check_emojis(data, where="data.")
        if self.state.validate:
            errors = validation.validate_request(
                "POST", "/interactions/{interaction_id}/{interaction_token}/callback", body
            )
            if kind is not None:
                errors += [f"data.{e}" for e in validation.check_limits(kind, data)]
            if kind == "autocomplete":
                errors += [f"data.{e}" for e in self._check_choices_against_option(record, data)]
            if errors:
                raise ApiError(400, 50035, "Invalid Form Body", errors=errors, violation=True)
        if ctype == 4 and not has_content(data) and not req.files:
            raise ApiError(400, 50006, "Cannot send an empty message", violation=True, kind="empty_message")
        record.response_type = ctype
        record.response_data = json_copy(data)
        record.responded_at = self.state.clock.now()
        resource: Json | None = None
        if ctype in (4, 5):
            flags = int(data.get("flags") or 0)
            msg_body = dict(data)
            if ctype == 5:
                msg_body = {"flags": flags & EPHEMERAL}
            msg = self._interaction_message(record, msg_body, req.files)
            if ctype == 5:
                msg.flags |= LOADING
            record.original = msg
            resource = msg.payload()
            self.store.dispatch_message("MESSAGE_CREATE", msg)
        elif ctype in (6, 7):
            source = record.source_message
            assert source is not None
            record.original = source
            if ctype == 7:
                self.store.apply_fields(source, data, creating=False, files=req.files)
                self.store.dispatch_message("MESSAGE_UPDATE", source)
            resource = source.payload()
        record.responded.set()
        if req.query.get("with_response") not in ("1", "true", "True"):
            return 204, None
        interaction: Json = {
            "id": str(record.id),
            "type": record.type,
            "response_message_loading": ctype == 5,
            "response_message_ephemeral": bool(
                record.original and record.original.ephemeral and ctype in (4, 5)
            ),
        }
        if record.original is not None:
            interaction["response_message_id"] = str(record.original.id)
        if record.guild is not None:
            interaction["guild_id"] = str(record.guild.id)
        interaction["channel_id"] = str(record.channel.id)
        out: Json = {"interaction": interaction}
        if resource is not None and ctype in (4, 7):  # the spec returns a resource for these only
            out["resource"] = {"type": ctype, "message": resource}
        return 200, out

    def _check_choices_against_option(self, record: InteractionRecord, data: Json) -> list[str]:
        """Autocomplete choices must have the focused option's type (Discord rejects mismatches)."""
        focused = _focused_option(record.payload["data"].get("options", []))
        if focused is None:
            return []
        wanted: dict[int, type | tuple[type, ...]] = {3: str, 4: int, 10: (int, float)}
        want = wanted.get(focused["type"])
        errors = []
        for i, choice in enumerate(data.get("choices") or []):
            value = choice.get("value") if isinstance(choice, dict) else None
            if want is not None and (isinstance(value, bool) or not isinstance(value, want)):
                errors.append(f"choices.{i}.value: {value!r} does not match option type {focused['type']}")
        return errors

    def _interaction_message(
        self, record: InteractionRecord, body: Json, files: list[Json] | None = None
    ) -> Message:
        flags = int(body.get("flags") or 0)
        ephemeral = bool(flags & EPHEMERAL)
        command_type = record.payload["data"].get("type", 1) if record.type == 2 else None
        # CHAT_INPUT_COMMAND (20) for slash commands, CONTEXT_MENU_COMMAND (23) for the menus, else DEFAULT
        cmd_type = {None: 0, 1: 20}.get(command_type, 23)
        msg = self.store.new_message(
            record.channel,
            self.state.bot_user,
            body,
            files,
            type=cmd_type if not record.original else 0,
            visible_to=record.user if ephemeral else None,
            webhook_id=self.state.application_id,
            application_id=self.state.application_id,
            interaction_metadata={
                "id": str(record.id),
                "type": record.type,
                "user": record.user.payload(),
                "authorizing_integration_owners": {"0": str(record.guild.id) if record.guild else "0"},
                **(
                    {"name": record.payload["data"]["name"], "command_type": command_type}
                    if record.type == 2
                    else {}
                ),
            },
        )
        if ephemeral:
            msg.flags |= EPHEMERAL
        return msg

    def _token_record(self, req: Request) -> InteractionRecord:
        if int_param(req.params["webhook_id"]) != self.state.application_id:
            raise ApiError(404, 10015, "Unknown Webhook", violation=True, kind="unknown_webhook")
        record = self.desk.by_token.get(req.params["webhook_token"])
        if record is None:
            raise ApiError(401, 50027, "Invalid Webhook Token", violation=True, kind="invalid_token")
        if self.state.clock.now() - record.created > TOKEN_LIFETIME:
            raise ApiError(
                401, 50027, "Invalid Webhook Token (the interaction token expired after 15 minutes)"
            )
        if record.response_type is None:
            raise ApiError(
                404,
                10015,
                "Unknown Webhook (follow-up before the initial response)",
                violation=True,
                kind="early_followup",
            )
        return record

    def _webhook_message(self, record: InteractionRecord, message_id: str) -> Message:
        if message_id == "@original":
            if record.original is None:
                raise ApiError(404, 10008, "Unknown Message")
            return record.original
        msg = self.state.messages.get(int_param(message_id))
        if msg is None or msg.deleted or (msg is not record.original and msg not in record.followups):
            raise ApiError(404, 10008, "Unknown Message")
        return msg

    async def followup(self, req: Request) -> tuple[int, Any]:
        record = self._token_record(req)
        self.checks.check_body("POST", "/webhooks/{webhook_id}/{webhook_token}", req.body, kind="message")
        body = req.body or {}
        if not has_content(body) and not req.files:
            raise ApiError(400, 50006, "Cannot send an empty message", violation=True, kind="empty_message")
        original = record.original
        if original is not None and original.loading and not original.deleted and record.response_type == 5:
            # Discord: the first follow-up after a deferred (thinking) response replaces the thinking
            # message and keeps its visibility.
            self.store.apply_fields(original, body, creating=False, files=req.files, notify=True)
            original.history.clear()
            original.edited_timestamp = None
            msg = original
        else:
            msg = self._interaction_message(record, body, req.files)
            record.followups.append(msg)
        record.followed_up = True
        self.store.dispatch_message("MESSAGE_CREATE", msg)
        if req.query.get("wait") in ("1", "true", "True"):
            return 200, msg.payload()
        return 204, None

    async def get_webhook_message(self, req: Request) -> tuple[int, Any]:
        record = self._token_record(req)
        return 200, self._webhook_message(record, req.params.get("message_id", "@original")).payload()

    async def edit_webhook_message(self, req: Request) -> tuple[int, Any]:
        record = self._token_record(req)
        template = "/webhooks/{webhook_id}/{webhook_token}/messages/" + (
            "{message_id}" if "message_id" in req.params else "@original"
        )
        self.checks.check_body("PATCH", template, req.body, kind="message_edit")
        msg = self._webhook_message(record, req.params.get("message_id", "@original"))
        self.store.apply_fields(msg, req.body or {}, creating=False, files=req.files)
        record.followed_up = True
        self.store.dispatch_message("MESSAGE_UPDATE", msg)
        return 200, msg.payload()

    async def delete_webhook_message(self, req: Request) -> tuple[int, Any]:
        record = self._token_record(req)
        msg = self._webhook_message(record, req.params.get("message_id", "@original"))
        if msg.deleted:
            raise ApiError(404, 10008, "Unknown Message")
        msg.deleted = True
        self.store.dispatch_delete(msg)
        return 204, None


def _focused_option(options: list[Json]) -> Json | None:
    for opt in options:
        if opt.get("focused"):
            return opt
        found = _focused_option(opt.get("options") or [])
        if found is not None:
            return found
    return None
