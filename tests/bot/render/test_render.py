"""Rendering and component layout: Discord limits, card grouping, custom_id round trips."""

from __future__ import annotations

import re

import discord
import pytest

import engine
from bot import render
from bot.model import Seat, Table
from bot.views import DYNAMIC_ITEMS, BidSelect, CardButton, PanelButton, PassSelect, TableButton, card_rows


def _table(preset: str = "standard") -> Table:
    rs = engine.Ruleset.preset(preset)
    seats: list[Seat | None] = [None] * rs.num_seats
    seats[0] = Seat(11, "alice")
    seats[1] = Seat(None, "Bea", bot=True)
    return Table(
        id=7,
        guild_id=1,
        channel_id=2,
        host_id=11,
        status="open",
        ruleset=rs,
        preset=preset,
        seats=seats,
        settings={"play_seconds": 60, "bid_seconds": 90},
    )


@pytest.mark.parametrize("n", [1, 5, 10, 13, 17, 18])
def test_card_rows_respect_discord_limits(n: int) -> None:
    deck = [c for c in range(52)]
    cards = engine.cards_of(engine.mask_of(deck[::3][:n] if n <= 18 else deck[:n]))
    assert len(cards) == n
    for rows in (4, 5):
        laid = card_rows(cards, rows)
        assert len(laid) <= rows
        assert all(1 <= len(r) <= 5 for r in laid)
        assert [c for r in laid for c in r] == cards  # order kept, nothing lost


def test_card_rows_group_suits_when_they_fit() -> None:
    cards = engine.cards_of(engine.mask_of(engine.parse_cards("AS KS 9H 4H JC 6C 3D")))
    laid = card_rows(cards, 4)
    assert [[engine.suit_of(c) for c in r] for r in laid] == [[3, 3], [2, 2], [0, 0], [1]]


def test_seating_message_names_seats_teams_and_host() -> None:
    text = render.table_message(_table())
    assert "table 7" in text
    assert "1. <@11>" in text and "🤖 Bea" in text and "(empty)" in text
    assert "Team 1" in text and "Team 2" in text
    assert "Host: <@11>" in text
    assert len(text) <= 2000


def test_rules_text_mentions_the_options_in_words() -> None:
    text = render.rules_text(_table())
    assert "Blind nil" in text and "Nil" in text and "bags" in text
    assert len(text) <= 2000


def test_custom_ids_fit_and_parse_back() -> None:
    big = 10**12
    items: list[discord.ui.Item[discord.ui.View]] = [
        TableButton(big, "join"),
        CardButton(big, 99999, 53 + 64),
        BidSelect(big, 99999, [engine.Bid.parse("4"), engine.Bid.parse("nil")]),
        PassSelect(big, 99999, list(range(18)), 3),
        PanelButton(big, "blind", 99999),
    ]
    for item in items:
        cid = item.custom_id  # type: ignore[attr-defined]
        assert len(cid) <= 100
        matching = [cls for cls in DYNAMIC_ITEMS if re.fullmatch(cls.__discord_ui_compiled_template__, cid)]  # type: ignore[attr-defined]
        assert matching == [type(item)], cid


def _played_hand(seed: int = 3) -> tuple[Table, object, list[object]]:
    """A table whose game has just finished its first hand (bots play it), with that hand's events."""
    from engine.bots import get_bot

    t = _table()
    t.seats = [Seat(11, "alice"), Seat(None, "Bea", bot=True), Seat(12, "carol"), Seat(None, "Ray", bot=True)]
    t.status = "playing"
    g = engine.Game.new(t.ruleset, seed=seed)
    t.game = g
    bot = get_bot("heuristic", 1)
    while True:
        seat = g.seats_to_act()[0]
        events = g.apply(bot.act(g.view(seat)))
        scored = [e for e in events if isinstance(e, engine.HandScored)]
        if scored:
            return t, scored[0], events


def test_hand_post_shows_bids_tricks_and_the_engines_breakdown() -> None:
    t, ev, _ = _played_hand()
    text = render.hand_post(t, ev)
    assert text.startswith("📋 **Hand 1** · table 7")
    record = t.game.hand_records[0]  # type: ignore[union-attr]
    for side, seats in enumerate(t.ruleset.sides):
        b = ev.breakdown[side]  # type: ignore[attr-defined]
        took = sum(ev.tricks[s] for s in seats)  # type: ignore[attr-defined]
        line = next(x for x in text.splitlines() if x.startswith(f"Team {side + 1}:"))
        assert f"took {took}" in line
        assert f"→ {b.total:+d} ({b.score_before} → {b.score_after})" in line
        bids = {s: bid for s, bid in record["bids"]}
        assert all(str(bids[s]).replace("_", " ").lower() in line.lower() for s in seats)
    assert len(text) <= 2000


