"""Who the bot is: the gateway URL, the bot's user and application, other users."""

from __future__ import annotations

from typing import Any

from ..state import FakeState
from .wire import ApiError, Request, int_param


class IdentityRoutes:
    """``/gateway``, ``/gateway/bot``, ``/users/...``, ``/applications/@me``."""

    def __init__(self, state: FakeState) -> None:
        self.state = state

    async def get_gateway(self, req: Request) -> tuple[int, Any]:
        return 200, {"url": self.state.gateway_url}

    async def get_gateway_bot(self, req: Request) -> tuple[int, Any]:
        return 200, {
            "url": self.state.gateway_url,
            "shards": 1,
            "session_start_limit": {
                "total": 1000,
                "remaining": 999,
                "reset_after": 14400000,
                "max_concurrency": 1,
            },
        }

    async def get_me(self, req: Request) -> tuple[int, Any]:
        return 200, self.state.bot_user.payload() | {
            "verified": True,
            "mfa_enabled": False,
            "email": None,
            "locale": "en-US",
        }

    async def get_application(self, req: Request) -> tuple[int, Any]:
        return 200, {
            "id": str(self.state.application_id),
            "name": self.state.bot_user.global_name,
            "icon": None,
            "description": "",
            "summary": "",
            "type": None,
            "hook": True,
            "bot_public": True,
            "bot_require_code_grant": False,
            "verify_key": "0" * 64,
            "flags": self.state.application_flags,
            "owner": self.state.owner.payload(),
            "team": None,
            "bot": self.state.bot_user.payload(),
            "tags": [],
            "redirect_uris": [],
            "interactions_endpoint_url": None,
            "role_connections_verification_url": None,
            "approximate_guild_count": len(self.state.guilds),
            "approximate_user_install_count": 0,
            "approximate_user_authorization_count": 0,
            "explicit_content_filter": 0,
            "eligible_oauth2_scopes": ["bot", "applications.commands"],
            "flags_new": str(self.state.application_flags),
            "integration_types_config": {"0": {}},
        }

    async def get_user(self, req: Request) -> tuple[int, Any]:
        user = self.state.users.get(int_param(req.params["user_id"]))
        if user is None:
            raise ApiError(404, 10013, "Unknown User")
        return 200, user.payload()
