"""What the bot reads about its servers: the guild, its channels, roles and members."""

from __future__ import annotations

from typing import Any

from .checks import Checks
from .wire import ApiError, Request, int_param


class GuildRoutes:
    """``/guilds/{guild_id}`` and its channels, roles and members."""

    def __init__(self, checks: Checks) -> None:
        self.checks = checks

    async def get_guild(self, req: Request) -> tuple[int, Any]:
        guild = self.checks.guild(req)
        data = guild.payload(full=False)
        if req.query.get("with_counts") in ("1", "true", "True"):
            data |= {"approximate_member_count": len(guild.members), "approximate_presence_count": 0}
        return 200, data

    async def get_guild_channels(self, req: Request) -> tuple[int, Any]:
        return 200, [c.payload() for c in self.checks.guild(req).text_channels]

    async def get_roles(self, req: Request) -> tuple[int, Any]:
        return 200, [r.payload() for r in self.checks.guild(req).roles.values()]

    async def get_member(self, req: Request) -> tuple[int, Any]:
        member = self.checks.guild(req).members.get(int_param(req.params["user_id"]))
        if member is None:
            raise ApiError(404, 10007, "Unknown Member")
        return 200, member.payload()
