"""The table service: every live Spades table, its lock, its timers and its bot turns.

Every action follows one path (``TableService._act``): take the table's lock, validate and apply the
action to a *copy* of the table (engine ``Game.clone()``), persist the copy with one
``storage.save_table`` call (one transaction, version-checked), and only then swap it in and answer.
Rendering, channel posts, bot turns and turn timers are scheduled afterwards and never hold the lock
while talking to Discord. Cogs and views call the public coroutines below and show the returned
``Result`` to the user; they hold no game rule.
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
import dataclasses
import logging
import random
import re
import time
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

import discord

import engine
from bot.storage import ChannelBusy, FinishedGame, HandResult, StaleTable, TableRow
from engine import Bid, Game, Ruleset

if TYPE_CHECKING:
    from bot.client import SpadesBot

log = logging.getLogger(__name__)

DEFAULT_PLAY_SECONDS = 60
DEFAULT_BID_SECONDS = 90
MIN_TURN_SECONDS = 15
MAX_TURN_SECONDS = 600
AWAY_AFTER_TIMEOUTS = 2
BOT_NAMES = ("Bea", "Ray", "Kit", "Max", "Ivy", "Sol")
DATA_VERSION = 1
# Seconds between two edits of one live message: Discord lets a bot edit about 5 messages per 5 s
# in one channel, and the hand panels' refreshes go through other routes.
EDIT_INTERVAL = 1.2
# Seconds a finished or abandoned table stays in memory once its last posts are out (late clicks and
# panel refreshes right after the game); after that every path reads it from storage.
EVICT_GRACE = 5.0
LIVE = ("open", "playing")


# --------------------------------------------------------------------------------------------
# Model
# --------------------------------------------------------------------------------------------


@dataclass
class Seat:
    """One chair at the table: a human (user_id) or a bot (user_id None)."""

    user_id: int | None
    name: str
    bot: bool = False
    away: bool = False
    left: bool = False  # the player left mid-game: the bot plays the seat until they come back
    timeouts: int = 0
    acts: int = 0  # bumped every time anything acts for this seat: the stamp of its hand views

    @property
    def automatic(self) -> bool:
        """True when the heuristic bot acts for this seat (a bot, a human marked away or gone)."""
        return self.bot or self.away or self.left

    @property
    def label(self) -> str:
        if self.bot or self.user_id is None:
            return f"🤖 {self.name}"
        return f"<@{self.user_id}>"

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Seat:
        return cls(
            **{k: d[k] for k in ("user_id", "name", "bot", "away", "left", "timeouts", "acts") if k in d}
        )


@dataclass
class Table:
    """A live table: seats, settings and (once started) the engine game."""

    id: int
    guild_id: int
    channel_id: int
    host_id: int
    status: str
    ruleset: Ruleset
    preset: str
    seats: list[Seat | None]
    settings: dict[str, Any]
    game: Game | None = None
    game_no: int = 1
    message_id: int | None = None
    deadline: float | None = None  # unix seconds: when the current turn times out
    stamp: int = 0  # bumped by every accepted action: changes whenever the live message would
    started_at: int | None = None  # unix seconds
    rematch_id: int | None = None
    row: TableRow | None = field(default=None, repr=False)

    # ---- derived -------------------------------------------------------------------------
    @property
    def num_seats(self) -> int:
        return len(self.seats)

    def seat_of(self, user_id: int) -> int | None:
        for i, s in enumerate(self.seats):
            if s is not None and not s.bot and s.user_id == user_id:
                return i
        return None

    def humans(self) -> list[int]:
        return [s.user_id for s in self.seats if s is not None and not s.bot and s.user_id is not None]

    def empty_seats(self) -> list[int]:
        return [i for i, s in enumerate(self.seats) if s is None]

    def label(self, seat: int) -> str:
        s = self.seats[seat]
        return s.label if s is not None else f"seat {seat + 1}"

    def seats_to_act(self) -> list[int]:
        if self.game is None or self.status != "playing":
            return []
        return list(self.game.seats_to_act())

    def turn_seconds(self) -> int:
        """Seconds a human gets for the current phase (bids and passes use the bid timer)."""
        if self.game is not None and self.game.phase.name == "PLAY":
            return int(self.settings.get("play_seconds", DEFAULT_PLAY_SECONDS))
        return int(self.settings.get("bid_seconds", DEFAULT_BID_SECONDS))

    # ---- persistence ---------------------------------------------------------------------
    def to_data(self) -> dict[str, Any]:
        return {
            "v": DATA_VERSION,
            "ruleset": self.ruleset.to_dict(),
            "preset": self.preset,
            "seats": [s.to_dict() if s is not None else None for s in self.seats],
            "settings": self.settings,
            "game": self.game.to_dict() if self.game is not None else None,
            "game_no": self.game_no,
            "message_id": self.message_id,
            "deadline": self.deadline,
            "stamp": self.stamp,
            "started_at": self.started_at,
            "rematch_id": self.rematch_id,
        }

    @classmethod
    def from_row(cls, row: TableRow) -> Table:
        d = row.data
        game = Game.from_dict(d["game"]) if d.get("game") else None
        return cls(
            id=row.id,
            guild_id=row.guild_id,
            channel_id=row.channel_id,
            host_id=row.host_id,
            status=row.status,
            ruleset=Ruleset.from_dict(d["ruleset"]),
            preset=d.get("preset", "standard"),
            seats=[Seat.from_dict(s) if s is not None else None for s in d["seats"]],
            settings=dict(d.get("settings") or {}),
            game=game,
            game_no=d.get("game_no", 1),
            message_id=d.get("message_id"),
            deadline=d.get("deadline"),
            stamp=d.get("stamp", 0),
            started_at=d.get("started_at"),
            rematch_id=d.get("rematch_id"),
            row=row,
        )

    def copy(self) -> Table:
        """A working copy for one action: the game is cloned, seats are copied."""
        return dataclasses.replace(
            self,
            seats=[copy.copy(s) for s in self.seats],
            settings=dict(self.settings),
            game=self.game.clone() if self.game is not None else None,
        )


@dataclass
class Result:
    """What an action answers to the user who asked (always ephemeral).

    ``show_hand`` asks the caller to show (or refresh in place) that user's hand panel.
    ``stale`` marks a click on an old hand view.
    """

    ok: bool
    message: str = ""
    show_hand: bool = False
    stale: bool = False
    table: Table | None = None
    data: dict[str, Any] = field(default_factory=dict)


def ok(message: str = "", **kw: Any) -> Result:
    return Result(True, message, **kw)


def refuse(message: str, **kw: Any) -> Result:
    return Result(False, message, **kw)


MOVED_ON = "This hand has moved on: here is your current hand."
NO_TABLE = "There is no Spades table in this channel. Open one with `/spades new`."
GAME_OVER = "This game is over. Open a new table with `/spades new`."
CLOSED = "This table is closed. Open a new one with `/spades new`."


class Publisher(Protocol):
    """How the service talks to channels (Discord in production, a recorder in unit tests)."""

    async def send(
        self,
        channel_id: int,
        content: str,
        *,
        view: discord.ui.View | None = None,
        mention: int | None = None,
    ) -> int | None: ...

    async def edit(
        self, channel_id: int, message_id: int, content: str, *, view: discord.ui.View | None = None
    ) -> bool: ...

    async def delete(self, channel_id: int, message_id: int) -> bool: ...


class DiscordPublisher:
    """Publisher over the bot's HTTP client; never pings anyone unless ``mention`` names them."""

    def __init__(self, bot: discord.Client) -> None:
        self.bot = bot

    async def send(
        self,
        channel_id: int,
        content: str,
        *,
        view: discord.ui.View | None = None,
        mention: int | None = None,
    ) -> int | None:
        channel = self.bot.get_partial_messageable(channel_id)
        # A ping notifies exactly that one user, even if the text names others.
        allowed = (
            discord.AllowedMentions(
                users=[discord.Object(mention)], roles=False, everyone=False, replied_user=False
            )
            if mention
            else discord.AllowedMentions.none()
        )
        try:
            if view is not None:
                msg = await channel.send(content, view=view, allowed_mentions=allowed)
            else:
                msg = await channel.send(content, allowed_mentions=allowed)
        except discord.HTTPException as exc:
            log.warning("posting in channel %s failed: %s", channel_id, exc.status)
            return None
        return msg.id

    async def edit(
        self, channel_id: int, message_id: int, content: str, *, view: discord.ui.View | None = None
    ) -> bool:
        msg = self.bot.get_partial_messageable(channel_id).get_partial_message(message_id)
        try:
            await msg.edit(content=content, view=view, allowed_mentions=discord.AllowedMentions.none())
        except discord.NotFound:
            return False
        except discord.HTTPException as exc:
            log.warning("editing message %s failed: %s", message_id, exc.status)
            return False
        return True

    async def delete(self, channel_id: int, message_id: int) -> bool:
        msg = self.bot.get_partial_messageable(channel_id).get_partial_message(message_id)
        try:
            await msg.delete()
        except discord.HTTPException:
            return False
        return True


