"""A league night's rounds: who is eligible, seating into tables, opening the tables, recording
results as games finish or time is called, and closing the night after its last round.

Each step is a compare-and-set on the stored night or round, so it runs once even when a tick and
a game-finished callback race.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from datetime import date, datetime, timedelta

from bot.clock import Clock, utcnow
from bot.render import league as text
from bot.render import seating_proof as proof_text
from bot.storage.leagues import LeagueRow, LeagueStore, LeagueTable, NightRow
from engine.ruleset import Ruleset
from engine.seating_record import round_record

from . import duplicate, seating, seating_proof
from .checkin import Checkin
from .core import Pulse, ScheduledEvents, ruleset_of, settings_of, table_ruleset
from .finals import is_finals
from .gateway import LeagueGateway, TableOutcome, _unix, _utc
from .playoffs import Playoffs
from .ratings import Rating
from .results import Results
from .settings import team_size
from .standby import Standby

log = logging.getLogger(__name__)


class Rounds:
    """Start a night, seat and open each round, record results, finish the night."""

    def __init__(
        self,
        store: LeagueStore,
        gateway: LeagueGateway,
        clock: Clock,
        *,
        pulse: Pulse,
        checkin: Checkin,
        results: Results,
        events: ScheduledEvents,
        standby: Standby | None = None,
    ) -> None:
        self.store = store
        self.gateway = gateway
        self.clock = clock
        self.pulse = pulse
        self.checkin = checkin
        self.results = results
        self.events = events
        self.standby = standby  # no-shows, check-outs and substitutes (bot.league.standby)
        self.playoffs: Playoffs | None = None  # a finals night's bracket (bot.league.playoffs)
        self._told_open_failed: set[int] = set()  # tables admins were told could not open

    async def eligible(self, league: LeagueRow, night: NightRow) -> tuple[list[int], list[list[int]]]:
        """Checked-in players who may be seated now (on the roster, not playing another league)."""
        answers = await self.store.nights.checkins(night.id)
        members = {m.user_id: m for m in await self.store.rosters.members(league.id)}
        ins = [u for u, s in answers.items() if s == "in" and u in members]
        if self.standby is not None:
            # nobody out for the night is seated again; a substitute plays on for an absent player
            ins = await self.standby.seatable(night, ins)
        busy = await self.store.rounds.busy_players(ins, except_league=league.id)
        ins = [u for u in ins if u not in busy]
        teams: list[list[int]] = []
        if league.format == seating.FIXED:
            stand_ins = await self.standby.stand_ins(night) if self.standby is not None else {}
            for t in await self.store.rosters.teams(league.id):
                # a substitute plays on for their team's absent player
                present = [stand_ins.get(m, m) for m in t.members if m in ins or stand_ins.get(m) in ins]
                if present:
                    teams.append(present)
        return ins, teams

    async def _seat(self, league: LeagueRow, night: NightRow, round_no: int) -> seating.Seating | None:
        ruleset = ruleset_of(league)
        settings = settings_of(league)
        players, teams = await self.eligible(league, night)
        if self.playoffs is not None and is_finals(league, night):
            return await self.playoffs.seat(league, night, round_no, players)
        # a league game needs two people at least (one player and three bots is practice)
        if len(players) < 2 or (league.format == seating.FIXED and len(teams) < 2):
            return None
        ratings = {
            u: Rating(r.mu, r.sigma, r.games)
            for u, r in (await self.store.ratings.get(league.guild_id, players)).items()
        }
        history = seating.History()
        for night_id, _rnd, sides in await self.store.rounds.season_pairings(league.id, league.season):
            plan = seating.TablePlan(tuple(tuple(s) for s in sides))
            history.record(seating.Seating((plan,)), tonight=night_id == night.id)
        for n_no, u in await self.store.rounds.season_byes(league.id, league.season):
            history.byes_season[u] += 1
            if n_no == night.number:
                history.byes_tonight[u] += 1
        conservative = {u: r.conservative for u, r in ratings.items()}
        size, width = ruleset.num_seats, team_size(league.format, ruleset)
        try:
            # the night's committed seed (bot.league.seating_proof)
            seated = seating.seat_round(
                players=players,
                teams=teams,
                ratings=conservative,
                table_size=size,
                team_size=width,
                fmt=league.format,
                leftover=settings.leftover,
                history=history,
                seed=seating_proof.seed_for(night, round_no),
                round_no=round_no,
            )
        except seating.SeatingError:
            return None
        # the round's inputs and tables, kept so anyone can recompute them once the seed is revealed
        entry = round_record(
            round_no,
            players=players,
            teams=teams,
            ratings=conservative,
            table_size=size,
            team_size=width,
            fmt=league.format,
            leftover=settings.leftover,
            history=history,
            seating=seated,
        )
        await seating_proof.keep_round(self.store, night, entry)
        return seated

    async def start_night(self, league: LeagueRow, night: NightRow, *, force: bool = False) -> bool:
        """Seat round 1 and open its tables. At the scheduled start (not ``force``, an admin's
        start), fewer players than the league's minimum (two at least) cancel the night, and the
        season gets its week back."""
        players, _teams = await self.eligible(league, night)
        needed = max(2, settings_of(league).min_players)
        plan = None if not force and len(players) < needed else await self._seat(league, night, 1)
        if plan is None:
            if not force:
                closed = await self.store.nights.transition(
                    night.id,
                    ["checkin"],
                    "cancelled",
                    audit=(
                        None,
                        "cancelled",
                        {"reason": "not enough players", "checked_in": len(players)},
                        None,
                    ),
                )
                if closed is not None:
                    await self.checkin.refresh(league, closed, closed=True)
                    schedule, league = await self.checkin.leagues.give_week_back(
                        league, date.fromisoformat(night.night_date)
                    )
                    post = text.night_off(
                        league.name,
                        night.number,
                        checked_in=len(players),
                        needed=needed,
                        last=schedule.last_night if schedule.nights() else None,
                    )
                    await self.gateway.post(league.channel_id, post)
                    await self.events.sync(league)
            return False
        late = settings_of(league).late_minutes
        if late:
            # late check-ins are taken for a while after the start: they join the next round
            until = _unix(utcnow(self.clock) + timedelta(minutes=late))
            note = {"late_until": until}
            await self.store.nights.update_night_data(
                night.id, late_checkin=True, late_until=until, late_note=note
            )
            night.data.update(late_checkin=True, late_until=until, late_note=note)
            await self.checkin.refresh(league, night)
        else:
            await self.checkin.refresh(league, night, closed=True)
        started = await self._start_round(league, night, 1, plan)
        if started:
            await self.events.sync(league)  # the night's event is active from its start
        return started

    async def _start_round(
        self, league: LeagueRow, night: NightRow, round_no: int, plan: seating.Seating
    ) -> bool:
        settings = settings_of(league)
        ruleset = ruleset_of(league)
        ends_at = utcnow(self.clock) + timedelta(minutes=settings.round_minutes)
        tables = await self.store.rounds.start_round(
            night.id,
            round_no,
            tables=[t.sides for t in plan.tables],
            byes=list(plan.byes),
            ends_at=_unix(ends_at),
        )
        if tables is None:
            return False  # someone else seated this round
        late_until = night.data.get("late_until")
        if round_no > 1 and night.data.get("late_checkin") and not late_until:
            # an admin's re-opened check-in lasts until the next round is seated
            await self.store.nights.transition(night.id, ["playing"], "playing", data={"late_checkin": False})
        await self._open_tables(league, night, tables, ruleset)
        fresh = await self.store.rounds.round_tables(night.id, round_no)
        post = text.seating_post(
            league.name,
            night.number,
            round_no,
            self._rounds(league, night),
            [(t.table_no, t.sides, t.channel_id) for t in fresh],
            plan.byes,
            ends_at,
        )
        # the seated players are called to their tables (a ping each; the byes are only named)
        seated = sorted({p for t in fresh for p in t.players})
        await self.gateway.post(league.channel_id, post, users=seated)
        wanted = set(await self.store.rosters.notified(league.id, "seating"))
        for t in fresh:
            mine = [p for p in t.players if p in wanted]
            if mine:
                note = text.dm_seated(league.name, night.number, round_no, t.table_no, t.channel_id)
                await self.checkin.direct(league, mine, note)
        return True

    async def _open_tables(
        self, league: LeagueRow, night: NightRow, tables: Sequence[LeagueTable], ruleset: Ruleset
    ) -> None:
        settings = settings_of(league)
        for lt in tables:
            if lt.table_id is not None:
                continue
            plan = seating.TablePlan(tuple(tuple(s) for s in lt.sides))
            rules = table_ruleset(ruleset, plan.sides)  # a table of three plays cutthroat
            seats = plan.seats(rules.sides)
            try:
                opened = await self.gateway.open_table(
                    guild_id=league.guild_id,
                    channel_id=league.channel_id,
                    title=text.table_title(league.name, night.number, lt.round_no, lt.table_no),
                    seats=seats,
                    ruleset=rules,
                    league_table_id=lt.id,
                    settings={
                        **settings.table_settings,
                        "time_call": settings.time_call,
                        **duplicate.table_settings(settings, night, lt.round_no, ruleset, rules),
                    },
                )
            except Exception:
                log.exception("league %s: opening table %s failed", league.id, lt.id)
                opened = None
            if opened is None:
                if lt.id not in self._told_open_failed:  # once, not at every retry
                    self._told_open_failed.add(lt.id)
                    await self.gateway.tell_admins(
                        league, text.table_not_opened(league.name, lt.round_no, lt.table_no)
                    )
                continue
            channel_id, table_id = opened
            await self.store.rounds.link_table(lt.id, channel_id=channel_id, table_id=table_id)

    async def close_late_checkin(self, league: LeagueRow, night: NightRow, now: datetime) -> None:
        """Late check-in ends ``late_minutes`` after the start: the post's buttons go."""
        until = night.data.get("late_until")
        if not night.data.get("late_checkin") or until is None or now < _utc(int(until)):
            return
        closed = await self.store.nights.transition(
            night.id,
            ["playing"],
            "playing",
            data={"late_checkin": False, "late_until": None, "late_note": ""},
        )
        if closed is not None:
            await self.checkin.refresh(league, closed, closed=True)

    async def advance_round(self, league: LeagueRow, night: NightRow, now: datetime) -> None:
        await self.close_late_checkin(league, night, now)
        round_no = night.round_no
        if round_no == 0:
            return
        info = await self.store.rounds.round_info(night.id, round_no)
        if info is None or info["status"] != "playing":
            # the round finished but the next one was not seated (a crash in between)
            await self._after_round(league, night, round_no)
            return
        tables = await self.store.rounds.round_tables(night.id, round_no)
        # tables not opened yet (a crash right after seating, or Discord refused): retry
        pending = [t for t in tables if t.table_id is None and t.status == "seated"]
        if pending:
            await self._open_tables(league, night, pending, ruleset_of(league))
            tables = await self.store.rounds.round_tables(night.id, round_no)
        # results of games that ended while we were not listening
        for t in tables:
            if t.status == "playing" and t.table_id is not None:
                outcome = await self.gateway.table_outcome(t.table_id)
                if outcome is not None:
                    await self._record(t, outcome)
        timed_out = info["ends_at"] is not None and now >= _utc(info["ends_at"])
        if self.standby is not None and not timed_out:
            await self.standby.watch(
                league, night, await self.store.rounds.round_tables(night.id, round_no), now
            )
        if timed_out:
            # time is up: with the league's time call the hand in progress is each table's last
            # (its result comes when it ends: the round waits for it); "as it stands" stops it now
            time_call = settings_of(league).time_call
            for t in await self.store.rounds.round_tables(night.id, round_no):
                if t.status != "playing" or t.table_id is None:
                    continue
                outcome = await self.gateway.call_time(t.table_id, time_call)
                if outcome is not None:
                    await self._record(t, outcome)
        tables = await self.store.rounds.round_tables(night.id, round_no)
        if all(t.status in ("finished", "void") for t in tables) or (
            timed_out and not any(t.status == "playing" for t in tables)
        ):
            await self._finish_round(league, night, round_no, timed_out=timed_out)

    async def _record(self, lt: LeagueTable, outcome: TableOutcome) -> bool:
        recorded = await self.store.rounds.record_result(
            lt.id,
            scores=outcome.scores,
            bags=outcome.bags,
            winner_side=outcome.winner_side,
            complete=outcome.complete,
            game_id=outcome.game_id,
            seats=outcome.seats,
        )
        if recorded and self.standby is not None:
            await self.standby.after_result(lt, outcome)
        return recorded

    async def game_finished(self, table_id: int, outcome: TableOutcome) -> None:
        """The table machinery's callback: a league table's game is over."""
        lt = await self.store.rounds.league_table_for(table_id)
        if lt is None or lt.status == "void":
            return
        async with self.pulse.lock:
            if await self._record(lt, outcome):
                night = await self.store.nights.get_night(lt.night_id)
                if night is None:
                    return
                league = await self.store.rosters.get_league(night.league_id)
                if league is None:
                    return
                await self.advance_round(league, night, utcnow(self.clock))

    async def _finish_round(
        self, league: LeagueRow, night: NightRow, round_no: int, *, timed_out: bool
    ) -> None:
        if not await self.store.rounds.finish_round(night.id, round_no):
            return
        night_results = await self.store.rounds.night_results(night.id)
        results = [r for r in night_results if r.round_no == round_no]
        more_rounds = round_no < self._rounds(league, night)
        if more_rounds or len(results) != len(night_results):
            post = text.round_results(
                league.name, night.number, round_no, results, more_rounds=more_rounds, timed_out=timed_out
            )
            await self.gateway.post(league.channel_id, post)
        # else the night's one round: the night's results that follow say the same lines, once
        await self._after_round(league, night, round_no)

    def _rounds(self, league: LeagueRow, night: NightRow) -> int:
        if self.playoffs is not None and is_finals(league, night):
            return self.playoffs.rounds(league)
        return settings_of(league).rounds

    async def _after_round(self, league: LeagueRow, night: NightRow, round_no: int) -> None:
        if round_no < self._rounds(league, night):
            plan = await self._seat(league, night, round_no + 1)
            if plan is not None and await self._start_round(league, night, round_no + 1, plan):
                return
            if plan is not None:
                return  # another caller seated it
        await self._finish_night(league, night)

    async def _finish_night(self, league: LeagueRow, night: NightRow) -> None:
        done = await self.store.nights.transition(night.id, ["playing"], "finished")
        if done is None:
            return
        await self.checkin.refresh(league, done, closed=True)  # the night's buttons go
        results = await self.store.rounds.night_results(night.id)
        key = seating_proof.revealed(done)
        reveal = proof_text.reveal_line(key.seed, key.salt) if key is not None else ""
        mp = (
            await duplicate.Duplicate(self.store).matchpoints(league, night.season, night.id)
            if settings_of(league).duplicate
            else None
        )
        await self.gateway.post(
            league.channel_id,
            text.night_results(league.name, night.number, results, footer=reveal, matchpoints=mp),
        )
        await self.gateway.post(league.channel_id, await self.results.standings_text(league))
        fresh = await self.store.rosters.get_league(league.id)
        if fresh is not None:
            league = fresh
        await self.events.sync(league)
        self.pulse.poke()
