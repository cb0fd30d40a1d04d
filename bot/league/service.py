"""The league service: runs league nights from the database, whatever restarts in between.

Everything a night does is driven by ``tick()``: it looks at the stored leagues and nights and does
what is due (open check-in, start the night, call time on a round, record results that finished
while the bot was down, seat the next round, close the night). Each step is a compare-and-set on
the stored night or round, so a step runs once even when two ticks (or a tick and a game-finished
callback) race, and a restart simply resumes at the next tick.

Discord and the table machinery are behind :class:`LeagueGateway`; the cog calls the public
methods and answers :class:`LeagueRefusal` messages ephemerally.

:class:`LeagueService` builds the collaborators, each one job, each given what it calls:

- ``leagues`` (:class:`~bot.league.core.Leagues`): the stored leagues, saving a change;
- ``events`` (:class:`~bot.league.core.ScheduledEvents`): the Discord scheduled event;
- ``results`` (:class:`~bot.league.results.Results`): standings, schedule and history, corrections;
- ``checkin`` (:class:`~bot.league.checkin.Checkin`): the check-in post and the players' answers;
- ``standby`` (:class:`~bot.league.standby.Standby`): check-outs, no-shows, standbys, substitutes;
- ``rounds`` (:class:`~bot.league.rounds.Rounds`): seating, tables, results as games finish;
- ``nights`` (:class:`~bot.league.nights.NightScheduler`): the tick loop, each night's lifecycle;
- ``admin`` (:class:`~bot.league.admin.Admin`: the league and its season), ``tonight``
  (:class:`~bot.league.tonight.Tonight`: start now, postpone, substitute), ``signup``
  (:class:`~bot.league.signup.Signup`), ``card`` (:class:`~bot.league.card.PlayerCard`): the commands.

They share one :class:`~bot.league.core.Pulse` (one change of league state at a time; a poke wakes
the scheduler) and one clock: every time the league reads is ``utcnow(clock)``.
"""

from __future__ import annotations

from collections.abc import Callable

from bot.clock import Clock, SystemClock
from bot.i18n import Text, _
from bot.storage.leagues import LeagueStore

from .admin import Admin
from .card import PlayerCard
from .checkin import Checkin
from .core import Leagues, Pulse, ScheduledEvents, ruleset_of, schedule_of, settings_of
from .export import Export
from .gateway import TICK_SECONDS, LeagueGateway, LeagueRefusal, NightView, TableOutcome, seating_label
from .nights import NightScheduler
from .playoffs import Playoffs
from .playoffs import describe as describe_playoffs
from .results import Results
from .rounds import Rounds
from .season_rules import SeasonRules
from .seating_proof import SeatingProofs
from .signup import Signup
from .standby import Standby
from .tonight import Tonight

__all__ = [
    "TICK_SECONDS",
    "LeagueGateway",
    "LeagueRefusal",
    "LeagueService",
    "NightView",
    "TableOutcome",
    "seating_label",
]


