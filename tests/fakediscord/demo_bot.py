"""A tiny bot used only to prove the fake Discord: a cog with a slash command with options, an
ephemeral reply, autocomplete, a persistent button and select, and commands that break Discord's
rules on purpose (an over-long message, a 26-option select, a late and a double answer).
"""

from __future__ import annotations

import asyncio
import io

import discord
from discord import app_commands
from discord.ext import commands

COLORS = ["red", "green", "blue", "black", "white", "nil", "nine"]


class JoinView(discord.ui.View):
    """Persistent: survives restarts because every item has a fixed custom_id and timeout=None."""

    def __init__(self) -> None:
        super().__init__(timeout=None)
        self.joined: list[int] = []

    @discord.ui.button(label="Join", style=discord.ButtonStyle.primary, custom_id="demo:join")
    async def join(self, interaction: discord.Interaction, button: discord.ui.Button[JoinView]) -> None:
        self.joined.append(interaction.user.id)
        await interaction.response.send_message(f"{interaction.user.display_name} joined", ephemeral=True)

    @discord.ui.button(
        label="Closed", style=discord.ButtonStyle.secondary, custom_id="demo:closed", disabled=True
    )
    async def closed(self, interaction: discord.Interaction, button: discord.ui.Button[JoinView]) -> None:
        await interaction.response.send_message("should never happen", ephemeral=True)

    @discord.ui.button(label="Refresh", custom_id="demo:refresh")
    async def refresh(self, interaction: discord.Interaction, button: discord.ui.Button[JoinView]) -> None:
        await interaction.response.defer()  # type 6: acknowledge, edit a moment later
        await asyncio.sleep(0.02)
        await interaction.edit_original_response(content=f"Table open ({len(self.joined)} joined)")

    @discord.ui.select(
        custom_id="demo:bid",
        placeholder="Your bid",
        options=[discord.SelectOption(label=str(n), value=str(n)) for n in range(14)],
    )
    async def bid(self, interaction: discord.Interaction, select: discord.ui.Select[JoinView]) -> None:
        await interaction.response.edit_message(
            content=f"{interaction.user.display_name} bid {select.values[0]}"
        )


class DMView(discord.ui.View):
    def __init__(self) -> None:
        super().__init__(timeout=None)
        self.clicks: list[discord.Interaction] = []

    @discord.ui.button(label="Play now", custom_id="demo:dm:play")
    async def play(self, interaction: discord.Interaction, button: discord.ui.Button[DMView]) -> None:
        self.clicks.append(interaction)
        await interaction.response.edit_message(content="Played from DMs", view=None)


class HandView(discord.ui.View):
    """Ephemeral message with buttons: a click must carry the user who saw it."""

    def __init__(self, owner: int) -> None:
        super().__init__(timeout=60)
        self.owner = owner

    @discord.ui.button(label="Play A♠", custom_id="demo:play:AS")
    async def play(self, interaction: discord.Interaction, button: discord.ui.Button[HandView]) -> None:
        same = interaction.user.id == self.owner
        await interaction.response.edit_message(content=f"played A♠ (owner={same})", view=None)


class TableLayout(discord.ui.LayoutView):
    """Components v2: a container with text and a section whose accessory is a button."""

    def __init__(self) -> None:
        super().__init__(timeout=None)
        sit: discord.ui.Button[TableLayout] = discord.ui.Button(label="Sit", custom_id="demo:sit")
        sit.callback = self.sit  # type: ignore[method-assign]
        self.container = discord.ui.Container(
            discord.ui.TextDisplay("## Table 1"),
            discord.ui.Section(discord.ui.TextDisplay("North: empty"), accessory=sit),
        )
        self.add_item(self.container)

    async def sit(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"{interaction.user.display_name} sat North", ephemeral=True)


