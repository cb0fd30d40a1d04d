"""Slash commands for tables: thin adapters over ``bot.table.service.TableService`` (no rules, no SQL)."""

from __future__ import annotations

import dataclasses
import logging
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

import engine
from bot import lexicon
from bot.checks import cannot_change_settings, cannot_run_table, cannot_sync, is_admin
from bot.clicks import answer, show_hand, timely
from bot.guild_settings import GuildSettings
from bot.i18n import LANGUAGE_NAMES, LANGUAGES, Text, _, join, resolve, user_language
from bot.i18n import render as render_text
from bot.model import NO_TABLE, SAVE_FAILED, Result, refuse
from bot.render.posts import score_sheet
from bot.render.rules import rules_pages
from bot.render.settings import server_defaults
from bot.safe import safe_defer, safe_send, within
from bot.table.service import TableService
from bot.table.thinker import level_or_default
from bot.views.items import DYNAMIC_ITEMS
from cogs.history import ask_forget, send_mydata
from engine import Ruleset
from engine.house_rules import (
    HouseRulesError,
    check_rules,
    parse_house_rules,
    rule_suggestions,
)

if TYPE_CHECKING:
    from bot.client import SpadesBot

log = logging.getLogger(__name__)


def shown(text: str, limit: int = 20) -> Text:
    """A user's input quoted back to them: one line, no code fences, at most ``limit`` characters
    (a 6,000-character option must not make the answer too long to send)."""
    flat = " ".join(text.replace("`", "'").split())
    if not flat:
        return _("A blank")
    return f"`{flat[:limit]}…`" if len(flat) > limit else f"`{flat}`"


CLEAR_RULES = ("none", "off", "clear", "-")
BOT_LEVEL_CHOICES = [
    app_commands.Choice(name="easy: makes a beginner's mistakes", value="easy"),
    app_commands.Choice(name="normal: plays by sound rules", value="normal"),
    app_commands.Choice(name="strong: thinks ahead over likely deals", value="strong"),
]

AUTOCOMPLETE_READ = 1.0  # seconds an autocomplete may wait for storage before answering without it
#: ``/spades config language``: each language in its own words, or the server's own language
AUTO_LANGUAGE = "auto"


def _language_choices() -> list[app_commands.Choice[str]]:
    own = [app_commands.Choice(name=LANGUAGE_NAMES[code], value=code) for code in LANGUAGES]
    return [
        *own,
        app_commands.Choice(
            name="Automatic: the server's Discord language, or each table's opener's", value=AUTO_LANGUAGE
        ),
    ]


