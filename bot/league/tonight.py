"""An admin's tools for the night at hand: start it now, postpone it, substitute a player at a live
table.
"""

from __future__ import annotations

import contextlib
import logging
from datetime import date

from bot.clock import Clock, utcnow
from bot.i18n import Text, _, channel_mention, join, mention
from bot.render import league as text
from bot.storage.leagues import LeagueError, LeagueRow, LeagueStore

from . import seating
from .checkin import Checkin
from .core import Leagues, Pulse
from .gateway import LeagueGateway, LeagueRefusal, _unix, status_text
from .nights import NightScheduler
from .ratings import rate_stored
from .rounds import Rounds
from .standby import Standby

log = logging.getLogger(__name__)


class Tonight:
    """The admins' commands for tonight's night (``/league admin start|postpone|sub``)."""

    def __init__(
        self,
        store: LeagueStore,
        gateway: LeagueGateway,
        clock: Clock,
        *,
        pulse: Pulse,
        leagues: Leagues,
        checkin: Checkin,
        rounds: Rounds,
        nights: NightScheduler,
        standby: Standby | None = None,
    ) -> None:
        self.store = store
        self.gateway = gateway
        self.clock = clock
        self.pulse = pulse
        self.leagues = leagues
        self.checkin = checkin
        self.rounds = rounds
        self.nights = nights
        self.standby = standby

    async def start_now(self, league: LeagueRow, actor_id: int) -> Text:
        """Start the next night now (early), opening check-in first if needed."""
        if league.status != "active":
            raise LeagueRefusal(status_text(league))
        opened_early = False
        async with self.pulse.lock:
            night = await self.nights.current_night(league)
            if night is None:
                raise LeagueRefusal(_("The season has no night left to start."))
            if night.status == "playing":
                raise LeagueRefusal(_("The night is already under way."))
            now = _unix(utcnow(self.clock))
            if night.status == "scheduled":
                opened = await self.checkin.open(league, night, note="early")
                if opened is None:
                    raise LeagueRefusal(_("Someone else just started this night."))
                night = opened
                opened_early = True
            await self.store.audit.add(
                league.id,
                actor_id=actor_id,
                action="start_early",
                night_id=night.id,
                detail={"scheduled": night.starts_at, "now": now},
            )
            started = await self.rounds.start_night(league, night, force=True)
        if not started:
            players, teams = await self.rounds.eligible(league, night)
            raise LeagueRefusal(
                self._too_few(league, night.starts_at, players, teams, opened_early=opened_early)
            )
        return text.night_started()

    def _too_few(
        self,
        league: LeagueRow,
        starts_at: int,
        players: list[int],
        teams: list[list[int]],
        *,
        opened_early: bool,
    ) -> Text:
        """Why ``/league admin start`` could not seat anyone yet, and what the admin can do."""
        if league.format == seating.FIXED:
            count: Text = _(
                "Not enough teams are checked in to start the night: %(n)s of the two a night needs"
                " at least.",
                n=len(teams),
            )
        else:
            count = _(
                "Not enough players are checked in to seat a table: %(n)s, and a night needs two at least.",
                n=len(players),
            )
        where = channel_mention(league.channel_id)
        if opened_early:
            state: Text = _(
                "I opened check-in early: players check in with the button on the check-in post in"
                " %(channel)s.",
                channel=where,
            )
        else:
            state = _(
                "Check-in is open: players check in with the button on the check-in post in %(channel)s.",
                channel=where,
            )
        options = _(
            "Run `/league admin start` again once they have, or let the night start by itself at %(time)s;"
            " `/league admin postpone` gives everyone more time.",
            time=text.ts(starts_at, "t"),
        )
        return join(count, state, options, sep="\n")

    async def postpone(self, league: LeagueRow, actor_id: int, minutes: int) -> str:
        """Start the current or next night later (check-in stays open until then)."""
        if not 5 <= minutes <= 240:
            raise LeagueRefusal(_("Postpone by 5 to 240 minutes."))
        night = await self.nights.current_night(league)
        if night is None or night.status == "playing":
            raise LeagueRefusal(_("Only a night that has not started can start later."))
        new_start = night.starts_at + minutes * 60
        moved = await self.store.nights.transition(
            night.id,
            [night.status],
            night.status,
            starts_at=new_start,
            data={"postponed": True, "late_note": {"moved_to": new_start}},
            audit=(actor_id, "start_late", {"minutes": minutes}, None),
        )
        if moved is None:
            raise LeagueRefusal(_("The night just started."))
        await self.checkin.refresh(league, moved)
        await self.nights.events.sync(league)  # the scheduled event shows the new start
        self.pulse.poke()
        return text.postponed(new_start)

    async def cancel(self, league: LeagueRow, actor_id: int, reason: str | None = None) -> Text:
        """Cancel tonight in any phase (scheduled, check-in, under way): its live tables stop, none
        of its results count, and the season gets its week back, like a missed night."""
        if league.status != "active":
            raise LeagueRefusal(status_text(league))
        async with self.pulse.lock:
            night = await self.nights.current_night(league)
            if night is None:
                raise LeagueRefusal(_("The season has no night left to cancel."))
            cancelled = await self.store.nights.transition(
                night.id,
                ["scheduled", "checkin", "playing"],
                "cancelled",
                audit=(actor_id, "cancel", {"date": night.night_date}, reason),
            )
            if cancelled is None:
                raise LeagueRefusal(_("That night just ended; nothing to cancel."))
            voided = await self.store.rounds.void_tables(
                night.id, league_id=league.id, actor_id=actor_id, reason=reason
            )
            for lt in voided:
                if lt.table_id is not None and lt.status in ("seated", "playing"):
                    try:
                        await self.gateway.stop_table(lt.table_id, cancelled=True)
                    except Exception:
                        log.exception("league %s: stopping table %s failed", league.id, lt.table_id)
            await self.checkin.refresh(league, cancelled, closed=True)
            schedule, league = await self.leagues.give_week_back(league, date.fromisoformat(night.night_date))
            last = schedule.last_night if schedule.nights() else None
            await self.gateway.post(
                league.channel_id, text.night_cancelled(league.name, night.number, actor_id, reason, last)
            )
            await self.nights.events.sync(league)
        self.pulse.poke()
        return _("Night %(n)s is cancelled; the season gets its week back.", n=night.number)

    async def void_table(
        self, league: LeagueRow, actor_id: int, *, round_no: int | None, table_no: int, reason: str
    ) -> Text:
        """Void one table of tonight's (or the latest night's) round: its result does not count and
        a live game stops. The standings are recomputed from the results that count."""
        night = await self.leagues.open_night(league)
        if night is None:
            nights = [n for n in await self.store.nights.nights(league.id, league.season) if n.round_no > 0]
            night = nights[-1] if nights else None
        if night is None or night.round_no == 0:
            raise LeagueRefusal(_("No night of this season has tables yet."))
        rnd = round_no or night.round_no
        async with self.pulse.lock:
            voided = await self.store.rounds.void_tables(
                night.id,
                league_id=league.id,
                actor_id=actor_id,
                reason=reason,
                round_no=rnd,
                table_no=table_no,
            )
            if not voided:
                raise LeagueRefusal(
                    _(
                        "Night %(night)s has no table %(table)s in round %(round)s that counts.",
                        night=night.number,
                        table=table_no,
                        round=rnd,
                    )
                )
            (lt,) = voided
            if lt.table_id is not None and lt.status in ("seated", "playing"):
                await self.gateway.stop_table(lt.table_id, cancelled=False)
            if night.status == "playing":
                fresh = await self.store.nights.get_night(night.id)
                if fresh is not None:
                    await self.rounds.advance_round(league, fresh, utcnow(self.clock))
        return _(
            "Table %(table)s of round %(round)s (night %(night)s) is void: its result no longer counts.",
            table=table_no,
            round=rnd,
            night=night.number,
        )

    async def forfeit_table(
        self,
        league: LeagueRow,
        actor_id: int,
        *,
        table_no: int,
        loser_id: int,
        reason: str,
        round_no: int | None = None,
        night_number: int | None = None,
    ) -> Text:
        """Award a table of a night's round (default: tonight's, or the latest night's, current
        round) to the other side: ``loser_id``'s side forfeits. A live game stops with a note at the
        table; a finished result is overturned (the reason and the old result are kept in the audit
        log) and its game is rated again as a loss for the forfeiting side."""
        if not reason.strip():
            raise LeagueRefusal(_("Give a reason: it is kept in the league's history."), "no_reason")
        nights = [n for n in await self.store.nights.nights(league.id, league.season) if n.round_no > 0]
        if night_number is not None:
            night = next((n for n in nights if n.number == night_number), None)
        else:
            night = await self.leagues.open_night(league)
            if night is None or night.round_no == 0:
                night = nights[-1] if nights else None
        if night is None or night.round_no == 0:
            if night_number is not None:
                raise LeagueRefusal(
                    _("Night %(n)s of this season has no tables.", n=night_number), "no_night"
                )
            raise LeagueRefusal(_("No night of this season has tables yet."), "no_night")
        rnd = round_no or night.round_no
        async with self.pulse.lock:
            lt = next(
                (t for t in await self.store.rounds.round_tables(night.id, rnd) if t.table_no == table_no),
                None,
            )
            if lt is None:
                raise LeagueRefusal(
                    _(
                        "Night %(n)s has no table %(table)s in round %(round)s.",
                        n=night.number,
                        table=table_no,
                        round=rnd,
                    ),
                    "no_table",
                )
            if lt.status == "void":
                raise LeagueRefusal(
                    _("That table is void: a void table has no result to award."), "table_void"
                )
            side = next((i for i, players in enumerate(lt.sides) if loser_id in players), None)
            if side is None:
                raise LeagueRefusal(
                    _("%(user)s is not seated at that table.", user=mention(loser_id)),
                    "not_at_table",
                    {"user": loser_id},
                )
            try:
                result, before = await self.store.rounds.forfeit_table(
                    lt.id,
                    league_id=league.id,
                    loser_side=side,
                    loser_id=loser_id,
                    actor_id=actor_id,
                    reason=reason.strip()[:200],
                )
            except LeagueError as exc:
                raise LeagueRefusal.of(exc) from None
            if before.table_id is not None and before.status in ("seated", "playing"):
                try:
                    await self.gateway.stop_table(before.table_id, cancelled=False, forfeit=True)
                except Exception:
                    log.exception("league %s: stopping table %s failed", league.id, before.table_id)
            if result.game_id is not None:
                await self.store.ratings.rerate_from(rate_stored, result.game_id)
            if night.status == "playing":
                fresh = await self.store.nights.get_night(night.id)
                if fresh is not None:
                    await self.rounds.advance_round(league, fresh, utcnow(self.clock))
        if before.status == "finished":
            return _(
                "Table %(table)s of round %(round)s (night %(night)s): %(user)s's side forfeits; the"
                " result is overturned and the other side gets the win.",
                table=table_no,
                round=rnd,
                night=night.number,
                user=mention(loser_id),
            )
        return _(
            "Table %(table)s of round %(round)s (night %(night)s): %(user)s's side forfeits and the"
            " other side gets the win.",
            table=table_no,
            round=rnd,
            night=night.number,
            user=mention(loser_id),
        )

    async def substitute(
        self, league: LeagueRow, actor_id: int, out_id: int, in_id: int, reason: str | None
    ) -> Text:
        night = await self.leagues.open_night(league)
        if night is None or night.status != "playing" or night.round_no == 0:
            raise LeagueRefusal(_("Substitutions are for a night under way."))
        tables = await self.store.rounds.round_tables(night.id, night.round_no)
        lt = next((t for t in tables if out_id in t.players and t.status in ("seated", "playing")), None)
        if lt is None:
            raise LeagueRefusal(_("%(user)s is not at a table of this round.", user=mention(out_id)))
        if any(in_id in t.players for t in tables if t.status in ("seated", "playing")):
            raise LeagueRefusal(_("%(user)s is already playing this round.", user=mention(in_id)))
        busy = await self.store.rounds.busy_players([in_id], except_league=league.id)
        if busy:
            raise LeagueRefusal(
                _("%(user)s is seated in another league's game right now.", user=mention(in_id))
            )
        state = None
        if lt.table_id is not None and self.standby is not None:
            state = (await self.gateway.seat_states(lt.table_id) or {}).get(out_id)
        try:
            await self.store.rounds.substitute(
                lt.id, out_id, in_id, league_id=league.id, actor_id=actor_id, reason=reason
            )
        except LeagueError as exc:
            raise LeagueRefusal.of(exc) from None
        if self.standby is not None:
            # the substitute plays the rest of the night unless the player checks in again
            await self.standby.record_sub(league, night, lt, out_id, in_id, state)
        if await self.store.rosters.member(league.id, in_id) is None and league.format != seating.FIXED:
            with contextlib.suppress(LeagueError):
                await self.store.rosters.sign_up(league.id, in_id, actor_id=actor_id)
        game_over = lt.table_id is not None and not await self.gateway.substitute(
            lt.table_id, out_id, in_id, guild_id=league.guild_id
        )
        return text.substituted(in_id, out_id, lt.table_no, game_over=game_over)
