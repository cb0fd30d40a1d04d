"""/spades config, sync, addbot and abandon, and the table commands with no table or before the
start: each answer is ephemeral and specific, and what is stored follows it. Whose turn it is comes
from the table message and what is stored is read on a connection of its own, never from the running
bot (``spades.slash`` runs the privacy check ``check_public``, which reads the cards held as stored)."""

from __future__ import annotations

from typing import Any

import engine
from fakediscord import InteractionResult, User
from tests.e2e.harness import (
    Spades,
    live_message,
    open_seen,
    said,
    seen_game,
    stored_game,
    stored_seat,
    stored_seat_of,
    turn_of,
)

NO_TABLE = "There is no Spades table in this channel. Open one with {new}."


async def ask(spades: Spades, user: User, command: str, **options: Any) -> tuple[InteractionResult, str]:
    r = await spades.fake.slash(user, spades.channel, command, options=options)
    text = await said(r)
    assert r.ephemeral, f"/{command} answered in public: {text!r}"
    return r, text


async def test_server_defaults_by_spades_config(spades: Spades) -> None:
    admin, alice = spades.users["admin"], spades.users["alice"]
    async with spades.running():
        _, text = await ask(spades, alice, "spades config", preset="standard", play_seconds=30)
        assert text == "Only members with Manage Server can change the server's settings."
        _, text = await ask(spades, admin, "spades config", preset="nonsense")
        assert text.startswith("Unknown preset `nonsense`. Presets: ") and "classic-online" in text
        _, text = await ask(spades, admin, "spades config", rules="bag_limit=banana")
        assert text == "`bag_limit` takes a whole number (or `off`), not `banana`."
        async with spades.stored() as db:
            assert not (await db.settings.guild(spades.guild.id)).get("play_seconds")

        _, text = await ask(
            spades,
            admin,
            "spades config",
            preset="standard",
            play_seconds=30,
            bid_seconds=45,
            rules="bag_limit=5",
            bots="easy",
            language="pl",
        )
        assert text == (
            "Server defaults: preset **standard**, 30 s to play, 45 s to bid, house rules `bag_limit=5`. "
            "Bots at new tables: easy. Public messages: Polski."
        )
        async with spades.stored() as db:
            settings = await db.settings.guild(spades.guild.id)
        assert (settings["play_seconds"], settings["bid_seconds"], settings["bot_level"]) == (30, 45, "easy")
        assert settings["options"] == {"bag_limit": 5} and settings["language"] == "pl"
        # no option: the current defaults, unchanged
        assert (await ask(spades, admin, "spades config"))[1] == text
        # `none` clears the house rules; `auto` follows the server's Discord language again, which a
        # server without Community does not have (Discord says en-US): its tables speak their openers'
        _, text = await ask(spades, admin, "spades config", rules="none", language="auto")
        assert text == (
            "Server defaults: preset **standard**, 30 s to play, 45 s to bid. Bots at new tables: easy. "
            "Public messages: this server has no Community, so Discord tells the bot no server language: "
            "each table speaks the language of the member who opened it."
        )
        async with spades.stored() as db:
            settings = await db.settings.guild(spades.guild.id)
        assert settings["options"] == {} and settings.get("language") is None
        # a new table takes the server's defaults: as its table message shows them and as stored
        tid = await open_seen(spades, alice)
        live = live_message(spades, spades.channel, tid)
        assert live is not None and "30 s to play, 45 s to bid" in live.content
        stored = (await spades.stored_table(tid)).data["settings"]
        assert (stored["play_seconds"], stored["bid_seconds"]) == (30, 45)
    assert spades.fake.take_violations() == []


async def test_sync_is_for_managers(spades: Spades) -> None:
    async with spades.running():
        _, text = await ask(spades, spades.users["alice"], "spades sync")
        assert text == "Only the bot's owner or members with Manage Server can sync commands."
        _, text = await ask(spades, spades.users["admin"], "spades sync")
        assert text == "Commands synced."
    assert spades.fake.take_violations() == []


