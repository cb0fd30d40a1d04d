"""The league's refusals of what a user typed or chose (a schedule, a setting, league points).

Each carries a stable ``code`` (``bad_time``, ``rounds_range``, …) and its message is already a
lazy catalog text whose parameters are the refusal's ``fields``: it is rendered in the reader's
language where it is answered (``LeagueRefusal``), never parsed back.
"""

from __future__ import annotations

from typing import Any


class LeagueInputError(ValueError):
    """A user's input the league refuses: ``message`` (lazy), ``code`` and ``fields``."""

    def __init__(self, message: Any, code: str) -> None:
        super().__init__(message)
        self.message = message
        self.code = code
        self.fields: dict[str, Any] = dict(getattr(message, "params", {}) or {})