def test_public_texts_never_show_a_held_card() -> None:
    t, _, _ = _played_hand(seed=5)
    g = t.game
    assert g is not None
    bot = __import__("engine.bots", fromlist=["get_bot"]).get_bot("heuristic", 2)
    for _ in range(30):  # into the second hand, checking after every action
        held = {engine.card_pretty(c) for s in range(4) for c in engine.cards_of(g.hand(s))}
        for text in (render.table_message(t), render.score_sheet(t), render.rules_text(t)):
            assert not any(re.search(rf"(?<![0-9A-Za-z]){re.escape(c)}", text) for c in held), text
        seat = g.seats_to_act()[0]
        g.apply(bot.act(g.view(seat)))


def test_score_sheet_lists_running_totals() -> None:
    t, ev, _ = _played_hand()
    text = render.score_sheet(t)
    row = text.splitlines()[-1]
    assert row.startswith("1 · ")
    for side in range(2):
        assert f"{ev.scores[side]} (" in row  # type: ignore[attr-defined]


@pytest.mark.parametrize("options", [{}, {"first_trick_two_clubs": True}])
def test_panel_header_puts_the_engines_legal_cards_in_words(options: dict[str, bool]) -> None:
    """The "what to do" header never contradicts ``legal_cards`` (2♣ leads, no spade on trick 1)."""
    import random

    from engine.bots import get_bot

    t = _table()
    t.ruleset = t.ruleset.with_options(**options)
    t.seats = [Seat(11 + s, f"p{s}") for s in range(4)]
    t.status = "playing"
    rng = random.Random(4)
    seen: set[str] = set()
    for seed in range(3):
        g = engine.Game.new(t.ruleset, seed=seed)
        t.game = g
        bot = get_bot("heuristic", seed)
        while g.hand_no == 1 and g.winner is None:
            seat = g.seats_to_act()[0]
            if str(g.phase).upper().endswith("PLAY"):
                v = g.view(seat)
                legal = set(g.legal_cards(seat))
                held = set(engine.cards_of(g.hand(seat)))
                # what the player reads, checked against the engine's legal cards below (never
                # against the function that writes it)
                head = render.hand_panel_text(t, seat).splitlines()[0]
                todo = head.rsplit(" · ", 1)[-1]
                seen.add(todo.split(":")[0])
                if todo.startswith("you must follow "):
                    led = engine.suit_symbol(engine.suit_of(v.current_trick[0][1]))
                    assert todo == f"you must follow {led}"
                    assert all(engine.suit_symbol(engine.suit_of(c)) == led for c in legal)
                elif todo.startswith("you must lead "):
                    assert [engine.card_pretty(c) for c in legal] == [todo.removeprefix("you must lead ")]
                elif todo.endswith("play any card") or todo == "your lead":
                    assert legal == held
                else:
                    assert legal < held, todo
                if legal == held and v.current_trick:
                    assert "any card" in todo or todo.startswith("you must follow")
                g.play(seat, rng.choice(sorted(legal)))
            else:
                g.apply(bot.act(g.view(seat)))
    kinds = {k.split(" ")[-1] if k.startswith("you must") else k.split(" ")[0] for k in seen}
    assert {"♠", "♥", "your", "no"} <= kinds, seen  # followed, led and discarded
    assert ("you must lead 2♣" in seen) == bool(options)


def test_rules_text_uses_the_tables_own_numbers() -> None:
    """House rules change the values the Rules button states (it once said ±100 and "every None bags")."""
    from engine.house_rules import check_rules, parse_house_rules

    t = _table()
    t.ruleset = check_rules(
        "standard", parse_house_rules("bag_limit=off nil_value=50 blind_nil_value=300 max_hands=10")
    )
    text = render.rules_text(t)
    assert "+50 if you take none, −50 if you take any" in text and "+300 / −300" in text
    assert "None" not in text and "Bags never cost a penalty" in text
    assert "after 10 hands at the latest" in text
    t.ruleset = engine.Ruleset.preset("short")
    text = render.rules_text(t)
    assert "The first side to 250 points wins" in text and "every 5 bags cost 50 points" in text
    t.ruleset = engine.Ruleset.preset("house")
    assert "Mercy: a side at −200 points or below" in "\n".join(render.rules_pages(t))


