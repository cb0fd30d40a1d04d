"""Seating: join, leave (before and during a game), bots in empty seats, coming back.

Every change goes through ``TableStore.commit`` under the table's lock.
"""

from __future__ import annotations

from bot.i18n import N_, ButtonName, Text, _, mention
from bot.model import BOT_NAMES, CLOSED, LIVE, NO_TABLE, Offer, Result, Seat, Table, ok, refuse
from bot.table.publisher import TablePublisher
from bot.table.store import TableStore


def seat_list(seats: list[int]) -> Text:
    return ", ".join(str(s + 1) for s in seats) or _("none")


def bot_seat(t: Table, seat: int) -> Seat:
    used = {s.name for s in t.seats if s is not None and s.bot}
    name = next((n for n in BOT_NAMES[seat:] + BOT_NAMES[:seat] if n not in used), f"Bot {seat + 1}")
    return Seat(None, name, bot=True)


def team_note(t: Table, seat: int) -> Text:
    partner = t.ruleset.partner_of(seat)
    if partner is None:
        return ""
    team = t.ruleset.side_of(seat) + 1
    if t.seats[partner] is None:
        return _(" (team %(team)s, partner: an empty seat)", team=team)
    return _(" (team %(team)s, partner: %(who)s)", team=team, who=t.label(partner))


