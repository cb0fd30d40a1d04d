"""End-to-end harness: a real ``SpadesBot`` (real cogs, real database) against the fake Discord.

The database is a SQLite file; a test marked ``@pytest.mark.both_backends`` (or a module with
``pytestmark = pytest.mark.both_backends``) runs twice: on SQLite, then on a fresh database of the
real PostgreSQL server the tests start (tests/postgres_server.py).

``spades`` gives a world (a server, a channel, five users and an admin) and ``spades.running()``
starts a bot process on the world's database file; leaving it closes that process, so a second
``running()`` on the same world is a restart.

The helpers act only through Discord (slash commands, clicks, selects) and read only what Discord
shows (the channel's messages, a player's own ephemeral panels and answers) and what is stored (on a
connection of their own); docs/TESTING.md lists each helper and what it reads. Whose turn it is
comes from the table message's "➜ … to" line, confirmed by the player's own panel (a late version
of the message can still name who already moved); moves are chosen from what the panel shows.

``check_public`` (run by ``slash`` and ``decide``) compares every new public message version with
the cards held as stored (the privacy invariant needs the bots' hands too, which nothing on Discord
shows). One helper reads the running bot, on purpose and without changing it: ``settle`` waits
until the bot owes no edit (an edit still due and one that never comes look the same from Discord).
"""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import re
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Any, Protocol

import engine
from bot.client import EXTENSIONS, SpadesBot
from bot.config import Config, Faults
from bot.model import NO_TABLE, Table
from bot.storage import Storage, TableRow
from bot.table.service import TableService
from fakediscord import Channel, FakeDiscord, Guild, InteractionResult, Message, Stopwatch, User
from tests.clock import TestClock

LIVE_PREFIX = "♠ **Spades**"
CARD_ID = re.compile(r"^sp:\d+:c:\d+:(\d+)$")
TABLE_LINE = re.compile(r"^♠ \*\*Spades\*\* · table (\d+) ")
OPENED = re.compile(r"Table (\d+) is open")
LOBBY_SEAT = re.compile(r"(\d+)\. <@(\d+)>")
TURN_LINE = re.compile(r"^➜ (.+?) to (bid|play|pass|draw|act)\b", re.M)
MENTION = re.compile(r"<@!?(\d+)>")
AUTOMATIC = re.compile(r"<@(\d+)> (?:🚪🤖|💤)")  # a human the bot plays for (left, or away)
SIDE_LINE = re.compile(r"^(?:Team \d+  )?(.+?)  \*\*-?\d+\*\* · ", re.M)  # "<@1> + 🤖 Bea  **40** · …"
TOOK_SEAT = re.compile(r"^(?:You took seat|Welcome back! Seat) (\d+)")
LEFT_SEAT = re.compile(r"^You left seat (\d+)")
SHOWN_CARD = re.compile(r"(?<![0-9A-Za-z])(?:10|[2-9JQKA])[♠♥♦♣]")
OVER = ("🏆", "The game is over.", "🛑 This table was abandoned.")


def table_of(content: str) -> int | None:
    """The table id a table message (in English) names, or None for any other message."""
    found = TABLE_LINE.match(content)
    return int(found.group(1)) if found else None


def version_of(m: Message) -> tuple[int, int]:
    """Which version of which message: (id, earlier versions)."""
    return m.id, len(m.history)


def turn_in(content: str) -> tuple[list[int], str] | None:
    """Whom a table message names to act (the humans' ids, by their mentions, without those the
    bot plays for) and what to do ("bid", "play", ...); None when it names nobody."""
    m = TURN_LINE.search(content)
    if m is None:
        return None
    automatic = {int(u) for u in AUTOMATIC.findall(content)}
    return [int(u) for u in MENTION.findall(m.group(1)) if int(u) not in automatic], m.group(2)


def shown_cards(text: str) -> list[int]:
    """The cards a text shows (``A♠``, ``10♥``), in order."""
    return [engine.parse_card(c) for c in SHOWN_CARD.findall(text)]


def panel_cards(panel: Message) -> list[tuple[int, str, bool]]:
    """(card, custom_id, playable now) of every card button of a hand panel."""
    out = []
    for b in panel.buttons:
        m = CARD_ID.match(b.get("custom_id", ""))
        if m:
            out.append((int(m.group(1)), str(b["custom_id"]), not b.get("disabled")))
    return out


def panel_trick(panel: Message) -> list[int]:
    """The cards of the trick in play, in play order, as the panel's "Trick:" line shows them."""
    line = next((x for x in panel.content.splitlines() if x.startswith("Trick: ")), "")
    return shown_cards(line)


def panel_choice(panel: Message) -> tuple[str, dict[str, Any]] | None:
    """What a hand panel lets its player do now, the first of: look at the cards ("Show my cards"),
    bid or pass (its select), keep a drawn card, play a card (an enabled card button). Found by
    their custom ids, so a panel in any language will do."""
    for b in panel.buttons:
        if ":look:" in b.get("custom_id", "") and not b.get("disabled"):
            return "look", b
    for s in panel.selects:
        if not s.get("disabled") and (":b:" in s["custom_id"] or ":p:" in s["custom_id"]):
            return ("bid" if ":b:" in s["custom_id"] else "pass"), s
    for b in panel.buttons:
        if ":keep:" in b.get("custom_id", "") and not b.get("disabled"):
            return "keep", b
    for b in panel.buttons:
        if CARD_ID.match(b.get("custom_id", "")) and not b.get("disabled"):
            return "card", b
    return None


