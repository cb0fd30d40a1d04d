"""/history, /replay, the hand post's Replay, Verify and Review buttons, /spades mydata and /spades forgetme.

Thin adapters: storage reads what was played (``bot.storage.history``), ``bot.render.history`` and
``bot.render.replay`` write the texts, ``bot.render.scenes`` the score chart's data, ``bot.pictures``
draws (in an executor), ``engine.verify`` checks a deal. Every answer is ephemeral: a lookup is one
person's business, and the channel already saw the hands as they ended.
Replays only show finished hands, and only the hands of this server's games.

The components are drawn by ``bot.views.history``; this module answers their clicks (``handles``).
Their custom ids (persistent ``DynamicItem``s, well under 100 characters):
- ``hi:<guild>:<c|s|u>:<ref>:<page>:<p|n>``: the history's ◀ ▶ (``ref``: channel or user id);
- ``hisel:<guild>:<c|s|u>:<ref>:<page>``: pick a game of that page for its score sheet;
- ``hig:<game>``: pick a hand of that game to replay;
- ``rp:<table>:<game_no>:<hand>:<step>:<tag>``: replay navigation; ``rpv:<table>:<game_no>:<hand>``:
  verify that hand's deal;
- ``hv:<table>:<game_no>:<hand>:<r|v|w>``: the hand post's Replay / Verify / Review my hand
  (``bot.views.buttons.HAND_POST_ID``; the review: ``bot.review``, answered to the presser only);
- ``fg:<user>:<y|n>``: forget-me confirmation.
"""

from __future__ import annotations

import asyncio
import gzip
import io
import json
import logging
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, cast

import discord
from discord import app_commands
from discord.ext import commands

from bot.clicks import timely
from bot.errors import report_interaction_error
from bot.i18n import DEFAULT, Msg, Text, _, _n, user_language
from bot.pictures import score_chart_png
from bot.render.history import game_suggestion, history_text, scope_label, score_sheet_text
from bot.render.records import seat_names
from bot.render.replay import replay_text, replay_title, table_seat_names, verdict_text
from bot.render.review import refusal_text, review_text
from bot.render.scenes import game_chart
from bot.review import ReviewRefusal
from bot.safe import NOT_ON_MESSAGE, fits, on_its_message, safe_defer, safe_edit, safe_send, within
from bot.storage import PlayerSeated, StoredHand
from bot.views.history import (
    DYNAMIC_ITEMS,
    ForgetButton,
    GameHandSelect,
    HandPostButton,
    HistoryPage,
    HistorySelect,
    ReplayNav,
    VerifyButton,
    forget_view,
    hand_picker,
    history_view,
    replay_view,
)
from bot.views.registry import handles
from engine import RecordError
from engine.record import HandReplay, hand_replay
from engine.verify import verify

if TYPE_CHECKING:
    from bot.client import SpadesBot

log = logging.getLogger(__name__)

PAGE_SIZE = 8
MAX_PAGE = 100_000  # (a page past the end shows the last one)
MAX_STEP = 1_000  # a replay's steps (a step past the end shows the scoring)
MAX_EXPORT = 9 * 1024 * 1024  # bigger exports are gzipped (Discord's upload limit is 10 MiB)

NOT_IN_SERVER = _("History and replays belong to a server: use this in a server channel.")
OTHER_SERVER = _("That game was played in another server: replays stay in the server they were played in.")
NO_TABLE_NOW = _("That table no longer exists.")
OTHER_CHANNEL = _("That history is another channel's: use `/history` here for this channel's games.")
BAD_RECORD = _("That hand's record could not be replayed, so it can't be shown. Nothing else is affected.")
FORGET_ASK = _(
    "**Forget me?** Your name and Discord id are removed from every finished game, your stats and "
    "the leaderboards of every server this bot is in. The games stay as they were played, with "
    "your seat shown as *a former player*, so nobody else's results change. This can't be undone; "
    "`/spades mydata` first if you want a copy."
)


def no_game(game: int) -> Msg:
    return _(
        "There is no finished game #%(game)s in this server. `/history` lists this server's games.", game=game
    )