class Seating:
    """Who sits where, before and during a game."""

    def __init__(self, store: TableStore, publisher: TablePublisher) -> None:
        self.store = store
        self.publisher = publisher

    async def join(
        self,
        channel_id: int,
        user_id: int,
        name: str,
        *,
        seat: int | None = None,
        team: int | None = None,
        table_id: int | None = None,
    ) -> Result:
        found = await self.store.find(table_id, channel_id)
        if isinstance(found, Result):
            return found
        async with self.store.lock(found.id):
            t = self.store.get(found.id) or found
            if t.status not in LIVE:
                return refuse("closed", CLOSED)
            if t.status != "open":
                mine = t.seat_of(user_id)
                if mine is not None and (t.seats[mine] or Seat(None, "")).left:
                    return await self.take_back(
                        t, mine, _("Welcome back! Seat %(n)s is yours again.", n=mine + 1)
                    )
                if mine is not None:
                    return refuse(
                        "already_seated",
                        _("You're already playing at this table."),
                        show_hand=t.status == "playing",
                    )
                return refuse(
                    "already_started",
                    _("This game has already started. You can watch, and join the next one."),
                )
            current = t.seat_of(user_id)
            empty = t.empty_seats()
            if seat is not None:
                if not 1 <= seat <= t.num_seats:
                    return refuse("seat_range", _("Seats are numbered 1 to %(n)s.", n=t.num_seats))
                if t.seats[seat - 1] is not None and seat - 1 != current:
                    return refuse(
                        "seat_taken",
                        _(
                            "Seat %(n)s is taken by %(who)s. Free seats: %(free)s.",
                            n=seat,
                            who=t.label(seat - 1),
                            free=seat_list(empty),
                        ),
                    )
                want = seat - 1
            elif team is not None:
                sides = t.ruleset.sides
                if not 1 <= team <= len(sides):
                    return refuse("team_range", _("Teams are numbered 1 to %(n)s.", n=len(sides)))
                free = [s for s in sides[team - 1] if t.seats[s] is None]
                if current is not None and current in sides[team - 1]:
                    return refuse("already_on_team", _("You're already on team %(team)s.", team=team))
                if not free:
                    return refuse(
                        "team_full",
                        _("Team %(team)s is full. Free seats: %(free)s.", team=team, free=seat_list(empty)),
                    )
                want = free[0]
            else:
                if current is not None:
                    return refuse(
                        "already_seated", _("You're already at this table (seat %(n)s).", n=current + 1)
                    )
                if not empty:
                    return refuse("table_full", _("This table is full (%(n)s/%(n)s).", n=t.num_seats))
                want = empty[0]
            if current == want:
                return refuse("already_in_seat", _("You're already in seat %(n)s.", n=want + 1))
            new = t.copy()
            moved = new.seats[current] if current is not None else None
            if current is not None:
                new.seats[current] = None
            new.seats[want] = moved or Seat(user_id, name)
            if moved is not None:
                moved.name = name
            refusal = await self.store.commit(t, new)
            if refusal:
                return refusal
            note = team_note(new, want)
            if current is not None:
                return ok(_("You moved to seat %(n)s%(team)s.", n=want + 1, team=note), table=new)
            return ok(_("You took seat %(n)s%(team)s.", n=want + 1, team=note), table=new)

    async def leave(
        self, channel_id: int, user_id: int, *, table_id: int | None = None, confirmed: bool = False
    ) -> Result:
        """Leave a seat. Before the start the seat is free again (a leaving host hands the table to
        the next human, or closes it); during a game the bot plays the seat until the player comes
        back (after a confirmation: the answer's ``Offer("leave")`` asks for it)."""
        found = await self.store.find(table_id, channel_id)
        if isinstance(found, Result):
            return found
        async with self.store.lock(found.id):
            t = self.store.get(found.id) or found
            seat = t.seat_of(user_id)
            if t.status not in ("open", "playing"):
                return refuse("closed", CLOSED)
            if seat is None:
                return refuse("not_seated", _("You're not seated at this table."))
            if t.status == "playing":
                return await self._leave_game(t, seat, user_id, confirmed=confirmed)
            new = t.copy()
            new.seats[seat] = None
            if user_id == t.host_id:
                # the next human after the host's seat, round the table
                others = sorted(new.humans(), key=lambda u: ((new.seat_of(u) or 0) - seat) % new.num_seats)
                if not others:
                    new.status = "abandoned"
                    refusal = await self.store.commit(t, new)
                    if refusal:
                        return refusal
                    return ok(_("You left and the table is closed (nobody else was seated)."))
                new.host_id = others[0]
            refusal = await self.store.commit(t, new)
            if refusal:
                return refusal
            if user_id == t.host_id:
                host = new.label(new.seat_of(new.host_id) or 0)
                return ok(_("You left seat %(n)s. %(host)s is the host now.", n=seat + 1, host=host))
            return ok(_("You left seat %(n)s.", n=seat + 1))

    async def _leave_game(self, t: Table, seat: int, user_id: int, *, confirmed: bool) -> Result:
        me = t.seats[seat]
        assert me is not None
        if me.left:
            return refuse(
                "already_left",
                _(
                    "You already left: the bot plays your seat. Press **%(button)s** or use `/join` to "
                    "take it back.",
                    button=ButtonName(N_("I'm back")),
                ),
            )
        if not confirmed:
            return ok(
                _(
                    "Leave table %(table)s? The bot plays your seat for the rest of the game (it still "
                    "counts in your stats); you can come back with **%(button)s** or `/join`.",
                    table=t.id,
                    button=ButtonName(N_("I'm back")),
                ),
                offer=Offer("leave", t.id),
            )
        new = t.copy()
        ns = new.seats[seat]
        assert ns is not None
        ns.left, ns.away, ns.timeouts = True, False, 0
        staying = [
            s.user_id for s in new.seats if s is not None and not s.automatic and s.user_id is not None
        ]
        if user_id == t.host_id and staying:
            new.host_id = staying[0]
        refusal = await self.store.commit(t, new, touched=[seat])
        if refusal:
            return refusal
        if not any(s is not None and not s.bot and not s.left for s in new.seats):
            post = _(
                "🚪 %(who)s left table %(table)s: the bots finish the game (it counts for everyone).",
                who=ns.label,
                table=t.id,
            )
        else:
            post = _(
                "🚪 %(who)s left table %(table)s: 🤖 the bot plays their seat until they come back.",
                who=ns.label,
                table=t.id,
            )
        self.publisher.post(t.id, t.channel_id, post)
        return ok(
            _(
                "You left the game: the bot plays your seat. Press **%(button)s** or `/join` to come back.",
                button=ButtonName(N_("I'm back")),
            )
        )

    async def add_bot(
        self, channel_id: int, user_id: int, *, seat: int | None = None, is_admin: bool = False
    ) -> Result:
        t = self.store.in_channel(channel_id)
        if t is None:
            return refuse("no_table", NO_TABLE)
        async with self.store.lock(t.id):
            t = self.store.get(t.id) or t
            if user_id != t.host_id and not is_admin:
                return refuse(
                    "host_only", _("Only the host (%(host)s) can add bots.", host=mention(t.host_id))
                )
            if t.status != "open":
                return refuse("already_started", _("This game has already started."))
            empty = t.empty_seats()
            if not empty:
                return refuse("table_full", _("This table is full (%(n)s/%(n)s).", n=t.num_seats))
            if seat is not None:
                if not 1 <= seat <= t.num_seats:
                    return refuse("seat_range", _("Seats are numbered 1 to %(n)s.", n=t.num_seats))
                if seat - 1 not in empty:
                    return refuse(
                        "seat_taken",
                        _("Seat %(n)s is taken. Free seats: %(free)s.", n=seat, free=seat_list(empty)),
                    )
                target = seat - 1
            else:
                target = empty[0]
            new = t.copy()
            new.seats[target] = bot_seat(new, target)
            refusal = await self.store.commit(t, new)
            if refusal:
                return refusal
            name = new.seats[target].name  # type: ignore[union-attr]
            return ok(_("🤖 %(name)s sits in seat %(n)s.", name=name, n=target + 1))

    async def back(self, table_id: int, user_id: int) -> Result:
        found = await self.store.find(table_id, None)
        if isinstance(found, Result):
            return found
        async with self.store.lock(found.id):
            t = self.store.get(found.id) or found
            seat = t.seat_of(user_id)
            if seat is None:
                return refuse("not_seated", _("You're not seated at this table."))
            s = t.seats[seat]
            assert s is not None
            if t.status != "playing":
                if t.status != "open":
                    return refuse("closed", CLOSED)
                return refuse("not_started", _("The game hasn't started yet."))
            if not s.away and not s.left and s.timeouts == 0:
                return refuse(
                    "not_away", _("You're not marked away: it's all yours."), show_hand=t.status == "playing"
                )
            return await self.take_back(t, seat, _("Welcome back! The bot hands your seat back to you."))

    async def take_back(self, t: Table, seat: int, message: Text) -> Result:
        """A player who left or was marked away takes their seat back from the bot (lock held)."""
        new = t.copy()
        ns = new.seats[seat]
        assert ns is not None
        ns.away, ns.left, ns.timeouts = False, False, 0
        refusal = await self.store.commit(t, new)
        if refusal:
            return refusal
        return ok(message, show_hand=True, table=new)

    # ---- host and admin commands: fix the seating -------------------------------------------
    async def _hosted(self, channel_id: int, user_id: int, is_admin: bool, what: str) -> Table | Result:
        t = self.store.in_channel(channel_id)
        if t is None:
            return refuse("no_table", NO_TABLE)
        if user_id != t.host_id and not is_admin:
            host = mention(t.host_id)
            if what == "remove bots":
                return refuse(
                    "host_or_admin_only",
                    _("Only the host (%(host)s) or someone with Manage Server can remove bots.", host=host),
                )
            if what == "remove players":
                return refuse(
                    "host_or_admin_only",
                    _(
                        "Only the host (%(host)s) or someone with Manage Server can remove players.",
                        host=host,
                    ),
                )
            return refuse(
                "host_or_admin_only",
                _("Only the host (%(host)s) or someone with Manage Server can seat a substitute.", host=host),
            )
        return t

    async def remove_bot(self, channel_id: int, user_id: int, seat: int, *, is_admin: bool = False) -> Result:
        """Free a seat a bot took before the game starts (a bot seated by mistake)."""
        found = await self._hosted(channel_id, user_id, is_admin, "remove bots")
        if isinstance(found, Result):
            return found
        async with self.store.lock(found.id):
            t = self.store.get(found.id) or found
            if not 1 <= seat <= t.num_seats:
                return refuse("seat_range", _("Seats are numbered 1 to %(n)s.", n=t.num_seats))
            s = t.seats[seat - 1]
            if s is None or not s.bot:
                return refuse("no_bot_in_seat", _("There is no bot in seat %(seat)s.", seat=seat))
            if t.status != "open":
                return refuse(
                    "bot_seat_in_game",
                    _(
                        "The game has started: a bot's seat can't stay empty. Put a player in it with "
                        "`/spades substitute`."
                    ),
                )
            new = t.copy()
            new.seats[seat - 1] = None
            refusal = await self.store.commit(t, new)
            if refusal:
                return refusal
        post = _(
            "🤖 %(bot)s left seat %(seat)s (removed by %(who)s).", bot=s.name, seat=seat, who=mention(user_id)
        )
        self.publisher.post(t.id, t.channel_id, post)
        return ok(_("🤖 %(bot)s left seat %(seat)s: it is free again.", bot=s.name, seat=seat))

    async def kick(self, channel_id: int, user_id: int, target_id: int, *, is_admin: bool = False) -> Result:
        """Remove a player: before the start their seat is free; during a game a bot takes it (for
        good: a substitute can take it over with ``substitute``)."""
        found = await self._hosted(channel_id, user_id, is_admin, "remove players")
        if isinstance(found, Result):
            return found
        if target_id == user_id:
            return refuse("kick_self", _("To leave your own seat, use `/leave`."))
        async with self.store.lock(found.id):
            t = self.store.get(found.id) or found
            seat = t.seat_of(target_id)
            if seat is None:
                return refuse(
                    "player_not_seated",
                    _("%(player)s is not seated at this table.", player=mention(target_id)),
                )
            new = t.copy()
            who = mention(target_id)
            if t.status == "open":
                new.seats[seat] = None
                done = _("%(player)s was removed from seat %(seat)s", player=who, seat=seat + 1)
            else:
                new.seats[seat] = bot_seat(new, seat)
                new.seats[seat].acts = (t.seats[seat] or Seat(None, "")).acts  # type: ignore[union-attr]
                done = _(
                    "%(player)s was removed from seat %(seat)s; 🤖 the bot plays it",
                    player=who,
                    seat=seat + 1,
                )
            if target_id == t.host_id:
                staying = [u for u in new.humans() if u != target_id]
                new.host_id = user_id if user_id in staying or not staying else staying[0]
            refusal = await self.store.commit(t, new, touched=[seat])
            if refusal:
                return refusal
        self.publisher.post(
            t.id, t.channel_id, _("🚪 %(done)s (by %(who)s).", done=done, who=mention(user_id))
        )
        return ok(_("%(done)s.", done=done))

    async def substitute(
        self,
        channel_id: int,
        user_id: int,
        seat: int,
        player_id: int,
        player_name: str,
        *,
        is_admin: bool = False,
        player_is_bot: bool = False,
    ) -> Result:
        """Seat ``player_id`` mid-game in a bot's seat or an absent (away or gone) player's seat:
        they take over its hand as it stands. ``player_is_bot``: the member named is a bot account
        (refused: only people take over a seat)."""
        if player_is_bot:
            return refuse("substitute_a_bot", _("Only people can take over a seat."))
        found = await self._hosted(channel_id, user_id, is_admin, "seat a substitute")
        if isinstance(found, Result):
            return found
        async with self.store.lock(found.id):
            t = self.store.get(found.id) or found
            if t.status != "playing":
                return refuse(
                    "substitute_before_start",
                    _(
                        "Substitutes take over during a game: before the start, players use **%(button)s**.",
                        button=ButtonName(N_("Join")),
                    ),
                )
            if not 1 <= seat <= t.num_seats:
                return refuse("seat_range", _("Seats are numbered 1 to %(n)s.", n=t.num_seats))
            if t.seat_of(player_id) is not None:
                return refuse(
                    "already_plays", _("%(player)s already plays at this table.", player=mention(player_id))
                )
            old = t.seats[seat - 1]
            if old is None or not old.automatic:
                return refuse(
                    "seat_not_absent",
                    _(
                        "Seat %(seat)s is played by %(player)s: only a bot's seat or an absent"
                        " player's can be "
                        "taken over.",
                        seat=seat,
                        player=t.label(seat - 1),
                    ),
                )
            new = t.copy()
            new.seats[seat - 1] = Seat(player_id, player_name, acts=old.acts)
            refusal = await self.store.commit(t, new, touched=[seat - 1])
            if refusal:
                return refusal
        was = f"🤖 {old.name}" if old.bot else mention(old.user_id or 0)
        post = _(
            "🔁 %(player)s takes over seat %(seat)s from %(was)s (by %(who)s).",
            player=mention(player_id),
            seat=seat,
            was=was,
            who=mention(user_id),
        )
        self.publisher.post(t.id, t.channel_id, post)
        return ok(
            _(
                "%(player)s now plays seat %(seat)s: they see their cards with **%(button)s**.",
                player=mention(player_id),
                button=ButtonName(N_("My hand")),
                seat=seat,
            )
        )