def test_a_17_card_panel_with_a_misdeal_button_stays_within_five_rows() -> None:
    """Six players, misdeal on no spades: bid picker + misdeal button leave three rows, too few for
    17 card buttons; the panel still builds (it used to fail on a sixth row) and lists the cards."""
    from bot.views import hand_panel

    rs = engine.Ruleset.preset("six-player", misdeal_no_spades=True)
    t = _table()
    t.ruleset = rs
    t.seats = [Seat(11 + s, f"p{s}") for s in range(6)]
    t.status = "playing"
    for seed in range(500):
        g = engine.Game.new(rs, seed=seed)
        seat = g.seats_to_act()[0]
        actions = g.legal_actions(seat)
        if isinstance(actions[0], engine.Look):  # blind nil is offered first: look at the cards
            g.apply(actions[0])
        if any(isinstance(a, engine.MisdealAction) for a in g.legal_actions(seat)):
            break
    else:
        pytest.fail("no deal without spades found")
    t.game = g
    content, view = hand_panel(t, 11 + seat)
    assert view is not None and len(view.children) <= 25
    assert any(getattr(i, "custom_id", "").split(":")[2:3] == ["misdeal"] for i in view.children)
    assert any(isinstance(i, BidSelect) for i in view.children)
    assert render.cards_line(engine.cards_of(g.hand(seat))) in content
    assert len(engine.cards_of(g.hand(seat))) == 17


class _DeferredResponse:
    def __init__(self, kind: discord.InteractionResponseType | None) -> None:
        self.type = kind
        self.sent: list[str] = []

    def is_done(self) -> bool:
        return self.type is not None

    async def send_message(self, content: str, **kwargs: object) -> None:
        self.sent.append(content)


class _Followup:
    def __init__(self) -> None:
        self.sent: list[str] = []

    async def send(self, content: str, **kwargs: object) -> None:
        self.sent.append(content)


@pytest.mark.parametrize(
    ("kind", "answered"),
    [
        (None, "response"),
        (discord.InteractionResponseType.deferred_message_update, "followup"),
        (discord.InteractionResponseType.message_update, None),
    ],
)
async def test_a_failing_click_is_answered_even_after_a_deferral(
    kind: discord.InteractionResponseType | None, answered: str | None
) -> None:
    """``timely`` defers slow work; a bug after that must still tell the user, not leave them hanging."""
    from types import SimpleNamespace

    from bot.views import APOLOGY

    interaction = SimpleNamespace(id=1, response=_DeferredResponse(kind), followup=_Followup())

    async def broken(_: object) -> None:
        raise RuntimeError("boom")

    button = TableButton(7, "score", label="Score sheet", style=discord.ButtonStyle.secondary)
    button._handle = broken  # type: ignore[method-assign]
    await button.callback(interaction)  # type: ignore[arg-type]
    assert interaction.response.sent == ([APOLOGY] if answered == "response" else [])
    assert interaction.followup.sent == ([APOLOGY] if answered == "followup" else [])


def test_blind_bids_are_offered_in_the_panel_before_looking() -> None:
    """House rules: a side trailing by 100 may bid blind 1-7 before looking; the panel offers them."""

    from bot.views import hand_panel
    from engine.bots import get_bot

    t = _table("house")
    t.seats = [Seat(11 + s, f"p{s}") for s in range(4)]
    t.status = "playing"
    bot = get_bot("random", 1)
    found = None
    for seed in range(40):
        g = engine.Game.new(t.ruleset, seed=seed)
        while g.winner is None and g.hand_no < 8 and found is None:
            seat = g.seats_to_act()[0]
            if g.view(seat).hand is None and any(b.kind == "blind" for b in g.legal_bids(seat)):
                found = g, seat
                break
            g.apply(bot.act(g.view(seat)))
        if found:
            break
    assert found is not None, "no blind bid situation found"
    g, seat = found
    t.game = g
    content, view = hand_panel(t, 11 + seat)
    assert "blind bid" in content
    assert view is not None
    (picker,) = [i for i in view.children if isinstance(i, BidSelect)]
    legal_blind = [b for b in g.legal_bids(seat) if b.kind == "blind"]
    values = [o.value for o in picker.item.options]
    assert [engine.Bid.parse(v) for v in values] == legal_blind
    buttons = {getattr(i, "custom_id", "").split(":")[2] for i in view.children if i is not picker}
    assert buttons == {"blind", "look", "never"}  # "never": never ask me about blind nil
    g.bid(seat, engine.Bid.parse(values[-1]))  # the value the select sends is a bid the engine takes
    assert g.view(seat).bids[seat] == legal_blind[-1]


