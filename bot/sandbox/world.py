"""The sandbox's world (one server, two channels, four players with fixed ids) and how the page
sees a message of it: kept apart from the web server so each reads alone."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from fakediscord import Channel, FakeDiscord, Message, User

Json = dict[str, Any]

#: The sandbox world has fixed ids, so a table stored in ``sandbox.db`` by an earlier run finds its
#: channel and players again after a restart.
BOT_ID = 1_300_000_000_000_000_001
GUILD_ID = 1_300_000_000_000_000_010
CHANNELS = (("spades", 1_300_000_000_000_000_020), ("spades-2", 1_300_000_000_000_000_021))
#: (username, display name, can manage the server)
PLAYERS = (
    ("alice", "Alice", True),
    ("bob", "Bob", False),
    ("carol", "Carol", False),
    ("dave", "Dave", False),
)
PLAYER_ID_BASE = 1_300_000_000_000_000_100
#: Discord's languages (the client's settings offer these; an interaction carries the user's as
#: ``locale``, the server's as ``guild_locale``), with the names Discord shows for them.
LOCALES = {
    "id": "Bahasa Indonesia",
    "da": "Dansk",
    "de": "Deutsch",
    "en-GB": "English, UK",
    "en-US": "English, US",
    "es-ES": "Español",
    "es-419": "Español, LATAM",
    "fr": "Français",
    "hr": "Hrvatski",
    "it": "Italiano",
    "lt": "Lietuviškai",
    "hu": "Magyar",
    "nl": "Nederlands",
    "no": "Norsk",
    "pl": "Polski",
    "pt-BR": "Português do Brasil",
    "ro": "Română",
    "fi": "Suomi",
    "sv-SE": "Svenska",
    "vi": "Tiếng Việt",
    "tr": "Türkçe",
    "cs": "Čeština",
    "el": "Ελληνικά",
    "bg": "български",
    "ru": "Pусский",
    "uk": "Українська",
    "hi": "हिन्दी",
    "th": "ไทย",
    "zh-CN": "中文",
    "ja": "日本語",
    "zh-TW": "繁體中文",
    "ko": "한국어",
}


@dataclass
class World:
    guild_name: str
    channels: list[Channel]
    users: list[User]


def build_world(fake: FakeDiscord) -> World:
    guild = fake.add_guild("Sandbox server", id=GUILD_ID)
    channels = [
        guild.add_text_channel(name, topic="Try the Spades bot here", id=cid) for name, cid in CHANNELS
    ]
    users = [
        fake.add_user(name, global_name=display, manage_guild=admin, id=PLAYER_ID_BASE + i)
        for i, (name, display, admin) in enumerate(PLAYERS)
    ]
    return World(guild.name, channels, users)


def command_name(data: Json) -> str:
    """ "spades new" from an application command interaction's ``data`` (subcommands nest)."""
    parts = [str(data.get("name", ""))]
    options = data.get("options") or []
    while options and options[0].get("type") in (1, 2):
        parts.append(str(options[0].get("name", "")))
        options = options[0].get("options") or []
    return " ".join(parts)


CDN = "https://cdn.discordapp.com/"


def local_url(url: str, attachments: list[Json]) -> str:
    """An image URL as the page can load it: ``attachment://name`` and Discord's CDN from the
    sandbox's own CDN routes; anything else as it is (the page shows nothing if it cannot load)."""
    if url.startswith("attachment://"):
        name = url.removeprefix("attachment://")
        found = next((a for a in attachments if a.get("filename") == name), None)
        url = str(found.get("url", "")) if found else ""
    for prefix in (CDN, "https://media.discordapp.net/"):
        if url.startswith(prefix):
            return "/" + url.removeprefix(prefix).split("?", 1)[0]
    return url


def page_embeds(m: Message) -> tuple[list[Json], set[str]]:
    """The message's embeds with images the page can load, and the attachments they show (Discord
    draws those in the embed, not again below it)."""
    used: set[str] = set()
    out = []
    for embed in m.embeds:
        embed = dict(embed)
        for key in ("image", "thumbnail"):
            part = embed.get(key)
            if isinstance(part, dict) and part.get("url"):
                url = str(part["url"])
                if url.startswith("attachment://"):
                    used.add(url.removeprefix("attachment://"))
                embed[key] = part | {"url": local_url(url, m.attachments)}
        out.append(embed)
    return out, used


def page_attachment(a: Json) -> Json:
    return {
        "filename": a.get("filename", ""),
        "url": local_url(str(a.get("url", "")), []),
        "content_type": a.get("content_type", ""),
        "size": a.get("size", 0),
        "width": a.get("width"),
        "height": a.get("height"),
    }


def message_json(m: Message, fake: FakeDiscord, commands: dict[int, str] | None = None) -> Json:
    """What the page draws for one message (``commands``: the slash command each restored message
    answered, by message id: the interactions of an earlier run are gone)."""
    meta = m.interaction_metadata or {}
    if meta.get("type") != 2:
        meta = {}  # Discord shows "x used /command" above slash command answers only
    invoker = meta.get("user") or {}
    record = fake.interactions.get(int(meta.get("id", 0) or 0))
    if record is not None:
        name = command_name(record.payload.get("data") or {})
    else:
        name = (commands or {}).get(m.id) or meta.get("name", "")
    embeds, in_embeds = page_embeds(m)
    return {
        "id": str(m.id),
        "author": {
            "id": str(m.author.id),
            "name": m.author.display_name,
            "bot": m.author.bot,
        },
        "content": m.content,
        "embeds": embeds,
        "components": m.components,
        "ephemeral": m.ephemeral,
        "loading": m.loading,
        "edited": m.edited_timestamp is not None,
        "timestamp": m.timestamp,
        "interaction": (
            {
                "user": invoker.get("global_name") or invoker.get("username") or "",
                "name": name,
            }
            if meta
            else None
        ),
        "reactions": {emoji: len(users) for emoji, users in m.reactions.items()},
        "attachments": [page_attachment(a) for a in m.attachments if a.get("filename") not in in_embeds],
    }