async def test_table_commands_without_a_table_and_before_the_start(spades: Spades) -> None:
    admin, alice, bob = (spades.users[n] for n in ("admin", "alice", "bob"))
    async with spades.running():
        for command, options in [
            ("spades addbot", {}),
            ("spades abandon", {}),
            ("hand", {}),
            ("rules", {}),
            ("score", {}),
            ("table", {}),
            ("bid", {"bid": "3"}),
            ("play", {"card": "AS"}),
            ("leave", {}),
        ]:
            assert (await ask(spades, alice, command, **options))[1] == NO_TABLE.format(
                new=spades.command("spades new")
            ), command

        tid = await open_seen(spades, alice)
        host = f"<@{alice.id}>"
        assert (await ask(spades, bob, "spades addbot"))[1] == f"Only the host ({host}) can add bots."
        assert (await ask(spades, alice, "spades addbot", seat=8))[1] == "Seats are numbered 1 to 4."
        _, text = await ask(spades, alice, "spades addbot", seat=2)
        assert text.startswith("🤖 ") and text.endswith(" sits in seat 2.")
        seat = await stored_seat(spades, tid, 1)
        assert seat is not None and seat["bot"]
        assert (await ask(spades, alice, "spades addbot", seat=2))[1] == "Seat 2 is taken. Free seats: 3, 4."
        _, text = await ask(spades, bob, "join", seat=2)
        assert text.startswith("Seat 2 is taken by 🤖") and text.endswith("Free seats: 3, 4.")
        _, text = await ask(spades, bob, "join", team=2)
        assert text.startswith("You took seat 4 (team 2, partner: 🤖")
        assert await stored_seat_of(spades, tid, bob) == 3
        assert (await ask(spades, bob, "leave"))[1] == "You left seat 4."
        assert await stored_seat_of(spades, tid, bob) is None

        _, text = await ask(spades, alice, "rules")
        assert text.startswith(f"**Rules at table {tid}**: standard: to 500")
        assert "partners sit opposite each other: seats 1 + 3 against seats 2 + 4" in text
        assert (await ask(spades, alice, "score"))[1] == f"No hand has finished at table {tid} yet."
        before = len(spades.fake.public_messages(spades.channel))
        assert (await ask(spades, alice, "table"))[1] == "Here's the table, at the bottom of the channel."
        await spades.wait_for(
            lambda: spades.fake.public_messages(spades.channel)[-1].content.startswith("♠ **Spades**"),
            what="the table message at the bottom",
        )
        assert len(spades.fake.public_messages(spades.channel)) >= before
        not_started = "The game hasn't started yet: the host presses **Start**."
        assert (await ask(spades, alice, "bid", bid="3"))[1] == not_started
        assert (await ask(spades, alice, "hand"))[1] == not_started

        # abandon: refused to others, asked first, then done
        _, text = await ask(spades, bob, "spades abandon")
        assert text == f"Only the host ({host}) or someone with Manage Server can abandon this table."
        r, text = await ask(spades, alice, "spades abandon")
        assert text == f"Abandon table {tid}? The game so far is not counted."
        assert (await spades.stored_table(tid)).status != "abandoned"  # only asked so far
        assert r.message is not None
        c = await spades.fake.click(alice, r.message, label="Yes, abandon the table")
        assert await said(c) == f"Table {tid} is abandoned."
        assert (await spades.stored_table(tid)).status == "abandoned"
        assert (await ask(spades, admin, "spades abandon"))[1] == NO_TABLE.format(
            new=spades.command("spades new")
        )

        # a server manager may abandon someone else's table
        tid = await open_seen(spades, bob)
        r, text = await ask(spades, admin, "spades abandon")
        assert text == f"Abandon table {tid}? The game so far is not counted."
        assert r.message is not None
        c = await spades.fake.click(admin, r.message, label="Yes, abandon the table")
        assert await said(c) == f"Table {tid} is abandoned."
        assert await spades.no_table_in()
    assert spades.fake.take_violations() == []


