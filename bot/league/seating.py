"""Who sits where in a league round: the seating is pure and lives in ``engine.seating`` (so
``python -m engine verify-seating`` can recompute a night's tables); this module keeps its names
where the league's services import them."""

from engine.seating import (
    BOT,
    BYE,
    FIXED,
    FORMATS,
    LEFTOVERS,
    ROTATING,
    SOLO,
    THREES,
    History,
    Seating,
    SeatingError,
    TablePlan,
    circle_rounds,
    pair,
    partner_repeats,
    seat_round,
    threes_split,
)

__all__ = [
    "BOT",
    "BYE",
    "FIXED",
    "FORMATS",
    "LEFTOVERS",
    "ROTATING",
    "SOLO",
    "THREES",
    "History",
    "Seating",
    "SeatingError",
    "TablePlan",
    "circle_rounds",
    "pair",
    "partner_repeats",
    "seat_round",
    "threes_split",
]