def no_hand(game: int, hands: int) -> Msg:
    return _("Game #%(game)s has hands 1–%(hands)s: pick one of those.", game=game, hands=hands)


def not_finished(hand: int) -> Msg:
    return _("Hand %(hand)s of that game is not over yet: it can be replayed once it is.", hand=hand)


def _mine(interaction: discord.Interaction[Any]) -> SpadesBot:
    return cast("SpadesBot", interaction.client)


async def _executor(fn: Any, *args: Any) -> Any:
    return await asyncio.get_running_loop().run_in_executor(None, fn, *args)


# ---- history ----------------------------------------------------------------------------------

NO_SUCH_GAME = _("That is not a game of this server's history. `/history` lists this server's games.")


def number(value: Any) -> int | None:
    """A select's value as an id a database can hold, or None (made up: refused, not read)."""
    text = str(value)
    if not text.isdigit() or len(text) > 19:
        return None
    found = int(text)
    return found if fits(found) else None


async def refused_scope(interaction: discord.Interaction[Any], guild_id: int, kind: str, ref: int) -> bool:
    """Whether a history component's custom_id names another server, or another channel than the
    one it is used in (``c``: a channel's history), answered; checked before anything is read."""
    if interaction.guild_id is None:
        await safe_send(interaction, NOT_IN_SERVER)
        return True
    if interaction.guild_id != guild_id:
        await safe_send(interaction, OTHER_SERVER)
        return True
    if kind == "c" and ref != interaction.channel_id:
        await safe_send(interaction, OTHER_CHANNEL)
        return True
    if not fits(ref):
        await safe_send(interaction, NO_SUCH_GAME)
        return True
    return False


async def history_payload(
    bot: SpadesBot, guild_id: int, kind: str, ref: int, page: int, lang: str = DEFAULT
) -> tuple[str, discord.ui.View | None]:
    storage = bot.storage
    channel_id = ref if kind == "c" else None
    user_id = ref if kind == "u" else None
    first = await storage.history.recent_games(
        guild_id, channel_id=channel_id, user_id=user_id, limit=PAGE_SIZE, offset=max(0, page) * PAGE_SIZE
    )
    if first.total and not first.games:  # past the end (games were forgotten meanwhile): last page
        page = first.pages - 1
        first = await storage.history.recent_games(
            guild_id, channel_id=channel_id, user_id=user_id, limit=PAGE_SIZE, offset=page * PAGE_SIZE
        )
    text = history_text(first, scope_label(kind, ref))
    if not first.games:
        return text, None
    view = history_view(first, guild_id, kind, ref, lang)
    return text, view


@dataclass
class _Sheet:
    text: str
    view: discord.ui.View | None
    chart: bytes | None


async def _game_sheet(bot: SpadesBot, guild_id: int, game_id: int, lang: str = DEFAULT) -> _Sheet | str:
    game = await bot.storage.history.game(game_id)
    if game is None or game.guild_id != guild_id:
        return OTHER_SERVER if game is not None else no_game(game_id)
    hands = await bot.storage.history.game_hands(game_id)
    text = score_sheet_text(game, hands)
    chart = None
    if hands:
        chart = await _executor(score_chart_png, game_chart(game, [h.record for h in hands], lang))
    return _Sheet(text, hand_picker(game_id, hands, lang), chart)


async def send_game_sheet(interaction: discord.Interaction[Any], game_id: int) -> None:
    if interaction.guild_id is None:
        await safe_send(interaction, NOT_IN_SERVER)
        return
    sheet = await timely(
        interaction,
        _game_sheet(_mine(interaction), interaction.guild_id, game_id, user_language(interaction)),
    )
    if isinstance(sheet, str):
        await safe_send(interaction, sheet)
        return
    extra: dict[str, Any] = {}
    if sheet.chart:
        extra["file"] = discord.File(io.BytesIO(sheet.chart), filename=f"game-{game_id}-scores.png")
    if sheet.view is not None:
        extra["view"] = sheet.view
    await safe_send(interaction, sheet.text, **extra)


# ---- replays ------------------------------------------------------------------------------------


