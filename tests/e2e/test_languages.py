"""Languages end to end: a Polish, a Czech and a Russian player at one table on a Polish server.

Each sees their own hand panel and their own refusals in their client's language; the table
message, its buttons and the hand's post speak the server's language, and follow
``/spades config language`` when an admin changes it. Slash commands are synced with their Polish,
Czech and Russian names. Only Discord is faked.
"""

from __future__ import annotations

import contextlib
import re
from pathlib import Path

import pytest

from bot.client import SpadesBot
from bot.config import Config
from bot.table.post_pictures import hand_pictures
from fakediscord import FakeDiscord, Message, User
from tests.clock import TestClock
from tests.e2e.harness import Spades, act_from_panel, said

GLOBAL = "/applications/{application_id}/commands"
# the live table message's first words in each language
LIVE = {"en": "♠ **Spades**", "pl": "♠ **Piki**", "cs": "♠ **Piky**", "ru": "♠ **Пики**"}
# the hand panel's header ("**Table 3** in #spades · hand 1") in each player's language
PANEL = {"pl": "**Stół ", "cs": "**Stůl ", "ru": "**Стол "}


@pytest.fixture
def world(fake_discord: FakeDiscord, tmp_path: Path) -> Spades:
    fake = fake_discord
    guild = fake.add_guild("Klub pikowy", locale="pl")
    channel = guild.add_text_channel("piki")
    users = {
        "piotr": fake.add_user("piotr", locale="pl"),
        "jana": fake.add_user("jana", locale="cs"),
        "ivan": fake.add_user("ivan", locale="ru"),
        "admin": fake.add_user("root", manage_guild=True, locale="en-US"),
    }
    return Spades(fake, guild, channel, users, tmp_path / "spades.db")


def live(world: Spades, lang: str) -> Message | None:
    """The newest table message of the world's table (its buttons name it) in ``lang``."""
    tid = world.table_id
    msgs = [m for m in world.fake.public_messages(world.channel) if m.content.startswith(LIVE[lang])]
    msgs = [m for m in msgs if any(b.get("custom_id", "").startswith(f"sp:{tid}:") for b in m.buttons)]
    return msgs[-1] if msgs else None


async def panel(world: Spades, user: User) -> Message:
    """Click the live message's hand button (whatever its label): the user's ephemeral panel."""
    tid = world.table_id
    msg = next(m for m in reversed(world.fake.public_messages(world.channel)) if _has(m, f"sp:{tid}:hand"))
    r = await world.fake.click(user, msg, custom_id=f"sp:{tid}:hand")
    return await world.panel_of(r)


def _has(msg: Message, custom_id: str) -> bool:
    return any(b.get("custom_id") == custom_id for b in msg.buttons)


def opened(world: Spades, answer: str) -> int:
    """The table a ``/spades new`` answer (in any language: "Stół 3 …") names; the world's table."""
    found = re.search(r"\d+", answer)
    assert found is not None, answer
    world.table_id = int(found.group(0))
    return world.table_id


def named(world: Spades, users: list[User]) -> list[User]:
    """The ``users`` the Polish table message's turn line ("➜ …") names."""
    m = live(world, "pl")
    line = next((x for x in m.content.splitlines() if x.startswith("➜")), "") if m is not None else ""
    return [u for u in users if f"<@{u.id}>" in line]


async def act(world: Spades, user: User, msg: Message) -> Message | None:
    """``user`` looks at face-down cards (by the button's custom id: the labels are in the player's
    language), then makes the harness's move on their panel (``act_from_panel``); the panel acted on, or
    None when it offers no move (the table message was a moment behind)."""
    look = next(
        (b for b in msg.buttons if ":look:" in b.get("custom_id", "") and not b.get("disabled")), None
    )
    if look is not None:
        r = await world.fake.click(user, msg, custom_id=look["custom_id"])
        assert r.error is None, r.error
        msg = r.message if r.ephemeral and r.message is not None else await panel(world, user)
    moved = await act_from_panel(world.fake, user, msg)
    return msg if moved is not None and moved[1] != "look" else None


