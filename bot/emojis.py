"""Card faces as application emojis: drawn once by ``bot.pictures.card_png``, uploaded once per
application (Discord's application emoji API), then used on the hand panel's card buttons next to
their text label. When they cannot be uploaded the buttons simply stay text.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

import discord

from bot.pictures import card_emoji_name, card_png
from engine.cards import BIG_JOKER, LITTLE_JOKER, face

log = logging.getLogger(__name__)

FACES: tuple[int, ...] = (*range(52), LITTLE_JOKER, BIG_JOKER)
# Discord's error codes that mean "no more uploads will work": maximum emojis reached, missing
# access/permissions, unknown application
_FATAL_CODES = {30008, 30018, 50001, 50013, 10002}


class EmojiClient(Protocol):
    """What ``CardEmojis.sync`` needs of a ``discord.Client``."""

    async def fetch_application_emojis(self) -> list[discord.Emoji]: ...

    async def create_application_emoji(self, *, name: str, image: bytes) -> discord.Emoji: ...


@dataclass(frozen=True)
class SyncReport:
    found: int  # already uploaded (from an earlier start)
    uploaded: int
    failed: int
    error: str | None = None  # why the set is incomplete, when it is
    waiting: int = 0  # missing faces left for the uploading process (upload=False)


class CardEmojis:
    """The card-face emojis this application has, by card face."""

    def __init__(self) -> None:
        self._by_name: dict[str, discord.PartialEmoji] = {}
        self._lock = asyncio.Lock()
        self.last: SyncReport | None = None

    def for_card(self, card: int) -> discord.PartialEmoji | None:
        """The emoji for a card (either copy in two-deck games), or None: keep the text button."""
        return self._by_name.get(card_emoji_name(face(card)))

    @property
    def complete(self) -> bool:
        return all(card_emoji_name(c) in self._by_name for c in FACES)

    def __len__(self) -> int:
        return len(self._by_name)

    def clear(self) -> None:
        """Forget every emoji (another application, or the bot closing)."""
        self._by_name.clear()

    async def sync(
        self,
        client: EmojiClient,
        *,
        faces: Sequence[int] = FACES,
        draw: Callable[[int], bytes] = card_png,
        upload: bool = True,
    ) -> SyncReport:
        """Learn the emojis already uploaded and upload the missing faces (drawn in an executor).
        Never raises for Discord errors: it logs one line and the buttons stay text.

        ``upload=False`` only learns what is there: of several shard processes of one application,
        one uploads (emoji names are unique per application, so two uploading at once collide)."""
        async with self._lock:
            self.clear()
            report = await self._sync(client, faces, draw, upload)
            self.last = report
            if report.error:
                log.warning("card emojis incomplete (%d of %d): %s", len(self), len(faces), report.error)
            elif report.uploaded:
                log.info("uploaded %d card emojis", report.uploaded)
            return report

    async def _sync(
        self, client: EmojiClient, faces: Sequence[int], draw: Callable[[int], bytes], upload: bool
    ) -> SyncReport:
        wanted = {card_emoji_name(c): c for c in faces}
        try:
            existing = await client.fetch_application_emojis()
        except (discord.HTTPException, discord.MissingApplicationID) as exc:
            return SyncReport(0, 0, len(wanted), f"listing application emojis failed: {_why(exc)}")
        found = 0
        for em in existing:
            if em.name in wanted:
                self._by_name[em.name] = discord.PartialEmoji(name=em.name, id=em.id, animated=em.animated)
                found += 1
        missing = [c for name, c in wanted.items() if name not in self._by_name]
        if not missing:
            return SyncReport(found, 0, 0)
        if not upload:
            return SyncReport(found, 0, 0, None, waiting=len(missing))
        loop = asyncio.get_running_loop()
        images = await loop.run_in_executor(None, lambda: [draw(c) for c in missing])
        uploaded = failed = 0
        error = None
        for card, image in zip(missing, images, strict=True):
            name = card_emoji_name(card)
            try:
                emoji = await client.create_application_emoji(name=name, image=image)
            except discord.HTTPException as e:
                failed += 1
                error = f"uploading {name} failed: {_why(e)}"
                if e.status in (401, 403) or getattr(e, "code", 0) in _FATAL_CODES:
                    failed += len(missing) - uploaded - failed
                    break
                continue
            self._by_name[name] = discord.PartialEmoji(name=emoji.name, id=emoji.id)
            uploaded += 1
        return SyncReport(found, uploaded, failed, error)


#: the process's card emojis (one application per process), read by the hand panel's buttons
CARD_EMOJIS = CardEmojis()


def _why(e: Any) -> str:
    status = getattr(e, "status", None)
    code = getattr(e, "code", None)
    text = getattr(e, "text", "") or type(e).__name__
    return f"{status} {code}: {text}" if status else str(text)


__all__ = ["CARD_EMOJIS", "FACES", "CardEmojis", "EmojiClient", "SyncReport"]
