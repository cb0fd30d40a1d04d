"""Texts of a league's playoffs (``bot.league.playoffs``): the qualifiers' post when the regular
season ends and the champion's post after the finals night."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from bot.i18n import Text, _, _n, join, timestamp


def qualifiers(league_name: str, season: int, names: Sequence[Text], starts: datetime) -> Text:
    """The regular season is over: who plays the finals (in seed order) and when."""
    seeds = join(*(_("%(seed)s. %(name)s", seed=i, name=n) for i, n in enumerate(names, 1)), sep="\n")
    return join(
        _(
            "🏆 **%(league)s** season %(season)s: the regular season is over. The finals night is "
            "%(when)s (%(ago)s); these qualified, in seed order:",
            league=league_name,
            season=season,
            when=timestamp(starts.timestamp(), "F"),
            ago=timestamp(starts.timestamp(), "R"),
        ),
        seeds,
        _(
            "Check in on the night like any other: a qualifier who does not loses their place "
            "to the next in line."
        ),
        sep="\n",
    )


def finals_banner() -> Text:
    """The first line of the finals night's check-in post."""
    return _(
        "🏆 **Finals night**: the qualifiers play for the championship; a qualifier who does not "
        "check in loses their place to the next in line."
    )


def champion(league_name: str, season: int, names: Sequence[Text]) -> Text:
    """The winner of the final is the season's champion."""
    if not names:
        return _(
            "**%(league)s** season %(season)s: the finals had no winner.", league=league_name, season=season
        )
    return _(
        "🏆 **%(league)s** season %(season)s champion: %(names)s, winner of the final! 🎉",
        league=league_name,
        season=season,
        names=join(*names, sep=" + "),
    )


def setting(
    on: bool, size: int, min_nights: int, per_night: bool, finals_date: str | None, fixed: bool
) -> Text:
    """The league's playoffs setting, as ``/league-season playoffs`` answers it."""
    if not on:
        return _("Playoffs: off (the standings' first is the champion).")
    who = (
        _n("the top %(n)s team", "the top %(n)s teams", size)
        if fixed
        else _n("the top %(n)s player", "the top %(n)s players", size)
    )
    order = _("by league points per night played") if per_night else _("in the standings' order")
    nights = (
        _n("; %(n)s night played to qualify", "; %(n)s nights played to qualify", min_nights)
        if min_nights
        else ""
    )
    when = (
        _("the finals night on %(date)s", date=finals_date)
        if finals_date
        else _("the finals night a week after the last night")
    )
    return join(
        _(
            "Playoffs: on, %(who)s %(order)s%(nights)s, %(when)s.",
            who=who,
            order=order,
            nights=nights,
            when=when,
        ),
        _("The winner of the final is the champion."),
        sep=" ",
    )
