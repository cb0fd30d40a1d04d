"""Attendance during a league night: checking out, no-shows, standby players and substitutes.

- "I'm out for tonight" (check-out) works at any time of the night: the player is out for the
  rest of it, the bot plays their seat and the first standby is offered it.
- A player who has not played a card or bid themselves ``miss_minutes`` into a round, or whose
  seat a bot (or a substitute) played for most of a game, is a no-show: out for the rest of the
  night, counted for the season, and off the roster after ``drop_after`` of them when the league
  says so (``bot.league.attendance.AttendanceRule``).
- "I'll sub" puts a member on the night's standby list. When a seated player is away or out, the
  first standby gets a "Take this seat" offer in the table's thread; whoever on the list clicks
  first takes the seat for the rest of that game and, unless the player returns (checks in again),
  for the rest of the night. ``/league admin sub`` lasts the night the same way.

Everything is stored (``store.attendance``, the night's data), so a restart loses nothing.
"""

from __future__ import annotations

import contextlib
import logging
from datetime import datetime

from bot.clock import Clock
from bot.i18n import Text, _
from bot.render import league as text
from bot.storage.league_attendance import CHECKED_OUT, NO_SHOW
from bot.storage.leagues import LeagueError, LeagueRow, LeagueStore, LeagueTable, NightRow

from . import attendance, seating
from .core import Pulse, settings_of
from .gateway import LeagueGateway, LeagueRefusal, SeatState, TableOutcome, _unix

log = logging.getLogger(__name__)

#: the night's data key of the players a substitute replaced, who have not come back
SUBBED_OUT = "subbed_out"
#: the night's data key of the seats offered to a standby ("<league table>:<player>": standby)
OFFERS = "offers"


