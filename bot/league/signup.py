"""Sign-up and teams: joining and leaving a league, invites to a fixed team, admins adding or
removing a member.
"""

from __future__ import annotations

from bot.i18n import _, join
from bot.storage.leagues import LeagueError, LeagueRow

from . import seating
from .core import ServiceCore
from .gateway import LeagueRefusal, status_text
from .settings import SettingsError, check_name


class SignupMixin(ServiceCore):
    """Sign-up, leaving, team invites and admin roster changes."""

    async def sign_up(self, league: LeagueRow, user_id: int) -> None:
        self._open_for_signups(league)
        if league.format == seating.FIXED:
            raise LeagueRefusal(
                _(
                    "This league plays in fixed teams: invite your partner with `/league invite`, "
                    "or accept an invite with `/league accept`."
                )
            )
        try:
            await self.store.sign_up(league.id, user_id)
        except LeagueError as exc:
            raise LeagueRefusal.of(exc) from None

    @staticmethod
    def _open_for_signups(league: LeagueRow) -> None:
        if league.status not in ("active", "paused"):
            raise LeagueRefusal(join(status_text(league), _("Sign-ups are closed.")))

    async def leave(self, league: LeagueRow, user_id: int) -> None:
        try:
            await self.store.remove_member(league.id, user_id, actor_id=user_id)
        except LeagueError:
            raise LeagueRefusal(_("You're not signed up for **%(league)s**.", league=league.name)) from None

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
            raise LeagueRefusal(
                _("**%(league)s** has no fixed teams: just `/league signup`.", league=league.name)
            )
        if partner_is_bot:
            raise LeagueRefusal(_("Invite a person: bots can't sign up for a league."))
        if self.ruleset_of(league).team_size != 2:
            raise LeagueRefusal(_("Teams of three are not supported for fixed-partner leagues yet."))
        try:
            name = check_name(team_name)
            await self.store.invite(league.id, captain_id, partner_id, name)
        except SettingsError as exc:
            raise LeagueRefusal.of(exc) from None
        except LeagueError as exc:
            raise LeagueRefusal.of(exc) from None

    async def answer_invite(self, league: LeagueRow, user_id: int, *, accept: bool) -> str:
        try:
            team = await self.store.answer_invite(league.id, user_id, accept=accept)
        except LeagueError as exc:
            raise LeagueRefusal.of(exc) from None
        return team.name

    async def add_member(self, league: LeagueRow, actor_id: int, user_id: int) -> None:
        """An admin puts a player on the roster (also one they removed before)."""
        self._open_for_signups(league)
        if league.format == seating.FIXED:
            raise LeagueRefusal(
                _("Fixed-partner leagues take teams: the players sign up with `/league invite`.")
            )
        try:
            await self.store.sign_up(league.id, user_id, actor_id=actor_id)
        except LeagueError as exc:
            raise LeagueRefusal.of(exc) from None

    async def remove(self, league: LeagueRow, actor_id: int, user_id: int, reason: str | None) -> None:
        try:
            await self.store.remove_member(league.id, user_id, actor_id=actor_id, reason=reason)
        except LeagueError as exc:
            raise LeagueRefusal.of(exc) from None
