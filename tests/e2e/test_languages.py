"""Languages end to end: a Polish, a Czech and a Russian player at one table on a Polish server.

Each sees their own hand panel and their own refusals in their client's language; the table
message, its buttons and the hand's post speak the server's language, and follow
``/spades config language`` when an admin changes it. Slash commands are synced with their Polish,
Czech and Russian names. Only Discord is faked.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from bot.client import SpadesBot
from bot.config import Config
from bot.table.post_pictures import hand_pictures
from engine.bots import get_bot
from tests.e2e.conftest import Spades, said
from tests.fakediscord import FakeDiscord, Message, User

CARD_ID = re.compile(r"^sp:\d+:c:\d+:(\d+)$")
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
    tid = world.table().id
    msgs = [m for m in world.fake.public_messages(world.channel) if m.content.startswith(LIVE[lang])]
    msgs = [m for m in msgs if any(b.get("custom_id", "").startswith(f"sp:{tid}:") for b in m.buttons)]
    return msgs[-1] if msgs else None


async def panel(world: Spades, user: User) -> Message:
    """Click the live message's hand button (whatever its label): the user's ephemeral panel."""
    tid = world.table().id
    msg = next(m for m in reversed(world.fake.public_messages(world.channel)) if _has(m, f"sp:{tid}:hand"))
    r = await world.fake.click(user, msg, custom_id=f"sp:{tid}:hand")
    return await world.panel_of(r)


def _has(msg: Message, custom_id: str) -> bool:
    return any(b.get("custom_id") == custom_id for b in msg.buttons)


def _component(msg: Message, pattern: str) -> dict[str, Any]:
    return next(c for c in [*msg.buttons, *msg.selects] if re.search(pattern, c.get("custom_id", "")))


async def act(world: Spades, user: User, msg: Message) -> None:
    """Do what the heuristic bot would in ``user``'s seat, through the panel (by custom_id: the
    labels are in the player's language)."""
    t = world.table()
    assert t.game is not None
    action = get_bot("heuristic", 1).act(t.game.view(world.seat_of(user)))
    kind = type(action).__name__
    if kind == "Look":
        r = await world.fake.click(user, msg, custom_id=_component(msg, r":look:")["custom_id"])
    elif kind == "BidAction" and action.bid.kind == "blind_nil":
        r = await world.fake.click(user, msg, custom_id=_component(msg, r":blind:")["custom_id"])
    elif kind == "BidAction":
        sel = _component(msg, r":b:")
        r = await world.fake.select(user, msg, custom_id=sel["custom_id"], values=[str(action.bid)])
    elif kind == "PlayAction":
        r = await world.fake.click(user, msg, custom_id=world.card_custom_id(msg, action.card))
    elif kind == "PassAction":
        sel = _component(msg, r":p:")
        r = await world.fake.select(
            user, msg, custom_id=sel["custom_id"], values=[str(c) for c in action.cards]
        )
    else:
        raise AssertionError(f"unexpected action {action}")
    assert r.error is None, r.error


