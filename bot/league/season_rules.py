"""``/league admin season``: what a season does with odd numbers and how it ranks its entrants.

The settings live where the rest of the league's do (``LeagueSettings``: ``leftover``; its
``PointsRule``: ``bye``, ``ranking``, ``min_nights``), stored in the league's settings like any
other (no column of their own). Each is checked where it is entered and refused with a code:
``threes_format`` (a table of three needs individuals at four-seat tables), ``points_range`` (bye
points 0-10), ``bad_ranking``, ``min_nights_range`` (0-52), ``nothing_to_change``. ``duplicate``
turns duplicate rounds on or off (``bot.league.duplicate``): it applies from the next round seated.
"""

from __future__ import annotations

from typing import Any

from bot.i18n import _
from bot.storage.leagues import LeagueRow

from . import standings
from .core import Leagues, ruleset_of, settings_of
from .gateway import LeagueRefusal
from .settings import SettingsError, check_leftover

# what the slash command offers for ``ranking`` (each client shows them in its own language)
RANKING_LABELS = {
    standings.POINTS: "League points (ties: head to head)",
    standings.GAME_POINTS: "Game points scored",
    standings.PER_GAME: "League points per game",
}


class NothingToChange(SettingsError):
    pass


class SeasonRules:
    """Set the leftover rule, the bye points, the ranking, the nights needed to be ranked and
    duplicate rounds."""

    def __init__(self, leagues: Leagues) -> None:
        self.leagues = leagues

    async def set_rules(
        self,
        league: LeagueRow,
        actor_id: int,
        *,
        leftover: str | None = None,
        bye_points: int | None = None,
        ranking: str | None = None,
        min_nights: int | None = None,
        duplicate: bool | None = None,
    ) -> LeagueRow:
        settings = settings_of(league)
        points: dict[str, Any] = {
            k: v
            for k, v in {"bye": bye_points, "ranking": ranking, "min_nights": min_nights}.items()
            if v is not None
        }
        try:
            if leftover is None and not points and duplicate is None:
                raise NothingToChange(
                    _("Nothing to change: give at least one new value."), "nothing_to_change"
                )
            new = settings
            if leftover is not None:
                new = new.with_changes(leftover=check_leftover(leftover, league.format, ruleset_of(league)))
            if duplicate is not None:
                new = new.with_changes(duplicate=duplicate)
            if points:
                new = new.with_changes(
                    points=standings.PointsRule.from_dict({**settings.points.to_dict(), **points})
                )
        except (SettingsError, standings.PointsError) as exc:
            raise LeagueRefusal.of(exc) from None
        if new == settings:
            raise LeagueRefusal.of(
                NothingToChange(
                    _("Nothing to change: those are the league's settings already."), "nothing_to_change"
                )
            )
        before, after = settings.to_dict(), new.to_dict()
        league.settings = {**league.settings, **after}
        changes = {k: v for k, v in after.items() if before.get(k) != v}
        return await self.leagues.save(league, actor_id, "edit", {"settings": changes})