@dataclass
class _Replay:
    table_id: int
    game_no: int
    hand: StoredHand
    replay: HandReplay
    names: list[str]
    title: str
    hands_in_game: int


async def _load_replay(
    bot: SpadesBot, guild_id: int, table_id: int, game_no: int, hand_no: int
) -> _Replay | str:
    """A finished hand of this server, rebuilt for the replay, or the reason it can't be shown."""
    storage = bot.storage
    owner = await storage.history.table_guild(table_id)
    if owner is None:
        return NO_TABLE_NOW
    if owner != guild_id:
        return OTHER_SERVER
    stored = await storage.history.table_hand(table_id, game_no, hand_no)
    if stored is None:
        return not_finished(hand_no)
    try:
        hr = await _executor(hand_replay, stored.record)
    except RecordError:
        log.error("stored hand %s/%s/%s does not replay", table_id, game_no, hand_no)
        return BAD_RECORD
    game_id = await storage.history.game_id_of(table_id, game_no)
    total = await storage.history.hand_count(table_id, game_no)
    names: list[str] = []
    if game_id is not None:
        game = await storage.history.game(game_id)
        if game is not None:
            names = seat_names(game)
        title = replay_title(game_id=game_id)
    else:
        t = await bot.tables.load(table_id)
        if t is not None:
            names = table_seat_names(t)
        title = replay_title(table_id=table_id, playing=t is not None and t.status == "playing")
    return _Replay(table_id, game_no, stored, hr, names, title, total)


def replay_answer(r: _Replay, step: int, lang: str = DEFAULT) -> tuple[Text, discord.ui.View]:
    """A replay at ``step``: its text and its navigation."""
    text = replay_text(r.replay, step, names=r.names, title=r.title, hands_in_game=r.hands_in_game)
    return text, replay_view(r.table_id, r.game_no, r.replay, r.hands_in_game, step, lang)


async def start_replay(
    interaction: discord.Interaction[Any], table_id: int, game_no: int, hand_no: int, *, new_message: bool
) -> None:
    if interaction.guild_id is None:
        await safe_send(interaction, NOT_IN_SERVER)
        return
    if not fits(table_id, game_no, hand_no):
        await safe_send(interaction, NO_TABLE_NOW)
        return
    loaded = await timely(
        interaction, _load_replay(_mine(interaction), interaction.guild_id, table_id, game_no, hand_no)
    )
    if isinstance(loaded, str):
        await safe_send(interaction, loaded)
        return
    text, view = replay_answer(loaded, 0, user_language(interaction))
    if new_message:
        await safe_send(interaction, text, view=view)
    else:
        await safe_edit(interaction, text, view=view)


async def start_replay_of_game(
    interaction: discord.Interaction[Any], game_id: int, hand_no: int, *, new_message: bool
) -> None:
    if interaction.guild_id is None:
        await safe_send(interaction, NOT_IN_SERVER)
        return
    storage = _mine(interaction).storage
    game = await timely(interaction, storage.history.game(game_id))
    if game is None:
        await safe_send(interaction, no_game(game_id))
        return
    if game.guild_id != interaction.guild_id:
        await safe_send(interaction, OTHER_SERVER)
        return
    if not 1 <= hand_no <= game.hands:
        await safe_send(interaction, no_hand(game_id, game.hands))
        return
    await start_replay(interaction, game.table_id, game.game_no, hand_no, new_message=new_message)


# ---- verifying a deal -----------------------------------------------------------------------------


async def verify_answer(
    bot: SpadesBot, guild_id: int, table_id: int, game_no: int, hand_no: int
) -> tuple[Text, discord.File | None]:
    owner = await bot.storage.history.table_guild(table_id)
    if owner is None or owner != guild_id:
        return OTHER_SERVER if owner is not None else NO_TABLE_NOW, None
    stored = await bot.storage.history.table_hand(table_id, game_no, hand_no)
    if stored is None:
        return not_finished(hand_no), None
    fair = stored.record.get("fair")
    if not isinstance(fair, dict):
        return _("That hand was dealt before deals were committed, so there is nothing to verify."), None
    verdict = await _executor(verify, stored.record)
    name = f"table-{table_id}-hand-{hand_no}.json"
    record = json.dumps(stored.record, indent=1).encode()
    text = verdict_text(verdict, fair, table_id=table_id, hand_no=hand_no, file=name)
    return text, discord.File(io.BytesIO(record), filename=name)


