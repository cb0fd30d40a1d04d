"""The fake's aiohttp app and the path of every REST request through it: recorded, matched to a
route (404 ``unknown_route`` otherwise), body read (JSON or multipart uploads), an injected fault,
the bot token (401), the global limit and the route's bucket, then the handler; an
:class:`~.wire.ApiError` becomes Discord's error answer (and a violation when it is a bot bug)."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Awaitable, Callable
from typing import Any

from aiohttp import BodyPartReader, web

from .. import uploads
from ..models import Json
from ..records import RecordedRequest, Violation
from ..state import API_PREFIX, FakeState
from ..store import MessageStore
from .faults import Faults
from .ratelimits import RateLimits
from .wire import ApiError, Handler, Request, RouteDef, compile_route, error_body, json_response


class HttpApp:
    """The server (``start``/``close``) and the request pipeline; handlers come from the routes added
    (:meth:`route`). It also answers as Discord's CDN (``/emojis/...``, ``/attachments/...``: the
    store's :meth:`~.store.MessageStore.cdn_file`)."""

    def __init__(self, state: FakeState, faults: Faults, limits: RateLimits, store: MessageStore) -> None:
        self.state = state
        self.faults = faults
        self.limits = limits
        self.store = store
        self._routes: list[RouteDef] = []
        self._runner: web.AppRunner | None = None
        self._site: web.TCPSite | None = None

    async def start(self) -> None:
        app = web.Application(middlewares=[self._middleware], client_max_size=64 * 1024 * 1024)
        app.router.add_get("/gateway", self.state.gateway.handle)
        app.router.add_route("*", API_PREFIX + "/{tail:.*}", self._dispatch_rest)
        app.router.add_get("/{tail:(?:emojis|attachments)/.*}", self._cdn)
        app.router.add_route("*", "/{tail:.*}", self._unknown_prefix)
        self._runner = web.AppRunner(app, access_log=None, handle_signals=False, shutdown_timeout=0.1)
        await self._runner.setup()
        self._site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await self._site.start()
        server = self._site._server
        sockets = getattr(server, "sockets", None)
        assert sockets, "the fake's server did not bind"
        self.state.port = sockets[0].getsockname()[1]

    async def close(self) -> None:
        await self.state.gateway.close()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    def route(self, method: str, template: str, handler: Handler, *, auth: bool = True) -> None:
        self._routes.append(RouteDef(method, template, compile_route(template), handler, auth))

    @web.middleware
    async def _middleware(
        self, request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
    ) -> web.StreamResponse:
        if request.path == "/gateway":
            return await handler(request)
        self.state.inflight += 1
        self.state.last_activity = time.monotonic()
        try:
            return await handler(request)
        finally:
            self.state.inflight -= 1
            self.state.last_activity = time.monotonic()

    async def _cdn(self, request: web.Request) -> web.Response:
        found = self.store.cdn_file(request.match_info["tail"])
        if found is None:
            return web.Response(status=404, text="404: Not Found")
        data, content_type = found
        return web.Response(body=data, headers={"Content-Type": content_type})

    async def _unknown_prefix(self, request: web.Request) -> web.Response:
        self.state.record_violation(
            Violation(
                kind="unknown_route",
                reason="not under /api/v10",
                method=request.method,
                path=request.path,
                status=404,
                code=0,
            )
        )
        return json_response(404, {"message": "404: Not Found", "code": 0})

    async def _read_body(self, request: web.Request) -> tuple[Any, list[Json]]:
        ctype = request.headers.get("Content-Type", "")
        if not request.can_read_body:
            return None, []
        if ctype.startswith("multipart/form-data"):
            body: Any = None
            files: list[Json] = []
            reader = await request.multipart()
            async for part in reader:
                if not isinstance(part, BodyPartReader):
                    continue
                if part.name == "payload_json":
                    try:
                        body = json.loads(await part.text())
                    except ValueError as exc:
                        raise ApiError(
                            400, 50109, "The request body contains invalid JSON.", violation=True
                        ) from exc
                else:
                    content = await part.read()
                    upload = {"field": part.name, "filename": part.filename, "size": len(content)}
                    files.append(upload | {"content_type": part.headers.get("Content-Type"), "data": content})
            if (why := uploads.too_large(files)) is not None:
                raise ApiError(413, 40005, f"Request entity too large: {why}", violation=True)
            errors = uploads.upload_errors(files, body)
            if errors:
                raise ApiError(400, 50035, "Invalid Form Body", errors=errors, violation=True)
            return body, files
        raw = await request.read()
        if not raw:
            return None, []
        if ctype != "application/json":
            raise ApiError(
                400, 50035, f"Content-Type must be application/json, got {ctype!r}", violation=True
            )
        try:
            return json.loads(raw), []
        except ValueError as exc:
            raise ApiError(400, 50109, "The request body contains invalid JSON.", violation=True) from exc

    async def _dispatch_rest(self, request: web.Request) -> web.Response:
        response, record = await self._answer_rest(request)
        if response.status in (401, 403, 429):
            self.limits.count_invalid(record)
        return response

    async def _answer_rest(self, request: web.Request) -> tuple[web.Response, RecordedRequest]:
        path = "/" + request.match_info["tail"]
        method = request.method
        record = RecordedRequest(
            method=method,
            path=path,
            route=None,
            params={},
            query=dict(request.query),
            json=None,
            at=self.state.clock.now(),
        )
        self.state.requests.append(record)
        self.state.retries_due.pop((method, path), None)
        route, match = None, None
        for r in self._routes:
            if r.method == method:
                match = r.regex.match(path)
                if match:
                    route = r
                    break
        if route is None or match is None:
            record.status = 404
            self.state.record_violation(
                Violation(
                    kind="unknown_route",
                    reason="the fake does not know this route",
                    method=method,
                    path=path,
                    status=404,
                    code=0,
                )
            )
            return json_response(404, {"message": "404: Not Found", "code": 0}), record
        record.route = route.template
        record.params = match.groupdict()
        record.bot_token = route.auth
        try:
            body, files = await self._read_body(request)
        except ApiError as err:
            return self._error(record, err), record
        record.json = body
        record.files = [f["filename"] for f in files]
        fault = self.faults.take(method, route.template, path)
        if fault is not None:
            if fault.delay:
                await asyncio.sleep(fault.delay)
            if fault.status is not None:
                return self.faults.response(record, fault), record
        if route.auth and request.headers.get("Authorization") != f"Bot {self.state.token}":
            error = ApiError(401, 0, "401: Unauthorized", violation=True, kind="unauthorized")
            return self._error(record, error), record
        if route.auth and self.limits.global_limit is not None:
            refused = self.limits.global_rate_limit(record)
            if refused is not None:
                return refused, record
        limit_headers: dict[str, str] = {}
        if self.limits.rate_limits is not None:
            limited = self.limits.rate_limit(record, route.template)
            if isinstance(limited, web.Response):
                return limited, record
            limit_headers = limited
        req = Request(method, path, record.params, dict(request.query), body, files, dict(request.headers))
        try:
            status, data = await route.handler(req)
        except ApiError as err:
            return self._error(record, err), record
        record.status = status
        record.response = data
        response = json_response(status, data)
        response.headers.update(limit_headers)
        return response, record

    def _error(self, record: RecordedRequest, err: ApiError) -> web.Response:
        record.status = err.status
        body = error_body(err)
        record.response = body
        if err.violation:
            self.state.record_violation(
                Violation(
                    kind=err.kind,
                    reason=err.message,
                    method=record.method,
                    path=record.path,
                    status=err.status,
                    code=err.code,
                    errors=list(err.errors),
                )
            )
        return json_response(err.status, body)