async def test_each_player_sees_their_language_and_the_table_the_servers(world: Spades) -> None:
    piotr, jana, ivan, admin = (world.users[n] for n in ("piotr", "jana", "ivan", "admin"))
    langs = {piotr.id: "pl", jana.id: "cs", ivan.id: "ru"}
    async with world.running():
        r = await world.fake.slash(piotr, world.channel, "spades new")
        text = await said(r)
        assert text.startswith("Stół ") and "naciskają **Dołącz**" in text  # Polish to Piotr
        tid = opened(world, text)
        await world.wait_for(lambda: live(world, "pl") is not None, what="the Polish table message")
        msg = live(world, "pl")
        assert msg is not None
        assert "Gospodarz: <@" in msg.content and "wolne miejsca" in msg.content
        assert [b["label"] for b in msg.buttons] == ["Dołącz", "Odejdź", "Start", "Zasady"]

        # each one's refusal in their own language
        r = await world.fake.slash(ivan, world.channel, "spades start")
        assert await said(r) == f"Начать игру может только хозяин стола (<@{piotr.id}>)."
        for user, joined in ((jana, "Sedíš na místě 2"), (ivan, "Вы заняли место 3")):
            r = await world.fake.click(user, live(world, "pl"), custom_id=f"sp:{tid}:join")
            assert (await said(r)).startswith(joined), await said(r)

        # Piotr starts; the empty seat goes to a bot (the offer comes in Polish)
        r = await world.fake.slash(piotr, world.channel, "spades start")
        assert "Poczekaj na graczy albo posadź boty" in await said(r)
        r = await world.fake.slash(piotr, world.channel, "spades start", fill=True)
        assert r.error is None
        await world.wait_for(
            lambda: (m := live(world, "pl")) is not None and "Rozdanie 1" in m.content, what="the deal"
        )
        await world.settle()
        msg = live(world, "pl")
        assert msg is not None and "Rozdanie 1" in msg.content
        assert [b["label"] for b in msg.buttons][:1] == ["Moje karty"]

        # everyone's panel speaks their language; a click out of turn is refused in it
        seen: dict[str, str] = {}
        refused: dict[str, str] = {}
        hand_no = 1
        humans = [piotr, jana, ivan]

        def hand_posted() -> bool:
            return any(
                m.content.startswith(f"📋 **Rozdanie {hand_no}**")
                for m in world.fake.public_messages(world.channel)
            )

        steps = 0
        while not hand_posted():
            steps += 1
            assert steps < 300, "the hand does not end"
            shown = live(world, "pl")
            version = (shown.id, len(shown.history)) if shown is not None else None
            moved = False
            acting = named(world, humans)
            for user in acting:
                lang = langs[user.id]
                msg = await panel(world, user)
                assert msg.content.startswith(PANEL[lang]) or PANEL[lang] in msg.content, msg.content
                playing = any(":c:" in b.get("custom_id", "") and not b.get("disabled") for b in msg.buttons)
                waiting = next((u for u in humans if u not in acting), None)
                if playing and waiting is not None and langs[waiting.id] not in refused:
                    r = await world.fake.slash(waiting, world.channel, "play", card="2C")
                    refused[langs[waiting.id]] = await said(r)
                acted_on = await act(world, user, msg)
                if acted_on is not None:
                    seen[lang] = acted_on.content
                    moved = True
                    break
            if not moved:  # nobody's turn yet (bots), or a table message a moment behind
                with contextlib.suppress(AssertionError):
                    await world.wait_for(
                        lambda v=version: (
                            hand_posted()  # type: ignore[misc]
                            or ((m := live(world, "pl")) is not None and (m.id, len(m.history)) != v)
                        ),
                        timeout=1.0,
                    )
        assert set(seen) == {"pl", "cs", "ru"}
        texts = " ".join(seen.values())
        assert "Kiery" not in texts  # (cards are symbols in every language)
        for lang, word in (("pl", "rozdanie"), ("cs", "rozdání"), ("ru", "раздача")):
            assert word in seen[lang], seen[lang]
        assert len(refused) >= 2, refused
        for lang, text in refused.items():
            english = ("is not a card", "turn, not yours", "isn't", "You ")
            assert not any(e in text for e in english), (lang, text)

        # the hand's result is posted in the server's language (Polish)
        await world.settle()
        posts = [m.content for m in world.fake.public_messages(world.channel)]
        assert any(p.startswith(f"📋 **Rozdanie {hand_no}** · stół") for p in posts), posts[-3:]
        assert not any(p.startswith("📋 **Hand") for p in posts)
        # with its picture, drawn in Polish (a drawing that failed would leave the post without it)
        (post,) = [
            m
            for m in world.fake.public_messages(world.channel)
            if m.content.startswith(f"📋 **Rozdanie {hand_no}**")
        ]
        assert [a["filename"] for a in post.attachments] == [f"hand-{hand_no}.png"]
        t = await world.stored_model(tid)  # the table and its hand's record as stored
        async with world.stored() as db:
            record = next(r for r in await db.games.hand_records(tid) if r["hand_no"] == hand_no)
        drawn = world.fake.attachment_bytes(post.attachments[0])
        assert drawn == hand_pictures(t, record)("pl")[0][1] != hand_pictures(t, record)("en")[0][1]

        # an admin switches the server's public language to Czech: the table follows
        r = await world.fake.slash(admin, world.channel, "spades config", language="cs")
        text = await said(r)
        assert text.endswith("Public messages: Čeština."), text  # the admin's client is English
        await world.wait_for(lambda: live(world, "cs") is not None, what="the Czech table message")
        await world.settle()
        msg = live(world, "cs")
        assert msg is not None and "Rozdání" in msg.content and "Rozdanie" not in msg.content
        assert [b["label"] for b in msg.buttons][:1] == ["Moje karty"]  # (the same words in Czech)
        async with world.stored() as db:
            assert (await db.settings.guild(world.guild.id))["language"] == "cs"

        # and back to the server's own (Polish)
        r = await world.fake.slash(admin, world.channel, "spades config", language="auto")
        assert "Polski" in await said(r)
        await world.wait_for(
            lambda: live(world, "pl") is not None and live(world, "cs") is None, what="the Polish table again"
        )