async def send_verdict(
    interaction: discord.Interaction[Any], table_id: int, game_no: int, hand_no: int
) -> None:
    if interaction.guild_id is None:
        await safe_send(interaction, NOT_IN_SERVER)
        return
    if not fits(table_id, game_no, hand_no):
        await safe_send(interaction, NO_TABLE_NOW)
        return
    text, file = await timely(
        interaction, verify_answer(_mine(interaction), interaction.guild_id, table_id, game_no, hand_no)
    )
    if file is not None:
        await safe_send(interaction, text, file=file)
    else:
        await safe_send(interaction, text)


# ---- reviewing one's hand -------------------------------------------------------------------------


async def send_review(
    interaction: discord.Interaction[Any], table_id: int, game_no: int, hand_no: int
) -> None:
    """Review my hand: deferred at once (the bot's search takes seconds), then the review or the
    reason it is not shown, in an ephemeral follow-up: it names the presser's own cards."""
    if interaction.guild_id is None:
        await safe_send(interaction, refusal_text(ReviewRefusal("not_in_server")))
        return
    if not fits(table_id, game_no, hand_no):
        await safe_send(interaction, refusal_text(ReviewRefusal("no_table")))
        return
    await safe_defer(interaction, ephemeral=True, thinking=True)
    answer = await _mine(interaction).reviews.review(
        interaction.guild_id, interaction.user.id, table_id, game_no, hand_no
    )
    if isinstance(answer, ReviewRefusal):
        await safe_send(interaction, refusal_text(answer))
        return
    await safe_send(interaction, review_text(answer))


# ---- your data --------------------------------------------------------------------------------------


def export_file(data: dict[str, Any], user_id: int) -> discord.File:
    blob = json.dumps(data, indent=1, ensure_ascii=False).encode()
    name = f"spades-mydata-{user_id}.json"
    if len(blob) > MAX_EXPORT:
        return discord.File(io.BytesIO(gzip.compress(blob)), filename=name + ".gz")
    return discord.File(io.BytesIO(blob), filename=name)


async def send_mydata(interaction: discord.Interaction[Any]) -> None:
    """Everything stored about the user, as a JSON file only they see."""
    await safe_defer(interaction, ephemeral=True, thinking=True)
    data = await _mine(interaction).storage.history.export(interaction.user.id)
    file = await _executor(export_file, data, interaction.user.id)
    games, hands = len(data["games"]), len(data["hands"])
    await safe_send(
        interaction,
        _(
            "Here is everything this bot keeps about you: %(games)s, %(hands)s and your stats in each server "
            "(JSON). `/spades forgetme` removes it.",
            games=_n("%(n)s finished game", "%(n)s finished games", games),
            hands=_n("%(n)s hand", "%(n)s hands", hands),
        ),
        file=file,
    )


async def ask_forget(interaction: discord.Interaction[Any]) -> None:
    view = forget_view(interaction.user.id, user_language(interaction))
    await safe_send(interaction, FORGET_ASK, view=view)


# ---- the components' clicks (drawn by bot.views.history) ------------------------------------


@handles(HistoryPage)
async def on_history_page(interaction: discord.Interaction[Any], item: HistoryPage) -> None:
    try:
        if await refused_scope(interaction, item.guild_id, item.kind, item.ref):
            return
        if not on_its_message(interaction):  # (it edits the message it is on)
            await safe_send(interaction, NOT_ON_MESSAGE)
            return
        lang = user_language(interaction)
        text, view = await timely(
            interaction,
            history_payload(
                _mine(interaction), item.guild_id, item.kind, item.ref, min(item.page, MAX_PAGE), lang
            ),
        )
        await safe_edit(interaction, text, view=view)
    except Exception as exc:
        await report_interaction_error(interaction, exc, "history page")


