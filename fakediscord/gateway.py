"""The gateway: HELLO, IDENTIFY/READY, GUILD_CREATE, heartbeats, RESUME with replay, dispatch.

All dispatch events go into one per-session buffer with their sequence numbers; each connection
has a sender task that writes the buffer in order from where that connection starts (0 after
IDENTIFY, the first event after the client's ``seq`` after RESUME). So events dispatched while the
bot is disconnected are delivered on RESUME, exactly once and in order.

Sharding: an IDENTIFY with ``shard: [i, n]`` (n > 1) gets its own session on a per-shard gateway
(``gateway.shards[i]``), as Discord does: its READY and GUILD_CREATEs list only the guilds of shard
``i`` (``(guild_id >> 22) % n``), and every event about a guild (an interaction included) goes to
the session of that guild's shard only. Shards may be connected from different processes.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
from dataclasses import dataclass, field
from typing import Any, Protocol

from aiohttp import WSMsgType, web

from .models import Guild, User

_log = logging.getLogger(__name__)

Json = dict[str, Any]

HEARTBEAT_INTERVAL_MS = 41250
#: Seconds before a heartbeat's ACK is sent: Discord's comes a network round trip later. discord.py's
#: keep-alive thread notes when it sent a heartbeat only after the event loop has sent it; an ACK the
#: loop reads before that is measured from the previous heartbeat, a whole interval ("Can't keep up
#: ... websocket is 41.3s behind", and ``bot.latency`` 41 s). An instant ACK on loopback often wins.
HEARTBEAT_ACK_DELAY = 0.02

OP_DISPATCH = 0
OP_HEARTBEAT = 1
OP_IDENTIFY = 2
OP_PRESENCE = 3
OP_VOICE = 4
OP_RESUME = 6
OP_RECONNECT = 7
OP_REQUEST_MEMBERS = 8
OP_INVALID_SESSION = 9
OP_HELLO = 10
OP_HEARTBEAT_ACK = 11

INTENT_GUILD_MEMBERS = 1 << 1
INTENT_GUILD_PRESENCES = 1 << 8
INTENT_GUILD_MESSAGES = 1 << 9
INTENT_DIRECT_MESSAGES = 1 << 12
INTENT_GUILD_MESSAGE_REACTIONS = 1 << 10
INTENT_MESSAGE_CONTENT = 1 << 15
INTENT_SCHEDULED_EVENTS = 1 << 16
PRIVILEGED_INTENTS = INTENT_GUILD_MEMBERS | INTENT_GUILD_PRESENCES | INTENT_MESSAGE_CONTENT


def shard_of(guild_id: int, count: int) -> int:
    return (int(guild_id) >> 22) % count


def _guild_of(event: str, data: Json) -> int | None:
    """The guild an event is about (None: a DM, READY, or an event for every shard)."""
    if data.get("guild_id") is not None:
        return int(data["guild_id"])
    if event.startswith("GUILD_") and "members" not in event.lower() and data.get("id") is not None:
        return int(data["id"])  # GUILD_CREATE / GUILD_UPDATE / GUILD_DELETE carry the guild itself
    return None


@dataclass
class Session:
    id: str
    intents: int
    token: str
    buffer: list[Json] = field(default_factory=list)
    seq: int = 0
    wakeup: asyncio.Event = field(default_factory=asyncio.Event)


class GatewayHost(Protocol):
    """What the gateway needs from the fake that serves it (its shared state, ``FakeState``): who may
    IDENTIFY, and what READY and the GUILD_CREATEs describe."""

    token: str | None
    privileged_intents: bool
    bot_user: User
    guilds: dict[int, Guild]
    application_id: int
    application_flags: int

    @property
    def gateway_url(self) -> str: ...


class Connection:
    def __init__(self, ws: web.WebSocketResponse) -> None:
        self.ws = ws
        self.session: Session | None = None
        self.gateway: Gateway | None = None  # the shard's gateway this connection identified on
        self.next_index = 0
        self.sender: asyncio.Task[None] | None = None
        self.lock = asyncio.Lock()
        self.closed = asyncio.Event()
        self.acks: set[asyncio.Task[None]] = set()

    async def send(self, payload: Json) -> None:
        async with self.lock:
            if not self.ws.closed:
                await self.ws.send_str(json.dumps(payload))


class Gateway:
    """The fake's gateway endpoint and the bot's session."""

    def __init__(self, fake: GatewayHost, *, shard: tuple[int, int] | None = None) -> None:
        self.fake = fake
        self.shard = shard  # (id, count) for a shard's gateway; None for the endpoint itself
        self.shards: dict[int, Gateway] = {}  # the sharded sessions, by shard id (endpoint only)
        self._session: Session | None = None
        self.connection: Connection | None = None
        self.connections: set[Connection] = set()
        self.identify_count = 0
        self.resume_count = 0
        self.heartbeats = 0
        self._closing: set[asyncio.Task[bool]] = set()

    @property
    def session(self) -> Session | None:
        """The bot's session (unsharded), else any shard's: "is a bot there at all"."""
        if self._session is not None:
            return self._session
        return next((g.session for g in self.shards.values() if g.session is not None), None)

    @session.setter
    def session(self, value: Session | None) -> None:
        self._session = value
        if value is None:
            for g in self.shards.values():
                g.session = None
                g.connection = None

    @property
    def connected(self) -> bool:
        if self.connection is not None and not self.connection.ws.closed:
            return True
        return any(g.connected for g in self.shards.values())

    @property
    def intents(self) -> int:
        session = self.session
        return session.intents if session else 0

    def owns(self, guild_id: int) -> bool:
        """Whether this (shard's) gateway delivers the guild's events."""
        return self.shard is None or shard_of(guild_id, self.shard[1]) == self.shard[0]

    def dispatch(self, event: str, data: Json) -> None:
        """Queue a dispatch event for the bot (delivered now or on RESUME); with shards, for the
        session of the guild's shard (events about no guild: every shard's)."""
        if self.shards:
            guild = _guild_of(event, data)
            for g in self.shards.values():
                if guild is None or g.owns(guild):
                    g.dispatch(event, data)
        session = self._session
        if session is None:
            return
        session.seq += 1
        session.buffer.append({"op": OP_DISPATCH, "t": event, "s": session.seq, "d": data})
        session.wakeup.set()

    def pending(self) -> int:
        """Events queued but not yet written to a live connection."""
        sharded = sum(g.pending() for g in self.shards.values())
        if self._session is None or self.connection is None:
            return sharded
        return sharded + len(self._session.buffer) - self.connection.next_index

    async def handle(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(autoping=True, max_msg_size=0)
        await ws.prepare(request)
        conn = Connection(ws)
        self.connections.add(conn)
        try:
            await conn.send({"op": OP_HELLO, "d": {"heartbeat_interval": HEARTBEAT_INTERVAL_MS}})
            async for msg in ws:
                if msg.type != WSMsgType.TEXT:
                    await ws.close(code=4002, message=b"Decode error")
                    break
                try:
                    payload = json.loads(msg.data)
                except ValueError:
                    await ws.close(code=4002, message=b"Decode error")
                    break
                await self._on_message(conn, payload)
        finally:
            for ack in list(conn.acks):
                ack.cancel()
            if conn.sender is not None:
                conn.sender.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await conn.sender
            self.connections.discard(conn)
            owner = conn.gateway or self
            if owner.connection is conn:
                owner.connection = None
            conn.closed.set()
        return ws

    async def _on_message(self, conn: Connection, payload: Json) -> None:
        op = payload.get("op")
        data = payload.get("d")
        if self.shard is None and op != OP_HEARTBEAT:
            target = self._shard_for(conn, op, data or {})
            if target is not None:
                await target._on_message(conn, payload)
                return
        if op == OP_HEARTBEAT:
            self.heartbeats += 1
            ack = asyncio.create_task(self._ack(conn), name="fake-gateway-heartbeat-ack")
            conn.acks.add(ack)
            ack.add_done_callback(conn.acks.discard)
        elif op == OP_IDENTIFY:
            await self._identify(conn, data or {})
        elif op == OP_RESUME:
            await self._resume(conn, data or {})
        elif op == OP_REQUEST_MEMBERS:
            self._request_members(data or {})
        elif op in (OP_PRESENCE, OP_VOICE):
            return
        else:
            await conn.ws.close(code=4001, message=b"Unknown opcode")

    async def _ack(self, conn: Connection) -> None:
        await asyncio.sleep(HEARTBEAT_ACK_DELAY)
        with contextlib.suppress(ConnectionError, RuntimeError):  # (the connection closed meanwhile)
            await conn.send({"op": OP_HEARTBEAT_ACK})

    def _shard_for(self, conn: Connection, op: Any, data: Json) -> Gateway | None:
        """The shard's gateway a message belongs to (None: this endpoint's own, unsharded session)."""
        if conn.gateway is not None and conn.gateway is not self:
            return conn.gateway
        if op == OP_IDENTIFY and conn.session is None:
            shard = data.get("shard")
            if isinstance(shard, list) and len(shard) == 2 and int(shard[1]) > 1:
                sid, count = int(shard[0]), int(shard[1])
                g = self.shards.get(sid)
                if g is None or g.shard != (sid, count):
                    g = self.shards[sid] = Gateway(self.fake, shard=(sid, count))
                conn.gateway = g
                return g
        if op == OP_RESUME:
            for g in self.shards.values():
                if g.session is not None and g.session.id == data.get("session_id"):
                    conn.gateway = g
                    return g
        return None

    async def _identify(self, conn: Connection, data: Json) -> None:
        if conn.session is not None:
            await conn.ws.close(code=4005, message=b"Already authenticated")
            return
        token = data.get("token")
        if not self.fake.token or token != self.fake.token:
            await conn.ws.close(code=4004, message=b"Authentication failed")
            return
        intents = int(data.get("intents", 0))
        if intents & PRIVILEGED_INTENTS and not self.fake.privileged_intents:
            await conn.ws.close(code=4014, message=b"Disallowed intent(s)")
            return
        self._take_over(conn)
        session = Session(id=secrets.token_hex(16), intents=intents, token=str(token))
        self._session = session
        conn.session = session
        conn.next_index = 0
        self.identify_count += 1
        fake = self.fake
        self.dispatch(
            "READY",
            {
                "v": 10,
                "user": fake.bot_user.payload() | {"verified": True, "mfa_enabled": False, "email": None},
                "guilds": [
                    {"id": str(g.id), "unavailable": True} for g in fake.guilds.values() if self.owns(g.id)
                ],
                # Discord echoes the IDENTIFY's shard (also [0, 1]) in READY
                **({"shard": list(self.shard)} if self.shard else {}),
                **({"shard": list(data["shard"])} if not self.shard and data.get("shard") else {}),
                "session_id": session.id,
                "session_type": "normal",
                "resume_gateway_url": fake.gateway_url,
                "private_channels": [],
                "relationships": [],
                "presences": [],
                "guild_join_requests": [],
                "geo_ordered_rtc_regions": [],
                "user_settings": {},
                "auth": {},
                "current_location": ["CONNECTED"],
                "application": {"id": str(fake.application_id), "flags": fake.application_flags},
                "_trace": ["fake-discord"],
            },
        )
        for guild in fake.guilds.values():
            if self.owns(guild.id):
                self.dispatch("GUILD_CREATE", guild.payload())
        conn.sender = asyncio.create_task(self._sender(conn))

    async def _resume(self, conn: Connection, data: Json) -> None:
        session = self._session
        if session is None or data.get("session_id") != session.id or data.get("token") != session.token:
            await conn.send({"op": OP_INVALID_SESSION, "d": False})
            return
        seq = data.get("seq") or 0
        self._take_over(conn)
        conn.session = session
        conn.next_index = next((i for i, p in enumerate(session.buffer) if p["s"] > seq), len(session.buffer))
        self.resume_count += 1
        self.dispatch("RESUMED", {"_trace": ["fake-discord"]})
        conn.sender = asyncio.create_task(self._sender(conn))

    def _take_over(self, conn: Connection) -> None:
        old = self.connection
        self.connection = conn
        if old is not None and old is not conn and not old.ws.closed:
            task = asyncio.create_task(old.ws.close(code=4000))
            self._closing.add(task)
            task.add_done_callback(self._closing.discard)

    def _request_members(self, data: Json) -> None:
        guild = self.fake.guilds.get(int(data.get("guild_id", 0)))
        if guild is None:
            return
        query = str(data.get("query") or "").lower()
        ids = {int(i) for i in data.get("user_ids") or []}
        limit = int(data.get("limit") or 0)
        members = [
            m
            for m in guild.members.values()
            if (not ids or m.id in ids) and (not query or m.user.username.lower().startswith(query))
        ]
        if limit:
            members = members[:limit]
        chunk: Json = {
            "guild_id": str(guild.id),
            "members": [m.payload() for m in members],
            "chunk_index": 0,
            "chunk_count": 1,
        }
        if data.get("nonce"):
            chunk["nonce"] = data["nonce"]
        self.dispatch("GUILD_MEMBERS_CHUNK", chunk)

    async def _sender(self, conn: Connection) -> None:
        session = conn.session
        assert session is not None
        while not conn.ws.closed:
            while conn.next_index < len(session.buffer) and self.connection is conn:
                payload = session.buffer[conn.next_index]
                try:
                    await conn.send(payload)
                except (ConnectionError, RuntimeError):
                    return
                conn.next_index += 1
            session.wakeup.clear()
            if conn.next_index < len(session.buffer):
                continue
            await session.wakeup.wait()

    async def drop(self, code: int = 4000) -> None:
        """Close the bot's connection as Discord does when a gateway node goes away."""
        conn = self.connection
        if conn is None:
            raise AssertionError("the bot is not connected to the gateway")
        await conn.ws.close(code=code, message=b"fake-discord drop")

    async def invalidate(self, resumable: bool = False) -> None:
        """Send INVALID_SESSION: the bot must IDENTIFY again (or RESUME if ``resumable``)."""
        conn = self.connection
        if conn is None:
            raise AssertionError("the bot is not connected to the gateway")
        if not resumable:
            self._session = None
        await conn.send({"op": OP_INVALID_SESSION, "d": resumable})

    async def reconnect(self) -> None:
        """Send op 7 RECONNECT: the bot must reconnect and RESUME."""
        conn = self.connection
        if conn is None:
            raise AssertionError("the bot is not connected to the gateway")
        await conn.send({"op": OP_RECONNECT, "d": None})

    async def close(self) -> None:
        for conn in list(self.connections):
            with contextlib.suppress(Exception):
                await conn.ws.close(code=1001)
        self.connections.clear()
        self.connection = None
        for g in self.shards.values():
            g.connection = None