async def test_each_player_sees_their_language_and_the_table_the_servers(world: Spades) -> None:
    piotr, jana, ivan, admin = (world.users[n] for n in ("piotr", "jana", "ivan", "admin"))
    langs = {piotr.id: "pl", jana.id: "cs", ivan.id: "ru"}
    async with world.running():
        r = await world.fake.slash(piotr, world.channel, "spades new")
        assert said(r).startswith("Stół ") and "Naciśnij **Dołącz**" in said(r)  # Polish to Piotr
        await world.wait_for(lambda: live(world, "pl") is not None, what="the Polish table message")
        msg = live(world, "pl")
        assert msg is not None
        assert "Gospodarz: <@" in msg.content and "wolne miejsca" in msg.content
        assert [b["label"] for b in msg.buttons] == ["Dołącz", "Odejdź", "Start", "Zasady"]

        # each one's refusal in their own language
        r = await world.fake.slash(ivan, world.channel, "spades start")
        assert said(r) == f"Начать игру может только хозяин стола (<@{piotr.id}>)."
        for user, joined in ((jana, "Sedíš na místě 2"), (ivan, "Вы заняли место 3")):
            r = await world.fake.click(user, live(world, "pl"), custom_id=f"sp:{world.table().id}:join")
            assert said(r).startswith(joined), said(r)

        # Piotr starts; the empty seat goes to a bot (the offer comes in Polish)
        r = await world.fake.slash(piotr, world.channel, "spades start")
        assert "Poczekaj na graczy albo posadź boty" in said(r)
        r = await world.fake.slash(piotr, world.channel, "spades start", fill=True)
        assert r.error is None
        await world.wait_for(lambda: world.table().status == "playing", what="the deal")
        await world.settle()
        msg = live(world, "pl")
        assert msg is not None and "Rozdanie 1" in msg.content
        assert [b["label"] for b in msg.buttons][:1] == ["Moje karty"]

        # everyone's panel speaks their language; a click out of turn is refused in it
        seen: dict[str, str] = {}
        refused: dict[str, str] = {}
        t = world.table()
        assert t.game is not None
        hand_no = t.game.hand_no
        steps = 0
        while world.table().game is not None and world.table().game.hand_no == hand_no:  # type: ignore[union-attr]
            await world.wait_turn()
            if world.table().status != "playing" or world.table().game.hand_no != hand_no:  # type: ignore[union-attr]
                break
            acting = world.acting_humans()
            if not acting:
                continue
            user = acting[0]
            lang = langs[user.id]
            msg = await panel(world, user)
            assert msg.content.startswith(PANEL[lang]) or PANEL[lang] in msg.content, msg.content
            seen[lang] = msg.content
            waiting = next((u for u in (piotr, jana, ivan) if u not in acting), None)
            if (
                waiting is not None
                and langs[waiting.id] not in refused
                and world.table().game.phase == "play"
            ):  # type: ignore[union-attr]
                r = await world.fake.slash(waiting, world.channel, "play", card="2C")
                refused[langs[waiting.id]] = said(r)
            await act(world, user, msg)
            steps += 1
            assert steps < 200
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
        (post,) = [m for m in world.fake.public_messages(world.channel)
                   if m.content.startswith(f"📋 **Rozdanie {hand_no}**")]
        assert [a["filename"] for a in post.attachments] == [f"hand-{hand_no}.png"]
        t = world.table()
        assert t.game is not None
        record = next(r for r in t.game.hand_records if r["hand_no"] == hand_no)
        drawn = world.fake.attachment_bytes(post.attachments[0])
        assert drawn == hand_pictures(t, record)("pl")[0][1] != hand_pictures(t, record)("en")[0][1]

        # an admin switches the server's public language to Czech: the table follows
        r = await world.fake.slash(admin, world.channel, "spades config", language="cs")
        assert said(r).endswith("Public messages: Čeština."), said(r)  # the admin's client is English
        await world.wait_for(lambda: live(world, "cs") is not None, what="the Czech table message")
        await world.settle()
        msg = live(world, "cs")
        assert msg is not None and "Rozdání" in msg.content and "Rozdanie" not in msg.content
        assert [b["label"] for b in msg.buttons][:1] == ["Moje karty"]  # (the same words in Czech)
        async with world.stored() as db:
            assert (await db.guild_settings(world.guild.id))["language"] == "cs"

        # and back to the server's own (Polish)
        r = await world.fake.slash(admin, world.channel, "spades config", language="auto")
        assert "Polski" in said(r)
        await world.wait_for(
            lambda: live(world, "pl") is not None and live(world, "cs") is None, what="the Polish table again"
        )


async def test_commands_are_synced_with_their_translations(fake_discord: FakeDiscord, tmp_path: Path) -> None:
    fake = fake_discord
    fake.add_guild("Club", locale="ru")
    bot = SpadesBot(Config(token="x", database_path=str(tmp_path / "s.db"), time_scale=0.02))
    async with fake.run_bot(bot):
        pass
    puts = fake.requests_to("PUT", GLOBAL)
    assert len(puts) == 1
    commands = {c["name"]: c for c in puts[0].json}
    assert commands["spades"]["name_localizations"] == {"pl": "piki", "cs": "piky", "ru": "пики"}
    assert commands["bid"]["description_localizations"]["ru"] == "Сделать ставку за столом этого канала"
    new = next(o for o in commands["spades"]["options"] if o["name"] == "new")
    nil = next(o for o in new["options"] if o["name"] == "blind_nil")
    assert nil["name_localizations"] == {"pl": "ślepe_zero", "cs": "slepý_nil", "ru": "слепой_ноль"}
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
        assert world.table().ruleset.boston
        r = await world.slash(ivan, "rules")
        await world.wait_for(lambda: bool(r.followups), what="the rules' second message")
        pages = [said(r), *(m.content for m in r.followups)]
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
        text = "\n".join([said(r), *(m.content for m in r.followups)])
        assert "Ślepe zero" in text and "Deklaracje w ciemno" in text and "Litość" in text