def my_turn_on(panel: Message) -> bool:
    """The panel (drawn when it was opened) says it is its player's turn: it offers a bid, a pass,
    a drawn card or a card to play, or its header says "your bid" over face-down cards."""
    choice = panel_choice(panel)
    if choice is None:
        return False
    return choice[0] != "look" or " · your bid" in panel.content.splitlines()[0]


async def act_from_panel(
    fake: FakeDiscord, user: User, panel: Message
) -> tuple[InteractionResult, str, int | None] | None:
    """``user`` takes the first action their panel offers, chosen from what it shows alone (the
    harness's one player): look at face-down cards, else a bid (``choose_bid``), the first cards
    asked for, the card kept, a card played (``choose_card``). (result, "look" | "bid" | "pass" |
    "keep" | "card", the card played); None when the panel offers nothing."""
    choice = panel_choice(panel)
    if choice is None:
        return None
    kind, component = choice
    cid = str(component["custom_id"])
    card: int | None = None
    if kind == "card":
        card, cid = choose_card(panel)
        r = await fake.click(user, panel, custom_id=cid)
    elif kind in ("look", "keep"):
        r = await fake.click(user, panel, custom_id=cid)
    elif kind == "bid":
        r = await fake.select(user, panel, custom_id=cid, values=[choose_bid(panel, component)])
    else:
        values = [str(o["value"]) for o in component["options"]][: int(component.get("max_values", 1))]
        r = await fake.select(user, panel, custom_id=cid, values=values)
    assert r.error is None, r.error
    return r, kind, card


def choose_bid(panel: Message, select: dict[str, Any]) -> str:
    """The harness's bid from the cards its panel shows: aces, kings with a second card of their
    suit, and spades past the third; at least 1 (never nil); the closest bid offered."""
    cards = [c for c, _, _ in panel_cards(panel)]
    suits = [engine.suit_of(c) for c in cards]
    tricks = sum(
        1
        for c in cards
        if engine.rank_of(c) >= 12 or (engine.rank_of(c) == 11 and suits.count(engine.suit_of(c)) >= 2)
    )
    want = max(1, tricks + max(0, suits.count(engine.SPADES) - 3))
    values = [str(o["value"]) for o in select["options"]]
    numbers = [int(v) for v in values if v.isdigit() and v != "0"]
    return str(min(numbers, key=lambda n: abs(n - want))) if numbers else values[0]


def choose_card(panel: Message) -> tuple[int, str]:
    """The harness's card among those the panel lets its player play: the lowest card that wins the
    trick shown on the panel, else the lowest; an ace or king off spades to lead, else the lowest."""
    legal = [(c, cid) for c, cid, ok in panel_cards(panel) if ok]
    assert legal, "no playable card on the panel"

    def low(cards: list[tuple[int, str]]) -> tuple[int, str]:
        return min(cards, key=lambda x: engine.rank_of(x[0]))

    spade = engine.SPADES
    trick = panel_trick(panel)
    if not trick:
        high = [x for x in legal if engine.rank_of(x[0]) >= 11 and engine.suit_of(x[0]) != spade]
        return max(high, key=lambda x: engine.rank_of(x[0])) if high else low(legal)
    led = engine.suit_of(trick[0])
    trumped = led != spade and any(engine.suit_of(c) == spade for c in trick)
    best_suit = spade if trumped else led
    best = max(engine.rank_of(c) for c in trick if engine.suit_of(c) == best_suit)
    follow = [x for x in legal if engine.suit_of(x[0]) == led]
    if follow:
        wins = [x for x in follow if not trumped and engine.rank_of(x[0]) > best]
        return low(wins or follow)
    trumps = [
        x for x in legal if engine.suit_of(x[0]) == spade and (not trumped or engine.rank_of(x[0]) > best)
    ]
    return low(trumps or legal)


