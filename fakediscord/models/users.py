"""A Discord account, rendered as the user object Discord sends."""

from __future__ import annotations

from dataclasses import dataclass

from .constants import Json


@dataclass(eq=False)
class User:
    """A Discord account. ``global_name`` is the display name, ``username`` the unique handle."""

    id: int
    username: str
    global_name: str | None = None
    bot: bool = False
    locale: str = "en-US"
    #: False: the user blocks DMs from server members (the bot's DMs answer 403/50007)
    dms_open: bool = True

    @property
    def display_name(self) -> str:
        return self.global_name or self.username

    @property
    def mention(self) -> str:
        return f"<@{self.id}>"

    def payload(self) -> Json:
        data: Json = {
            "id": str(self.id),
            "username": self.username,
            "global_name": self.global_name,
            "discriminator": "0",
            "avatar": None,
            "avatar_decoration_data": None,
            "banner": None,
            "accent_color": None,
            "public_flags": 0,
            "flags": 0,
            "primary_guild": None,
            "collectibles": None,
            "display_name_styles": None,
        }
        if self.bot:
            data["bot"] = True
        return data

    def __repr__(self) -> str:
        return f"<User {self.username} id={self.id}>"
