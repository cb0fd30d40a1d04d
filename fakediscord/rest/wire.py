"""What goes over the wire: the request a handler gets, the error a handler raises (answered in
Discord's shape), JSON answers, and how route templates and parameters are read."""

from __future__ import annotations

import json
import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from aiohttp import web

from .. import validation
from ..models import Json


class ApiError(Exception):
    """Answer the request with Discord's error shape; ``violation`` records it as a bot bug."""

    def __init__(
        self,
        status: int,
        code: int,
        message: str,
        *,
        errors: list[str] | None = None,
        violation: bool = False,
        kind: str = "",
    ) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.errors = errors or []
        self.violation = violation
        self.kind = kind or ("invalid_body" if code == 50035 else "error")


@dataclass
class Request:
    method: str
    path: str
    params: dict[str, str]
    query: dict[str, str]
    body: Any
    files: list[Json]
    headers: dict[str, str]


#: A REST handler: the request in, (status, JSON body) out; it raises :class:`ApiError` to refuse.
Handler = Callable[[Request], Awaitable[tuple[int, Any]]]


@dataclass
class RouteDef:
    method: str
    template: str
    regex: re.Pattern[str]
    handler: Handler
    auth: bool


def compile_route(template: str) -> re.Pattern[str]:
    pattern = re.sub(
        r"\{(\w+)\}", r"(?P<\1>[^/]+)", re.escape(template).replace(r"\{", "{").replace(r"\}", "}")
    )
    return re.compile(f"^{pattern}$")


def json_response(status: int, data: Any = None) -> web.Response:
    """JSON with ``Content-Type: application/json`` exactly (discord.py compares the header verbatim)."""
    if status == 204 or data is None:
        return web.Response(status=204 if data is None else status)
    return web.Response(
        status=status, body=json.dumps(data).encode(), headers={"Content-Type": "application/json"}
    )


def error_body(err: ApiError) -> Json:
    body: Json = {"message": err.message, "code": err.code}
    if err.errors:
        body["errors"] = validation.errors_tree(err.errors)
    return body


def int_param(value: Any) -> int:
    try:
        return int(value)
    except (TypeError, ValueError):
        raise ApiError(404, 0, "404: Not Found") from None


def command_template(req: Request, suffix: str) -> str:
    base = "/applications/{application_id}"
    if "guild_id" in req.params:
        base += "/guilds/{guild_id}"
    return base + suffix


def has_content(body: Json) -> bool:
    return any(body.get(k) for k in ("content", "embeds", "components", "poll", "sticker_ids", "attachments"))
