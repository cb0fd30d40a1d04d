"""Sign-up and teams: joining and leaving a league, invites to a fixed team, admins adding or
removing a member.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.i18n import OptionName, Text, _, join
from bot.render import league as text
from bot.storage.leagues import LeagueError, LeagueRow, LeagueStore, Team

from . import seating
from .core import ruleset_of
from .gateway import LeagueGateway, LeagueRefusal, status_text
from .settings import SettingsError, check_name


class Signup:
    """Sign-up, leaving, team invites and admin roster changes."""

    def __init__(self, store: LeagueStore, gateway: LeagueGateway) -> None:
        self.store = store
        self.gateway = gateway

    async def sign_up(self, league: LeagueRow, user_id: int) -> None:
        self._open_for_signups(league)
        if league.format == seating.FIXED:
            if ruleset_of(league).team_size == 3:
                raise LeagueRefusal(
                    _(
                        "This league plays in fixed teams of three: invite your two partners with"
                        " `/league invite`, or accept an invite with `/league accept`."
                    )
                )
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
        partners: int | Sequence[int],
        team_name: str,
        *,
        partner_is_bot: bool = False,
    ) -> Team:
        """Start a fixed team: one partner in a league of pairs, two in teams of three."""
        self._open_for_signups(league)
        if league.format != seating.FIXED:
            raise LeagueRefusal(
                _("**%(league)s** has no fixed teams: just `/league signup`.", league=league.name)
            )
        if partner_is_bot:
            raise LeagueRefusal(_("Invite a person: bots can't sign up for a league."))
        invited = [partners] if isinstance(partners, int) else list(partners)
        size = ruleset_of(league).team_size
        if len(invited) + 1 != size:
            raise LeagueRefusal(self._team_size_refusal(league, size))
        try:
            name = check_name(team_name)
            return await self.store.invite(league.id, captain_id, invited, name)
        except (SettingsError, LeagueError) as exc:
            raise LeagueRefusal.of(exc) from None

    @staticmethod
    def _team_size_refusal(league: LeagueRow, size: int) -> Text:
        """What ``/league invite`` takes in this league: one partner for pairs, two for teams of three."""
        if size == 3:
            return _(
                "**%(league)s** plays in teams of three: invite both your partners, with `%(partner)s`"
                " and `%(partner2)s`.",
                league=league.name,
                partner=OptionName("partner"),
                partner2=OptionName("partner2"),
            )
        return _(
            "**%(league)s** plays in pairs: invite one partner with `%(partner)s` and leave `%(partner2)s`"
            " out.",
            league=league.name,
            partner=OptionName("partner"),
            partner2=OptionName("partner2"),
        )

    async def answer_invite(self, league: LeagueRow, user_id: int, *, accept: bool) -> Team:
        """Accept or decline a team invite. A decline dissolves the team: the league channel is told,
        so the captain and the other invitee know they are free to form a new team."""
        try:
            team = await self.store.answer_invite(league.id, user_id, accept=accept)
        except LeagueError as exc:
            raise LeagueRefusal.of(exc) from None
        if not accept:
            await self.gateway.post(league.channel_id, text.invite_declined(team, league.name, user_id))
        return team

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