@dataclass
class Spades:
    fake: FakeDiscord
    guild: Guild
    channel: Channel
    users: dict[str, User]
    db_path: str  # a SQLite file, or a postgresql:// URL
    bot: SpadesBot | None = None
    checked: dict[int, int] = field(default_factory=dict)  # message id -> versions already checked
    public_checks: int = 0
    table_id: int | None = None  # the table ``open_table`` opened last (its answer named it)
    turn_panels: dict[int, Message] = field(default_factory=dict)  # user id -> panel that confirmed a turn
    last_move: tuple[User, str, int | None] | None = None  # (who, "bid"/"pass"/"card"/..., the card played)
    # the bot's own fault-injection settings (bot.config.Faults, the FAULT_* settings): a test sets
    # them before ``running()`` or while the bot runs (the harness installs the seams; read at each
    # operation)
    faults: Faults = field(default_factory=Faults)
    # the bot's clock (tests/clock.py), kept across restarts so a stored deadline stays in its time
    clock: TestClock | None = None

    # ---- processes ------------------------------------------------------------------------
    @asynccontextmanager
    async def running(
        self,
        *,
        speed: float = 50.0,
        seed: int | None = 7,
        card_emojis: bool = False,
        extensions: tuple[str, ...] = EXTENSIONS,
        **settings: Any,
    ) -> AsyncIterator[SpadesBot]:
        """The real bot on the fake Discord, its clock ``speed`` times faster than this process's
        time (``self.clock``, tests/clock.py). ``settings`` are more ``Config`` fields; the product's
        own fault seams are installed with ``self.faults``; card emojis are uploaded (55 requests) only by the
        tests that look at them. The strong bots' search workers start at the first strong decision
        unless a test asks for them at start-up (``search_workers_at_start=True``: the product's
        default; off here to spare most tests a process)."""
        settings.setdefault("search_workers_at_start", False)
        config = Config(
            token="x", database_path=self.db_path, deal_seed=seed, card_emojis=card_emojis, **settings
        )
        bot = SpadesBot(config, clock=self.clock_at(speed), faults=self.faults, extensions=extensions)
        self.bot = bot
        self.turn_panels.clear()
        try:
            async with self.fake.run_bot(bot, sync_commands=False):
                yield bot
        finally:
            self.bot = None

    def clock_at(self, speed: float) -> TestClock:
        """The bot's clock: the game's time ``speed`` times faster than this process's (the same
        clock for every restart at that speed, so a restarted bot finds its deadlines in its time)."""
        if self.clock is None or self.clock.speed != speed:
            self.clock = TestClock(speed)
        return self.clock

    @asynccontextmanager
    async def stored(self) -> AsyncIterator[Storage]:
        """The bot's database, opened on its own (to read what was persisted, bot running or not)."""
        db = await Storage.open(self.db_path)
        try:
            yield db
        finally:
            await db.close()

    async def stored_table(self, table_id: int) -> TableRow:
        """A table as stored in the bot's database (read on a connection of its own)."""
        async with self.stored() as db:
            row = await db.tables.get(table_id)
        assert row is not None, f"table {table_id} is not stored"
        return row

    async def no_table_in(self, channel: Channel | None = None) -> bool:
        """What anyone sees: /table in ``channel`` answers that there is no table there."""
        r = await self.fake.slash(self.users["admin"], channel or self.channel, "table")
        return await said(r) == self.mentioned(NO_TABLE)

    @property
    def service(self) -> TableService:
        assert self.bot is not None, "no bot running"
        return self.bot.tables

    async def stored_model(self, table_id: int) -> Table:
        """A table as stored, as the model (ruleset, seats, game), read on a connection of its own."""
        return Table.from_row(await self.stored_table(table_id))

    # ---- reading what the channel shows ----------------------------------------------------------
    def live(self) -> Message:
        """The table message of the newest table in the channel (the one this harness opened, or
        a newer one: a rematch)."""
        msg = self.live_or_none()
        assert msg is not None, "no live table message"
        return msg

    def live_or_none(self) -> Message | None:
        msgs = [
            m
            for m in self.fake.public_messages(self.channel)
            if (tid := table_of(m.content)) is not None and (self.table_id is None or tid >= self.table_id)
        ]
        return msgs[-1] if msgs else None

    def shown_table(self) -> int:
        """The id of the table whose message the channel shows now."""
        tid = table_of(self.live().content)
        assert tid is not None
        return tid

    def over(self) -> bool:
        """The table message says the game is over (a winner, or nobody) or the table abandoned."""
        m = self.live_or_none()
        return m is not None and TURN_LINE.search(m.content) is None and any(x in m.content for x in OVER)

    def seating(self) -> dict[int, int]:
        """Seat -> user id of the humans at the shown table, as the channel showed it: the newest
        version of its table message that listed the seats (the lobby), with the players' own
        answers ("You took seat N", "You left seat N") newer than it; once the game is on and the
        lobby was never shown (a rematch), the table message's team lines."""
        live = self.live_or_none()
        tid = table_of(live.content) if live is not None else None
        if live is None or tid is None:
            return {}
        seats: dict[int, int] = {}
        first: int | None = None
        for msg in self.channel.messages:  # oldest first, reposted (deleted) versions too
            if msg.ephemeral or table_of(msg.content) != tid:
                continue
            first = first or msg.id
            for text in [*(str(h.get("content", "")) for h in msg.history), msg.content]:
                found = LOBBY_SEAT.findall(text)
                if found:
                    seats = {int(n) - 1: int(uid) for n, uid in found}
        if first is None:
            return {}
        if not seats:
            return self._team_seating(live.content)
        for user in self.users.values():  # a join the lobby did not show yet (or never did)
            answers = [
                m.content
                for m in self.fake.ephemeral_messages(user, self.channel)
                if m.id > first and (TOOK_SEAT.match(m.content) or LEFT_SEAT.match(m.content))
            ]
            if not answers:
                continue
            took = TOOK_SEAT.match(answers[-1])
            seats = {s: u for s, u in seats.items() if u != user.id}
            if took is not None and int(took.group(1)) - 1 not in seats:
                seats[int(took.group(1)) - 1] = user.id
        return seats

    @staticmethod
    def _team_seating(content: str) -> dict[int, int]:
        """Seat -> user id from a table message in play: team k's j-th player sits in seat
        k + j * (number of teams) (partners sit across)."""
        lines = SIDE_LINE.findall(content)
        seats = {}
        for k, who in enumerate(lines):
            for j, name in enumerate(who.split(" + ")):
                found = MENTION.search(name)
                if found:
                    seats[k + j * len(lines)] = int(found.group(1))
        return seats

    def user_at(self, seat: int) -> User | None:
        """The human in ``seat`` (None for a bot or an empty seat), as the channel showed it."""
        uid = self.seating().get(seat)
        return self.fake.users[uid] if uid is not None else None

    def seat_of(self, user: User) -> int:
        """``user``'s seat (0-based), as the channel showed it (``seating``)."""
        seat = next((s for s, uid in self.seating().items() if uid == user.id), None)
        assert seat is not None, f"{user.username} is not seated (as the channel showed it)"
        return seat

    def turn(self) -> tuple[list[User], str] | None:
        """Whom the table message names to act now (humans only, not those the bot plays for) and
        what to do; None when it names nobody. It may be a moment behind: ``wait_turn`` confirms."""
        live = self.live_or_none()
        turn = turn_in(live.content) if live is not None else None
        if turn is None:
            return None
        return [self.fake.users[u] for u in turn[0] if u in self.fake.users], turn[1]

    def acting_humans(self) -> list[User]:
        """The humans the table message names to act (see ``turn``)."""
        turn = self.turn()
        return turn[0] if turn else []

    async def wait_for(
        self, pred: Callable[[], bool], timeout: float = 20.0, what: str = "condition"
    ) -> None:
        watch = Stopwatch()
        while not pred():
            if watch.past(timeout):
                raise AssertionError(f"timed out waiting for {what}")
            await asyncio.sleep(0.01)

    async def settle(self) -> None:
        """The fake is quiet *and* the bot owes no live-message edit or channel post.

        A synchronisation aid, not an assertion, and the one place the harness reads the running
        bot: whether its publisher still owes an edit (nothing on Discord tells an edit that is due
        from one that never comes). ``fake.settle()`` alone can't see the bot's own debounce timers:
        on a loaded machine the process may stall past the fake's quiet period while an edit is
        still due, and a test would then read the live message one version too early."""
        svc = self.service

        def idle() -> bool:
            return svc.posts.idle()

        for _ in range(3):
            await self.fake.settle()
            await self.wait_for(idle, what="the bot's pending edits and posts")
        await self.fake.settle()

    async def wait_turn(self, timeout: float = 20.0) -> list[User]:
        """Until a human's turn: the humans the table message names whose own panel (opened with
        "My hand") confirms it is their turn; [] once the table message says the game is over.

        A version of the table message delivered late can still name a player who already moved:
        such a naming is not trusted until their panel confirms it; otherwise this waits for a
        newer version."""
        watch = Stopwatch()
        while True:
            left = max(0.1, timeout - watch.elapsed())
            try:
                await self.wait_for(lambda: self.over() or bool(self.acting_humans()), left, "a human's turn")
            except AssertionError as exc:
                live = self.live_or_none()
                raise AssertionError(f"{exc}; the table message: {live and live.content!r}") from None
            if self.over():
                return []
            version = version_of(self.live())
            confirmed = []
            for user in self.acting_humans():
                panel = await self.panel(user)
                if my_turn_on(panel):
                    self.turn_panels[user.id] = panel
                    confirmed.append(user)
            if confirmed:
                return confirmed
            assert not watch.past(timeout), f"no human's turn for {timeout} s: {self.live().content!r}"
            with contextlib.suppress(AssertionError):  # a newer version of the table message
                await self.wait_for(
                    lambda v=version: (m := self.live_or_none()) is not None and version_of(m) != v,  # type: ignore[misc]
                    timeout=1.0,
                )

    def command(self, path: str) -> str:
        """A synced command as an answer names it: the mention Discord draws (``</spades new:id>``)."""
        top = path.split(" ", 1)[0]
        (cmd,) = [c for c in self.fake.commands_for(self.guild) if c["name"] == top]
        return f"</{path}:{cmd['id']}>"

    def mentioned(self, text: str) -> str:
        """``text`` as an answer shows it once the commands are synced: each command named in code
        without options (```/spades new```) is a mention (:meth:`command`)."""
        synced = {c["name"] for c in self.fake.commands_for(self.guild)}

        def one(m: re.Match[str]) -> str:
            path = m.group(1)
            return self.command(path) if ":" not in path and path.split(" ")[0] in synced else m.group(0)

        return re.sub(r"`/([a-z_ ]+)`", one, str(text))

    # ---- acting through Discord -----------------------------------------------------------------
    async def slash(self, user: User, command: str, **options: Any) -> InteractionResult:
        r = await self.fake.slash(user, self.channel, command, **options)
        await self.check_public()
        return r

    async def open_table(self, host: User, **options: Any) -> Table:
        """``host`` opens a table (``/spades new``): the id its answer names becomes the harness's
        table; once its table message is up, the table as stored (read on its own connection)."""
        r = await self.slash(host, "spades new", **options)
        assert r.error is None, r.error
        text = await said(r)
        opened = OPENED.search(text)
        assert opened is not None, text
        tid = int(opened.group(1))
        self.table_id = tid
        await self.wait_for(
            lambda: (m := self.live_or_none()) is not None and table_of(m.content) == tid, what="live message"
        )
        return await self.stored_model(tid)

    async def panel(self, user: User) -> Message:
        """Click "My hand" on the live message: the ephemeral panel."""

        def ready() -> bool:
            m = self.live_or_none()
            return m is not None and any(b.get("label") == "My hand" for b in m.buttons)

        await self.wait_for(ready, what="the My hand button")
        r = await self.fake.click(user, self.live(), label="My hand")
        return await self.panel_of(r)

    async def panel_of(self, r: InteractionResult) -> Message:
        """The ephemeral panel a click on the live message answered with: a deferred update of the
        live message (its token redraws that public message) and the panel in a follow-up."""
        assert r.error is None, r.error
        if r.type == 6:
            await r.answered(followup=True)
            msg = r.followups[-1]
        else:
            msg = r.message  # type: ignore[assignment]
        assert msg is not None and msg.ephemeral, r.content
        return msg

    async def decide(
        self,
        user: User,
        panel: Message | None = None,
        wait: float = 20.0,
        *,
        opener: Callable[[], Awaitable[Message]] | None = None,
    ) -> InteractionResult:
        """``user`` makes one move from their own panel (``panel``, else one opened with "My hand" by
        ``opener``, by default on the harness's table), the harness's player's (``act_from_panel``;
        face-down cards are looked at first): the bid, pass or play. Waits up to ``wait`` s
        (opening the panel again now and then) for the panel to offer something."""
        r = await self._move(user, panel, wait, opener)
        assert r is not None, f"{user.username}'s panel offered nothing to do for {wait} s"
        return r

    async def _move(
        self,
        user: User,
        panel: Message | None,
        wait: float,
        opener: Callable[[], Awaitable[Message]] | None = None,
    ) -> InteractionResult | None:
        open_panel = opener or (lambda: self.panel(user))
        watch = Stopwatch()
        msg = panel or await open_panel()
        looked = False
        while True:
            choice = panel_choice(msg)
            if choice is not None and choice[0] == "look":
                if looked:  # (the click's answer may be a moment behind: a fresh panel says)
                    msg = await open_panel()
                    again = panel_choice(msg)
                    assert again is None or again[0] != "look", f"{user.username}'s cards stay face down"
                    continue
                r = await self.fake.click(user, msg, custom_id=str(choice[1]["custom_id"]))
                assert r.error is None, r.error
                msg = r.message if r.ephemeral and r.message is not None else await open_panel()
                looked = True
                continue
            if choice is not None:
                break
            if watch.past(wait):
                return None
            with contextlib.suppress(AssertionError):  # the bot redraws the panel as the table moves
                await self.wait_for(lambda m=msg: panel_choice(m) is not None, timeout=0.5, what="the panel")  # type: ignore[misc]
            if panel_choice(msg) is None:
                msg = await open_panel()
        r, _ = await self.act(user, msg)  # (not a look: that was taken above)
        return r

    async def act(self, user: User, panel: Message) -> tuple[InteractionResult, str]:
        """``user`` takes the first action ``panel`` offers (``act_from_panel``), the public
        messages are checked (``check_public``) and it becomes ``last_move``; (its answer, its kind)."""
        moved = await act_from_panel(self.fake, user, panel)
        assert moved is not None, f"{user.username}'s panel offered nothing to do"
        r, kind, card = moved
        await self.check_public()
        self.last_move = (user, kind, card)
        return r, kind

    # ---- invariants ---------------------------------------------------------------------------
    async def check_public(self) -> None:
        """No public message version that appeared since the last check shows a card held now.

        Which cards are held is read from what is stored, on a connection of the harness's own, for
        every table the channel's messages name: the bots' hands too, which nothing on Discord
        shows. Every move is stored before it is acknowledged or shown, so the stored hands are at
        least as new as any version checked. A version that names an earlier hand ("Hand 3" while
        hand 4 is on) is about cards that were played then; those may be dealt again, so it is
        checked against nothing newer."""
        if self.bot is None:
            return
        pending: list[str] = []
        named: set[int] = set()
        for m in self.fake.public_messages(self.channel):
            versions = [*(str(h.get("content", "")) for h in m.history), m.content]
            labels = " ".join(str(c.get("label", "")) for c in m.buttons)
            named.update(int(t) for v in versions for t in re.findall(r"table (\d+)", v))
            start = self.checked.get(m.id, 0)
            shown = [f"{text} {labels}" for text in versions[start:]]
            pending += [x for x in shown if SHOWN_CARD.search(x) or "🃏" in x]
            self.checked[m.id] = len(versions)
            self.public_checks += 1
        if not pending:
            return  # (no card shown at all: nothing to compare)
        games: dict[int, engine.Game] = {}
        async with self.stored() as db:
            for tid in sorted(named):
                row = await db.tables.get(tid)
                if row is not None and row.status == "playing" and row.data.get("game"):
                    games[tid] = engine.Game.from_dict(row.data["game"])
        for text in pending:
            for card in self._held_for(text, games):
                assert not re.search(rf"(?<![0-9A-Za-z]){re.escape(card)}", text), (
                    f"public message shows held card {card}: {text!r}"
                )

    @staticmethod
    def _held_for(text: str, games: dict[int, engine.Game]) -> set[str]:
        """The cards held (as stored) that ``text`` must not show: at the table it names (else at
        every table), unless it names an earlier hand."""
        table = re.search(r"table (\d+)", text)
        hand = re.search(r"Hand (\d+)", text)
        held: set[int] = set()
        for tid, g in games.items():
            if table is not None and int(table.group(1)) != tid:
                continue
            if hand and int(hand.group(1)) < g.hand_no:
                continue
            for s in range(g.rs.num_seats):
                held.update(engine.cards_of(g.hand(s)))
        return {engine.card_pretty(c) for c in held}