class SeatModal(discord.ui.Modal, title="Take a seat"):
    seat: discord.ui.Label[SeatModal] = discord.ui.Label(
        text="Seat",
        component=discord.ui.Select(
            custom_id="demo:seat",
            options=[discord.SelectOption(label=s, value=s) for s in ("North", "East", "South", "West")],
        ),
    )
    note: discord.ui.TextInput[SeatModal] = discord.ui.TextInput(
        label="Note", custom_id="demo:note", required=False
    )

    async def on_submit(self, interaction: discord.Interaction) -> None:
        assert isinstance(self.seat.component, discord.ui.Select)
        picked = self.seat.component.values
        await interaction.response.send_message(f"seat {picked[0]} note {self.note.value!r}", ephemeral=True)


class NameModal(discord.ui.Modal, title="Rename table"):
    name: discord.ui.TextInput[NameModal] = discord.ui.TextInput(
        label="New name", custom_id="demo:name", max_length=20
    )

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"renamed to {self.name.value}", ephemeral=True)


class DemoCog(commands.GroupCog, group_name="demo", group_description="Fake Discord demo"):
    def __init__(self, bot: DemoBot) -> None:
        self.bot = bot
        super().__init__()

    @app_commands.command(name="greet", description="Greet someone privately")
    @app_commands.describe(times="How many times", loud="Shout it")
    async def greet(
        self,
        interaction: discord.Interaction,
        name: str,
        times: app_commands.Range[int, 1, 5] = 1,
        loud: bool = False,
        who: discord.Member | None = None,
    ) -> None:
        assert isinstance(interaction.user, discord.Member)
        text = " ".join([f"hello {name}"] * times)
        if who is not None:
            text += f" and {who.display_name}"
        # kept before answering: the fake returns from ``slash`` as soon as the answer arrives,
        # which can be before this coroutine resumes (on a loaded machine, it often is)
        self.bot.seen.append(interaction)
        await interaction.response.send_message(text.upper() if loud else text, ephemeral=True)

    @app_commands.command(name="table", description="Open a table with a Join button")
    async def table(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message("Table open", view=self.bot.join_view)

    @app_commands.command(name="hand", description="Show my hand (ephemeral, with buttons)")
    async def hand(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(
            "your hand", view=HandView(interaction.user.id), ephemeral=True
        )

    @app_commands.command(name="color", description="Pick a color")
    @app_commands.describe(color="A color")
    async def color(self, interaction: discord.Interaction, color: str) -> None:
        await interaction.response.send_message(f"color {color}", ephemeral=True)

    @color.autocomplete("color")
    async def color_complete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        if current == "*":  # too many on purpose: Discord allows 25
            return [app_commands.Choice(name=f"c{i}", value=f"c{i}") for i in range(26)]
        return [app_commands.Choice(name=c, value=c) for c in COLORS if c.startswith(current)]

    @app_commands.command(name="slow", description="Defer, then answer")
    async def slow(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        await asyncio.sleep(0.05)
        await interaction.followup.send("done thinking", ephemeral=True)
        await interaction.followup.send("second follow-up", ephemeral=True)

    @app_commands.command(name="rename", description="Open a modal")
    async def rename(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_modal(NameModal())

    @app_commands.command(name="post", description="Post and edit a channel message")
    async def post(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message("posting", ephemeral=True)
        assert isinstance(interaction.channel, discord.abc.Messageable)
        msg = await interaction.channel.send("first")
        await msg.edit(content="second")

    @app_commands.command(name="remind", description="Defer, wait for the test, then follow up")
    async def remind(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer(ephemeral=True)
        await self.bot.release.wait()
        try:
            await interaction.followup.send("reminder", ephemeral=True)
        except discord.HTTPException as exc:
            self.bot.errors.append(exc)

    @app_commands.command(name="rich", description="An embed and a file")
    async def rich(self, interaction: discord.Interaction) -> None:
        embed = discord.Embed(title="Scores", description="Us 120 - Them 80", colour=discord.Colour.blue())
        embed.add_field(name="Bags", value="3", inline=True)
        embed.set_footer(text="Hand 4")
        embed.timestamp = discord.utils.utcnow()
        file = discord.File(io.BytesIO(b"hand record"), filename="hand.txt")
        await interaction.response.send_message(embed=embed, file=file)

    @app_commands.command(name="layout", description="A components v2 message")
    async def layout(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(view=TableLayout())

    @app_commands.command(name="edits", description="Edit and delete responses and follow-ups")
    async def edits(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message("v1")
        await interaction.edit_original_response(content="v2")
        follow = await interaction.followup.send("f1", wait=True)
        await follow.edit(content="f2")
        original = await interaction.original_response()
        assert original.content == "v2"
        await interaction.delete_original_response()

    @app_commands.command(name="ping", description="Ping a player")
    async def ping(self, interaction: discord.Interaction, who: discord.Member) -> None:
        only_users = discord.AllowedMentions(users=True, roles=False, everyone=False)
        await interaction.response.send_message(
            f"{who.mention} it's your turn (@everyone)", allowed_mentions=only_users
        )
        msg = await interaction.original_response()
        await msg.edit(content=f"{who.mention} it's your turn, {interaction.user.mention} is waiting")

    @app_commands.command(name="seat", description="A modal with a select in a label")
    async def seat(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_modal(SeatModal())

    @app_commands.command(name="dmme", description="Get a DM with a button")
    async def dmme(self, interaction: discord.Interaction) -> None:
        try:
            await interaction.user.send("Your turn", view=self.bot.dm_view)
        except discord.Forbidden as exc:
            await interaction.response.send_message(f"I cannot DM you ({exc.code})", ephemeral=True)
        else:
            await interaction.response.send_message("Check your DMs", ephemeral=True)

    # ---- commands that break the rules on purpose

    @app_commands.command(name="long", description="Reply with 2001 characters")
    async def long(self, interaction: discord.Interaction) -> None:
        try:
            await interaction.response.send_message("x" * 2001)
        except discord.HTTPException as exc:
            self.bot.errors.append(exc)

    @app_commands.command(name="select26", description="Reply with a 26-option select")
    async def select26(self, interaction: discord.Interaction) -> None:
        view = discord.ui.View()
        view.add_item(
            discord.ui.Select(
                custom_id="demo:26",
                options=[discord.SelectOption(label=str(i), value=str(i)) for i in range(26)],
            )
        )
        try:
            await interaction.response.send_message("pick", view=view)
        except discord.HTTPException as exc:
            self.bot.errors.append(exc)

    @app_commands.command(name="late", description="Answer when the test says so")
    async def late(self, interaction: discord.Interaction) -> None:
        await self.bot.release.wait()
        try:
            await interaction.response.send_message("too late")
        except discord.HTTPException as exc:
            self.bot.errors.append(exc)

    @app_commands.command(name="double", description="Answer twice")
    async def double(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message("once")
        # A buggy bot with two code paths answering: discord.py's own guard is bypassed on purpose so
        # the second initial response reaches Discord.
        interaction.response._response_type = None  # type: ignore[assignment]
        try:
            await interaction.response.send_message("twice")
        except discord.HTTPException as exc:
            self.bot.errors.append(exc)
        self.bot.double.set()


class DemoBot(commands.Bot):
    def __init__(self, *, intents: discord.Intents | None = None) -> None:
        super().__init__(command_prefix=commands.when_mentioned, intents=intents or discord.Intents.default())
        self.join_view = JoinView()
        self.dm_view = DMView()
        self.seen: list[discord.Interaction] = []
        self.errors: list[discord.HTTPException] = []
        self.release = asyncio.Event()
        self.double = asyncio.Event()

    async def setup_hook(self) -> None:
        await self.add_cog(DemoCog(self))
        self.add_view(self.join_view)
        self.add_view(self.dm_view)

        @self.tree.context_menu(name="Invite to table")
        async def invite(interaction: discord.Interaction, member: discord.Member) -> None:
            await interaction.response.send_message(f"invited {member.display_name}", ephemeral=True)

        @self.tree.context_menu(name="Quote")
        async def quote(interaction: discord.Interaction, message: discord.Message) -> None:
            await interaction.response.send_message(f"> {message.content}")

        @self.tree.command(name="demo-admin", description="Only for server managers")
        @app_commands.default_permissions(manage_guild=True)
        @app_commands.guild_only()
        async def demo_admin(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("admin ok", ephemeral=True)