async def test_commands_are_synced_with_their_translations(fake_discord: FakeDiscord, tmp_path: Path) -> None:
    fake = fake_discord
    fake.add_guild("Club", locale="ru")
    bot = SpadesBot(Config(token="x", database_path=str(tmp_path / "s.db")), clock=TestClock(50))
    async with fake.run_bot(bot):
        pass
    puts = fake.requests_to("PUT", GLOBAL)
    assert len(puts) == 1
    commands = {c["name"]: c for c in puts[0].json}
    assert commands["spades"]["name_localizations"] == {"pl": "piki", "cs": "piky", "ru": "пики"}
    assert commands["bid"]["description_localizations"]["ru"] == "Сделать ставку за столом этого канала"
    new = next(o for o in commands["spades"]["options"] if o["name"] == "new")
    nil = next(o for o in new["options"] if o["name"] == "blind_nil")
    assert nil["name_localizations"] == {"pl": "zero_w_ciemno", "cs": "slepý_nil", "ru": "слепой_ноль"}
    sort = next(o for o in commands["leaderboard"]["options"] if o["name"] == "sort")
    assert {c["name_localizations"]["cs"] for c in sort["choices"]} >= {"Výhry", "Přesnost nabídek"}


async def test_rules_explain_every_house_rule_in_the_readers_language(world: Spades) -> None:
    """Issue 8 item 14: `/rules` states each rule of the table (house rules too) in the reader's
    language, split into messages of at most 2,000 characters when it is long."""
    piotr, ivan = world.users["piotr"], world.users["ivan"]
    heavy = (
        "jokers=on deuces_high=on blind_bids=on ten_for_200=on boston=on lose_score=-300 max_hands=12 "
        "board=4 misdeal_no_spades=on first_trick_two_clubs=on blind_nil_min_deficit=100 bag_limit=7"
    )
    async with world.running():
        r = await world.slash(piotr, "spades new", rules=heavy)
        assert (await world.stored_model(opened(world, await said(r)))).ruleset.boston
        r = await world.slash(ivan, "rules")
        await world.wait_for(lambda: bool(r.followups), what="the rules' second message")
        pages = [await said(r), *(m.content for m in r.followups)]
        assert r.ephemeral and len(pages) >= 2 and all(len(p) <= 2000 for p in pages)
        text = "\n".join(pages)
        for needle in (
            "**Правила",
            "Джокеры старшие",
            "Старшие двойки",
            "Ставки вслепую",
            "10 за 200",
            "Бостон",
            "Пощада",
            "не позже чем через 12 раздач",
            "отстающая на 100 очков",
            "каждые 7 мешков",
        ):
            assert needle in text, (needle, text)
        assert "Blind" not in text and "Boston" not in text
        await world.settle()
        r = await world.fake.click(piotr, live(world, "pl"), label="Zasady")  # type: ignore[arg-type]
        await world.wait_for(lambda: bool(r.followups), what="the rules' second message")
        text = "\n".join([await said(r), *(m.content for m in r.followups)])
        assert "Zero w ciemno" in text and "Deklaracje w ciemno" in text and "Litość" in text