async def said(r: InteractionResult) -> str:
    """The text of the bot's answer itself (not of a message edited later), waiting for it when the
    answer was deferred (a "thinking" message; a deferred update of a public message, whose answer
    to the user is a follow-up): read right after a command, it cannot see the answer before it is
    there."""
    assert r.error is None, r.error
    return await r.answered(followup=r.type == 6 and not r.ephemeral)


# ---- playing a whole seat as a simple player: only what Discord shows ------------------------------

STALL = 60.0  # seconds without anything to click before a player's loop gives up


@dataclass
class SeenGame:
    """A table as its channel showed it: who sat where (seat index -> user id, from the lobby
    message; the other seats are bots) and where its posts are."""

    channel: Channel
    table_id: int
    lobby_id: int  # the table's message (its first version lists who sits where)
    seats: dict[int, int]
    with_bots: bool


def live_message(spades: Spades, channel: Channel, table_id: int) -> Message | None:
    """The newest table message of ``table_id`` in ``channel``."""
    msgs = [
        m
        for m in spades.fake.public_messages(channel)
        if m.content.startswith(LIVE_PREFIX) and f"table {table_id} " in m.content
    ]
    return msgs[-1] if msgs else None


def game_posts(spades: Spades, game: SeenGame) -> tuple[list[str], str | None]:
    """The table's hand posts and its game post (None while the game is on): the posts after its
    lobby message (the game post names no table; an earlier table's is older than the lobby)."""
    hands, final = [], None
    for m in spades.fake.public_messages(game.channel):
        if m.id <= game.lobby_id:
            continue
        if m.content.startswith("📋 ") and f"· table {game.table_id}\n" in m.content:
            hands.append(m.content)
        elif m.content.startswith("🏁 ") or (
            m.content.startswith("🏆 ") and "Rematch" in {b.get("label") for b in m.buttons}
        ):
            final = m.content
    return hands, final


