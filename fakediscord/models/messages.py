"""A message as users see it, and the place it lives in (a guild channel or thread, or a DM).

A message only needs two things of its place (its id, and its guild's id for the payload), so it
depends on the small :class:`Place` protocol rather than on the guild model.
"""

from __future__ import annotations

import copy
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeVar

import orjson

from .constants import EPHEMERAL, LOADING, Json
from .users import User

T = TypeVar("T")


def json_copy(value: T) -> T:
    """A deep copy of JSON data (what Discord's payloads are): orjson's round trip, ~10x faster
    than ``copy.deepcopy`` (every edit the fake stores is copied two or three times: at 500 tables
    the copies were a quarter of the benchmark driver's CPU). Anything the round trip does not give
    back equal (a tuple comes back a list, NaN as null), or cannot write (sets, ints over 64 bits,
    keys that are not text), is deep-copied instead."""
    try:
        out: Any = orjson.loads(orjson.dumps(value))
    except (TypeError, orjson.JSONEncodeError):
        return copy.deepcopy(value)
    return out if out == value else copy.deepcopy(value)


class Place(Protocol):
    """Where a message is: a guild channel or thread (``guild_id`` set) or a DM (``None``)."""

    @property
    def id(self) -> int: ...

    @property
    def guild_id(self) -> int | None: ...


@dataclass(eq=False)
class Message:
    """A message as users see it: edits are applied in place, ``history`` keeps earlier versions.

    ``visible_to`` is the one user who sees an ephemeral message (``None`` for public messages).
    """

    id: int
    channel: Place | None
    author: User
    content: str = ""
    embeds: list[Json] = field(default_factory=list)
    components: list[Json] = field(default_factory=list)
    flags: int = 0
    type: int = 0
    timestamp: str = ""
    edited_timestamp: str | None = None
    visible_to: User | None = None
    webhook_id: int | None = None
    application_id: int | None = None
    interaction_metadata: Json | None = None
    message_reference: Json | None = None
    deleted: bool = False
    history: list[Json] = field(default_factory=list)
    bot_id: int = 0
    #: Uploaded files: ``id``, ``filename``, ``size``, ``url``, ``content_type`` (no contents kept).
    attachments: list[Json] = field(default_factory=list)
    #: Users the content mentions (as ``allowed_mentions`` lets through), roles, @everyone.
    mentions: list[User] = field(default_factory=list)
    mention_roles: list[int] = field(default_factory=list)
    mention_everyone: bool = False
    #: Ids of the users this message notified when it was sent (edits never notify).
    pinged: list[int] = field(default_factory=list)
    #: emoji ("♠" or "name:id") -> ids of the users who reacted, in order
    reactions: dict[str, list[int]] = field(default_factory=dict)

    def reaction_payloads(self, me: int) -> list[Json]:
        out = []
        for emoji, users in self.reactions.items():
            name, _, eid = emoji.partition(":")
            out.append(
                {
                    "emoji": {"id": eid or None, "name": name},
                    "count": len(users),
                    "count_details": {"burst": 0, "normal": len(users)},
                    "me": me in users,
                    "me_burst": False,
                    "burst_colors": [],
                    "burst_count": 0,
                }
            )
        return out

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & EPHEMERAL)

    @property
    def loading(self) -> bool:
        """A deferred response still "thinking" (not yet edited)."""
        return bool(self.flags & LOADING)

    @property
    def edits(self) -> int:
        return len(self.history)

    @property
    def text(self) -> str:
        """Content plus every embed's visible text, for assertions that should not care where text sits."""
        parts = [self.content] if self.content else []
        for embed in self.embeds:
            for key in ("title", "description"):
                if embed.get(key):
                    parts.append(str(embed[key]))
            for f in embed.get("fields", []):
                parts.append(f"{f.get('name', '')}\n{f.get('value', '')}")
            if embed.get("author", {}).get("name"):
                parts.append(embed["author"]["name"])
            if embed.get("footer", {}).get("text"):
                parts.append(embed["footer"]["text"])
        for comp in iter_components(self.components):
            if comp.get("type") == 10 and comp.get("content"):
                parts.append(str(comp["content"]))
        return "\n".join(parts)

    def iter_components(self) -> Iterator[Json]:
        return iter_components(self.components)

    @property
    def buttons(self) -> list[Json]:
        return [c for c in self.iter_components() if c.get("type") == 2]

    @property
    def selects(self) -> list[Json]:
        return [c for c in self.iter_components() if c.get("type") in (3, 5, 6, 7, 8)]

    def find_component(
        self, *, label: str | None = None, custom_id: str | None = None, type: int | None = None
    ) -> Json:
        """The one component matching ``label`` and/or ``custom_id`` (raises if none or several)."""
        if label is None and custom_id is None:
            raise ValueError("give a label or a custom_id")
        found = [
            c
            for c in self.iter_components()
            if (type is None or c.get("type") == type)
            and (label is None or c.get("label") == label or c.get("placeholder") == label)
            and (custom_id is None or c.get("custom_id") == custom_id)
        ]
        if not found:
            what = f"label={label!r}" if label is not None else f"custom_id={custom_id!r}"
            have = [
                (c.get("label") or c.get("placeholder"), c.get("custom_id")) for c in self.iter_components()
            ]
            raise LookupError(f"message {self.id} has no component with {what}; it has {have}")
        if len(found) > 1:
            raise LookupError(f"message {self.id} has {len(found)} components matching; use custom_id")
        return found[0]

    def snapshot(self) -> Json:
        return {
            "content": self.content,
            "embeds": json_copy(self.embeds),
            "components": json_copy(self.components),
            "flags": self.flags,
            "edited_timestamp": self.edited_timestamp,
            "attachments": json_copy(self.attachments),
        }

    def payload(self) -> Json:
        channel_id = self.channel.id if self.channel is not None else 0
        data: Json = {
            "id": str(self.id),
            "type": self.type,
            "channel_id": str(channel_id),
            "author": self.author.payload(),
            "content": self.content,
            "timestamp": self.timestamp,
            "edited_timestamp": self.edited_timestamp,
            "tts": False,
            "mention_everyone": self.mention_everyone,
            "mentions": [u.payload() for u in self.mentions],
            "mention_roles": [str(r) for r in self.mention_roles],
            "mention_channels": [],
            "attachments": json_copy(self.attachments),
            "embeds": json_copy(self.embeds),
            "reactions": self.reaction_payloads(self.bot_id),
            "pinned": False,
            "flags": self.flags,
            "components": json_copy(self.components),
        }
        if self.channel is not None and self.channel.guild_id is not None:
            data["guild_id"] = str(self.channel.guild_id)
        if self.webhook_id is not None:
            data["webhook_id"] = str(self.webhook_id)
        if self.application_id is not None:
            data["application_id"] = str(self.application_id)
        if self.interaction_metadata is not None:
            data["interaction_metadata"] = json_copy(self.interaction_metadata)
        if self.message_reference is not None:
            data["message_reference"] = json_copy(self.message_reference)
        return data

    def __repr__(self) -> str:
        flags = " ephemeral" if self.ephemeral else ""
        return f"<Message id={self.id}{flags} content={self.content[:40]!r} embeds={len(self.embeds)}>"


def iter_components(components: list[Json]) -> Iterator[Json]:
    """Every component, depth first, through action rows, sections, containers and accessories."""
    for comp in components:
        yield comp
        if "components" in comp:
            yield from iter_components(comp["components"])
        if "accessory" in comp:
            yield from iter_components([comp["accessory"]])
