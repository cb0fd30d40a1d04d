"""Logging setup. Exception messages from the engine are hidden: they can name a player's cards."""

from __future__ import annotations

import logging
import sys
import traceback
from types import TracebackType
from typing import TextIO

FORMAT = "%(asctime)s %(levelname)-8s %(name)s: %(message)s"

ExcInfo = tuple[type[BaseException], BaseException, TracebackType | None] | tuple[None, None, None]


def is_private_exception(exc: BaseException) -> bool:
    """Engine errors speak to one player and may quote the cards they hold.

    discord.py's wrappers (CommandInvokeError, HybridCommandError…) repeat the wrapped message in
    their own, so they are private when what they wrap is.
    """
    if type(exc).__module__.split(".")[0] == "engine":
        return True
    original = getattr(exc, "original", None)
    return isinstance(original, BaseException) and original is not exc and is_private_exception(original)


def format_exception_redacted(exc: BaseException) -> str:
    """A full traceback (frames and source lines), with private exception messages withheld."""
    lines: list[str] = []
    seen: set[int] = set()
    chain: list[tuple[BaseException, str | None]] = []
    current: BaseException | None = exc
    note: str | None = None
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        chain.append((current, note))
        if current.__cause__ is not None:
            note = "The above exception was the direct cause of the following exception:"
            current = current.__cause__
        elif current.__context__ is not None and not current.__suppress_context__:
            note = "During handling of the above exception, another exception occurred:"
            current = current.__context__
        else:
            current = None
    for item, item_note in reversed(chain):
        if item.__traceback__ is not None:
            lines.append("Traceback (most recent call last):\n")
            lines.extend(traceback.format_tb(item.__traceback__))
        name = f"{type(item).__module__}.{type(item).__qualname__}"
        if is_private_exception(item):
            code = getattr(item, "code", None)
            lines.append(f"{name} (message withheld: may name held cards; code={code})\n")
        else:
            lines.extend(traceback.format_exception_only(item))
        if item_note:
            lines.append(f"\n{item_note}\n\n")
    return "".join(lines).rstrip("\n")


class RedactingFormatter(logging.Formatter):
    """Formats tracebacks with ``format_exception_redacted`` instead of the stock formatter."""

    def format(self, record: logging.LogRecord) -> str:
        # logging caches the first handler's traceback text on the record; never reuse another
        # formatter's (unredacted) text, and never leave ours behind for others.
        cached = record.exc_text
        record.exc_text = None
        try:
            return super().format(record)
        finally:
            record.exc_text = cached

    def formatException(self, ei: ExcInfo) -> str:
        exc = ei[1]
        if exc is None:
            return super().formatException(ei)
        return format_exception_redacted(exc)


def setup_logging(level: str | int = "INFO", *, stream: TextIO | None = None) -> logging.Handler:
    """Log to stderr (or ``stream``) at ``level``; discord.py's chatty HTTP logs stay at WARNING."""
    root = logging.getLogger()
    for old in [h for h in root.handlers if getattr(h, "_spades", False)]:
        root.removeHandler(old)
    handler = logging.StreamHandler(stream or sys.stderr)
    handler.setFormatter(RedactingFormatter(FORMAT))
    handler._spades = True  # type: ignore[attr-defined]
    root.addHandler(handler)
    root.setLevel(level if isinstance(level, int) else level.upper())
    if root.level > logging.DEBUG:
        logging.getLogger("discord.http").setLevel(logging.WARNING)
    return handler
