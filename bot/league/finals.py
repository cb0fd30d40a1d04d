"""Which night of a season is its playoffs' finals night: read from the league's stored settings,
by the playoffs (`bot.league.playoffs`) and by what must leave that night out (standings, check-in,
seating)."""

from __future__ import annotations

from bot.storage.leagues import LeagueRow, NightRow

STATE_KEY = "playoffs_state"
FINALS_KEY = "playoffs_finals"  # {season: its finals night's number}, kept for the seasons after


def finals_number(league: LeagueRow, season: int | None = None) -> int | None:
    """The finals night's number in ``season`` (not a night of the standings), if it has one."""
    season = season or league.season
    state = league.settings.get(STATE_KEY)
    if isinstance(state, dict) and state.get("season") == season:
        return int(state["night"])
    number = (league.settings.get(FINALS_KEY) or {}).get(str(season))
    return int(number) if number is not None else None


def is_finals(league: LeagueRow, night: NightRow) -> bool:
    return night.season == league.season and finals_number(league) == night.number
