"""Texts of a league night's verifiable seating (``bot.league.seating_proof``)."""

from __future__ import annotations

from bot.i18n import Text, _


def commitment_line(short: str) -> Text:
    """The check-in post's line: the commitment to the night's seating seed."""
    return _(
        "🔒 Seating commitment: `%(hash)s`. Tonight's tables are drawn from a secret seed; it is "
        "revealed after the night so anyone can check them.",
        hash=short,
    )


def reveal_line(seed: str, salt: str) -> Text:
    """The night's results post: the seating seed revealed, and how to check it."""
    return _(
        "🔓 Seating seed: `%(seed)s` (salt `%(salt)s`). Check the tables: `/league-season seating`, "
        "then `python -m engine verify-seating` on the file.",
        seed=seed,
        salt=salt,
    )


def record_attached(league_name: str, night_number: int, revealed: bool) -> Text:
    """The answer to ``/league-season seating``, the record attached."""
    if revealed:
        return _(
            "**%(league)s**, night %(n)s: the seating record is attached, seed included. Check it "
            "with `python -m engine verify-seating FILE`.",
            league=league_name,
            n=night_number,
        )
    return _(
        "**%(league)s**, night %(n)s: the seating record is attached; its seed stays secret until "
        "the night is over.",
        league=league_name,
        n=night_number,
    )


def no_record(league_name: str, night_number: int | None) -> Text:
    if night_number is None:
        return _("**%(league)s** has no night with a seating record yet.", league=league_name)
    return _(
        "**%(league)s** has no seating record for night %(n)s (it had no check-in with a seating "
        "commitment).",
        league=league_name,
        n=night_number,
    )