async def open_and_start(spades: Spades, channel: Channel, humans: list[User], **options: Any) -> SeenGame:
    """The first human opens a table in ``channel`` (``/spades new`` with ``options``), the others
    /join, the host starts (bots take the seats left); who sits where is read from the lobby."""
    host = humans[0]
    r = await spades.fake.slash(host, channel, "spades new", **options)
    opened = OPENED.search(await said(r))
    assert opened is not None, await said(r)
    table_id = int(opened.group(1))
    for user in humans[1:]:
        r = await spades.fake.slash(user, channel, "join")
        assert (await said(r)).startswith("You took seat"), await said(r)

    def seated() -> bool:
        m = live_message(spades, channel, table_id)
        return m is not None and len(LOBBY_SEAT.findall(m.content)) == len(humans)

    await spades.wait_for(seated, what="everyone seated on the lobby message")
    lobby = live_message(spades, channel, table_id)
    assert lobby is not None
    seats = {int(n) - 1: int(uid) for n, uid in LOBBY_SEAT.findall(lobby.content)}
    assert set(seats.values()) == {u.id for u in humans}
    fill = len(humans) < 4
    r = await spades.fake.slash(host, channel, "spades start", fill=fill)
    assert r.error is None, r.error
    return SeenGame(channel, table_id, lobby.id, seats, with_bots=fill)