class Standby:
    """Check-outs, no-shows, the standby list and substitutes of league nights."""

    def __init__(self, store: LeagueStore, gateway: LeagueGateway, clock: Clock, *, pulse: Pulse) -> None:
        self.store = store
        self.gateway = gateway
        self.clock = clock
        self.pulse = pulse

    # ---- who is seated ---------------------------------------------------------------------------

    async def seatable(self, night: NightRow, checked_in: list[int]) -> list[int]:
        """Of the checked-in players, those who may be seated now, and the substitutes who play on
        for a player who has not come back: nobody out for the night is seated again."""
        absent = await self.store.attendance.absences(night.id)
        away = set(night.data.get(SUBBED_OUT) or [])
        out = [u for u in checked_in if u not in absent and u not in away]
        for sub in await self.store.attendance.night_subs(night.id):
            gone = sub.out_id in absent or sub.out_id in away
            if gone and sub.in_id not in absent and sub.in_id not in out and sub.in_id not in away:
                out.append(sub.in_id)
        return out

    async def stand_ins(self, night: NightRow) -> dict[int, int]:
        """{absent player: the substitute who plays on for them tonight}."""
        absent = await self.store.attendance.absences(night.id)
        away = set(night.data.get(SUBBED_OUT) or [])
        out: dict[int, int] = {}
        for sub in await self.store.attendance.night_subs(night.id):
            if (sub.out_id in absent or sub.out_id in away) and sub.in_id not in absent:
                out[sub.out_id] = sub.in_id
        return out

    # ---- the players' buttons --------------------------------------------------------------------

    async def night_of(self, night_id: int, guild_id: int | None) -> tuple[LeagueRow, NightRow]:
        night = await self.store.nights.get_night(night_id)
        if night is None:
            raise LeagueRefusal(_("This league night no longer exists."))
        league = await self.store.rosters.get_league(night.league_id)
        if league is not None and guild_id is not None and league.guild_id != guild_id:
            raise LeagueRefusal(
                _("That league night belongs to another server: check in from that server's post.")
            )
        if league is None or league.status == "archived":
            raise LeagueRefusal(_("This league no longer exists."))
        return league, night

    async def volunteer(self, night_id: int, user_id: int, *, guild_id: int | None = None) -> Text:
        """ "I'll sub": on the night's standby list (before or during the night)."""
        async with self.pulse.lock:
            league, night = await self.night_of(night_id, guild_id)
            if night.status not in ("checkin", "playing"):
                raise LeagueRefusal(_("This night is not taking standby players now."))
            if user_id in await self.store.attendance.absences(night.id):
                raise LeagueRefusal(_("You're out for tonight, so you can't sub tonight."))
            answers = await self.store.nights.checkins(night.id)
            if answers.get(user_id) == "in" and user_id not in (night.data.get(SUBBED_OUT) or []):
                raise LeagueRefusal(
                    _("You're checked in to play tonight; a standby only plays when a seat is free.")
                )
            busy = await self.store.rounds.busy_players([user_id])
            if busy:
                raise LeagueRefusal(_("You're seated at a league table right now; finish that game first."))
            if not await self.store.attendance.volunteer(night.id, user_id):
                raise LeagueRefusal(_("You're already on tonight's standby list."))
            if night.status == "playing":
                await self._offer_open_seats(league, night)
        return _(
            "You're on tonight's standby list for **%(league)s**: when a seat frees up, you'll be"
            " pinged with a **Take this seat** button.",
            league=league.name,
        )

    async def withdraw(self, night_id: int, user_id: int) -> bool:
        """Off the standby list (the player checked in to play, or is not coming)."""
        return await self.store.attendance.withdraw(night_id, user_id)

    async def check_out(self, night_id: int, user_id: int, *, guild_id: int | None = None) -> Text:
        """ "I'm out for tonight" once the night is under way: out for the rest of it; at a live
        table the bot plays the seat and the first standby is offered it."""
        async with self.pulse.lock:
            league, night = await self.night_of(night_id, guild_id)
            if night.status != "playing":
                raise LeagueRefusal(_("This night is not under way."))
            standbys = await self.store.attendance.standbys(night.id)
            answers = await self.store.nights.checkins(night.id)
            seated = await self._seat_of(night, user_id)
            if user_id in await self.store.attendance.absences(night.id):
                raise LeagueRefusal(_("You're already out for tonight."))
            if seated is None and answers.get(user_id) != "in" and user_id not in standbys:
                raise LeagueRefusal(_("You're not playing tonight, so there's nothing to check out of."))
            await self.store.attendance.mark_absent(
                night.id,
                user_id,
                CHECKED_OUT,
                round_no=night.round_no,
                league_table_id=seated.id if seated else None,
                league_id=league.id,
            )
            if seated is not None and seated.table_id is not None:
                await self.gateway.release_seat(seated.table_id, user_id)
                await self.offer(league, night, seated, user_id)
        if seated is not None:
            return _(
                "You're out for tonight: the bot plays your seat, and a standby can take it over."
                " You won't be seated again tonight."
            )
        return _("You're out for tonight: you won't be seated again tonight.")

    async def come_back(self, night: NightRow, user_id: int) -> bool:
        """A player a substitute replaced checks in again: seated from the next round (the
        substitute finishes the game). False when they were not replaced."""
        away = list(night.data.get(SUBBED_OUT) or [])
        if user_id not in away:
            return False
        away.remove(user_id)
        await self.store.nights.update_night_data(night.id, **{SUBBED_OUT: away})
        night.data[SUBBED_OUT] = away
        # their substitute finishes the game at hand, then is a standby again
        for sub in await self.store.attendance.night_subs(night.id):
            if sub.out_id == user_id:
                await self.store.attendance.volunteer(night.id, sub.in_id)
        return True

    async def _seat_of(self, night: NightRow, user_id: int) -> LeagueTable | None:
        if night.round_no == 0:
            return None
        for lt in await self.store.rounds.round_tables(night.id, night.round_no):
            if lt.status in ("seated", "playing") and user_id in lt.players:
                return lt
        return None

    # ---- standby offers --------------------------------------------------------------------------

    async def offer(self, league: LeagueRow, night: NightRow, lt: LeagueTable, out_id: int) -> bool:
        """Offer ``out_id``'s seat to the first standby free to take it (once per seat); True if
        an offer was posted."""
        key = f"{lt.id}:{out_id}"
        fresh = await self.store.nights.get_night(night.id)
        offers = dict((fresh or night).data.get(OFFERS) or {})
        if key in offers or lt.channel_id is None or lt.status != "playing":
            return False
        absent = await self.store.attendance.absences(night.id)
        candidates = [u for u in await self.store.attendance.standbys(night.id) if u not in absent]
        busy = await self.store.rounds.busy_players(candidates)
        free = [u for u in candidates if u not in busy and u not in lt.players]
        if not free:
            return False
        standby = free[0]
        content = text.seat_offer(standby, out_id, lt.table_no)
        msg = await self.gateway.offer_seat(lt.channel_id, lt.id, out_id, standby, content)
        if msg is None:
            return False
        offers[key] = standby
        await self.store.nights.update_night_data(night.id, **{OFFERS: offers})
        night.data[OFFERS] = offers
        return True

    async def _offer_open_seats(self, league: LeagueRow, night: NightRow) -> None:
        """A new standby: the seats of absent players nobody has been offered yet."""
        if night.round_no == 0:
            return
        for lt in await self.store.rounds.round_tables(night.id, night.round_no):
            if lt.status != "playing" or lt.table_id is None:
                continue
            states = await self.gateway.seat_states(lt.table_id) or {}
            for uid in lt.players:
                state = states.get(uid)
                if state is not None and state.absent:
                    await self.offer(league, night, lt, uid)

    async def take_seat(
        self, league_table_id: int, out_id: int, user_id: int, *, guild_id: int | None = None
    ) -> Text:
        """A standby's "Take this seat" click: the first click of a standby wins the seat."""
        async with self.pulse.lock:
            lt = await self.store.rounds.league_table(league_table_id)
            if lt is None:
                raise LeagueRefusal(_("That table no longer exists."))
            league, night = await self.night_of(lt.night_id, guild_id)
            if night.status != "playing" or lt.status != "playing" or lt.table_id is None:
                raise LeagueRefusal(_("That game is over: the seat is no longer free."))
            if user_id in lt.players:
                raise LeagueRefusal(_("You're already playing at this table."))
            if out_id not in lt.players:
                raise LeagueRefusal(_("Someone already took that seat."))
            if user_id not in await self.store.attendance.standbys(night.id):
                raise LeagueRefusal(
                    _(
                        "Only tonight's standby players can take a seat: press **I'll sub** on the"
                        " check-in post first."
                    )
                )
            if await self.store.rounds.busy_players([user_id]):
                raise LeagueRefusal(_("You're seated at a league table right now; finish that game first."))
            states = await self.gateway.seat_states(lt.table_id) or {}
            state = states.get(out_id)
            if state is None:
                raise LeagueRefusal(_("That game is over: the seat is no longer free."))
            if not state.absent:
                raise LeagueRefusal(
                    _("%(user)s is back at the table: the seat is not free.", user=text.mention(out_id))
                )
            await self._swap(league, night, lt, out_id, user_id, state, actor_id=user_id, by_admin=False)
        return _(
            "You took the seat at table %(n)s: your hand is the seat's hand (open it with **My hand** on"
            " the table). You play for the rest of the night unless %(user)s comes back.",
            n=lt.table_no,
            user=text.mention(out_id),
        )

    async def _swap(
        self,
        league: LeagueRow,
        night: NightRow,
        lt: LeagueTable,
        out_id: int,
        in_id: int,
        state: SeatState,
        *,
        actor_id: int,
        by_admin: bool,
        reason: str | None = None,
    ) -> bool:
        """Put ``in_id`` in ``out_id``'s seat: the league's records, then the live table. False when
        the game ended meanwhile (only the records changed)."""
        try:
            await self.store.rounds.substitute(
                lt.id, out_id, in_id, league_id=league.id, actor_id=actor_id, reason=reason
            )
        except LeagueError as exc:
            raise LeagueRefusal.of(exc) from None
        await self.store.attendance.add_sub(
            lt.id, night.id, out_id, in_id, acts_at=state.acts, auto_at=state.auto, by_admin=by_admin
        )
        await self.replaced(night, out_id)
        if await self.store.rosters.member(league.id, in_id) is None and league.format != seating.FIXED:
            with contextlib.suppress(LeagueError):
                await self.store.rosters.sign_up(league.id, in_id, actor_id=actor_id)
        assert lt.table_id is not None
        return await self.gateway.substitute(lt.table_id, out_id, in_id, guild_id=league.guild_id)

    async def replaced(self, night: NightRow, out_id: int) -> None:
        """``out_id``'s substitute plays on for them, the rest of the night, until they check in again."""
        fresh = await self.store.nights.get_night(night.id)
        away = list((fresh or night).data.get(SUBBED_OUT) or [])
        if out_id not in away:
            away.append(out_id)
            await self.store.nights.update_night_data(night.id, **{SUBBED_OUT: away})
        night.data[SUBBED_OUT] = away

    async def record_sub(
        self,
        league: LeagueRow,
        night: NightRow,
        lt: LeagueTable,
        out_id: int,
        in_id: int,
        state: SeatState | None,
    ) -> None:
        """An admin's ``/league admin sub`` (already written to the table's seats): kept for the night."""
        await self.store.attendance.add_sub(
            lt.id,
            night.id,
            out_id,
            in_id,
            acts_at=state.acts if state else 0,
            auto_at=state.auto if state else 0,
            by_admin=True,
        )
        await self.replaced(night, out_id)

    # ---- the clock and the results ---------------------------------------------------------------

    async def watch(
        self, league: LeagueRow, night: NightRow, tables: list[LeagueTable], now: datetime
    ) -> None:
        """At each tick of a round: players who missed the first minutes of it are no-shows (the bot
        plays for them), and every absent player's seat is offered to a standby."""
        rule = settings_of(league).attendance
        info = await self.store.rounds.round_info(night.id, night.round_no)
        if info is None or info["status"] != "playing":
            return
        round_start = None
        if info["ends_at"] is not None:
            round_start = int(info["ends_at"]) - settings_of(league).round_minutes * 60
        subs_in = {s.in_id for s in await self.store.attendance.night_subs(night.id)}
        absent = await self.store.attendance.absences(night.id)
        late = (
            rule.miss_minutes > 0
            and rule.no_show != attendance.OFF
            and round_start is not None
            and _unix(now) >= round_start + rule.miss_minutes * 60
        )
        for lt in tables:
            if lt.status != "playing" or lt.table_id is None:
                continue
            states = await self.gateway.seat_states(lt.table_id)
            if not states:
                continue
            for uid in lt.players:
                state = states.get(uid)
                if state is None:
                    continue
                missed = late and uid not in absent and uid not in subs_in and state.own == 0
                if missed and await self.store.attendance.mark_absent(
                    night.id, uid, NO_SHOW, round_no=lt.round_no, league_table_id=lt.id, league_id=league.id
                ):
                    absent = await self.store.attendance.absences(night.id)
                    if not state.absent:
                        await self.gateway.release_seat(lt.table_id, uid)
                    state = SeatState(state.acts, state.auto, True)
                    await self._maybe_drop(league, uid)
                if state.absent:
                    await self.offer(league, night, lt, uid)

    async def after_result(self, lt: LeagueTable, outcome: TableOutcome) -> None:
        """A recorded result: its no-shows (seats mostly played by someone else) are out for the rest
        of the night and counted."""
        night = await self.store.nights.get_night(lt.night_id)
        if night is None:
            return
        league = await self.store.rosters.get_league(night.league_id)
        if league is None:
            return
        rule = settings_of(league).attendance
        if rule.no_show == attendance.OFF or not outcome.seats:
            return
        subs = [s for s in await self.store.attendance.night_subs(night.id) if s.league_table_id == lt.id]
        fresh = await self.store.rounds.league_table(lt.id) or lt
        played = attendance.credit(fresh.sides, outcome.seats, subs, rule)
        for uid in sorted(played.no_shows):
            if await self.store.attendance.mark_absent(
                night.id, uid, NO_SHOW, round_no=lt.round_no, league_table_id=lt.id, league_id=league.id
            ):
                await self._maybe_drop(league, uid)

    async def _maybe_drop(self, league: LeagueRow, user_id: int) -> None:
        """The league's optional rule: a player off the roster after ``drop_after`` no-shows."""
        rule = settings_of(league).attendance
        if not rule.drop_after:
            return
        count = (await self.store.attendance.season_no_shows(league.id, league.season)).get(user_id, 0)
        if count < rule.drop_after or await self.store.rosters.member(league.id, user_id) is None:
            return
        try:
            # (actor 0: the bot; only an admin brings the player back, /league admin add)
            await self.store.rosters.remove_member(league.id, user_id, actor_id=0, reason=None)
        except LeagueError:
            return
        await self.store.audit.add(
            league.id, actor_id=None, action="dropped", detail={"user": user_id, "no_shows": count}
        )
        await self.gateway.post(league.channel_id, text.dropped_after_no_shows(league.name, user_id, count))

    async def no_shows(self, league: LeagueRow) -> dict[int, int]:
        """The season's no-shows per player (for the admins' view)."""
        return await self.store.attendance.season_no_shows(league.id, league.season)