async def test_typed_bids_and_cards_with_autocomplete(spades: Spades) -> None:
    fake = spades.fake
    alice, bob = spades.users["alice"], spades.users["bob"]
    async with spades.running():
        presets = await fake.autocomplete(alice, spades.channel, "spades new", "preset", "six")
        assert [c["value"] for c in presets] == ["six-player", "six-player-threes", "six-player-solo"]
        rules = await fake.autocomplete(alice, spades.channel, "spades new", "rules", "bag")
        assert rules[0] == {
            "name": "bag_limit=… (now 10) — bags that cost the bag penalty (off: never)",
            "value": "bag_limit=",
        }
        rules = await fake.autocomplete(alice, spades.channel, "spades config", "rules", "ten")
        assert rules == [
            {"name": "ten_for_200=… (now off) — 10 tricks bid and made score 200", "value": "ten_for_200="},
            {
                "name": "ten_for_value=… (now 200) — what 10 for 200 scores instead of 200 (e.g. 150)",
                "value": "ten_for_value=",
            },
        ]

        tid = await open_seen(spades, alice, nil=False, blind_nil=False, play_seconds=600, bid_seconds=600)
        game = seen_game(spades, tid)
        _, text = await ask(spades, alice, "rules")
        assert (
            "no nil" in text and "House rules over standard: nil_allowed=off · blind_nil_allowed=off" in text
        )
        await spades.slash(alice, "spades start", fill=True)
        # the table message names her, and no one else, to bid
        await spades.wait_for(lambda: turn_of(spades, game) == ([alice.id], "bid"), what="her bid")

        bids = await fake.autocomplete(alice, spades.channel, "bid", "bid", "")
        assert [c["value"] for c in bids] == [str(n) for n in range(14)]  # no nil at this table
        allowed = "Allowed now: 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13."
        assert (await ask(spades, alice, "bid", bid="banana"))[1] == f"`banana` is not a bid. {allowed}"
        assert (await ask(spades, alice, "bid", bid="   "))[1] == f"A blank is not a bid. {allowed}"
        long = (await ask(spades, alice, "bid", bid="x" * 40))[1]
        assert long == f"`{'x' * 20}…` is not a bid. {allowed}"
        nil = (await ask(spades, alice, "bid", bid="nil"))[1]
        assert nil == "Nil isn't allowed at this table: bid a number of tricks."
        assert (await ask(spades, bob, "bid", bid="3"))[1] == "You're not playing at this table."
        assert (await ask(spades, alice, "play", card="AS"))[
            1
        ] == "You can't play a card now: it's time to bid."
        seat = next(s for s, u in game.seats.items() if u == alice.id)  # as the lobby showed it
        assert (await stored_game(spades, tid)).bids[seat] is None  # none of those answers bid for her
        assert (await ask(spades, alice, "bid", bid="3"))[1] == "You bid 3."
        bid = (await stored_game(spades, tid)).bids[seat]
        assert bid is not None and bid.n == 3

        await spades.wait_for(lambda: turn_of(spades, game) == ([alice.id], "play"), what="alice's lead")
        cards = await fake.autocomplete(alice, spades.channel, "play", "card", "")
        legal = [c["value"] for c in cards]
        assert legal and all(not v.endswith("S") for v in legal)  # spades are not broken
        _, text = await ask(spades, alice, "play", card="ZZ")
        assert text.startswith(
            "`ZZ` is not a card: write a rank (A, K, Q, J, 10 to 2) and then a suit letter (S, H, D or C). "
            "You can play "
        )
        assert (await ask(spades, alice, "bid", bid="3"))[1] == "You can't bid now: the hand is being played."
        card = engine.parse_card(legal[0])
        assert card in engine.cards_of((await stored_game(spades, tid)).hand(seat))
        _, text = await ask(spades, alice, "play", card=legal[0])
        assert text == f"You played {engine.card_pretty(card)}."
        assert card not in engine.cards_of((await stored_game(spades, tid)).hand(seat))
    assert spades.fake.take_violations() == []
