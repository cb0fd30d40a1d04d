"""What the sandbox's Discord remembers between runs, in a JSON file beside the sandbox database:
the threads the bot created, each channel's latest public messages (with their pictures and files),
the application's emojis (so the bot finds its card faces again, as on Discord), each player's
language and the server's.

Ephemeral messages are not kept: Discord's client forgets them on a reload too. The world's ids are
fixed (``world.py``), so a message restored here is the one the bot stored: its live table message
is edited again after a restart instead of being lost.
"""

from __future__ import annotations

import base64
import contextlib
import json
import logging
import os
from pathlib import Path
from typing import Any

from fakediscord import Channel, FakeDiscord, Message

log = logging.getLogger("bot.sandbox")

Json = dict[str, Any]
VERSION = 1
#: The latest public messages kept per channel or thread.
KEEP_MESSAGES = 200

_FIELDS = (
    "content",
    "embeds",
    "components",
    "flags",
    "type",
    "timestamp",
    "edited_timestamp",
    "webhook_id",
    "application_id",
    "interaction_metadata",
    "message_reference",
    "reactions",
)


def history_path(database: str) -> Path:
    """``sandbox.db`` -> ``sandbox.discord.json`` (beside it)."""
    path = Path(database)
    return path.with_name(path.stem + ".discord.json")


def snapshot(fake: FakeDiscord, guild_id: int, commands: dict[int, str]) -> Json:
    """The part of the fake's world a restart should keep (``commands``: message id -> the slash
    command it answered, for the "used /command" line)."""
    guild = fake.guilds[guild_id]
    threads = [
        {
            "id": t.id,
            "name": t.name,
            "parent": t.parent.id if t.parent is not None else None,
            "private": t.type == 12,
            "owner": t.owner_id,
        }
        for t in guild.threads
    ]
    messages: list[Json] = []
    keep: set[str] = set()
    for channel in guild.channels.values():
        for m in fake.public_messages(channel)[-KEEP_MESSAGES:]:
            item: Json = {f: getattr(m, f) for f in _FIELDS}
            item |= {"id": m.id, "channel": channel.id, "author": m.author.id, "attachments": m.attachments}
            if m.id in commands:
                item["command"] = commands[m.id]
            messages.append(item)
            keep |= {str(a["id"]) for a in m.attachments}
    files = {
        aid: base64.b64encode(data).decode() for aid, data in fake.attachment_data.items() if aid in keep
    }
    return {
        "version": VERSION,
        "guild_locale": guild.preferred_locale,
        "locales": {str(u.id): u.locale for u in fake.users.values() if not u.bot},
        "emojis": [
            {"emoji": e, "image": base64.b64encode(fake.app_emoji_images[eid]).decode()}
            for eid, e in fake.app_emojis.items()
            if eid in fake.app_emoji_images
        ],
        "threads": threads,
        "messages": messages,
        "files": files,
    }


def restore(fake: FakeDiscord, guild_id: int, data: Json) -> dict[int, str]:
    """Put a :func:`snapshot` back into a fresh fake (before the bot connects); the commands the
    messages answered, by message id."""
    if data.get("version") != VERSION:
        return {}
    guild = fake.guilds[guild_id]
    guild.preferred_locale = str(data.get("guild_locale") or guild.preferred_locale)
    for uid, locale in (data.get("locales") or {}).items():
        user = fake.users.get(int(uid))
        if user is not None:
            user.locale = str(locale)
    # (the fake's new ids come from the wall clock: later than every restored one)
    for item in data.get("emojis") or []:
        eid = int(item["emoji"]["id"])
        fake.app_emojis[eid] = item["emoji"]
        fake.app_emoji_images[eid] = base64.b64decode(item["image"])
    for t in data.get("threads") or []:
        parent = guild.channels.get(int(t["parent"] or 0))
        if parent is None or int(t["id"]) in guild.channels:
            continue
        owner = fake.users.get(int(t["owner"] or 0))
        guild.add_thread(
            parent, str(t["name"]), private=bool(t["private"]), owner=owner, thread_id=int(t["id"])
        )
    for aid, blob in (data.get("files") or {}).items():
        fake.attachment_data[str(aid)] = base64.b64decode(blob)
    commands: dict[int, str] = {}
    for item in data.get("messages") or []:
        channel = guild.channels.get(int(item["channel"]))
        author = fake.users.get(int(item["author"]))
        if not isinstance(channel, Channel) or author is None or int(item["id"]) in fake.messages:
            continue
        msg = Message(id=int(item["id"]), channel=channel, author=author, bot_id=fake.bot_user.id)
        for f in _FIELDS:
            setattr(msg, f, item.get(f, getattr(msg, f)))
        msg.attachments = list(item.get("attachments") or [])
        fake.messages[msg.id] = msg
        channel.messages.append(msg)
        if item.get("command"):
            commands[msg.id] = str(item["command"])
    for channel in guild.channels.values():
        channel.messages.sort(key=lambda m: m.id)
    return commands


def save(path: Path, data: Json) -> None:
    """Write atomically (a crash mid-write leaves the previous file)."""
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps(data, separators=(",", ":")), encoding="utf-8")
    os.replace(tmp, path)


def load(path: Path) -> Json | None:
    """The saved snapshot, or None (no file yet, or one this version cannot read: started afresh)."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None
    except OSError as exc:
        log.warning("sandbox history %s cannot be read (%s); starting without it", path, exc.strerror)
        return None
    with contextlib.suppress(ValueError):
        data = json.loads(text)
        if isinstance(data, dict):
            return data
    log.warning("sandbox history %s is not valid; starting without it", path)
    return None