async def test_a_server_without_community_speaks_the_language_of_whoever_opens_the_table(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    """A friends' server without Community reports en-US whatever its members speak, and has set no
    language with `/spades config language`: a Polish host's table speaks Polish in public (after a
    restart too); the host, who may manage the server, is told once how to choose its language; a
    host who may not gets no such note; a Czech host's table speaks Czech."""
    fake = fake_discord
    guild = fake.add_guild("Znajomi")  # en-US, no Community
    channel, other = guild.add_text_channel("karty"), guild.add_text_channel("druga")
    ola = fake.add_user("ola", locale="pl", manage_guild=True)
    kim = fake.add_user("kim", locale="en-US")
    jana = fake.add_user("jana", locale="cs")
    world = Spades(fake, guild, channel, {"ola": ola, "kim": kim, "jana": jana}, tmp_path / "spades.db")
    note = "🌐 Ten serwer nie ma wybranego języka bota"
    async with world.running():
        r = await world.fake.slash(ola, channel, "spades new")
        assert r.ephemeral and (await said(r)).startswith("Stół ")
        tid = opened(world, await said(r))
        # the host may manage the server: told how to choose the server's language, in Polish
        assert (
            note in await said(r)
            and "(ten: Polski)" in await said(r)
            and "`/piki ustawienia język:`" in await said(r)
        )
        await world.wait_for(lambda: live(world, "pl") is not None, what="the Polish table message")
        msg = live(world, "pl")
        assert msg is not None and not any(
            m.content.startswith(LIVE["en"]) for m in fake.public_messages(channel)
        )
        assert [b["label"] for b in msg.buttons] == ["Dołącz", "Odejdź", "Start", "Zasady"]
        # an English player's own answer is English; the table stays Polish
        r = await world.fake.click(kim, msg, custom_id=f"sp:{tid}:join")
        assert (await said(r)).startswith("You took seat 2"), await said(r)
        async with world.stored() as db:
            assert (await db.settings.guild(guild.id)).get("language_noted") is True
            assert (await db.settings.guild(guild.id)).get("language") is None

    async with world.running():  # a restart: the table keeps its language
        r = await world.fake.slash(ola, channel, "spades start", fill=True)
        assert r.error is None
        await world.wait_for(
            lambda: (m := live(world, "pl")) is not None and "Rozdanie 1" in m.content, what="the Polish deal"
        )
        assert not any(m.content.startswith(LIVE["en"]) for m in fake.public_messages(channel))
        # a Czech member who may not manage the server opens a table elsewhere: Czech, and no note
        r = await world.fake.slash(jana, other, "spades new")
        assert (await said(r)).startswith("Stůl ") and "🌐" not in await said(r)
        world.channel = other
        opened(world, await said(r))
        await world.wait_for(lambda: live(world, "cs") is not None, what="the Czech table message")
        # the admin is told only once
        r = await world.fake.slash(ola, guild.add_text_channel("trzecia"), "spades new")
        assert (await said(r)).startswith("Stół ") and note not in await said(r)