# --------------------------------------------------------------------------------------------
# Engine helpers (no rules here: only adapters to the engine API)
# --------------------------------------------------------------------------------------------


_ACTION_PHASE = {
    "bid": "BID",
    "blind": "BID",
    "misdeal": "BID",
    "play": "PLAY",
    "pass": "PASS",
    "draw": "DRAW",
}


def _event_kind(ev: Any) -> str:
    return type(ev).__name__


def now() -> float:
    return time.time()


def unix_now() -> int:
    return int(time.time())


def bot_action(game: Game, seat: int, seed: int | None = None) -> Any:
    """Ask the heuristic bot what ``seat`` should do now (an engine Action). It sees only the
    seat's own view, like a player would."""
    from engine.bots import get_bot  # imported late: the bots are heavier than the rules

    return get_bot("heuristic", seed).act(game.view(seat))


def card_text(card: int) -> str:
    return engine.card_pretty(card)


# --------------------------------------------------------------------------------------------
# House rules: `bag_limit=5 lose_score=-200 ten_for_200=on` (validated by the engine's Ruleset)
# --------------------------------------------------------------------------------------------

_ON = {"on", "true", "yes", "y", "1"}
_OFF = {"off", "false", "no", "n", "0"}
_NONE = {"off", "none", "null", "no", "-"}
#: values offered by autocomplete beyond on/off and the preset's own value
_SUGGEST: dict[str, tuple[str, ...]] = {
    "target_score": ("250", "300", "500", "750", "1000"),
    "lose_score": ("-200", "-250", "-500", "off"),
    "max_hands": ("5", "10", "off"),
    "bag_limit": ("5", "10", "off"),
    "bag_penalty": ("50", "100", "150"),
    "bag_value": ("0", "1"),
    "nil_value": ("50", "100"),
    "blind_nil_value": ("100", "200"),
    "blind_nil_pass": ("0", "1", "2", "3"),
    "nil_pass": ("0", "1", "2", "3"),
    "blind_nil_min_deficit": ("0", "100", "200"),
    "blind_bid_max": ("6", "7", "13"),
    "blind_bid_min_deficit": ("0", "100", "200"),
    "board": ("0", "3", "4"),
    "num_seats": ("2", "3", "4", "5", "6"),
    "team_size": ("2", "3"),
    "decks": ("1", "2"),
}


class HouseRulesError(ValueError):
    """A house-rules text that can't be read; the message says what was wrong and what is allowed."""


def rule_kinds() -> dict[str, str]:
    """Every ruleset option a table may change, with its kind: ``bool``, ``int`` or ``int | None``."""
    return {f.name: str(f.type) for f in dataclasses.fields(Ruleset) if f.name != "name"}


def _rule_value(name: str, kind: str, raw: str) -> Any:
    low = raw.strip().lower().replace("−", "-")
    if kind == "bool":
        if low in _ON:
            return True
        if low in _OFF:
            return False
        raise HouseRulesError(f"`{name}` is on or off, not `{raw[:20]}`.")
    if kind == "int | None" and low in _NONE:
        return None
    try:
        return int(low)
    except ValueError:
        extra = " (or `off`)" if kind == "int | None" else ""
        raise HouseRulesError(f"`{name}` takes a whole number{extra}, not `{raw[:20]}`.") from None


def parse_house_rules(text: str) -> dict[str, Any]:
    """``"bag_limit=5 ten_for_200=on"`` -> ``{"bag_limit": 5, "ten_for_200": True}``.

    Only reads the text; whether the options go together is the engine's call (``Ruleset``)."""
    kinds = rule_kinds()
    out: dict[str, Any] = {}
    for token in text.replace(",", " ").split():
        if "=" not in token:
            raise HouseRulesError(
                f"`{token[:30]}` has no value: write options as name=value, e.g. `bag_limit=5`."
            )
        name, raw = token.split("=", 1)
        key = name.strip().lower().replace("-", "_")
        if key not in kinds:
            raise HouseRulesError(f"`{name[:30]}` is not a rule. Rules: {', '.join(kinds)}.")
        out[key] = _rule_value(key, kinds[key], raw)
    return out


def format_rules(options: dict[str, Any]) -> str:
    """The house-rules text for options (the inverse of ``parse_house_rules``)."""

    def text(v: Any) -> str:
        if v is None:
            return "off"
        if isinstance(v, bool):
            return "on" if v else "off"
        return str(v)

    return " ".join(f"{k}={text(v)}" for k, v in options.items())


def check_rules(preset: str, options: dict[str, Any]) -> Ruleset:
    """The ruleset for a preset with house rules; raises HouseRulesError saying what is wrong."""
    try:
        return Ruleset.preset(preset, **options)
    except (ValueError, TypeError) as exc:
        raise HouseRulesError(f"Those rules don't go together: {str(exc).rstrip('.')}.") from None