class TablesCog(commands.Cog):
    """`/spades …`, `/join`, `/leave`, `/bid`, `/play`, `/hand`, `/table`, `/rules`, `/score`."""

    spades = app_commands.Group(name="spades", description="Spades tables in this channel", guild_only=True)

    def __init__(self, bot: SpadesBot, service: TableService, settings: GuildSettings) -> None:
        self.bot = bot
        self.service = service
        self.settings = settings

    # ---- /spades ----------------------------------------------------------------------------
    @spades.command(name="new", description="Open a Spades table in this channel")
    @app_commands.describe(
        preset="Rules to play (default: this server's preset)",
        target="Points needed to win (e.g. 250 for a short game)",
        play_seconds="Seconds per card before the bot plays for you (15-600, default 60)",
        bid_seconds="Seconds per bid before the bot bids for you (15-600, default 90)",
        nil="Allow nil bids",
        blind_nil="Allow blind nil bids",
        rules="House rules, e.g. bag_limit=5 lose_score=-200 ten_for_200=on (autocomplete helps)",
        bots="How well the bots play (default: this server's level, else strong)",
    )
    @app_commands.choices(bots=BOT_LEVEL_CHOICES)
    async def new(
        self,
        interaction: discord.Interaction,
        preset: str | None = None,
        target: app_commands.Range[int, 50, 1000] | None = None,
        play_seconds: app_commands.Range[int, 15, 600] | None = None,
        bid_seconds: app_commands.Range[int, 15, 600] | None = None,
        nil: bool | None = None,
        blind_nil: bool | None = None,
        rules: app_commands.Range[str, 1, 300] | None = None,
        bots: app_commands.Choice[str] | None = None,
    ) -> None:
        if interaction.guild_id is None or interaction.channel_id is None:
            await safe_send(interaction, _("Spades tables live in server channels."))
            return
        problem = cannot_run_table(interaction)
        if problem is not None:
            await safe_send(interaction, problem)
            return
        options: dict[str, Any] = {}
        if nil is not None:
            options["nil_allowed"] = nil
        if blind_nil is not None:
            options["blind_nil_allowed"] = blind_nil
        result = await timely(
            interaction,
            self._open(
                interaction,
                guild_id=interaction.guild_id,
                channel_id=interaction.channel_id,
                host_id=interaction.user.id,
                host_name=interaction.user.display_name,
                preset=preset,
                target=target,
                play_seconds=play_seconds,
                bid_seconds=bid_seconds,
                options=options,
                rules=rules,
                bot_level=bots.value if bots is not None else None,
                host_language=user_language(interaction),
            ),
        )
        await answer(interaction, result)

    async def _open(self, interaction: discord.Interaction, **table: Any) -> Result:
        """Open the table; the first one that speaks its opener's language tells an admin host how
        to choose the server's language (once per server, in the same answer)."""
        result = await self.service.lifecycle.create(**table)
        if result.ok and result.table is not None:
            lang = await self.service.table_language(result.table)
            note = await self.settings.language_note(
                table["guild_id"], lang, can_manage=is_admin(interaction)
            )
            if note is not None:
                result = dataclasses.replace(result, message=join(result.message, note, sep="\n"))
        return result

    @new.autocomplete("rules")
    async def _rules_ac(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        preset = getattr(interaction.namespace, "preset", None)
        if not preset and interaction.guild_id is not None:
            # autocomplete cannot be deferred: a slow database must not make it miss Discord's 3 s
            settings = await within(AUTOCOMPLETE_READ, self.settings.get(interaction.guild_id))
            preset = (settings or {}).get("default_preset")
        lang = user_language(interaction)
        return [
            app_commands.Choice(name=lexicon.rules_suggestion(s, lang), value=s.value)
            for s in rule_suggestions(current, preset if isinstance(preset, str) else None)
        ]

    @new.autocomplete("preset")
    async def _preset_ac(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        lang = user_language(interaction)
        return [
            app_commands.Choice(name=lexicon.preset_label(n, lang), value=n)
            for n in engine.PRESETS
            if lexicon.preset_matches(n, current, lang)
        ][:25]

    @spades.command(name="start", description="Start the game at this channel's table (host)")
    @app_commands.describe(fill="Fill empty seats with bots")
    async def start(self, interaction: discord.Interaction, fill: bool = False) -> None:
        result = await timely(
            interaction,
            self.service.lifecycle.start(
                None, interaction.user.id, channel_id=interaction.channel_id, fill=fill
            ),
        )
        await answer(interaction, result, self._tid(interaction))

    @spades.command(name="addbot", description="Seat a bot at this channel's table (host)")
    @app_commands.describe(seat="Seat number (default: the first free seat)")
    async def addbot(
        self, interaction: discord.Interaction, seat: app_commands.Range[int, 1, 8] | None = None
    ) -> None:
        result = await timely(
            interaction,
            self.service.seating.add_bot(
                interaction.channel_id or 0, interaction.user.id, seat=seat, is_admin=is_admin(interaction)
            ),
        )
        await answer(interaction, result)

    @spades.command(name="removebot", description="Free a seat a bot took before the start (host)")
    @app_commands.describe(seat="The bot's seat number")
    async def removebot(self, interaction: discord.Interaction, seat: app_commands.Range[int, 1, 8]) -> None:
        work = self.service.seating.remove_bot(
            interaction.channel_id or 0, interaction.user.id, seat, is_admin=is_admin(interaction)
        )
        await answer(interaction, await timely(interaction, work))

    @spades.command(name="kick", description="Remove a player from this channel's table (host or admin)")
    @app_commands.describe(player="The player to remove (during a game a bot takes the seat)")
    async def kick(self, interaction: discord.Interaction, player: discord.User) -> None:
        work = self.service.seating.kick(
            interaction.channel_id or 0, interaction.user.id, player.id, is_admin=is_admin(interaction)
        )
        await answer(interaction, await timely(interaction, work))

    @spades.command(
        name="substitute", description="Seat a player in a bot's or an absent player's seat mid-game (host)"
    )
    @app_commands.describe(seat="The seat to take over", player="Who takes it over")
    async def substitute(
        self, interaction: discord.Interaction, seat: app_commands.Range[int, 1, 8], player: discord.User
    ) -> None:
        work = self.service.seating.substitute(
            interaction.channel_id or 0,
            interaction.user.id,
            seat,
            player.id,
            player.display_name,
            is_admin=is_admin(interaction),
            player_is_bot=player.bot,
        )
        await answer(interaction, await timely(interaction, work))

    @spades.command(
        name="abandon", description="Close this channel's table without counting it (host or admin)"
    )
    async def abandon(self, interaction: discord.Interaction) -> None:
        result = await timely(
            interaction,
            self.service.lifecycle.abandon(
                interaction.channel_id or 0, interaction.user.id, is_admin=is_admin(interaction)
            ),
        )
        await answer(interaction, result)

    @spades.command(name="config", description="Set this server's default rules (Manage Server)")
    @app_commands.describe(
        preset="Default preset for new tables",
        play_seconds="Default seconds per card",
        bid_seconds="Default seconds per bid",
        rules="Default house rules, e.g. bag_limit=5 ten_for_200=on (`none` clears them)",
        bots="How well the bots play at new tables",
        language="Language of the tables' public messages (default: the server's Discord language)",
    )
    @app_commands.choices(language=_language_choices(), bots=BOT_LEVEL_CHOICES)
    async def config(
        self,
        interaction: discord.Interaction,
        preset: str | None = None,
        play_seconds: app_commands.Range[int, 15, 600] | None = None,
        bid_seconds: app_commands.Range[int, 15, 600] | None = None,
        rules: app_commands.Range[str, 1, 300] | None = None,
        bots: app_commands.Choice[str] | None = None,
        language: app_commands.Choice[str] | None = None,
    ) -> None:
        refusal = cannot_change_settings(interaction)
        if refusal is not None:
            await safe_send(interaction, refusal)
            return
        assert interaction.guild_id is not None  # (refused above outside a server)
        changes: dict[str, Any] = {}
        if preset is not None:
            try:
                # the spellings and aliases `/spades new` accepts ("Classic Online"), stored canonical
                preset = Ruleset.preset(preset).name
            except (ValueError, TypeError):
                await safe_send(
                    interaction,
                    _(
                        "Unknown preset `%(preset)s`. Presets: %(presets)s.",
                        preset=preset[:30],
                        presets=", ".join(sorted(engine.PRESETS)),
                    ),
                )
                return
            changes["default_preset"] = preset
        if play_seconds is not None:
            changes["play_seconds"] = play_seconds
        if bid_seconds is not None:
            changes["bid_seconds"] = bid_seconds
        if bots is not None:
            changes["bot_level"] = bots.value
        if language is not None:
            # kept in the server's settings (None: follow the server's Discord language)
            changes["language"] = language.value if language.value in LANGUAGES else None
        current = await self.settings.get(interaction.guild_id)
        if rules is not None or preset is not None:
            # the house rules must go with the preset they will be played over
            base = changes.get("default_preset") or current.get("default_preset") or "standard"
            try:
                if rules is None:
                    options = dict(current.get("options") or {})
                elif rules.strip().lower() in CLEAR_RULES:
                    options = {}
                else:
                    options = parse_house_rules(rules)
                check_rules(base, options)
            except HouseRulesError as exc:
                await safe_send(interaction, lexicon.explain_rules(exc))
                return
            changes["options"] = options
        if changes:
            try:
                settings = await self.settings.update(interaction.guild_id, **changes)
            except Exception:  # disk full, a lost database: answered like a refused bid
                log.exception("saving the settings of server %s failed", interaction.guild_id)
                await safe_send(interaction, SAVE_FAILED)
                return
        else:
            settings = current
        if "language" in changes:
            self.service.language_changed(interaction.guild_id, changes["language"])
        # the server's own Discord language, named when the answer says the messages follow it
        # (a server without Community always reports en-US: its tables speak their openers' language)
        community = self.settings.guild_locale(interaction.guild_id)[1]
        follows = LANGUAGE_NAMES[resolve(interaction.guild_locale)] if language is not None else None
        chosen = settings.get("bot_level")
        level = level_or_default(chosen) if chosen is not None else None
        text = server_defaults(
            settings, bot_level=level, follows=follows, by_opener=language is not None and not community
        )
        await safe_send(interaction, text)

    config.autocomplete("preset")(_preset_ac)
    config.autocomplete("rules")(_rules_ac)

    @spades.command(name="me", description="Your own settings, in every server (only you see them)")
    @app_commands.describe(
        no_blind_nil="I don't bid blind nil: show my cards as soon as a hand is dealt",
        ping="Ping me when my turn starts (otherwise only shortly before the bot takes over)",
    )
    async def me(
        self, interaction: discord.Interaction, no_blind_nil: bool | None = None, ping: bool | None = None
    ) -> None:
        work = self.service.set_player(interaction.user.id, no_blind_nil=no_blind_nil, turn_ping=ping)
        await answer(interaction, await timely(interaction, work))

    @spades.command(
        name="sync", description="Force a sync of the bot's slash commands (owner or Manage Server)"
    )
    async def sync(self, interaction: discord.Interaction) -> None:
        refusal = cannot_sync(interaction, self.bot.config.owner_ids)
        if refusal is not None:
            await safe_send(interaction, refusal)
            return
        await safe_defer(interaction, ephemeral=True)
        try:
            await self.bot.sync_commands(force=True)
        except discord.HTTPException as exc:
            await safe_send(
                interaction, _("Sync failed (HTTP %(status)s). Try again later.", status=exc.status)
            )
            return
        await safe_send(interaction, _("Commands synced."))

    # ---- top level ------------------------------------------------------------------------
    def _tid(self, interaction: discord.Interaction) -> int | None:
        t = self.service.in_channel(interaction.channel_id or 0)
        return t.id if t is not None else None

    @app_commands.command(name="join", description="Take a seat at this channel's table")
    @app_commands.describe(seat="Seat number", team="Team number (partners sit opposite)")
    @app_commands.guild_only()
    async def join(
        self,
        interaction: discord.Interaction,
        seat: app_commands.Range[int, 1, 8] | None = None,
        team: app_commands.Range[int, 1, 4] | None = None,
    ) -> None:
        result = await timely(
            interaction,
            self.service.seating.join(
                interaction.channel_id or 0,
                interaction.user.id,
                interaction.user.display_name,
                seat=seat,
                team=team,
            ),
        )
        await answer(interaction, result, self._tid(interaction))

    @app_commands.command(
        name="leave", description="Leave your seat (during a game the bot plays it until you come back)"
    )
    @app_commands.guild_only()
    async def leave(self, interaction: discord.Interaction) -> None:
        await answer(
            interaction,
            await timely(
                interaction, self.service.seating.leave(interaction.channel_id or 0, interaction.user.id)
            ),
        )

    @app_commands.command(name="bid", description="Bid at this channel's table")
    @app_commands.describe(bid="A number of tricks, nil, or blind nil")
    @app_commands.guild_only()
    async def bid(self, interaction: discord.Interaction, bid: app_commands.Range[str, 1, 100]) -> None:
        text = bid.strip().lower()
        try:
            parsed = lexicon.parse_bid(text)  # the engine's words, or the player's language's
        except ValueError:
            legal = self.service.play.legal_bids(interaction.channel_id or 0, interaction.user.id)
            allowed = join(*(lexicon.bid_label(b) for b in legal), sep=", ") if legal else _("none right now")
            await answer(
                interaction,
                refuse(
                    "not_a_bid",
                    _("%(bid)s is not a bid. Allowed now: %(allowed)s.", bid=shown(bid), allowed=allowed),
                ),
            )
            return
        result = await timely(
            interaction,
            self.service.play.act(
                None, interaction.user.id, "bid", parsed, channel_id=interaction.channel_id
            ),
        )
        if result.ok:
            result.show_hand = False
        await answer(interaction, result, self._tid(interaction))

    @bid.autocomplete("bid")
    async def _bid_ac(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        lang = user_language(interaction)
        legal = self.service.play.legal_bids(interaction.channel_id or 0, interaction.user.id)
        choices = [
            app_commands.Choice(name=render_text(lexicon.bid_label(b), lang), value=str(b))
            for b in legal
            if lexicon.bid_matches(b, current, lang)
        ]
        return choices[:25]

    @app_commands.command(name="play", description="Play a card at this channel's table")
    @app_commands.describe(card="A card like AS, 10H, QD (autocomplete shows your legal cards)")
    @app_commands.guild_only()
    async def play(self, interaction: discord.Interaction, card: app_commands.Range[str, 1, 100]) -> None:
        try:
            parsed = engine.parse_card(card)
        except ValueError:
            legal = self.service.play.legal_cards(interaction.channel_id or 0, interaction.user.id)
            refusal: Text = _(
                "%(card)s is not a card: write a rank (A, K, Q, J, 10 to 2) and then a suit letter "
                "(S, H, D or C).",
                card=shown(card),
            )
            if legal:
                refusal = join(refusal, _("You can play %(cards)s.", cards=lexicon.cards_list(legal)))
            await answer(interaction, refuse("not_a_card", refusal, fields={"card": shown(card)}))
            return
        result = await timely(
            interaction,
            self.service.play.act(
                None, interaction.user.id, "play", parsed, channel_id=interaction.channel_id
            ),
        )
        if result.ok:
            result.show_hand = False
        await answer(interaction, result, self._tid(interaction))

    @play.autocomplete("card")
    async def _play_ac(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        cur = current.strip().upper()
        legal = self.service.play.legal_cards(interaction.channel_id or 0, interaction.user.id)
        choices = [
            app_commands.Choice(name=engine.card_pretty(c), value=engine.card_str(c))
            for c in legal
            if not cur or engine.card_str(c).startswith(cur) or engine.card_pretty(c).upper().startswith(cur)
        ]
        return choices[:25]

    @app_commands.command(name="hand", description="See your hand (only you can see it)")
    @app_commands.guild_only()
    async def hand(self, interaction: discord.Interaction) -> None:
        t = self.service.in_channel(interaction.channel_id or 0)
        if t is None:
            await safe_send(interaction, NO_TABLE)
            return
        await show_hand(interaction, t.id, in_place=False)

    @app_commands.command(name="table", description="Repost the live table at the bottom of the channel")
    @app_commands.guild_only()
    async def table(self, interaction: discord.Interaction) -> None:
        problem = cannot_run_table(interaction)
        if problem is not None and self.service.in_channel(interaction.channel_id or 0) is not None:
            await safe_send(interaction, problem)
            return
        await answer(
            interaction, await timely(interaction, self.service.lifecycle.repost(interaction.channel_id or 0))
        )

    # ---- your data (cogs.history does the work) -----------------------------------------------
    @spades.command(name="mydata", description="Your games, hands and stats as a JSON file (only you see it)")
    async def mydata(self, interaction: discord.Interaction) -> None:
        await send_mydata(interaction)

    @spades.command(name="forgetme", description="Remove your name and stats from this bot (asks first)")
    async def forgetme(self, interaction: discord.Interaction) -> None:
        await ask_forget(interaction)

    @app_commands.command(name="rules", description="The rules at this channel's table")
    @app_commands.guild_only()
    async def rules(self, interaction: discord.Interaction) -> None:
        t = self.service.in_channel(interaction.channel_id or 0)
        lang = user_language(interaction)
        if t is None:
            await safe_send(interaction, NO_TABLE)
            return
        for page in rules_pages(t, lang):  # long rule sets take more than one message
            await safe_send(interaction, page)

    @app_commands.command(name="score", description="The score sheet of this channel's table")
    @app_commands.guild_only()
    async def score(self, interaction: discord.Interaction) -> None:
        # the live table's sheet, else the last game's (a finished table has left memory)
        t = await self.service.last_in_channel(interaction.channel_id or 0)
        if t is None or (t.game is None and t.status not in ("open", "playing")):
            await safe_send(interaction, NO_TABLE)
            return
        await safe_send(interaction, score_sheet(t, user_language(interaction)))


async def setup(bot: SpadesBot) -> None:
    bot.add_dynamic_items(*DYNAMIC_ITEMS)
    await bot.add_cog(TablesCog(bot, bot.tables, bot.settings))


async def teardown(bot: SpadesBot) -> None:
    bot.remove_dynamic_items(*DYNAMIC_ITEMS)