def playable_cards(panel: Message) -> list[tuple[int, str]]:
    """(card, custom_id) of the card buttons the panel lets its player click now."""
    out = []
    for b in panel.buttons:
        m = CARD_ID.match(b.get("custom_id", ""))
        if m and not b.get("disabled"):
            out.append((int(m.group(1)), str(b["custom_id"])))
    return out


# ---- the one player loop: whose turn from the harness's table, or one player's own panel -----------

Until = Callable[[], bool | Awaitable[bool]]


class Turns(Protocol):
    """Where the player loop (``play``) finds the next move: who acts, on which panel."""

    async def next(self, wake: Callable[[], bool]) -> tuple[User, Message] | None:
        """The next player to act and their panel (it offers something); None once the game is
        over. ``wake`` (a test that does not read what is stored) may end a wait early: None then."""
        ...

    def acted(self, user: User, r: InteractionResult, kind: str) -> None:
        """``user`` took the action ``kind`` on the panel ``next`` gave; ``r`` is its answer."""
        ...


class TableTurns:
    """The humans whose turn the harness's table message names (``spades.wait_turn``: confirmed by
    their own panel), any of ``humans`` (asserted: nobody else is asked to act)."""

    def __init__(self, spades: Spades, humans: list[User] | None = None, timeout: float = 30.0) -> None:
        self.spades, self.humans, self.timeout = spades, humans, timeout
        self.looked: User | None = None  # who looked at face-down cards last (and has not moved since)

    async def next(self, wake: Callable[[], bool]) -> tuple[User, Message] | None:
        spades = self.spades
        while True:
            acting = await spades.wait_turn(self.timeout)
            if not acting:
                return None
            user = acting[0]
            if self.humans is not None:
                assert user in self.humans, f"{user.username} was asked to act"
            panel = spades.turn_panels.pop(user.id, None) or await spades.panel(user)
            choice = panel_choice(panel)
            if choice is None:
                if wake():
                    return None
                continue  # (their panel changed meanwhile: look again)
            if choice[0] == "look" and self.looked is user:
                # (the click's answer may be a moment behind: a fresh panel says)
                again = panel_choice(await spades.panel(user))
                assert again is None or again[0] != "look", f"{user.username}'s cards stay face down"
                continue
            return user, panel

    def acted(self, user: User, r: InteractionResult, kind: str) -> None:
        self.looked = user if kind == "look" else None