def rules_suggestions(text: str, preset: str | None = None) -> list[tuple[str, str]]:
    """Autocomplete for the house-rules option: (label, full value) pairs, at most 25, each under
    Discord's 100 characters. Completes the last word: an option name, then its values."""
    kinds = rule_kinds()
    try:
        base = Ruleset.preset(preset or "standard")
    except (ValueError, TypeError):
        base = Ruleset()
    done, _, last = text.rpartition(" ") if not text.endswith(" ") else (text.rstrip(), "", "")
    prefix = (done.strip() + " ") if done.strip() else ""
    used = {t.split("=", 1)[0].lower() for t in prefix.split()}
    out: list[tuple[str, str]] = []
    if "=" in last:
        name, _, partial = last.partition("=")
        key = name.lower().replace("-", "_")
        kind = kinds.get(key)
        if kind is None:
            return []
        current = format_rules({key: getattr(base, key)}).split("=", 1)[1]
        values = ["on", "off"] if kind == "bool" else [current, *_SUGGEST.get(key, ())]
        for v in dict.fromkeys(values):
            if v.startswith(partial.lower()):
                note = " (preset)" if v == current else ""
                out.append((f"{prefix}{key}={v}{note}", f"{prefix}{key}={v}"))
    else:
        partial = last.lower().replace("-", "_")
        names = [k for k in kinds if k not in used and k.startswith(partial)]
        names += [k for k in kinds if k not in used and partial in k and k not in names]
        for key in names:
            now_ = format_rules({key: getattr(base, key)}).split("=", 1)[1]
            out.append((f"{prefix}{key}=… (now {now_})", f"{prefix}{key}="))
    return [(n[:100], v) for n, v in out if len(v) <= 100][:25]


# --------------------------------------------------------------------------------------------
# The service
# --------------------------------------------------------------------------------------------


