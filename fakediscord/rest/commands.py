"""Application commands as the bot syncs them (global and per guild): stored as Discord returns them,
with the documented limits checked on every write."""

from __future__ import annotations

import copy
from typing import Any

from .. import validation
from ..models import Json
from ..state import FakeState
from .checks import Checks
from .wire import ApiError, Request, command_template


class CommandRoutes:
    """``/applications/{application_id}[/guilds/{guild_id}]/commands``."""

    def __init__(self, state: FakeState, checks: Checks) -> None:
        self.state = state
        self.checks = checks

    def _store_command(self, scope: int | None, body: Json, existing: Json | None = None) -> Json:
        cmd = copy.deepcopy(body)
        cmd.setdefault("type", 1)
        cmd.setdefault("description", "" if cmd["type"] != 1 else cmd.get("description", ""))
        old = existing or self.state.commands.get(scope, {}).get(cmd["name"])
        cmd["id"] = old["id"] if old and old.get("type") == cmd["type"] else str(self.state.snowflake())
        cmd["application_id"] = str(self.state.application_id)
        cmd["version"] = str(self.state.snowflake())
        if scope is not None:
            cmd["guild_id"] = str(scope)
        perms = cmd.get("default_member_permissions")
        cmd["default_member_permissions"] = None if perms is None else str(perms)
        cmd.setdefault("nsfw", False)
        if scope is None:
            cmd.setdefault("contexts", None)
            if cmd.get("integration_types") is None:
                cmd["integration_types"] = [0]
        cmd["dm_permission"] = cmd.get("dm_permission", True) if scope is None else None
        return cmd

    async def list_commands(self, req: Request) -> tuple[int, Any]:
        scope = self.checks.scope(req)
        return 200, list(self.state.commands.get(scope, {}).values())

    async def put_commands(self, req: Request) -> tuple[int, Any]:
        scope = self.checks.scope(req)
        body = req.body if req.body is not None else []
        self.checks.check_body("PUT", command_template(req, "/commands"), body)
        errors: list[str] = []
        if not isinstance(body, list):
            raise ApiError(400, 50035, "Invalid Form Body", errors=["body: must be an array"], violation=True)
        for i, cmd in enumerate(body):
            errors += [f"{i}.{e}" for e in validation.check_limits("command", cmd)]
        keys = [(c.get("name"), c.get("type", 1)) for c in body if isinstance(c, dict)]
        dupes = {k for k in keys if keys.count(k) > 1}
        if dupes:
            errors.append(f"duplicate command names: {sorted(str(d) for d in dupes)}")
        if errors:
            raise ApiError(400, 50035, "Invalid Form Body", errors=errors, violation=True)
        stored = {c["name"]: self._store_command(scope, c) for c in body}
        self.state.commands[scope] = stored
        return 200, list(stored.values())

    async def post_command(self, req: Request) -> tuple[int, Any]:
        scope = self.checks.scope(req)
        self.checks.check_body("POST", command_template(req, "/commands"), req.body, kind="command")
        cmd = self._store_command(scope, req.body)
        self.state.commands.setdefault(scope, {})[cmd["name"]] = cmd
        return 201, cmd

    def _command_by_id(self, req: Request) -> tuple[int | None, Json]:
        scope = self.checks.scope(req)
        for cmd in self.state.commands.get(scope, {}).values():
            if cmd["id"] == req.params["command_id"]:
                return scope, cmd
        raise ApiError(404, 10063, "Unknown application command")

    async def get_command(self, req: Request) -> tuple[int, Any]:
        return 200, self._command_by_id(req)[1]

    async def patch_command(self, req: Request) -> tuple[int, Any]:
        scope, cmd = self._command_by_id(req)
        self.checks.check_body("PATCH", command_template(req, "/commands/{command_id}"), req.body)
        merged = {k: v for k, v in cmd.items() if k not in ("id", "application_id", "version", "guild_id")}
        merged.update(req.body or {})
        errors = validation.check_limits("command", merged)
        if errors:
            raise ApiError(400, 50035, "Invalid Form Body", errors=errors, violation=True)
        new = self._store_command(scope, merged, existing=cmd)
        table = self.state.commands.setdefault(scope, {})
        table.pop(cmd["name"], None)
        table[new["name"]] = new
        return 200, new

    async def delete_command(self, req: Request) -> tuple[int, Any]:
        scope, cmd = self._command_by_id(req)
        self.state.commands.get(scope, {}).pop(cmd["name"], None)
        return 204, None
