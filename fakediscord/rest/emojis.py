"""The application's emojis: names of 2-32 letters, digits or underscores, unique; images as data
URIs of a real image of at most 256 KiB; at most 2000 of them."""

from __future__ import annotations

import copy
from typing import Any

from .. import uploads
from ..models import Json
from ..state import FakeState
from .checks import Checks
from .wire import ApiError, Request, int_param


class EmojiRoutes:
    """``/applications/{application_id}/emojis``."""

    def __init__(self, state: FakeState, checks: Checks) -> None:
        self.state = state
        self.checks = checks

    def _app_emoji(self, req: Request) -> Json:
        self.checks.scope(req)
        emoji = self.state.app_emojis.get(int_param(req.params["emoji_id"]))
        if emoji is None:
            raise ApiError(404, 10014, "Unknown Emoji", violation=True, kind="unknown_emoji")
        return emoji

    async def list_app_emojis(self, req: Request) -> tuple[int, Any]:
        self.checks.scope(req)
        return 200, {"items": [copy.deepcopy(e) for e in self.state.app_emojis.values()]}

    async def create_app_emoji(self, req: Request) -> tuple[int, Any]:
        self.checks.scope(req)
        self.checks.check_body("POST", "/applications/{application_id}/emojis", req.body)
        body = req.body if isinstance(req.body, dict) else {}
        if len(self.state.app_emojis) >= uploads.MAX_APP_EMOJIS:
            raise ApiError(400, 30008, "Maximum number of emojis reached (2000)", violation=True)
        errors = []
        taken = {str(e["name"]) for e in self.state.app_emojis.values()}
        if (why := uploads.emoji_name_error(body.get("name"), taken)) is not None:
            errors.append(why)
        image, bad = uploads.emoji_image(body.get("image"))
        if bad is not None:
            errors.append(bad)
        if errors:
            raise ApiError(400, 50035, "Invalid Form Body", errors=errors, violation=True)
        assert image is not None
        eid = self.state.snowflake()
        kind, _, _ = uploads.sniff(image)
        emoji = {
            "id": str(eid),
            "name": body["name"],
            "roles": [],
            "user": self.state.bot_user.payload(),
            "require_colons": True,
            "managed": False,
            "animated": kind == "image/gif",
            "available": True,
        }
        self.state.app_emojis[eid] = emoji
        self.state.app_emoji_images[eid] = image
        return 201, copy.deepcopy(emoji)

    async def get_app_emoji(self, req: Request) -> tuple[int, Any]:
        return 200, copy.deepcopy(self._app_emoji(req))

    async def edit_app_emoji(self, req: Request) -> tuple[int, Any]:
        emoji = self._app_emoji(req)
        self.checks.check_body("PATCH", "/applications/{application_id}/emojis/{emoji_id}", req.body)
        name = (req.body or {}).get("name")
        taken = {str(e["name"]) for e in self.state.app_emojis.values() if e is not emoji}
        if (why := uploads.emoji_name_error(name, taken)) is not None:
            raise ApiError(400, 50035, "Invalid Form Body", errors=[why], violation=True)
        emoji["name"] = name
        return 200, copy.deepcopy(emoji)

    async def delete_app_emoji(self, req: Request) -> tuple[int, Any]:
        emoji = self._app_emoji(req)
        eid = int(emoji["id"])
        del self.state.app_emojis[eid]
        self.state.app_emoji_images.pop(eid, None)
        return 204, None