class TableService:
    """Owns every live table of this bot process."""

    def __init__(self, bot: SpadesBot, *, publisher: Publisher | None = None) -> None:
        self.bot = bot
        self.storage = bot.storage
        config = getattr(bot, "config", None)
        self.time_scale: float = float(getattr(config, "time_scale", 1.0))
        self.deal_seed: int | None = getattr(config, "deal_seed", None)
        self.publisher: Publisher = publisher or DiscordPublisher(bot)
        self.tables: dict[int, Table] = {}
        self.by_channel: dict[int, int] = {}
        self._locks: dict[int, asyncio.Lock] = {}
        self._drivers: dict[int, asyncio.Task[None]] = {}
        self._renders: dict[int, asyncio.Task[None]] = {}
        self._dirty: set[int] = set()
        self._repost: set[int] = set()
        self._last_edit: dict[int, float] = {}
        self._outbox: dict[int, asyncio.Queue[Callable[[], Awaitable[None]]]] = {}
        self._posters: dict[int, asyncio.Task[None]] = {}
        # the latest ephemeral hand panel per (table, user), refreshed when their turn comes
        self._panels: dict[tuple[int, int], tuple[discord.Interaction, float]] = {}
        self._panel_tasks: set[asyncio.Task[None]] = set()
        self._evictions: dict[int, asyncio.Task[None]] = {}
        self.evict_grace: float = EVICT_GRACE
        self._closed = False

    # ---- lookup --------------------------------------------------------------------------
    def get(self, table_id: int) -> Table | None:
        return self.tables.get(table_id)

    def in_channel(self, channel_id: int) -> Table | None:
        tid = self.by_channel.get(channel_id)
        return self.tables.get(tid) if tid is not None else None

    def lock(self, table_id: int) -> asyncio.Lock:
        return self._locks.setdefault(table_id, asyncio.Lock())

    def _index(self, table: Table) -> None:
        self.tables[table.id] = table
        if table.status in LIVE:
            self.by_channel[table.channel_id] = table.id
        else:
            if self.by_channel.get(table.channel_id) == table.id:
                del self.by_channel[table.channel_id]
            self._evict_soon(table.id)

    async def load(self, table_id: int) -> Table | None:
        """The table from memory, or (a closed table that was evicted) read from storage; the
        loaded copy is not kept."""
        t = self.tables.get(table_id)
        if t is not None:
            return t
        row = await self.storage.get_table(table_id)
        return Table.from_row(row) if row is not None else None

    async def last_in_channel(self, channel_id: int) -> Table | None:
        """The channel's live table, else its most recent table (finished or abandoned)."""
        t = self.in_channel(channel_id)
        if t is not None:
            return t
        row = await self.storage.latest_table_in(channel_id)
        return Table.from_row(row) if row is not None else None

    async def _find(self, table_id: int | None, channel_id: int | None) -> Table | Result:
        """The table an action names (by id, else the channel's live one), or the refusal to give."""
        if table_id is None:
            t = self.in_channel(channel_id) if channel_id is not None else None
            return t if t is not None else refuse(NO_TABLE)
        t = self.tables.get(table_id)
        if t is not None:
            return t
        # not in memory: a closed table (evicted) or none at all
        row = await self.storage.get_table(table_id)
        if row is None:
            return refuse(NO_TABLE)
        return refuse(GAME_OVER if row.status == "finished" else CLOSED)

    # ---- eviction: closed tables leave memory ---------------------------------------------
    def _evict_soon(self, table_id: int) -> None:
        if self._closed:
            return
        task = self._evictions.get(table_id)
        if task is None or task.done():
            self._evictions[table_id] = asyncio.create_task(
                self._evict_when_quiet(table_id), name=f"evict-{table_id}"
            )

    async def _evict_when_quiet(self, table_id: int) -> None:
        """After the grace period, once the table's posts and live-message edits are out, drop
        everything this service keeps for it (a rematch or a reload may have made it live again)."""
        since = time.monotonic()
        while time.monotonic() - since < self.evict_grace:  # (read each time: tests shorten it)
            await asyncio.sleep(min(0.25, self.evict_grace))
        while True:
            busy = [
                task
                for task in (self._posters.get(table_id), self._renders.get(table_id))
                if task is not None and not task.done()
            ]
            if busy:
                await asyncio.wait(busy)
            elif table_id in self._dirty or self.lock(table_id).locked():
                await asyncio.sleep(0.05)
            else:
                break
        t = self.tables.get(table_id)
        if t is None or t.status in LIVE:
            return
        self._drop(table_id)

    def _drop(self, table_id: int) -> None:
        self.tables.pop(table_id, None)
        self._locks.pop(table_id, None)
        self._drivers.pop(table_id, None)
        self._renders.pop(table_id, None)
        self._dirty.discard(table_id)
        self._repost.discard(table_id)
        self._last_edit.pop(table_id, None)
        self._outbox.pop(table_id, None)
        self._posters.pop(table_id, None)
        self._evictions.pop(table_id, None)
        for key in [k for k in self._panels if k[0] == table_id]:
            del self._panels[key]

    # ---- start-up / shutdown -------------------------------------------------------------
    async def restore(self) -> int:
        """Load every live table from storage and restart its timers and bot turns."""
        rows = await self.storage.live_tables()
        for row in rows:
            try:
                table = Table.from_row(row)
            except Exception:
                log.exception("table %s could not be restored", row.id)
                continue
            self._index(table)
            self._schedule(table)
            self.render_soon(table.id)
        log.info("restored %d live table(s)", len(rows))
        return len(rows)

    async def close(self, *, drain: float = 2.0) -> None:
        """Stop timers and bot turns, give queued channel posts (a hand's result, say) ``drain``
        seconds to go out, then stop everything. The tables themselves are already saved."""
        self._closed = True
        drivers = list(self._drivers.values())
        for t in drivers:
            t.cancel()
        posters = [t for t in self._posters.values() if not t.done()]
        if posters and drain > 0:
            await asyncio.wait(posters, timeout=drain)
        tasks = [
            *drivers,
            *self._renders.values(),
            *self._posters.values(),
            *self._panel_tasks,
            *self._evictions.values(),
        ]
        for t in tasks:
            t.cancel()
        for t in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await t

    # ---- creating tables -----------------------------------------------------------------
    async def create(
        self,
        *,
        guild_id: int,
        channel_id: int,
        host_id: int,
        host_name: str,
        preset: str | None = None,
        target: int | None = None,
        play_seconds: int | None = None,
        bid_seconds: int | None = None,
        options: dict[str, Any] | None = None,
        rules: str | None = None,
        seats: list[Seat | None] | None = None,
        rematch_of: int | None = None,
    ) -> Result:
        """Open a table in a channel with the host seated (or ``seats`` for a rematch).
        ``rules`` is the house-rules text (``bag_limit=5 ten_for_200=on``) over the preset."""
        settings = await self._guild_settings(guild_id)
        name = preset or settings.get("default_preset") or "standard"
        try:
            name = Ruleset.preset(name).name  # aliases and spellings ("Classic Online") are fine
        except (ValueError, TypeError):
            presets = ", ".join(engine.PRESETS)
            return refuse(f"`{str(name)[:30]}` is not a preset. Presets: {presets}.")
        overrides: dict[str, Any] = dict(settings.get("options") or {}) if preset is None else {}
        overrides.update(options or {})
        if target is not None:
            overrides["target_score"] = target
        try:
            if rules:
                overrides.update(parse_house_rules(rules))
            ruleset = check_rules(name, overrides)
        except HouseRulesError as exc:
            return refuse(str(exc))
        timers = {}
        for key, value, default in (
            ("play_seconds", play_seconds, DEFAULT_PLAY_SECONDS),
            ("bid_seconds", bid_seconds, DEFAULT_BID_SECONDS),
        ):
            v = value if value is not None else int(settings.get(key, default))
            if not MIN_TURN_SECONDS <= v <= MAX_TURN_SECONDS:
                return refuse(
                    f"Turn timers must be between {MIN_TURN_SECONDS} and {MAX_TURN_SECONDS} "
                    f"seconds (you asked for {v})."
                )
            timers[key] = v
        n = ruleset.num_seats
        if seats is None:
            seat_list: list[Seat | None] = [None] * n
            seat_list[0] = Seat(host_id, host_name)
        else:
            # players who left the last game don't get their seat back in the rematch
            seat_list = [copy.copy(s) if s is not None and not s.left else None for s in seats][:n]
            for s in seat_list:
                if s is not None:
                    s.away, s.timeouts, s.acts = False, 0, 0
            if all(s is None or s.bot for s in seat_list):
                return refuse("Nobody from that game is still seated: open a new table with `/spades new`.")
            if host_id not in [s.user_id for s in seat_list if s is not None and not s.bot]:
                return refuse(
                    "You left that game, so you can't open its rematch: `/spades new` opens a table."
                )
        table = Table(
            id=0,
            guild_id=guild_id,
            channel_id=channel_id,
            host_id=host_id,
            status="open",
            ruleset=ruleset,
            preset=name,
            seats=seat_list,
            settings=timers,
        )
        if rematch_of is not None:
            table.settings["rematch_of"] = rematch_of
        try:
            row = await self.storage.create_table(guild_id, channel_id, host_id, table.to_data())
        except ChannelBusy:
            existing = self.in_channel(channel_id)
            where = f" (table {existing.id})" if existing else ""
            return refuse(
                f"This channel already has a live table{where}. Join it, or finish or abandon it "
                "first (`/spades abandon`)."
            )
        table.id, table.row = row.id, row
        self._index(table)
        log.info("table %s opened in channel %s (%s)", table.id, channel_id, ruleset.name)
        if seats is not None and not table.empty_seats():
            # a rematch with every seat taken starts at once
            async with self.lock(table.id):
                result = await self._start_locked(table.id, host_id, fill=False)
            if result.ok:
                return ok(f"Rematch started at table {table.id}.", table=self.tables[table.id])
        self.render_soon(table.id, repost=True)
        return ok(f"Table {table.id} is open: {ruleset.describe()}. Press **Join** to sit down.", table=table)

    async def _guild_settings(self, guild_id: int) -> dict[str, Any]:
        try:
            return dict(await self.storage.guild_settings(guild_id))
        except Exception:
            log.exception("reading settings of guild %s failed", guild_id)
            return {}

    # ---- the one path for every change ----------------------------------------------------
    async def _commit(
        self,
        old: Table,
        new: Table,
        *,
        events: Iterable[Any] = (),
        touched: Iterable[int] = (),
        actor: int | None = None,
    ) -> Result | None:
        """Persist ``new`` (a copy of ``old``), then swap it in. Caller holds the table's lock.

        Returns a refusal if storage refused; None on success.
        """
        events = list(events)
        touched = list(touched)
        new.stamp = old.stamp + 1
        for s in touched:
            seat = new.seats[s]
            if seat is not None:
                seat.acts += 1
        hand: HandResult | None = None
        game_done: FinishedGame | None = None
        kinds = [_event_kind(e) for e in events]
        if new.game is not None and "HandScored" in kinds and new.game.hand_records:
            record = new.game.hand_records[-1]
            hand = HandResult(
                table_id=new.id,
                game_no=new.game_no,
                hand_no=len(new.game.hand_records),
                record=record,
                players=self._players(new, with_side=False),
            )
        if new.game is not None and "GameOver" in kinds:
            new.status = "finished"
            new.deadline = None
            game_done = self._finished_game(new)
        elif new.status == "playing":
            new.deadline = self._deadline(old, new, touched)
        assert old.row is not None
        row = dataclasses.replace(old.row, status=new.status, data=new.to_data(), host_id=new.host_id)
        try:
            new.row = await self.storage.save_table(row, hand=hand, game=game_done)
        except StaleTable:
            log.warning("table %s changed under us; reloading", old.id)
            fresh = await self.storage.get_table(old.id)
            if fresh is not None:
                reloaded = Table.from_row(fresh)
                self._index(reloaded)
                self._schedule(reloaded)
                self.render_soon(reloaded.id)
            return refuse("The table changed while you clicked; please try again.")
        except Exception:
            log.exception("saving table %s failed", old.id)
            return refuse("Sorry, I couldn't save that just now; nothing changed. Please try again.")
        self._index(new)
        if new.status != old.status:
            log.info("table %s is %s", new.id, new.status)
        self._after(old, new, events, actor)
        return None

    def _players(self, t: Table, *, with_side: bool) -> list[dict[str, Any]]:
        out = []
        for i, s in enumerate(t.seats):
            p: dict[str, Any] = {
                "seat": i,
                "user_id": None if s is None or s.bot else s.user_id,
                "is_bot": s is None or s.bot,
            }
            if with_side:
                p["side"] = t.ruleset.side_of(i)
                p["name"] = s.name if s is not None else f"seat {i + 1}"
            out.append(p)
        return out

    def _finished_game(self, t: Table) -> FinishedGame:
        g = t.game
        assert g is not None
        sides = [
            {"seats": list(seats), "score": int(g.scores[i]), "bags": int(g.bags[i])}
            for i, seats in enumerate(t.ruleset.sides)
        ]
        return FinishedGame(
            table_id=t.id,
            guild_id=t.guild_id,
            channel_id=t.channel_id,
            game_no=t.game_no,
            ruleset=t.ruleset.to_dict(),
            hands=len(g.hand_records),
            winner_side=g.winner,
            started_at=t.started_at or unix_now(),
            finished_at=unix_now(),
            sides=sides,
            players=self._players(t, with_side=True),
        )

    def _deadline(self, old: Table, new: Table, touched: Iterable[int] = ()) -> float | None:
        """When the humans to act now time out. Someone who was already on the clock in the same
        phase of the same hand, and did not just act, keeps their deadline: one partner's pass (or
        a seat handed to the bot) must not restart the other's timer."""
        humans = set(self._humans_to_act(new))
        if not humans:
            return None
        if (
            old.deadline is not None
            and old.game is not None
            and new.game is not None
            and old.game.hand_no == new.game.hand_no
            and old.game.phase.name == new.game.phase.name
            and humans <= set(self._humans_to_act(old)) - set(touched)
        ):
            return old.deadline
        return now() + new.turn_seconds() * self.time_scale

    def _humans_to_act(self, t: Table) -> list[int]:
        return [s for s in t.seats_to_act() if (seat := t.seats[s]) is not None and not seat.automatic]

    def _after(self, old: Table, new: Table, events: list[Any], actor: int | None = None) -> None:
        """Everything that follows an accepted action: posts, the live message, timers, panels."""
        from bot import render

        kinds = [_event_kind(ev) for ev in events]
        for ev in events:
            kind = _event_kind(ev)
            if kind == "HandScored":
                text = render.hand_post(new, ev)
                self._post(new.id, new.channel_id, text)
                if "GameOver" not in kinds:
                    # keep the live table at the bottom of the channel, below the hand's post
                    self._enqueue(new.id, self._repost_job(new.id))
            elif kind == "GameOver":
                from bot.views import game_over_view

                text = render.game_post(new)
                self._post(new.id, new.channel_id, text, view=game_over_view(new))
        self.render_soon(new.id)
        self._schedule(new)
        self._refresh_panels(old, new, actor)

    # ---- outbox: ordered channel posts -------------------------------------------------------
    def _post(
        self,
        table_id: int,
        channel_id: int,
        content: str,
        *,
        view: discord.ui.View | None = None,
        mention: int | None = None,
    ) -> None:
        async def job() -> None:
            await self.publisher.send(channel_id, content, view=view, mention=mention)

        self._enqueue(table_id, job)

    def _repost_job(self, table_id: int) -> Callable[[], Awaitable[None]]:
        async def job() -> None:
            self.render_soon(table_id, repost=True)

        return job

    def _enqueue(self, table_id: int, job: Callable[[], Awaitable[None]]) -> None:
        if self._closed:
            return
        q = self._outbox.setdefault(table_id, asyncio.Queue())
        q.put_nowait(job)
        task = self._posters.get(table_id)
        if task is None or task.done():
            self._posters[table_id] = asyncio.create_task(self._drain(table_id), name=f"outbox-{table_id}")

    async def _drain(self, table_id: int) -> None:
        q = self._outbox[table_id]
        while not q.empty():
            job = q.get_nowait()
            try:
                await job()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("a post for table %s failed", table_id)

    # ---- the live message ----------------------------------------------------------------------
    def render_soon(self, table_id: int, *, repost: bool = False) -> None:
        """Coalesce edits: one edit per table after a short debounce, at most ~1 per second."""
        if self._closed or table_id not in self.tables:  # (an evicted table has nothing to show)
            return
        if repost:
            self._repost.add(table_id)
        self._dirty.add(table_id)
        task = self._renders.get(table_id)
        if task is None or task.done():
            self._renders[table_id] = asyncio.create_task(
                self._render_loop(table_id), name=f"render-{table_id}"
            )

    async def _render_loop(self, table_id: int) -> None:
        debounce = 0.25 * min(self.time_scale, 1.0)
        interval = EDIT_INTERVAL * min(self.time_scale, 1.0)
        while table_id in self._dirty:
            await asyncio.sleep(debounce)
            wait = self._last_edit.get(table_id, 0.0) + interval - time.monotonic()
            if wait > 0:
                await asyncio.sleep(wait)
            self._dirty.discard(table_id)
            try:
                await self._render_now(table_id)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("rendering table %s failed", table_id)
            self._last_edit[table_id] = time.monotonic()

    async def _render_now(self, table_id: int) -> None:
        from bot import render
        from bot.views import table_view

        t = self.tables.get(table_id)
        if t is None:
            return
        content = render.table_message(t)
        view = table_view(t)
        repost = table_id in self._repost
        self._repost.discard(table_id)
        if (
            t.message_id is not None
            and not repost
            and await self.publisher.edit(t.channel_id, t.message_id, content, view=view)
        ):
            return
        # (re)post at the bottom of the channel; the old one is removed to keep one live message
        old_id = t.message_id
        new_id = await self.publisher.send(t.channel_id, content, view=view)
        if new_id is None:
            return
        if old_id is not None:
            await self.publisher.delete(t.channel_id, old_id)
        await self._set_message_id(table_id, new_id)

    async def _set_message_id(self, table_id: int, message_id: int) -> None:
        async with self.lock(table_id):
            t = self.tables.get(table_id)
            if t is None or t.row is None:
                return
            t.message_id = message_id
            row = dataclasses.replace(t.row, status=t.status, data=t.to_data())
            try:
                t.row = await self.storage.save_table(row)
            except Exception:
                log.exception("saving the message id of table %s failed", table_id)

    async def repost(self, channel_id: int) -> Result:
        t = self.in_channel(channel_id)
        if t is None:
            return refuse(NO_TABLE)
        self.render_soon(t.id, repost=True)
        return ok("Here's the table, at the bottom of the channel.")

    # ---- hand panels: refresh the user's latest ephemeral when their turn comes -------------------
    def remember_panel(self, table_id: int, user_id: int, interaction: discord.Interaction) -> None:
        self._panels[(table_id, user_id)] = (interaction, time.monotonic())

    def _refresh_panels(self, old: Table, new: Table, actor: int | None = None) -> None:
        before = set(old.seats_to_act())
        after = set(new.seats_to_act())
        for seat in after | before:
            s = new.seats[seat]
            if s is None or s.bot or s.user_id is None or s.user_id == actor:
                continue
            remembered = self._panels.get((new.id, s.user_id))
            if remembered is None:
                continue
            inter, since = remembered
            if time.monotonic() - since > 14 * 60:  # interaction tokens live 15 minutes
                del self._panels[(new.id, s.user_id)]
                continue
            if (
                (seat in after) == (seat in before)
                and new.game is not None
                and old.game is not None
                and new.game.hand_no == old.game.hand_no
            ):
                continue
            task = asyncio.create_task(self._refresh_panel(new.id, s.user_id, inter))
            self._panel_tasks.add(task)
            task.add_done_callback(self._panel_tasks.discard)

    async def _refresh_panel(self, table_id: int, user_id: int, inter: discord.Interaction) -> None:
        from bot.views import hand_panel

        content, view = hand_panel(self, table_id, user_id)
        try:
            await inter.edit_original_response(
                content=content, view=view, allowed_mentions=discord.AllowedMentions.none()
            )
        except discord.HTTPException:
            self._panels.pop((table_id, user_id), None)

    # ---- timers and bot turns -------------------------------------------------------------
    def _schedule(self, t: Table) -> None:
        """(Re)start the table's driver: bot turns, reminders and turn timeouts."""
        old = self._drivers.pop(t.id, None)
        if old is not None and not old.done() and old is not asyncio.current_task():
            old.cancel()
        if self._closed or t.status != "playing" or t.game is None or not t.seats_to_act():
            return
        self._drivers[t.id] = asyncio.create_task(self._drive(t.id, t.stamp), name=f"driver-{t.id}")

    async def _drive(self, table_id: int, stamp: int) -> None:
        t = self.tables.get(table_id)
        if t is None or t.stamp != stamp:
            return
        auto = [s for s in t.seats_to_act() if (seat := t.seats[s]) is not None and seat.automatic]
        if auto:
            # bots take a human-like moment, unless every player has left: then nobody is watching
            # and the bots finish the game (it still counts) without keeping the channel busy
            everyone_left = not any(s is not None and not s.bot and not s.left for s in t.seats)
            pause = 0.02 if everyone_left else random.uniform(1.0, 1.5)
            await asyncio.sleep(pause * self.time_scale)
            await self._auto(table_id, stamp, auto[:1], timed_out=False)
            return
        humans = self._humans_to_act(t)
        if not humans:
            return
        if t.deadline is None:  # (only for tables saved without one) start the clock now
            t.deadline = now() + t.turn_seconds() * self.time_scale
        deadline = t.deadline  # the same for every table state with this stamp
        lead = min(15.0, t.turn_seconds() / 4) * self.time_scale
        remind_at = deadline - lead
        if now() < remind_at:
            await asyncio.sleep(remind_at - now())
            t = self.tables.get(table_id)
            if t is None or t.stamp != stamp:
                return
            for s in humans:
                seat = t.seats[s]
                if seat is not None and seat.user_id is not None:
                    self._post(
                        t.id,
                        t.channel_id,
                        f"⏰ <@{seat.user_id}>, it's your turn at table {t.id}: "
                        f"the bot plays for you <t:{int(deadline)}:R>.",
                        mention=seat.user_id,
                    )
        if now() < deadline:
            await asyncio.sleep(deadline - now())
        await self._auto(table_id, stamp, humans, timed_out=True)

    async def _auto(self, table_id: int, stamp: int, seats: list[int], *, timed_out: bool) -> None:
        """The heuristic bot acts for ``seats`` (bots, away players, or players who timed out)."""
        async with self.lock(table_id):
            t = self.tables.get(table_id)
            if t is None or t.stamp != stamp or t.game is None or t.status != "playing":
                return
            new = t.copy()
            assert new.game is not None
            events: list[Any] = []
            acted: list[int] = []
            for s in seats:
                done = False
                # a look does not end the turn: the bot goes on to bid in the same step
                for _ in range(3):
                    if s not in new.game.seats_to_act():
                        break
                    try:
                        action = bot_action(new.game, s, self.deal_seed)
                        events.extend(new.game.apply(action) or [])
                    except (engine.IllegalAction, ValueError) as exc:
                        # never log the message: it may name the seat's cards
                        log.error(
                            "the bot chose an illegal action at table %s (%s)",
                            table_id,
                            getattr(exc, "code", type(exc).__name__),
                        )
                        break
                    done = True
                    if not isinstance(action, engine.Look):
                        break
                if not done:
                    continue
                acted.append(s)
                seat = new.seats[s]
                if timed_out and seat is not None and not seat.bot:
                    seat.timeouts += 1
                    if seat.timeouts >= AWAY_AFTER_TIMEOUTS:
                        seat.away = True
            if not acted:
                return
            refusal = await self._commit(t, new, events=events, touched=acted)
            if refusal is not None:
                # storage trouble: try again shortly rather than stall the table
                await asyncio.sleep(max(0.5, 2.0 * self.time_scale))
                cur = self.tables.get(table_id)
                if cur is not None:
                    self._schedule(cur)
                return
        if timed_out:
            for s in acted:
                seat = new.seats[s]
                if seat is None or seat.user_id is None:
                    continue
                note = (
                    f"⏱ {seat.label} ran out of time; the bot acted for them."
                    if not seat.away
                    else f"💤 {seat.label} missed two turns in a row and is marked away; the bot plays "
                    "for them until they press **I'm back**."
                )
                self._post(t.id, t.channel_id, note)

    # ---- seating ----------------------------------------------------------------------------
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
        found = await self._find(table_id, channel_id)
        if isinstance(found, Result):
            return found
        async with self.lock(found.id):
            t = self.tables.get(found.id) or found
            if t.status not in LIVE:
                return refuse(CLOSED)
            if t.status != "open":
                mine = t.seat_of(user_id)
                if mine is not None and (t.seats[mine] or Seat(None, "")).left:
                    return await self._take_back(t, mine, f"Welcome back! Seat {mine + 1} is yours again.")
                if mine is not None:
                    return refuse("You're already playing at this table.", show_hand=t.status == "playing")
                return refuse("This game has already started. You can watch, and join the next one.")
            current = t.seat_of(user_id)
            empty = t.empty_seats()
            if seat is not None:
                if not 1 <= seat <= t.num_seats:
                    return refuse(f"Seats are numbered 1 to {t.num_seats}.")
                if t.seats[seat - 1] is not None and seat - 1 != current:
                    return refuse(
                        f"Seat {seat} is taken by {t.label(seat - 1)}. Free seats: {self._seat_list(empty)}."
                    )
                want = seat - 1
            elif team is not None:
                sides = t.ruleset.sides
                if not 1 <= team <= len(sides):
                    return refuse(f"Teams are numbered 1 to {len(sides)}.")
                free = [s for s in sides[team - 1] if t.seats[s] is None]
                if current is not None and current in sides[team - 1]:
                    return refuse(f"You're already on team {team}.")
                if not free:
                    return refuse(f"Team {team} is full. Free seats: {self._seat_list(empty)}.")
                want = free[0]
            else:
                if current is not None:
                    return refuse(f"You're already at this table (seat {current + 1}).")
                if not empty:
                    return refuse(f"This table is full ({t.num_seats}/{t.num_seats}).")
                want = empty[0]
            if current == want:
                return refuse(f"You're already in seat {want + 1}.")
            new = t.copy()
            moved = new.seats[current] if current is not None else None
            if current is not None:
                new.seats[current] = None
            new.seats[want] = moved or Seat(user_id, name)
            if moved is not None:
                moved.name = name
            refusal = await self._commit(t, new)
            if refusal:
                return refusal
            verb = "moved to" if current is not None else "took"
            return ok(f"You {verb} seat {want + 1}{self._team_note(new, want)}.", table=new)

    def _team_note(self, t: Table, seat: int) -> str:
        partner = t.ruleset.partner_of(seat)
        if partner is None:
            return ""
        who = t.label(partner) if t.seats[partner] is not None else "an empty seat"
        return f" (team {t.ruleset.side_of(seat) + 1}, partner: {who})"

    @staticmethod
    def _seat_list(seats: list[int]) -> str:
        return ", ".join(str(s + 1) for s in seats) or "none"

    async def leave(
        self, channel_id: int, user_id: int, *, table_id: int | None = None, confirmed: bool = False
    ) -> Result:
        """Leave a seat. Before the start the seat is free again (a leaving host hands the table to
        the next human, or closes it); during a game the bot plays the seat until the player comes
        back (after a confirmation: ``data["confirm_leave"]`` asks for it)."""
        found = await self._find(table_id, channel_id)
        if isinstance(found, Result):
            return found
        async with self.lock(found.id):
            t = self.tables.get(found.id) or found
            seat = t.seat_of(user_id)
            if t.status not in ("open", "playing"):
                return refuse(CLOSED)
            if seat is None:
                return refuse("You're not seated at this table.")
            if t.status == "playing":
                return await self._leave_game(t, seat, user_id, confirmed=confirmed)
            new = t.copy()
            new.seats[seat] = None
            if user_id == t.host_id:
                # the next human after the host's seat, round the table
                others = sorted(new.humans(), key=lambda u: ((new.seat_of(u) or 0) - seat) % new.num_seats)
                if not others:
                    new.status = "abandoned"
                    refusal = await self._commit(t, new)
                    if refusal:
                        return refusal
                    return ok("You left and the table is closed (nobody else was seated).")
                new.host_id = others[0]
            refusal = await self._commit(t, new)
            if refusal:
                return refusal
            note = (
                f" {new.label(new.seat_of(new.host_id) or 0)} is the host now."
                if user_id == t.host_id
                else ""
            )
            return ok(f"You left seat {seat + 1}.{note}")

    async def _leave_game(self, t: Table, seat: int, user_id: int, *, confirmed: bool) -> Result:
        me = t.seats[seat]
        assert me is not None
        if me.left:
            return refuse(
                "You already left: the bot plays your seat. Press **I'm back** or use `/join` to "
                "take it back."
            )
        if not confirmed:
            return ok(
                f"Leave table {t.id}? The bot plays your seat for the rest of the game (it still counts "
                "in your stats); you can come back with **I'm back** or `/join`.",
                data={"confirm_leave": t.id},
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
        refusal = await self._commit(t, new, touched=[seat])
        if refusal:
            return refusal
        note = (
            "the bots finish the game (it counts for everyone)"
            if not any(s is not None and not s.bot and not s.left for s in new.seats)
            else "🤖 the bot plays their seat until they come back"
        )
        self._post(t.id, t.channel_id, f"🚪 {ns.label} left table {t.id}: {note}.")
        return ok("You left the game: the bot plays your seat. Press **I'm back** or `/join` to come back.")

    async def add_bot(
        self, channel_id: int, user_id: int, *, seat: int | None = None, is_admin: bool = False
    ) -> Result:
        t = self.in_channel(channel_id)
        if t is None:
            return refuse(NO_TABLE)
        async with self.lock(t.id):
            t = self.tables.get(t.id) or t
            if user_id != t.host_id and not is_admin:
                return refuse(f"Only the host (<@{t.host_id}>) can add bots.")
            if t.status != "open":
                return refuse("This game has already started.")
            empty = t.empty_seats()
            if not empty:
                return refuse(f"This table is full ({t.num_seats}/{t.num_seats}).")
            if seat is not None:
                if not 1 <= seat <= t.num_seats:
                    return refuse(f"Seats are numbered 1 to {t.num_seats}.")
                if seat - 1 not in empty:
                    return refuse(f"Seat {seat} is taken. Free seats: {self._seat_list(empty)}.")
                target = seat - 1
            else:
                target = empty[0]
            new = t.copy()
            new.seats[target] = self._bot_seat(new, target)
            refusal = await self._commit(t, new)
            if refusal:
                return refusal
            return ok(f"🤖 {new.seats[target].name} sits in seat {target + 1}.")  # type: ignore[union-attr]

    @staticmethod
    def _bot_seat(t: Table, seat: int) -> Seat:
        used = {s.name for s in t.seats if s is not None and s.bot}
        name = next((n for n in BOT_NAMES[seat:] + BOT_NAMES[:seat] if n not in used), f"Bot {seat + 1}")
        return Seat(None, name, bot=True)

    async def start(
        self, table_id: int | None, user_id: int, *, channel_id: int | None = None, fill: bool = False
    ) -> Result:
        found = await self._find(table_id, channel_id)
        if isinstance(found, Result):
            return found
        async with self.lock(found.id):
            return await self._start_locked(found.id, user_id, fill=fill)

    async def _start_locked(self, table_id: int, user_id: int, *, fill: bool) -> Result:
        t = self.tables.get(table_id)
        if t is None:
            return refuse(CLOSED)
        if t.status != "open":
            return refuse("This game has already started.")
        if user_id != t.host_id:
            return refuse(f"Only the host (<@{t.host_id}>) can start the game.")
        empty = t.empty_seats()
        if empty and not fill:
            n = len(empty)
            return refuse(
                f"{n} seat{'s are' if n > 1 else ' is'} empty ({self._seat_list(empty)}). "
                "Wait for players, or fill the empty seats with bots and start.",
                data={"offer_fill": True},
            )
        new = t.copy()
        for s in empty:
            new.seats[s] = self._bot_seat(new, s)
        try:
            new.game = Game.new(new.ruleset, seed=self.deal_seed)
        except Exception:
            log.exception("dealing at table %s failed", table_id)
            return refuse("Sorry, the cards could not be dealt. Please try again.")
        new.status = "playing"
        new.started_at = unix_now()
        refusal = await self._commit(t, new)
        if refusal:
            return refusal
        return ok("The game is on! Press **My hand** to see your cards.", show_hand=True, table=new)

    async def abandon(
        self,
        channel_id: int,
        user_id: int,
        *,
        is_admin: bool = False,
        confirmed: bool = False,
        table_id: int | None = None,
    ) -> Result:
        found = await self._find(table_id, channel_id)
        if isinstance(found, Result):
            return found
        t = found
        if t.status not in LIVE:
            return refuse(NO_TABLE)
        if user_id != t.host_id and not is_admin:
            return refuse(
                f"Only the host (<@{t.host_id}>) or someone with Manage Server can abandon this table."
            )
        if not confirmed:
            return ok(f"Abandon table {t.id}? The game so far is not counted.", data={"confirm": t.id})
        async with self.lock(t.id):
            t = self.tables.get(t.id) or t
            if t.status not in LIVE:
                return refuse("This table is already closed.")
            new = t.copy()
            new.status = "abandoned"
            new.deadline = None
            refusal = await self._commit(t, new)
            if refusal:
                return refusal
        self._post(t.id, t.channel_id, f"🛑 Table {t.id} was abandoned by <@{user_id}>.")
        return ok(f"Table {t.id} is abandoned.")

    async def rematch(self, table_id: int, user_id: int, name: str) -> Result:
        """Open the rematch of a finished game (in memory or, once evicted, read from storage)."""
        try:
            async with self.lock(table_id):
                return await self._rematch_locked(table_id, user_id, name)
        finally:
            if table_id not in self.tables and not self.lock(table_id).locked():
                self._locks.pop(table_id, None)  # an evicted table's lock is not kept either

    async def _rematch_locked(self, table_id: int, user_id: int, name: str) -> Result:
        t = await self.load(table_id)
        if t is None:
            return refuse("That table no longer exists.")
        if t.status != "finished":
            return refuse("That game isn't over yet.")
        if t.seat_of(user_id) is None:
            return refuse(
                "Only the players of that game can ask for a rematch. Open a new table with `/spades new`."
            )
        if t.rematch_id is not None:
            return refuse(f"The rematch is already open (table {t.rematch_id}).")
        seats = [copy.copy(s) for s in t.seats]
        result = await self.create(
            guild_id=t.guild_id,
            channel_id=t.channel_id,
            host_id=user_id,
            host_name=name,
            preset=t.preset,
            options=self._overrides(t),
            play_seconds=t.settings.get("play_seconds"),
            bid_seconds=t.settings.get("bid_seconds"),
            seats=seats,
            rematch_of=t.id,
        )
        if not result.ok or result.table is None:
            return result
        new = t.copy()
        new.rematch_id = result.table.id
        assert t.row is not None
        try:
            new.row = await self.storage.save_table(dataclasses.replace(t.row, data=new.to_data()))
        except Exception:
            # the rematch is open either way; a second click then meets the channel's live table
            log.warning("table %s: the rematch id could not be saved", table_id)
        else:
            if table_id in self.tables:
                self.tables[table_id] = new
        return result

    @staticmethod
    def _overrides(t: Table) -> dict[str, Any]:
        d = t.ruleset.to_dict()
        if isinstance(d, dict):
            return {k: v for k, v in d.items() if k != "preset"}
        return {}

    async def back(self, table_id: int, user_id: int) -> Result:
        found = await self._find(table_id, None)
        if isinstance(found, Result):
            return found
        async with self.lock(found.id):
            t = self.tables.get(found.id) or found
            seat = t.seat_of(user_id)
            if seat is None:
                return refuse("You're not seated at this table.")
            s = t.seats[seat]
            assert s is not None
            if t.status != "playing":
                return refuse(CLOSED if t.status != "open" else "The game hasn't started yet.")
            if not s.away and not s.left and s.timeouts == 0:
                return refuse("You're not marked away: it's all yours.", show_hand=t.status == "playing")
            return await self._take_back(t, seat, "Welcome back! The bot hands your seat back to you.")

    async def _take_back(self, t: Table, seat: int, message: str) -> Result:
        """A player who left or was marked away takes their seat back from the bot (lock held)."""
        new = t.copy()
        ns = new.seats[seat]
        assert ns is not None
        ns.away, ns.left, ns.timeouts = False, False, 0
        refusal = await self._commit(t, new)
        if refusal:
            return refusal
        return ok(message, show_hand=True, table=new)

    # ---- game actions ---------------------------------------------------------------------------
    def _seat_for(self, t: Table | None, user_id: int) -> tuple[Table | None, int | None, Result | None]:
        if t is None:
            return None, None, refuse(NO_TABLE)
        seat = t.seat_of(user_id)
        if seat is None:
            return t, None, refuse("You're not playing at this table.")
        if t.status == "open":
            return t, seat, refuse("The game hasn't started yet: the host presses **Start**.")
        if t.status != "playing" or t.game is None:
            return t, seat, refuse("This game is over.")
        return t, seat, None

    def _turn_message(self, t: Table, seat: int) -> str:
        acting = t.seats_to_act()
        if not acting:
            return "It's nobody's turn right now."
        if seat in acting:
            return ""
        names = " and ".join(t.label(s) for s in acting)
        return f"It's {names}'s turn, not yours."

    async def act(
        self,
        table_id: int | None,
        user_id: int,
        action: str,
        arg: Any = None,
        *,
        stamp: int | None = None,
        channel_id: int | None = None,
    ) -> Result:
        """Apply a player's action: ``bid`` (Bid/str), ``play`` (card id), ``pass`` (cards), ``look``,
        ``blind`` (blind nil) or ``draw`` (keep: bool). ``stamp`` is the seat stamp of the panel that
        was clicked (None for typed commands)."""
        found = await self._find(table_id, channel_id)
        if isinstance(found, Result):
            return found
        async with self.lock(found.id):
            t, seat, problem = self._seat_for(self.tables.get(found.id) or found, user_id)
            if problem is not None or t is None or seat is None:
                return problem or refuse(NO_TABLE)
            me = t.seats[seat]
            assert me is not None and t.game is not None
            if stamp is not None and stamp != me.acts:
                return refuse(MOVED_ON, show_hand=True, stale=True)
            # an action of the wrong phase gets the engine's "you can't bid now: ..." answer instead
            in_phase = _ACTION_PHASE.get(action) == t.game.phase.name
            turn = self._turn_message(t, seat) if in_phase else ""
            if turn:
                return refuse(turn, show_hand=stamp is not None, stale=stamp is not None)
            new = t.copy()
            g = new.game
            assert g is not None
            try:
                events = self._apply(g, seat, action, arg)
            except engine.IllegalAction as exc:
                return refuse(self._explain(t, seat, exc))
            except (ValueError, TypeError) as exc:
                return refuse(str(exc))
            ns = new.seats[seat]
            assert ns is not None
            ns.away, ns.left, ns.timeouts = False, False, 0
            refusal = await self._commit(t, new, events=events, touched=[seat], actor=user_id)
            if refusal:
                return refusal
            made = next((e.bid for e in events if _event_kind(e) == "BidMade" and e.seat == seat), None)
            if action == "bid" and made is not None:
                arg = made  # the engine's reading of it: "0" is a nil where nil is allowed
            return ok(self._ack(action, arg), show_hand=True, table=new)

    @staticmethod
    def _apply(g: Game, seat: int, action: str, arg: Any) -> list[Any]:
        if action == "look":
            return list(g.look(seat) or [])
        if action == "blind":
            return list(g.bid(seat, "blind_nil") or [])
        if action == "bid":
            bid = arg if isinstance(arg, Bid) else Bid.parse(str(arg))
            return list(g.bid(seat, bid) or [])
        if action == "play":
            return list(g.play(seat, int(arg)) or [])
        if action == "pass":
            return list(g.pass_cards(seat, list(arg)) or [])
        if action == "draw":
            return list(g.draw(seat, bool(arg)) or [])
        if action == "misdeal":
            return list(g.misdeal(seat) or [])
        raise ValueError(f"unknown action {action!r}")

    def _explain(self, t: Table, seat: int, exc: Exception) -> str:
        code = getattr(exc, "code", "")
        if code == "not_your_turn":
            msg = self._turn_message(t, seat)
            if msg:
                return msg
        # the engine names seats by number ("seat 2"); players know each other by name
        return re.sub(r"\bseat (\d+)\b", lambda m: self._seat_name(t, int(m.group(1))), str(exc))

    @staticmethod
    def _seat_name(t: Table, seat: int) -> str:
        return t.label(seat) if 0 <= seat < t.num_seats else f"seat {seat + 1}"

    @staticmethod
    def _ack(action: str, arg: Any) -> str:
        if action == "play":
            return f"You played {card_text(int(arg))}."
        if action == "bid":
            bid = arg if isinstance(arg, Bid) else Bid.parse(str(arg))
            return f"You bid {bid.label}."
        if action == "blind":
            return "You bid blind nil. Good luck!"
        if action == "pass":
            return "Cards passed."
        if action == "look":
            return "Here are your cards."
        if action == "misdeal":
            return "Misdeal called: the cards are dealt again."
        return "Done."

    # ---- queries for panels and autocomplete --------------------------------------------------
    def legal_bids(self, channel_id: int, user_id: int) -> list[Bid]:
        t = self.in_channel(channel_id)
        if t is None or t.game is None or t.status != "playing":
            return []
        seat = t.seat_of(user_id)
        if seat is None:
            return []
        return list(t.game.legal_bids(seat))

    def legal_cards(self, channel_id: int, user_id: int) -> list[int]:
        t = self.in_channel(channel_id)
        if t is None or t.game is None or t.status != "playing":
            return []
        seat = t.seat_of(user_id)
        if seat is None or not t.game.has_looked(seat):
            return []
        return list(t.game.legal_cards(seat))

    def parse_card(self, text: str) -> int:
        return engine.parse_card(text)