def test_a_long_games_score_sheet_fits_and_says_what_it_left_out() -> None:
    """Six players on their own after 60 hands: the sheet keeps the latest hands and says so."""
    from types import SimpleNamespace

    t = _table("six-player-solo")
    t.seats = [Seat(None, f"Bot{s}", bot=True) for s in range(6)]
    n = 60
    totals = [[1000 * h + 7 * s for s in range(6)] for h in range(n + 1)]
    records = [{"before": {"scores": totals[h], "bags": [h % 10] * 6}} for h in range(n)]
    t.game = SimpleNamespace(hand_records=records, scores=totals[n], bags=[3] * 6)
    text = render.score_sheet(t)
    assert len(text) <= 2000
    lines = text.splitlines()
    gap = next(x for x in lines if x.startswith("… hands 1–"))
    shown_rows = [x for x in lines if x.split(" · ")[0].isdigit()]
    first = int(shown_rows[0].split(" · ")[0])
    assert gap == f"… hands 1–{first - 1} not shown (the latest {n - first + 1} are)"
    assert shown_rows[-1].startswith(f"{n} · {totals[n][0]} (3 bags)")
    assert [int(x.split(" · ")[0]) for x in shown_rows] == list(range(first, n + 1))


def test_clip_never_cuts_a_mention_in_half() -> None:
    """Issue 8, item 15: a cut inside ``<@id>`` showed raw text like ``<@1234``."""
    for tail in ("<@123456789012345678> hi", "<#123456789012345678>", "<t:1796054743:R> x", "<@&42> y"):
        for pad in range(1980, 2000):
            text = "x" * pad + tail
            out = render.clip(text)
            assert len(out) <= 2000
            if len(text) > 2000:
                assert out.endswith("…")
                body = out[:-1]
                assert body.count("<") == body.count(">"), out[-30:]


def test_an_away_player_who_has_not_looked_sees_i_am_back() -> None:
    """Issue 8, item 15: the face-down panel of an away player offered only the blind-nil choice."""
    from bot.views import hand_panel

    t = _table("standard")
    t.seats = [Seat(11 + s, f"p{s}") for s in range(4)]
    t.status = "playing"
    t.game = engine.Game.new(t.ruleset, seed=3)
    seat = t.game.seats_to_act()[0]
    assert t.game.view(seat).hand is None  # blind nil allowed: cards face down
    me = t.seats[seat]
    assert me is not None
    me.away = True
    content, view = hand_panel(t, 11 + seat)
    assert view is not None
    labels = [getattr(getattr(i, "item", i), "label", None) for i in view.children]
    assert "I'm back" in labels and "Bid blind nil" not in labels
    assert "I'm back" in content


def test_the_readme_invite_url_asks_for_the_table_permissions() -> None:
    """The README's invite link carries exactly the permissions ``bot.checks`` requires."""
    import re
    from pathlib import Path

    from bot.checks import OPTIONAL_PERMISSIONS, TABLE_PERMISSIONS, THREAD_PERMISSIONS

    readme = (Path(__file__).resolve().parents[3] / "README.md").read_text()
    found = re.search(
        r"oauth2/authorize\?client_id=APPLICATION_ID&scope=bot\+applications\.commands&permissions=(\d+)",
        readme,
    )
    assert found is not None
    perms = discord.Permissions(int(found.group(1)))
    wanted = set(TABLE_PERMISSIONS) | set(THREAD_PERMISSIONS) | set(OPTIONAL_PERMISSIONS)
    assert perms.value == discord.Permissions(**dict.fromkeys(wanted, True)).value


def test_hand_post_says_which_nil_was_made_and_which_failed() -> None:
    """The example record of docs/HAND_RECORD.md: seat 2 (Bea) made a blind nil, seat 4 (Dee)
    failed a nil with two tricks. The post says so in those words, with the worked totals."""
    import json
    from pathlib import Path

    from engine.record import load_game

    rec = json.loads(
        (Path(__file__).resolve().parents[3] / "docs" / "examples" / "nil-and-blind-nil.json").read_text(
            encoding="utf-8"
        )
    )
    g = load_game(rec)
    for seat, bid in rec["bids"]:
        g.bid(seat, bid)
    for seat, cards in rec["passes"]:
        g.pass_cards(seat, [engine.parse_card(c) for c in cards])
    events: list[object] = []
    for card in rec["plays"]:
        events.extend(g.play(g.to_act, engine.parse_card(card)))  # type: ignore[arg-type]
    scored = next(e for e in events if isinstance(e, engine.HandScored))
    t = _table()
    t.seats = [
        Seat(None, "Al", bot=True),
        Seat(None, "Bea", bot=True),
        Seat(None, "Cy", bot=True),
        Seat(None, "Dee", bot=True),
    ]
    t.game, t.status = g, "playing"
    lines = render.hand_post(t, scored).splitlines()
    assert lines[2] == (
        "Team 2: bid Blind nil + Nil, took 2: blind nil by 🤖 Bea made +200, "
        "nil by 🤖 Dee failed -100, bags +2 → +102 (-80 → 22)"
    )
    assert lines[1] == "Team 1: bid 5 + 1, took 11: contract 6 made +60, bags +5 → +65 (51 → 116)"
