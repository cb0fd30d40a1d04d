"""A player's own card in a league (``/league me``): standing, team, rating and the next night."""

from __future__ import annotations

from collections.abc import Hashable

from bot.i18n import ListOf, Text, _, _n, join
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
        entrant: Hashable = user_id
        team_line: Text = ""
        if league.format == seating.FIXED:
            team = await self.leagues.team_of(league, user_id)
            if team is not None:
                entrant = f"team:{team.id}"
                team_line = _(
                    "Team **%(team)s** (%(status)s)", team=team.name, status=team_status(team.status)
                )
                if team.status == "pending" and team.invited:
                    team_line = _(
                        "Team **%(team)s** (invite pending: waiting for %(players)s to accept)",
                        team=team.name,
                        players=ListOf(tuple(text.mention(u) for u in team.invited)),
                    )
        row = next((r for r in rows if r.entrant == entrant), None)
        stored = (await self.store.ratings(league.guild_id, [user_id])).get(user_id)
        rating = Rating(stored.mu, stored.sigma, stored.games) if stored else Rating()
        night = await self.nights.current_night(league)
        answer: Text = ""
        if night is not None:
            ans = (await self.store.checkins(night.id)).get(user_id)
            if ans == "in":
                answer = _("Next night: %(start)s: checked in", start=text.ts(night.starts_at))
            elif ans == "out":
                answer = _("Next night: %(start)s: not coming", start=text.ts(night.starts_at))
            else:
                answer = _("Next night: %(start)s: not checked in", start=text.ts(night.starts_at))
        if member is None:
            head = _("You're not signed up for **%(league)s**.", league=league.name)
        elif member.status == "invited":
            head = _("**%(league)s**: you're invited to a team.", league=league.name)
        else:
            head = _("**%(league)s**: you're signed up.", league=league.name)
        if row is None:
            stats: Text = _("No league games yet.")
        else:
            stats = _(
                "Rank %(rank)s of %(count)s · %(total)s pts · %(wins)sW %(close)sCL %(losses)sL ·"
                " nights %(nights)s",
                rank=row.rank,
                count=len(rows),
                total=row.total,
                wins=row.wins,
                close=row.close_losses,
                losses=row.losses,
                nights=row.attendance(held),
            )
        if rating.provisional:
            rated = _n(
                "Rating %(rating)s (%(n)s rated game, provisional)",
                "Rating %(rating)s (%(n)s rated games, provisional)",
                rating.games,
                rating=rating.display(),
            )
        else:
            rated = _n(
                "Rating %(rating)s (%(n)s rated game)",
                "Rating %(rating)s (%(n)s rated games)",
                rating.games,
                rating=rating.display(),
            )
        return join(head, team_line, stats, rated, answer, sep="\n")