@handles(HistorySelect)
async def on_history_select(interaction: discord.Interaction[Any], item: HistorySelect) -> None:
    data = cast("dict[str, Any]", interaction.data or {})
    values = data.get("values") or ["0"]
    try:
        if await refused_scope(interaction, item.guild_id, item.kind, item.ref):
            return
        game = number(values[0])
        if game is None:
            await safe_send(interaction, NO_SUCH_GAME)
            return
        await send_game_sheet(interaction, game)
    except Exception as exc:
        await report_interaction_error(interaction, exc, "history game")


@handles(GameHandSelect)
async def on_game_hand_select(interaction: discord.Interaction[Any], item: GameHandSelect) -> None:
    data = cast("dict[str, Any]", interaction.data or {})
    values = data.get("values") or ["1"]
    try:
        hand = number(values[0])
        if hand is None or not fits(item.game_id):
            await safe_send(interaction, NO_SUCH_GAME)
            return
        await start_replay_of_game(interaction, item.game_id, hand, new_message=True)
    except Exception as exc:
        await report_interaction_error(interaction, exc, "replay from history")


@handles(ReplayNav)
async def on_replay_nav(interaction: discord.Interaction[Any], item: ReplayNav) -> None:
    try:
        if interaction.guild_id is None:
            await safe_send(interaction, NOT_IN_SERVER)
            return
        if not on_its_message(interaction):  # (it edits the message it is on)
            await safe_send(interaction, NOT_ON_MESSAGE)
            return
        if not fits(item.table_id, item.game_no, item.hand_no, item.step):
            await safe_send(interaction, NO_TABLE_NOW)
            return
        loaded = await timely(
            interaction,
            _load_replay(_mine(interaction), interaction.guild_id, item.table_id, item.game_no, item.hand_no),
        )
        if isinstance(loaded, str):
            await safe_send(interaction, loaded)
            return
        text, view = replay_answer(loaded, item.step, user_language(interaction))
        await safe_edit(interaction, text, view=view)
    except Exception as exc:
        await report_interaction_error(interaction, exc, "replay step")


@handles(VerifyButton)
async def on_verify_button(interaction: discord.Interaction[Any], item: VerifyButton) -> None:
    try:
        await send_verdict(interaction, item.table_id, item.game_no, item.hand_no)
    except Exception as exc:
        await report_interaction_error(interaction, exc, "verify deal")


@handles(HandPostButton)
async def on_hand_post_button(interaction: discord.Interaction[Any], item: HandPostButton) -> None:
    try:
        if item.what == "v":
            await send_verdict(interaction, item.table_id, item.game_no, item.hand_no)
        elif item.what == "w":
            await send_review(interaction, item.table_id, item.game_no, item.hand_no)
        else:
            await start_replay(interaction, item.table_id, item.game_no, item.hand_no, new_message=True)
    except Exception as exc:
        await report_interaction_error(interaction, exc, "hand post button")


@handles(ForgetButton)
async def on_forget_button(interaction: discord.Interaction[Any], item: ForgetButton) -> None:
    try:
        if interaction.user.id != item.user_id:
            await safe_send(interaction, _("Only the player who asked can answer this."))
            return
        if not on_its_message(interaction):  # (it edits the message it is on)
            await safe_send(interaction, NOT_ON_MESSAGE)
            return
        if item.answer == "n":
            await safe_edit(interaction, _("Nothing was changed: your data stays."), view=None)
            return
        storage = _mine(interaction).storage
        try:
            report = await timely(interaction, storage.history.forget(item.user_id))
        except PlayerSeated as seated:
            tables = ", ".join(str(t) for t in seated.table_ids)
            await safe_edit(
                interaction,
                _(
                    "You're seated at table %(tables)s: leave it first (`/leave`), then "
                    "`/spades forgetme` again. Nothing was changed.",
                    tables=tables,
                ),
                view=None,
            )
            return
        log.info("a player asked to be forgotten: %d game seats, %d hands", report.games, report.hands)
        await safe_edit(
            interaction,
            _(
                "Done. Your seat in %(games)s now shows *a former player*, %(hands)s no longer count "
                "for you, and you're off every leaderboard. Playing again starts a new record.",
                games=_n("%(n)s finished game", "%(n)s finished games", report.games),
                hands=_n("%(n)s hand", "%(n)s hands", report.hands),
            ),
            view=None,
        )
    except Exception as exc:
        await report_interaction_error(interaction, exc, "forget me")


