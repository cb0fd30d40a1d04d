"""Sign-up and teams: joining and leaving a league, invites to a fixed team, admins adding or
removing a member.
"""

from __future__ import annotations

from bot.storage.leagues import LeagueError, LeagueRow

from . import seating
from .core import ServiceCore
from .gateway import LeagueRefusal
from .settings import SettingsError, check_name


class SignupMixin(ServiceCore):
    """Sign-up, leaving, team invites and admin roster changes."""

    async def sign_up(self, league: LeagueRow, user_id: int) -> None:
        self._open_for_signups(league)
        if league.format == seating.FIXED:
            raise LeagueRefusal(
                "This league plays in fixed teams: invite your partner with `/league invite`, "
                "or accept an invite with `/league accept`."
            )
        try:
            await self.store.sign_up(league.id, user_id)
        except LeagueError as exc:
            raise LeagueRefusal(str(exc)) from None

    @staticmethod
    def _open_for_signups(league: LeagueRow) -> None:
        if league.status not in ("active", "paused"):
            raise LeagueRefusal(f"**{league.name}** is {league.status}: sign-ups are closed.")

    async def leave(self, league: LeagueRow, user_id: int) -> None:
        try:
            await self.store.remove_member(league.id, user_id, actor_id=user_id)
        except LeagueError:
            raise LeagueRefusal(f"You're not signed up for **{league.name}**.") from None

    async def invite(
        self,
        league: LeagueRow,
        captain_id: int,
        partner_id: int,
        team_name: str,
        *,
        partner_is_bot: bool = False,
    ) -> None:
        self._open_for_signups(league)
        if league.format != seating.FIXED:
            raise LeagueRefusal(f"**{league.name}** has no fixed teams: just `/league signup`.")
        if partner_is_bot:
            raise LeagueRefusal("Invite a person: bots can't sign up for a league.")
        if self.ruleset_of(league).team_size != 2:
            raise LeagueRefusal("Teams of three are not supported for fixed-partner leagues yet.")
        try:
            name = check_name(team_name)
            await self.store.invite(league.id, captain_id, partner_id, name)
        except SettingsError as exc:
            raise LeagueRefusal(str(exc).replace("league name", "team name")) from None
        except LeagueError as exc:
            raise LeagueRefusal(str(exc)) from None

    async def answer_invite(self, league: LeagueRow, user_id: int, *, accept: bool) -> str:
        try:
            team = await self.store.answer_invite(league.id, user_id, accept=accept)
        except LeagueError as exc:
            raise LeagueRefusal(str(exc)) from None
        return team.name

    async def add_member(self, league: LeagueRow, actor_id: int, user_id: int) -> None:
        """An admin puts a player on the roster (also one they removed before)."""
        self._open_for_signups(league)
        if league.format == seating.FIXED:
            raise LeagueRefusal(
                "Fixed-partner leagues take teams: the players sign up with `/league invite`."
            )
        try:
            await self.store.sign_up(league.id, user_id, actor_id=actor_id)
        except LeagueError as exc:
            raise LeagueRefusal(str(exc)) from None

    async def remove(self, league: LeagueRow, actor_id: int, user_id: int, reason: str | None) -> None:
        try:
            await self.store.remove_member(league.id, user_id, actor_id=actor_id, reason=reason)
        except LeagueError as exc:
            raise LeagueRefusal(str(exc)) from None
