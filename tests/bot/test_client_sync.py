"""Command sync through discord.py's real HTTP client against the fake Discord, across restarts."""

from __future__ import annotations

from pathlib import Path

import discord
from discord import app_commands

from bot.client import SpadesBot
from bot.config import Config
from fakediscord import FakeDiscord

GLOBAL = "/applications/{application_id}/commands"
GUILD = "/applications/{application_id}/guilds/{guild_id}/commands"


def _bot(db: Path, dev_guild: int | None = None) -> SpadesBot:
    return SpadesBot(Config(token="x", database_path=str(db), dev_guild_id=dev_guild, time_scale=0.02))


async def test_synced_once_then_only_when_changed_or_forced(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    guild = fake.add_guild("Club")
    channel = guild.add_text_channel("spades")
    alice = fake.add_user("alice")
    db = tmp_path / "spades.db"

    async with fake.run_bot(_bot(db)):
        pass
    first = fake.requests_to("PUT", GLOBAL)
    assert len(first) == 1
    names = {c["name"] for c in first[0].json}
    assert {"spades", "join", "bid", "play", "leaderboard", "stats"} <= names

    async with fake.run_bot(_bot(db)) as bot:  # a restart with the same commands: no sync
        assert len(fake.requests_to("PUT", GLOBAL)) == 1
        r = await fake.slash(alice, channel, "leaderboard")  # the commands synced earlier still work
        assert r.ephemeral and r.error is None
        assert await bot.sync_commands(force=True) is True  # what /spades sync does
        assert len(fake.requests_to("PUT", GLOBAL)) == 2

    # a new version of the bot with one more command: synced at start-up, once
    async def ping(interaction: discord.Interaction) -> None:  # pragma: no cover - never invoked
        await interaction.response.send_message("pong", ephemeral=True)

    for _ in range(2):
        newer = _bot(db)
        newer.tree.add_command(app_commands.Command(name="ping", description="Ping", callback=ping))
        async with fake.run_bot(newer):
            pass
    puts = fake.requests_to("PUT", GLOBAL)
    assert len(puts) == 3 and "ping" in {c["name"] for c in puts[-1].json}


async def test_dev_guild_gets_the_commands_at_once(fake_discord: FakeDiscord, tmp_path: Path) -> None:
    fake = fake_discord
    guild = fake.add_guild("Dev")
    channel = guild.add_text_channel("test")
    alice = fake.add_user("alice")
    db = tmp_path / "spades.db"
    async with fake.run_bot(_bot(db, dev_guild=guild.id)):
        puts = fake.requests_to("PUT", GUILD)
        assert len(puts) == 1 and puts[0].path.endswith(f"/guilds/{guild.id}/commands")
        assert fake.requests_to("PUT", GLOBAL) == []
        r = await fake.slash(alice, channel, "stats")
        assert r.ephemeral and r.error is None
    async with fake.run_bot(_bot(db, dev_guild=guild.id)):
        assert len(fake.requests_to("PUT", GUILD)) == 1


async def test_answers_name_commands_as_clickable_mentions(fake_discord: FakeDiscord, tmp_path: Path) -> None:
    """After a sync the ids are known (and kept for the next start, which does not sync): a command
    named in an answer is a mention Discord draws as a button, in a Polish text too."""
    fake = fake_discord
    guild = fake.add_guild("Club")
    channel = guild.add_text_channel("spades")
    alice = fake.add_user("alice")
    db = tmp_path / "spades.db"
    for _start in range(2):
        async with fake.run_bot(_bot(db)):
            (spades,) = [c for c in fake.requests_to("PUT", GLOBAL)[0].response if c["name"] == "spades"]
            r = await fake.slash(alice, channel, "table")  # no table here: "Open one with /spades new"
            assert f"</spades new:{spades['id']}>" in r.content and "`/spades new`" not in r.content, (
                r.content
            )
    assert len(fake.requests_to("PUT", GLOBAL)) == 1  # the second start learnt the ids from storage


def test_command_paths_in_every_language() -> None:
    from bot.i18n import CommandMentions

    payload = [
        {
            "name": "spades",
            "name_localizations": {"pl": "piki"},
            "options": [
                {"type": 1, "name": "new", "name_localizations": {"pl": "nowy"}, "options": []},
                {"type": 1, "name": "me", "options": [{"type": 5, "name": "ping"}]},
            ],
        },
        {"name": "table", "options": []},
    ]
    names = CommandMentions()
    assert names.mention("Open one with `/spades new`.") == "Open one with `/spades new`."  # no ids yet
    names.learn({"spades": 11, "table": 12}, payload)
    assert names.mention("`/spades new` or `/piki nowy`") == "</spades new:11> or </spades new:11>"
    assert names.mention("`/table`, `/spades me`") == "</table:12>, </spades me:11>"
    # a command with options, an unknown one, a group alone: left as code
    for kept in ("`/spades new rules:bag_limit=5`", "`/nosuch`", "`/spades`"):
        assert names.mention(kept) == kept
