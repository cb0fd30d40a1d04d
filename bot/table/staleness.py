"""When each card played became visible (the benchmark's staleness figures)."""

from __future__ import annotations

import time

from bot.model import Table


class Staleness:
    """When each card played became visible: in the public live message, and in each human's
    hand panel (seconds from the saved play to Discord's answer to the edit that showed it).
    Off unless ``enabled`` (the benchmark turns it on)."""

    def __init__(self) -> None:
        self.enabled = False
        self.public: list[float] = []
        self.panel: list[float] = []
        self._public_owed: dict[int, list[float]] = {}
        self._panel_owed: dict[tuple[int, int], list[float]] = {}

    def played(self, table: Table, humans: list[int]) -> None:
        if not self.enabled:
            return
        now = time.monotonic()
        self._public_owed.setdefault(table.id, []).append(now)
        for uid in humans:
            self._panel_owed.setdefault((table.id, uid), []).append(now)

    def public_shown(self, table_id: int, drawn: float) -> None:
        self._settle(self._public_owed.get(table_id), drawn, self.public)

    def panel_shown(self, table_id: int, user_id: int, drawn: float) -> None:
        self._settle(self._panel_owed.get((table_id, user_id)), drawn, self.panel)

    @staticmethod
    def _settle(owed: list[float] | None, drawn: float, into: list[float]) -> None:
        if not owed:
            return
        now = time.monotonic()
        kept = [t for t in owed if t > drawn]
        into.extend(now - t for t in owed if t <= drawn)
        owed[:] = kept
