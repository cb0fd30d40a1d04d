"""Who the bot is: the gateway URL, the bot's user and application, other users."""

from __future__ import annotations

from typing import Any

from .checks import Checks
from .wire import ApiError, Request, int_param


class IdentityRoutes(Checks):
    """``/gateway``, ``/gateway/bot``, ``/users/...``, ``/applications/@me``."""

    async def _get_gateway(self, req: Request) -> tuple[int, Any]:
        return 200, {"url": self.gateway_url}

    async def _get_gateway_bot(self, req: Request) -> tuple[int, Any]:
        return 200, {
            "url": self.gateway_url,
            "shards": 1,
            "session_start_limit": {
                "total": 1000,
                "remaining": 999,
                "reset_after": 14400000,
                "max_concurrency": 1,
            },
        }

    async def _get_me(self, req: Request) -> tuple[int, Any]:
        return 200, self.bot_user.payload() | {
            "verified": True,
            "mfa_enabled": False,
            "email": None,
            "locale": "en-US",
        }

    async def _get_application(self, req: Request) -> tuple[int, Any]:
        return 200, {
            "id": str(self.application_id),
            "name": self.bot_user.global_name,
            "icon": None,
            "description": "",
            "summary": "",
            "type": None,
            "hook": True,
            "bot_public": True,
            "bot_require_code_grant": False,
            "verify_key": "0" * 64,
            "flags": self.application_flags,
            "owner": self.owner.payload(),
            "team": None,
            "bot": self.bot_user.payload(),
            "tags": [],
            "redirect_uris": [],
            "interactions_endpoint_url": None,
            "role_connections_verification_url": None,
            "approximate_guild_count": len(self.guilds),
            "approximate_user_install_count": 0,
            "approximate_user_authorization_count": 0,
            "explicit_content_filter": 0,
            "eligible_oauth2_scopes": ["bot", "applications.commands"],
            "flags_new": str(self.application_flags),
            "integration_types_config": {"0": {}},
        }

    async def _get_user(self, req: Request) -> tuple[int, Any]:
        user = self.users.get(int_param(req.params["user_id"]))
        if user is None:
            raise ApiError(404, 10013, "Unknown User")
        return 200, user.payload()