class PanelTurns:
    """One player, ``user``, on ``game``'s table (any channel), from their private panel alone:
    nothing here reads the bot's state. The panel follows the table (the bot edits it) and is
    opened again with "My hand" when it shows nothing to do for a moment; the game is over at its
    game post. ``panel`` is the panel last seen."""

    def __init__(self, spades: Spades, game: SeenGame, user: User) -> None:
        self.spades, self.game, self.user = spades, game, user
        self.panel: Message | None = None
        self.acted_on: tuple[int, int] | None = None  # the panel version last acted on: wait for a newer one
        self.progress = Stopwatch()

    def over(self) -> bool:
        return game_posts(self.spades, self.game)[1] is not None

    def offered(self, m: Message | None = None) -> str | None:
        """What the panel (``m``, else the last seen) offers now ("look", "bid", "card", ...), if it
        is newer than the one last acted on."""
        m = m or self.panel
        if m is None or version_of(m) == self.acted_on:
            return None
        choice = panel_choice(m)
        return None if choice is None else choice[0]

    def offers_card(self) -> bool:
        """The panel offers a card to play (and was not acted on)."""
        return self.offered() == "card"

    async def next(self, wake: Callable[[], bool]) -> tuple[User, Message] | None:
        spades, game, user = self.spades, self.game, self.user
        while not self.over():
            assert not self.progress.past(STALL), f"{user.username} had nothing to do for {STALL} s"
            if self.panel is not None and self.offered() is not None:
                return user, self.panel
            if wake():
                return None
            try:  # the bot edits the panel as the table moves; open it again if nothing shows up
                await spades.wait_for(
                    lambda shown=self.panel: self.over() or wake() or self.offered(shown) is not None,  # type: ignore[misc]
                    timeout=0.5,
                    what="the panel",
                )
            except AssertionError:
                live = live_message(spades, game.channel, game.table_id)
                if live is not None and any(b.get("label") == "My hand" for b in live.buttons):
                    r = await spades.fake.click(user, live, label="My hand")
                    if r.error is None:  # (the panel may come as a follow-up of a deferred update)
                        self.panel = await spades.panel_of(r)
        return None

    def acted(self, user: User, r: InteractionResult, kind: str) -> None:
        self.progress = Stopwatch()
        if r.message is not None and r.ephemeral:
            self.panel = r.message
        assert self.panel is not None
        self.acted_on = version_of(self.panel)


async def play(spades: Spades, turns: Turns, until: Until | None = None, *, limit: int = 2000) -> int:
    """The harness's one player loop: whoever ``turns`` says acts next takes the first action their
    panel offers (``act_from_panel``: a look at face-down cards, the bid, pass or play), until
    ``until()`` (a test, or a coroutine: it may read what is stored) or the game is over; the
    actions taken. ``turns`` is the difference: ``TableTurns`` (whose turn the harness's table
    message names) or ``PanelTurns`` (one player on any table, from their own panel)."""
    sync = until is not None and not inspect.iscoroutinefunction(until)

    def wake() -> bool:
        return bool(until()) if sync and until is not None else False

    async def finished() -> bool:
        if until is None:
            return False
        out = until()
        return bool(await out) if inspect.isawaitable(out) else bool(out)

    n = 0
    while not await finished():
        turn = await turns.next(wake)
        if turn is None or await finished():
            break
        user, panel = turn
        r, kind = await spades.act(user, panel)
        turns.acted(user, r, kind)
        n += 1
        assert n < limit, "the game does not end"
    return n


async def panel_with_a_card(spades: Spades, game: SeenGame, user: User) -> Message:
    """``user`` plays (``play`` from their panel) until their panel offers a card to play; that panel."""
    seat = PanelTurns(spades, game, user)
    await play(spades, seat, until=seat.offers_card)
    assert seat.offers_card() and seat.panel is not None, "the game ended before a card was to play"
    return seat.panel


# ---- helpers of test_resilience.py, test_hardening.py and test_spades_commands.py --------------------
#
# Only what Discord shows (the table message, a player's own panel, the answers) and what is stored.


async def open_seen(spades: Spades, host: User, channel: Channel | None = None, **options: Any) -> int:
    """``host`` opens a table (``/spades new`` with ``options``): its id, read from the answer, once
    its table message is in the channel."""
    channel = channel or spades.channel
    r = await spades.fake.slash(host, channel, "spades new", **options)
    text = await said(r)
    opened = OPENED.search(text)
    assert opened is not None, text
    table_id = int(opened.group(1))
    await spades.wait_for(
        lambda: live_message(spades, channel, table_id) is not None, what="the table message"
    )
    return table_id


def seen_game(spades: Spades, table_id: int, channel: Channel | None = None) -> SeenGame:
    """A table still open as its table message shows it now (who sits where; the rest are bots)."""
    channel = channel or spades.channel
    lobby = live_message(spades, channel, table_id)
    assert lobby is not None, f"no table message of table {table_id}"
    seats = {int(n) - 1: int(uid) for n, uid in LOBBY_SEAT.findall(lobby.content)}
    return SeenGame(channel, table_id, lobby.id, seats, with_bots=False)