class LeagueService:
    """Runs every league of the bot: the scheduler, the commands of players and admins."""

    schedule_of = staticmethod(schedule_of)
    settings_of = staticmethod(settings_of)
    ruleset_of = staticmethod(ruleset_of)
    playoffs_text = staticmethod(describe_playoffs)

    def __init__(
        self,
        store: LeagueStore,
        gateway: LeagueGateway,
        *,
        clock: Clock | None = None,
        owns: Callable[[int], bool] | None = None,
    ) -> None:
        self.store = store
        self.gateway = gateway
        self.clock: Clock = clock or SystemClock()
        pulse = Pulse()
        self.leagues = Leagues(store, self.clock)
        self.events = ScheduledEvents(store, gateway, self.clock)
        self.results = Results(store, gateway, self.clock)
        self.checkin = Checkin(store, gateway, self.leagues, pulse)
        self.standby = Standby(store, gateway, self.clock, pulse=pulse)
        self.rounds = Rounds(
            store,
            gateway,
            self.clock,
            pulse=pulse,
            checkin=self.checkin,
            results=self.results,
            events=self.events,
            standby=self.standby,
        )
        self.nights = NightScheduler(
            store,
            gateway,
            self.clock,
            owns=owns or (lambda _guild_id: True),
            pulse=pulse,
            leagues=self.leagues,
            checkin=self.checkin,
            rounds=self.rounds,
            results=self.results,
            events=self.events,
        )
        self.admin = Admin(
            store,
            gateway,
            self.clock,
            pulse=pulse,
            leagues=self.leagues,
            events=self.events,
            results=self.results,
        )
        self.tonight = Tonight(
            store,
            gateway,
            self.clock,
            pulse=pulse,
            leagues=self.leagues,
            checkin=self.checkin,
            rounds=self.rounds,
            nights=self.nights,
            standby=self.standby,
        )
        self.signup = Signup(store, gateway)
        self.card = PlayerCard(store, leagues=self.leagues, results=self.results, nights=self.nights)
        self.season_rules = SeasonRules(self.leagues)
        self.playoffs = Playoffs(
            store, gateway, self.clock, leagues=self.leagues, results=self.results, events=self.events
        )
        self.nights.playoffs = self.rounds.playoffs = self.playoffs
        self.exports = Export(store, self.results)
        self.seating_proofs = SeatingProofs(store)

        # what the cog, the check-in button and the table listener call
        self.start = self.nights.start
        self.stop = self.nights.stop
        self.tick = self.nights.tick
        self.spawn = self.nights.spawn
        self.poke = pulse.poke  # something changed: the scheduler ticks now, not at its next look
        self.current_night = self.nights.current_night
        self.game_finished = self.rounds.game_finished
        self.rate_pending = self.leagues.rate_pending
        self.league = self.leagues.league
        self.league_names = self.leagues.league_names
        self.check_in = self.checkin.check_in
        self.volunteer = self.standby.volunteer
        self.check_out = self.standby.check_out
        self.no_shows = self.standby.no_shows
        self.reopen_checkin = self.checkin.reopen
        self.standings_rows = self.results.standings_rows
        self.entrant_names = self.results.entrant_names
        self.standings_text = self.results.standings_text
        self.schedule_text = self.results.schedule_text
        self.tables_text = self.results.tables_text
        self.history_page = self.results.history_page
        self.history_text = self.results.history_text
        self.correct = self.results.correct
        self.me_text = self.card.me_text
        self.set_notify = self.checkin.set_notify
        self.create_league = self.admin.create_league
        self.edit = self.admin.edit
        self.pause = self.admin.pause
        self.resume = self.admin.resume
        self.skip = self.admin.skip
        self.end_season = self.admin.end_season
        self.new_season = self.admin.new_season
        self.archive = self.admin.archive
        self.set_attendance = self.admin.set_attendance
        self.set_season_rules = self.season_rules.set_rules
        self.set_playoffs = self.playoffs.set_rule
        self.export_files = self.exports.season_files
        self.seating_file = self.seating_proofs.night_file
        self.start_now = self.tonight.start_now
        self.postpone = self.tonight.postpone
        self.substitute = self.tonight.substitute
        self.cancel_tonight = self.tonight.cancel
        self.void_table = self.tonight.void_table
        self.forfeit_table = self.tonight.forfeit_table
        self.sign_up = self.signup.sign_up
        self.leave = self.signup.leave
        self.invite = self.signup.invite
        self.answer_invite = self.signup.answer_invite
        self.add_member = self.signup.add_member
        self.remove = self.signup.remove

    async def answer(self, night_id: int, user_id: int, answer: str, *, guild_id: int | None = None) -> Text:
        """A click on the check-in post: ``in`` (check in; during the night, a player a substitute
        replaced comes back), ``sub`` (I'll sub), ``out`` (can't make it; during the night, I'm out
        for tonight)."""
        if answer == "sub":
            message = await self.volunteer(night_id, user_id, guild_id=guild_id)
            await self._show_answers(night_id)
            return message
        night = await self.store.nights.get_night(night_id)
        if night is not None and night.status == "playing":
            await self.standby.night_of(night_id, guild_id)  # (refuses another server's night)
            if answer == "out":
                message = await self.check_out(night_id, user_id, guild_id=guild_id)
                await self._show_answers(night_id)
                return message
            if user_id in await self.store.attendance.absences(night.id):
                raise LeagueRefusal(_("You're out for tonight: you won't be seated again tonight."))
            if await self.standby.come_back(night, user_id):
                return _(
                    "Welcome back: you'll be seated from the next round (your substitute finishes this game)."
                )
        message = await self.check_in(night_id, user_id, coming=answer == "in", guild_id=guild_id)
        if night is not None and night.status == "checkin" and await self.standby.withdraw(night.id, user_id):
            # a standby who checks in plays (or is not coming): off the standby list
            await self._show_answers(night_id)
        return message

    async def take_seat(
        self, league_table_id: int, out_id: int, user_id: int, *, guild_id: int | None = None
    ) -> Text:
        """A standby's "Take this seat" click (then the check-in post's standby list is redrawn)."""
        message = await self.standby.take_seat(league_table_id, out_id, user_id, guild_id=guild_id)
        lt = await self.store.rounds.league_table(league_table_id)
        if lt is not None:
            await self._show_answers(lt.night_id)
        return message

    async def _show_answers(self, night_id: int) -> None:
        """Redraw the check-in post (its lists of players and standbys)."""
        night = await self.store.nights.get_night(night_id)
        league = await self.store.rosters.get_league(night.league_id) if night is not None else None
        if night is not None and league is not None:
            await self.checkin.refresh(league, night, closed=night.status != "checkin")
