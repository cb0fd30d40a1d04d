"""bot.model: what a table save writes."""

from __future__ import annotations

import dataclasses

from bot.model import Seat


def test_a_seat_saves_every_field() -> None:
    """``Seat.to_dict`` is written out (cheaper than ``dataclasses.asdict`` on every save): it must
    keep up with the dataclass's fields."""
    seat = Seat(3, "x", bot=False, away=True, left=True, timeouts=2, acts=4, auto_acts=1)
    assert seat.to_dict() == dataclasses.asdict(seat)
    assert Seat.from_dict(seat.to_dict()) == seat
