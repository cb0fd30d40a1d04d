"""A player's own card in a league (``/league me``): standing, team, rating and the next night."""

from __future__ import annotations

from collections.abc import Hashable

from bot.i18n import Text
from bot.render import league as text
from bot.storage.leagues import LeagueRow, LeagueStore

from . import seating
from .core import Leagues
from .gateway import team_status
from .nights import NightScheduler
from .ratings import Rating
from .results import Results


class PlayerCard:
    """What ``/league me`` shows a player."""

    def __init__(
        self, store: LeagueStore, *, leagues: Leagues, results: Results, nights: NightScheduler
    ) -> None:
        self.store = store
        self.leagues = leagues
        self.results = results
        self.nights = nights

    async def me_text(self, league: LeagueRow, user_id: int) -> Text:
        member = await self.store.member(league.id, user_id)
        rows, held = await self.results.standings_rows(league)
        team = await self.leagues.team_of(league, user_id) if league.format == seating.FIXED else None
        entrant: Hashable = f"team:{team.id}" if team is not None else user_id
        stored = (await self.store.ratings(league.guild_id, [user_id])).get(user_id)
        night = await self.nights.current_night(league)
        return text.player_card(
            league.name,
            member_status=member.status if member is not None else None,
            team=team,
            team_status=team_status(team.status) if team is not None else "",
            row=next((r for r in rows if r.entrant == entrant), None),
            entrants=len(rows),
            held=held,
            rating=Rating(stored.mu, stored.sigma, stored.games) if stored else Rating(),
            next_start=night.starts_at if night is not None else None,
            answer=(await self.store.checkins(night.id)).get(user_id) if night is not None else None,
        )