def table_text(spades: Spades, game: SeenGame) -> str:
    """The table message as the channel shows it now."""
    live = live_message(spades, game.channel, game.table_id)
    assert live is not None, f"no table message of table {game.table_id}"
    return live.content


def turn_of(spades: Spades, game: SeenGame) -> tuple[list[int], str] | None:
    """Who the table message says must act (the humans' ids, by their mentions; not those the bot
    plays for) and what to do ("bid", "play", ...); None when it names nobody (not started, over,
    between hands). It may be a moment behind: a player's own panel says whether it is their turn."""
    live = live_message(spades, game.channel, game.table_id)
    return turn_in(live.content) if live is not None else None


async def panel_answer(spades: Spades, r: InteractionResult) -> Message:
    """The ephemeral panel a click or command answered with: in the response itself, or (after a
    deferral: "thinking", or a deferred update of the table message) in the follow-up."""
    assert r.error is None, r.error
    if r.type == 5:
        await r.answered()
    elif r.type == 6 and not r.ephemeral:
        await r.answered(followup=True)
        return r.followups[-1]
    msg = r.followups[-1] if r.type == 5 and r.followups else r.message
    assert msg is not None and msg.ephemeral, f"the panel must be ephemeral: {r.content!r}"
    return msg


async def my_hand(spades: Spades, game: SeenGame, user: User) -> Message:
    """``user`` clicks "My hand" on the table message: their private panel as it is now."""

    def button() -> bool:
        live = live_message(spades, game.channel, game.table_id)
        return live is not None and any(b.get("label") == "My hand" for b in live.buttons)

    await spades.wait_for(button, what="the My hand button")
    live = live_message(spades, game.channel, game.table_id)
    assert live is not None
    r = await spades.fake.click(user, live, label="My hand")
    return await panel_answer(spades, r)


async def take_turn(
    spades: Spades, game: SeenGame, user: User, panel: Message | None = None
) -> InteractionResult:
    """``user`` takes one turn from their own panel on ``game``'s table (``panel``, else a fresh one
    from "My hand"), as ``spades.decide`` does on the harness's table: the bid, pass or play."""
    return await spades.decide(user, panel, STALL, opener=lambda: my_hand(spades, game, user))


async def humans_play(spades: Spades, game: SeenGame, users: list[User], actions: int) -> int:
    """The humans of ``users`` whose turn the table message shows take ``actions`` turns in all
    (``take_turn``), stopping early when it names none of them; the turns taken."""
    by_id = {u.id: u for u in users}
    done = 0
    while done < actions:
        await spades.fake.settle()
        turn = turn_of(spades, game)
        acting = [by_id[u] for u in (turn[0] if turn else []) if u in by_id]
        if not acting:
            try:  # bots may still be moving
                await spades.wait_for(
                    lambda: any(u in by_id for u in (turn_of(spades, game) or ([], ""))[0]),
                    timeout=5,
                    what="a human's turn",
                )
            except AssertionError:
                break
            continue
        before = table_text(spades, game)
        await take_turn(spades, game, acting[0])
        done += 1
        # the table message follows (a debounced edit): never read whose turn it is from before
        await spades.wait_for(
            lambda shown=before: table_text(spades, game) != shown,  # type: ignore[misc]
            what="the table message to follow",
        )
    return done


async def stored_game(spades: Spades, table_id: int) -> engine.Game:
    """The game of a table as stored (read on a connection of its own)."""
    data = (await spades.stored_table(table_id)).data["game"]
    assert data is not None, f"table {table_id} has no game stored"
    return engine.Game.from_dict(data)


async def stored_seat(spades: Spades, table_id: int, index: int) -> dict[str, Any] | None:
    """Seat ``index`` (0-based) of a table as stored: ``user_id``, ``bot``, ``away``, ``left``..."""
    seat: dict[str, Any] | None = (await spades.stored_table(table_id)).data["seats"][index]
    return seat


async def stored_seat_of(spades: Spades, table_id: int, user: User) -> int | None:
    """The seat (0-based) ``user`` plays at a table as stored; None when not seated."""
    seats = (await spades.stored_table(table_id)).data["seats"]
    return next(
        (i for i, s in enumerate(seats) if s is not None and not s.get("bot") and s["user_id"] == user.id),
        None,
    )


async def seated_game(spades: Spades, table_id: int, humans: int, channel: Channel | None = None) -> SeenGame:
    """Once the open table's message lists ``humans`` players: the table as it shows it."""
    channel = channel or spades.channel

    def seated() -> bool:
        m = live_message(spades, channel, table_id)
        return m is not None and len(LOBBY_SEAT.findall(m.content)) == humans

    await spades.wait_for(seated, what=f"{humans} players on the table message")
    return seen_game(spades, table_id, channel)


async def wait_stored(
    spades: Spades, table_id: int, pred: Callable[[TableRow], bool], what: str, timeout: float = 20.0
) -> TableRow:
    """Until the table as stored (read on its own connection) satisfies ``pred``; that row."""
    watch = Stopwatch()
    while not pred(row := await spades.stored_table(table_id)):
        assert not watch.past(timeout), f"timed out waiting for {what}"
        await asyncio.sleep(0.05)
    return row
