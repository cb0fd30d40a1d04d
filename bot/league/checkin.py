"""Check-in to a league night: the check-in post, the players' answers, reopening it."""

from __future__ import annotations

import logging
from datetime import date

from bot.i18n import ListOf, Text, _, join
from bot.render import league as text
from bot.render import playoffs as playoffs_text
from bot.render import seating_proof as proof_text
from bot.storage.leagues import LeagueError, LeagueRow, LeagueStore, NightRow

from . import schedule as sch
from . import seating, seating_proof
from .core import Leagues, Pulse, ruleset_of, schedule_of, settings_of
from .finals import is_finals
from .gateway import LeagueGateway, LeagueRefusal, _utc

log = logging.getLogger(__name__)

NUDGE_BATCH = 40  # mentions per nudge post (a post is 2,000 characters at most)


class Checkin:
    """Check-in: open it, record each player's answer, keep the post up to date."""

    def __init__(self, store: LeagueStore, gateway: LeagueGateway, leagues: Leagues, pulse: Pulse) -> None:
        self.store = store
        self.gateway = gateway
        self.leagues = leagues
        self.pulse = pulse

    async def check_in(
        self, night_id: int, user_id: int, *, coming: bool = True, guild_id: int | None = None
    ) -> Text:
        """A player's Check in / Can't make it click; returns the confirmation text. With
        ``guild_id`` (the click's server), a night of another server's league is refused before
        anything else is read or written."""
        async with self.pulse.lock:
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
            if night.status == "playing" and not night.data.get("late_checkin"):
                raise LeagueRefusal(
                    _(
                        "Check-in closed at %(time)s: the night has started. "
                        "Ask an admin to re-open check-in; you'd join the next round.",
                        time=text.ts(night.starts_at, "t"),
                    )
                )
            member = await self.store.rosters.member(league.id, user_id)
            if member is None or member.status != "active":
                if not coming:
                    raise LeagueRefusal(
                        _(
                            "You're not signed up for **%(league)s**, so there's nothing to cancel.",
                            league=league.name,
                        )
                    )
                if league.format == seating.FIXED and ruleset_of(league).team_size == 3:
                    raise LeagueRefusal(
                        _(
                            "**%(league)s** plays in fixed teams of three: sign up with your two partners"
                            " (`/league invite`) first.",
                            league=league.name,
                        )
                    )
                if league.format == seating.FIXED:
                    raise LeagueRefusal(
                        _(
                            "**%(league)s** plays in fixed teams: sign up with a partner (`/league"
                            " invite`) first.",
                            league=league.name,
                        )
                    )
                try:
                    await self.store.rosters.sign_up(league.id, user_id)
                except LeagueError as exc:
                    raise LeagueRefusal.of(exc) from None
            if coming and league.format == seating.FIXED:
                await self._refuse_without_a_team(league, user_id)
            if coming:
                busy = await self.store.rounds.busy_players([user_id], except_league=league.id)
                if busy:
                    other = await self.store.rosters.get_league(busy[user_id])
                    if other is None:
                        raise LeagueRefusal(
                            _("You're seated at a table of another league right now; finish that game first.")
                        )
                    raise LeagueRefusal(
                        _(
                            "You're seated at a table of **%(league)s** right now; finish that game first.",
                            league=other.name,
                        )
                    )
            try:
                await self.store.nights.check_in(night_id, user_id, "in" if coming else "out")
            except LeagueError as exc:
                raise LeagueRefusal.of(exc) from None
            await self.refresh(league, night)
        return text.checked_in(league.name, night.starts_at, coming=coming, playing=night.status == "playing")

    async def _refuse_without_a_team(self, league: LeagueRow, user_id: int) -> None:
        """In a fixed-partner league only a complete team is seated: a member whose team dissolved
        (a partner declined or was removed) or still waits for an accept would check in and then
        sit out every round without a word."""
        team = await self.leagues.team_of(league, user_id)
        if team is not None and team.status == "active":
            return
        if team is not None and team.invited:
            raise LeagueRefusal(
                _(
                    "Your team **%(team)s** isn't complete yet: waiting for %(players)s to accept the"
                    " invite (`/league accept`). Check in once it is complete.",
                    team=team.name,
                    players=ListOf(tuple(text.mention(u) for u in team.invited)),
                )
            )
        raise LeagueRefusal(
            _(
                "You have no team in **%(league)s** now (it plays in fixed teams), so you couldn't be"
                " seated: form a team with `/league invite` first.",
                league=league.name,
            )
        )

    async def refresh(self, league: LeagueRow, night: NightRow, *, closed: bool = False) -> None:
        message_id = night.data.get("checkin_message_id")
        if not message_id:
            return
        content = await self.post_text(league, night, closed=closed)
        if closed:
            playing = night.status in ("checkin", "playing")
        else:
            playing = night.status == "playing" or bool(night.data.get("late_checkin"))
        try:
            await self.gateway.edit_checkin(
                int(night.data.get("checkin_channel_id") or league.channel_id),
                int(message_id),
                night.id,
                content,
                closed=closed,
                playing=playing,
            )
        except Exception:
            log.warning("league %s: could not edit the check-in message", league.id, exc_info=True)

    async def post_text(
        self, league: LeagueRow, night: NightRow, *, closed: bool = False, late_note: str = ""
    ) -> Text:
        """The check-in post; ``late_note`` is a code of ``bot.render.league.NOTES`` (else the night's
        own note)."""
        answers = await self.store.nights.checkins(night.id)
        schedule = schedule_of(league)
        entry = sch.Night(
            night.number,
            date.fromisoformat(night.night_date),
            _utc(night.starts_at).astimezone(schedule.zone),
        )
        post = text.checkin_post(
            league.name,
            entry,
            _utc(night.starts_at),
            [u for u, s in answers.items() if s == "in"],
            cant=[u for u, s in answers.items() if s == "out"],
            standby=await self.store.attendance.standbys(night.id),
            late_note=text.late_note_text(late_note or night.data.get("late_note", "")),
            role_id=settings_of(league).role_id,
            closed=closed,
        )
        short = seating_proof.short_commitment(night)
        if short and isinstance(post, text.LinesWithin):
            # the commitment to the night's seating seed (bot.league.seating_proof)
            proof = proof_text.commitment_line(short)
            foot = join(post.footer, proof, sep="\n") if post.footer else proof
            post = text.lines_within(post.header, post.lines, foot, post.limit)
        if is_finals(league, night) and isinstance(post, text.LinesWithin):
            # the playoffs' finals night (bot.league.playoffs) says so first, within the post's limit
            head = join(playoffs_text.finals_banner(), post.header, sep="\n")
            return text.lines_within(head, post.lines, post.footer, post.limit)
        return post

    async def open(self, league: LeagueRow, night: NightRow, *, note: str = "") -> NightRow | None:
        opened = await self.store.nights.transition(
            night.id,
            ["scheduled"],
            "checkin",
            data={
                **({"late_note": note} if note else {}),
                # the seating seed's commitment (a finals night's bracket is set by the standings)
                **({} if is_finals(league, night) else seating_proof.new_key_data()),
            },
        )
        if opened is None:
            return None
        settings = settings_of(league)
        content = await self.post_text(league, opened, late_note=note)
        msg = await self.gateway.post_checkin(league.channel_id, opened.id, content, role_id=settings.role_id)
        if msg:
            await self.store.nights.update_night_data(
                opened.id, checkin_message_id=msg, checkin_channel_id=league.channel_id
            )
            opened.data.update(checkin_message_id=msg, checkin_channel_id=league.channel_id)
        await self._nudge_interested(league, opened)
        wanted = set(await self.store.rosters.notified(league.id, "checkin"))
        answered = await self.store.nights.checkins(opened.id)
        await self.direct(
            league,
            [u for u in sorted(wanted) if u not in answered],
            text.dm_checkin(league.name, opened.number, opened.starts_at, league.channel_id),
        )
        # before the night: the organiser hears what is missing for a thread per table
        missing = await self.gateway.missing_thread_permissions(league.channel_id)
        if missing:
            await self.gateway.tell_admins(
                league, text.no_threads(league.name, league.channel_id, missing, opened.starts_at)
            )
        return opened

    async def direct(self, league: LeagueRow, users: list[int], content: Text) -> None:
        """Opt-in direct messages; the ones that bounce are named in the league channel (no ping)."""
        failed = [u for u in users if not await self.gateway.dm(league.guild_id, u, content)]
        if failed:
            await self.gateway.post(league.channel_id, text.dm_undelivered(failed))

    async def set_notify(self, league: LeagueRow, user_id: int, notify: str) -> Text:
        """``/league me notify:``: which direct messages a member gets; a test message says at once
        whether their DMs are open."""
        if not await self.store.rosters.set_notify(league.id, user_id, notify):
            raise LeagueRefusal(
                _(
                    "You're not on **%(league)s**'s roster: sign up first (`/league signup`).",
                    league=league.name,
                )
            )
        delivered = True
        if notify != "off":
            delivered = await self.gateway.dm(
                league.guild_id, user_id, text.notify_set(league.name, notify, delivered=True)
            )
        return text.notify_set(league.name, notify, delivered=delivered)

    async def _nudge_interested(self, league: LeagueRow, night: NightRow) -> None:
        """Members who marked the night's Discord event "Interested" and have not checked in get
        one ping when check-in opens (read from the event through the API; once per night)."""
        event_id = league.settings.get("event_id")
        if event_id is None or league.settings.get("event_night") != night.night_date:
            return
        if night.data.get("nudged"):
            return
        await self.store.nights.update_night_data(night.id, nudged=True)
        try:
            interested = await self.gateway.event_users(league, int(event_id))
        except Exception:
            log.warning("league %s: reading the event's interested members failed", league.id, exc_info=True)
            return
        answered = await self.store.nights.checkins(night.id)
        due = [u for u in dict.fromkeys(interested) if u not in answered]
        for i in range(0, len(due), NUDGE_BATCH):
            batch = due[i : i + NUDGE_BATCH]
            await self.gateway.post(
                league.channel_id, text.interested_nudge(league.name, night.number, batch), users=batch
            )

    async def reopen(self, league: LeagueRow, actor_id: int) -> Text:
        night = await self.leagues.open_night(league)
        if night is None:
            raise LeagueRefusal(_("No night is under way: check-in opens by itself before the next one."))
        if night.status == "checkin":
            raise LeagueRefusal(_("Check-in is already open."))
        await self.store.nights.transition(
            night.id,
            ["playing"],
            "playing",
            data={"late_checkin": True},
            audit=(actor_id, "reopen_checkin", {}, None),
        )
        msg = await self.gateway.post_checkin(
            league.channel_id,
            night.id,
            await self.post_text(league, night, late_note="reopened"),
            role_id=None,
        )
        if msg:
            await self.store.nights.update_night_data(
                night.id, checkin_message_id=msg, checkin_channel_id=league.channel_id
            )
        return text.checkin_reopened()
