"""Users using message components: clicking buttons, picking in select menus (string, user, role
and channel selects), and filling in and submitting the modals the bot opens."""

from __future__ import annotations

from typing import Any

from ..interactions import Interactions
from ..models import Channel, DMChannel, Json, Message, User
from ..records import FakeDiscordUsageError, InteractionResult
from ..world import World
from .commands import CommandUse


class ComponentUse:
    """``click``, ``select``, ``submit_modal``; user/role/channel values resolve like command options."""

    def __init__(self, world: World, desk: Interactions, command_use: CommandUse) -> None:
        self.world = world
        self.desk = desk
        self.command_use = command_use

    async def click(
        self, user: User, message: Message, *, label: str | None = None, custom_id: str | None = None
    ) -> InteractionResult:
        """``user`` clicks the button with ``label`` or ``custom_id`` on ``message``.

        Fails the test if the user cannot see the message or the button is missing, disabled, or a
        link/premium button (those never reach the bot).
        """
        channel = self.world.visible_component_message(user, message)
        button = message.find_component(label=label, custom_id=custom_id, type=2)
        if button.get("disabled"):
            raise FakeDiscordUsageError(f"button {button.get('label')!r} on message {message.id} is disabled")
        if "custom_id" not in button:
            raise FakeDiscordUsageError(
                f"button {button.get('label')!r} is a link/premium button, not clickable"
            )
        data = {"custom_id": button["custom_id"], "component_type": 2}
        return await self.component_interaction(user, channel, message, data)

    async def select(
        self,
        user: User,
        message: Message,
        *,
        values: list[Any],
        custom_id: str | None = None,
        label: str | None = None,
    ) -> InteractionResult:
        """``user`` picks ``values`` in the select menu (``label`` matches its placeholder).

        String selects take option values; user/role/channel selects take the fake's objects.
        """
        channel = self.world.visible_component_message(user, message)
        select = message.find_component(label=label, custom_id=custom_id)
        ctype = select.get("type")
        if ctype not in (3, 5, 6, 7, 8):
            raise FakeDiscordUsageError(f"component {select.get('custom_id')!r} is not a select menu")
        if select.get("disabled"):
            raise FakeDiscordUsageError(f"select {select.get('custom_id')!r} is disabled")
        lo, hi = select.get("min_values", 1), select.get("max_values", 1)
        if not lo <= len(values) <= hi:
            raise FakeDiscordUsageError(
                f"select {select['custom_id']!r} takes {lo}..{hi} values, got {len(values)}"
            )
        resolved: Json = {}
        out: list[str] = []
        if ctype == 3:
            allowed = [o["value"] for o in select.get("options", [])]
            for v in values:
                if v not in allowed:
                    raise FakeDiscordUsageError(
                        f"{v!r} is not an option of {select['custom_id']!r}: {allowed}"
                    )
                out.append(v)
            if len(set(out)) != len(out):
                raise FakeDiscordUsageError("the same option cannot be picked twice")
        else:
            if not isinstance(channel, Channel):
                raise FakeDiscordUsageError("user/role/channel selects are only modelled in servers")
            kind = {5: 6, 6: 8, 7: 9, 8: 7}[ctype]
            opt = {"name": select["custom_id"], "type": kind, "channel_types": select.get("channel_types")}
            out = [self.command_use.option_value(opt, v, resolved, channel) for v in values]
        data: Json = {"custom_id": select["custom_id"], "component_type": ctype, "values": out}
        if resolved:
            data["resolved"] = resolved
        return await self.component_interaction(user, channel, message, data)

    async def component_interaction(
        self, user: User, channel: Channel | DMChannel, message: Message, data: Json
    ) -> InteractionResult:
        record = self.desk.create(3, user, channel, data)
        record.payload["message"] = message.payload()
        record.source_message = message
        return await self.desk.send(record)

    async def submit_modal(
        self, user: User, result: InteractionResult, values: dict[str, str | list[Any]]
    ) -> InteractionResult:
        """``user`` fills in the modal the bot opened (``result.type == 9``) and submits it.

        ``values`` maps each input's custom_id to the text typed (text inputs) or to the picked values
        (selects in labels: option values, or the fake's users/roles/channels). Required inputs,
        lengths and option counts are enforced as the client would.
        """
        modal = result.modal
        if modal is None:
            raise FakeDiscordUsageError("the bot did not answer with a modal")
        origin = result.record
        if user is not origin.user:
            raise FakeDiscordUsageError("only the user the modal was shown to can submit it")
        if origin.modal_submitted:
            raise FakeDiscordUsageError("this modal was already submitted (the client closed it)")
        rows: list[Json] = []
        seen: set[str] = set()
        resolved: Json = {}
        for row in modal.get("components", []):
            inner = row.get("components") or ([row["component"]] if "component" in row else [])
            out_inner = [
                self._modal_value(comp, values, resolved, origin.channel)
                for comp in inner
                if comp.get("type") in (3, 4, 5, 6, 7, 8)
            ]
            seen.update(comp["custom_id"] for comp in inner if "custom_id" in comp)
            if "component" in row:
                if out_inner:
                    rows.append({"type": 18, "id": row.get("id", 0), "component": out_inner[0]})
            elif out_inner:
                rows.append({"type": 1, "id": row.get("id", 0), "components": out_inner})
            elif row.get("type") == 10:
                rows.append({"type": 10, "id": row.get("id", 0)})
        unknown = set(values) - seen
        if unknown:
            raise FakeDiscordUsageError(f"the modal has no inputs {sorted(unknown)}")
        data: Json = {"custom_id": modal["custom_id"], "components": rows}
        if resolved:
            data["resolved"] = resolved
        origin.modal_submitted = True
        record = self.desk.create(5, user, origin.channel, data)
        if origin.source_message is not None:
            record.payload["message"] = origin.source_message.payload()
            record.source_message = origin.source_message
        return await self.desk.send(record)

    def _modal_value(
        self, comp: Json, values: dict[str, Any], resolved: Json, channel: Channel | DMChannel
    ) -> Json:
        cid = comp["custom_id"]
        base = {"type": comp["type"], "custom_id": cid, "id": comp.get("id", 0)}
        if comp["type"] == 4:
            text = values.get(cid, comp.get("value") or "")
            if not isinstance(text, str):
                raise FakeDiscordUsageError(f"text input {cid!r} takes a string")
            if comp.get("required", True) and not text:
                raise FakeDiscordUsageError(f"text input {cid!r} is required")
            if text and not comp.get("min_length", 0) <= len(text) <= comp.get("max_length", 4000):
                raise FakeDiscordUsageError(f"text input {cid!r}: length out of range")
            return base | {"value": text}
        picked = values.get(cid, [])
        if not isinstance(picked, list):
            raise FakeDiscordUsageError(f"select {cid!r} takes a list of values")
        lo, hi = comp.get("min_values", 1), comp.get("max_values", 1)
        if comp.get("required", True) and not picked and lo:
            raise FakeDiscordUsageError(f"select {cid!r} is required")
        if picked and not lo <= len(picked) <= hi:
            raise FakeDiscordUsageError(f"select {cid!r} takes {lo}..{hi} values, got {len(picked)}")
        if comp["type"] == 3:
            allowed = [o["value"] for o in comp.get("options", [])]
            bad = [v for v in picked if v not in allowed]
            if bad:
                raise FakeDiscordUsageError(f"{bad} are not options of {cid!r}: {allowed}")
            return base | {"values": list(picked)}
        kind = {5: 6, 6: 8, 7: 9, 8: 7}[comp["type"]]
        opt = {"name": cid, "type": kind, "channel_types": comp.get("channel_types")}
        if not isinstance(channel, Channel):
            raise FakeDiscordUsageError("user/role/channel selects are only modelled in servers")
        return base | {"values": [self.command_use.option_value(opt, v, resolved, channel) for v in picked]}
