"""Card emojis: reuse what is uploaded, upload the rest once, fall back to text on any failure."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import discord

from bot.emojis import FACES, CardEmojis
from bot.pictures import card_emoji_name
from engine.cards import parse_card


def http_error(status: int, code: int, message: str) -> discord.HTTPException:
    response = SimpleNamespace(status=status, reason="x")
    return discord.HTTPException(response, {"code": code, "message": message})


class Api:
    """Discord's application emoji endpoints, as far as the sync uses them."""

    def __init__(self, existing: list[str], fail_after: int | None = None, list_fails: bool = False) -> None:
        self.emojis = {name: 1000 + i for i, name in enumerate(existing)}
        self.created: list[tuple[str, int]] = []
        self.fail_after = fail_after
        self.list_fails = list_fails

    async def fetch_application_emojis(self) -> list[Any]:
        if self.list_fails:
            raise http_error(500, 0, "Internal Server Error")
        return [SimpleNamespace(name=n, id=i, animated=False) for n, i in self.emojis.items()]

    async def create_application_emoji(self, *, name: str, image: bytes) -> Any:
        assert image[:8] == b"\x89PNG\r\n\x1a\n"
        if self.fail_after is not None and len(self.created) >= self.fail_after:
            raise http_error(400, 30008, "Maximum number of emojis reached")
        assert name not in self.emojis
        self.emojis[name] = 5000 + len(self.created)
        self.created.append((name, len(image)))
        return SimpleNamespace(name=name, id=self.emojis[name], animated=False)


async def test_uploads_only_the_missing_faces_once() -> None:
    api = Api(existing=["card_AS", "card_KH", "unrelated"])
    emojis = CardEmojis()
    report = await emojis.sync(api, draw=lambda c: b"\x89PNG\r\n\x1a\n" + bytes([c]))
    assert (report.found, report.uploaded, report.failed, report.error) == (2, len(FACES) - 2, 0, None)
    assert emojis.complete and len(emojis) == len(FACES)
    ace = emojis.for_card(parse_card("AS"))
    assert ace is not None and ace.id == api.emojis["card_AS"] and ace.name == "card_AS"
    assert emojis.for_card(parse_card("AS") + 64) == ace  # the second deck's copy
    again = await CardEmojis().sync(api, draw=lambda c: b"")
    assert (again.found, again.uploaded) == (len(FACES), 0)  # a restart uploads nothing


async def test_a_full_emoji_list_leaves_text_buttons() -> None:
    api = Api(existing=[], fail_after=3)
    emojis = CardEmojis()
    report = await emojis.sync(api, faces=[parse_card(c) for c in ("AS", "KS", "QS", "JS", "10S")])
    assert report.uploaded == 3 and report.failed == 2 and "30008" in (report.error or "")
    assert len(api.created) == 3  # stopped at the first fatal refusal
    assert emojis.for_card(parse_card("AS")) is not None
    assert emojis.for_card(parse_card("JS")) is None and not emojis.complete


async def test_listing_failure_is_not_fatal() -> None:
    emojis = CardEmojis()
    report = await emojis.sync(Api(existing=[], list_fails=True))
    assert report.error and "listing" in report.error and len(emojis) == 0
    assert emojis.for_card(0) is None
    assert card_emoji_name(0) == "card_2C"


async def test_a_process_that_does_not_upload_only_learns_what_is_there() -> None:
    """Of several shard processes one uploads: two uploading at once would collide on the names."""
    api = Api(existing=["card_AS"])
    emojis = CardEmojis()
    report = await emojis.sync(api, draw=lambda c: b"\x89PNG\r\n\x1a\n", upload=False)
    assert api.created == []
    assert (report.found, report.uploaded, report.waiting) == (1, 0, len(FACES) - 1)
    assert emojis.for_card(parse_card("AS")) is not None and not emojis.complete
    await CardEmojis().sync(api, draw=lambda c: b"\x89PNG\r\n\x1a\n")  # the uploading process
    later = await emojis.sync(api, upload=False)
    assert later.waiting == 0 and emojis.complete