AUTOCOMPLETE_READ = 1.0  # seconds an autocomplete may wait for storage (Discord allows 3 in all)


async def recent_game_choices(
    bot: SpadesBot, interaction: discord.Interaction[Any], current: str
) -> list[app_commands.Choice[int]]:
    """The reader's latest games in this server (else the server's), newest first, those whose
    number or words contain what was typed."""
    if interaction.guild_id is None:
        return []
    history = bot.storage.history
    page = await within(
        AUTOCOMPLETE_READ, history.recent_games(interaction.guild_id, user_id=interaction.user.id, limit=25)
    )
    if page is not None and not page.games:
        page = await within(AUTOCOMPLETE_READ, history.recent_games(interaction.guild_id, limit=25))
    if page is None:
        return []
    lang = user_language(interaction)
    typed = current.strip().lstrip("#").lower()
    out = []
    for g in page.games:
        label = game_suggestion(g, lang)
        if not typed or str(g.id).startswith(typed) or typed in label.lower():
            out.append(app_commands.Choice(name=label, value=g.id))
    return out[:25]


class HistoryCog(commands.Cog, name="History"):
    def __init__(self, bot: SpadesBot) -> None:
        self.bot = bot

    async def _games_ac(
        self, interaction: discord.Interaction[SpadesBot], current: str
    ) -> list[app_commands.Choice[int]]:
        return await recent_game_choices(self.bot, interaction, current)

    @app_commands.command(
        name="history", description="Finished games in this channel, this server or a player's"
    )
    @app_commands.describe(
        where="Which games (default: this channel)",
        player="Only the games this player played",
        game="One game's score sheet (your latest games are suggested)",
    )
    @app_commands.choices(
        where=[
            app_commands.Choice(name="this channel", value="channel"),
            app_commands.Choice(name="this server", value="server"),
        ]
    )
    @app_commands.guild_only()
    async def history(
        self,
        interaction: discord.Interaction[SpadesBot],
        where: app_commands.Choice[str] | None = None,
        player: discord.User | None = None,
        game: app_commands.Range[int, 1, 2_000_000_000] | None = None,
    ) -> None:
        if interaction.guild_id is None:
            await safe_send(interaction, NOT_IN_SERVER)
            return
        if game is not None:
            await send_game_sheet(interaction, int(game))
            return
        if player is not None:
            kind, ref = "u", player.id
        elif where is not None and where.value == "server":
            kind, ref = "s", 0
        else:
            kind, ref = "c", interaction.channel_id or 0
        text, view = await timely(
            interaction,
            history_payload(self.bot, interaction.guild_id, kind, ref, 0, user_language(interaction)),
        )
        if view is not None:
            await safe_send(interaction, text, view=view)
        else:
            await safe_send(interaction, text)

    @app_commands.command(name="replay", description="Replay a finished hand trick by trick")
    @app_commands.describe(
        game="The game's number (your latest games are suggested)", hand="Which hand (default: the first)"
    )
    @app_commands.guild_only()
    async def replay(
        self,
        interaction: discord.Interaction[SpadesBot],
        game: app_commands.Range[int, 1, 2_000_000_000],
        hand: app_commands.Range[int, 1, 1000] = 1,
    ) -> None:
        await start_replay_of_game(interaction, int(game), int(hand), new_message=True)

    history.autocomplete("game")(_games_ac)
    replay.autocomplete("game")(_games_ac)


async def setup(bot: SpadesBot) -> None:
    bot.add_dynamic_items(*DYNAMIC_ITEMS)
    await bot.add_cog(HistoryCog(bot))


async def teardown(bot: SpadesBot) -> None:
    bot.remove_dynamic_items(*DYNAMIC_ITEMS)
