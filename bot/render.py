"""Text of everything the bot shows: the live table message, hand panels, hand and game posts.

Public texts (the table message, hand and game posts, the score sheet) are built only from public
information (``Game.public_view()``, events, hand records of finished hands), so they can never show
a card somebody still holds. The hand panel is the one private text and is only ever sent ephemerally.
All texts stay under Discord's 2,000-character message limit.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import engine
from bot.safe import clip_text
from engine.house_rules import format_rules

if TYPE_CHECKING:
    from bot.model import Table

MAX_MESSAGE = 2000
SUIT_ORDER = (3, 2, 0, 1)  # spades, hearts, clubs, diamonds: the engine's display order


def clip(text: str, limit: int = MAX_MESSAGE) -> str:
    """At most ``limit`` characters, never cutting a ``<@id>`` mention in half."""
    return clip_text(text, limit)



def side_name(t: Table, side: int) -> str:
    seats = t.ruleset.sides[side]
    if len(seats) == 1:
        return t.label(seats[0])
    return f"Team {side + 1}"


def side_members(t: Table, side: int) -> str:
    return " + ".join(t.label(s) for s in t.ruleset.sides[side])


def bid_label(bid: Any) -> str:
    if bid is None:
        return "…"
    return str(getattr(bid, "label", bid))


def _countdown(t: Table) -> str:
    return f" · bot takes over <t:{int(t.deadline)}:R>" if t.deadline else ""


def _seat_tag(t: Table, seat: int) -> str:
    s = t.seats[seat]
    tag = t.label(seat)
    if s is not None and s.left:
        tag += " 🚪🤖"
    elif s is not None and s.away:
        tag += " 💤"
    if t.game is not None and getattr(t.game, "dealer", None) == seat:
        tag += " (D)"
    return tag


# ---- the live table message -----------------------------------------------------------------


def table_message(t: Table) -> str:
    """The one live message per table, edited in place as the game moves."""
    head = f"♠ **Spades** · table {t.id} · {t.ruleset.describe()}"
    house = house_rules(t)
    if house:
        head += f"\n🏠 House rules: {house}"
    if t.status == "open":
        return clip(head + "\n" + _seating(t))
    if t.status == "abandoned":
        return clip(head + "\n🛑 This table was abandoned.")
    g = t.game
    if g is None:
        return clip(head)
    v = g.public_view()
    lines = [head]
    multi = any(len(side) > 1 for side in t.ruleset.sides)
    for i, seats in enumerate(t.ruleset.sides):
        who = " + ".join(_seat_tag(t, s) for s in seats)
        score = f"**{v.scores[i]}** · {v.bags[i]} bag{'s' if v.bags[i] != 1 else ''}"
        bids = " + ".join(bid_label(v.bids[s]) for s in seats)
        took = " + ".join(str(v.tricks[s]) for s in seats)
        prefix = f"Team {i + 1}  " if multi else ""
        lines.append(f"{prefix}{who}  {score}  ·  bid {bids}  ·  took {took}")
    phase = g.phase.name
    if phase == "GAME_OVER":
        lines.append(_winner_line(t))
        return clip("\n".join(lines))
    state = f"Hand {v.hand_no}"
    if phase == "PLAY":
        state += f" · trick {v.trick_no + 1} of {v.tricks_per_hand}"
        state += " · spades broken" if v.spades_broken else " · spades not broken"
    elif phase == "BID":
        state += " · bidding"
    elif phase == "PASS":
        state += " · passing cards for nil"
    elif phase == "DRAW":
        state += " · drawing"
    lines.append(state)
    if phase == "PLAY":
        lines.append("  " + trick_line(t, v))
        last = getattr(v, "last_trick", None)
        if last and not v.current_trick:
            cards = " ".join(engine.card_pretty(c) for _, c in _trick_cards(last))
            winner = getattr(v, "last_trick_winner", None)
            won = f" → {t.label(winner)}" if winner is not None else ""
            lines.append(f"  last trick: {cards}{won}")
    acting = t.seats_to_act()
    if acting:
        verb = {"BID": "to bid", "PLAY": "to play", "PASS": "to pass", "DRAW": "to draw"}.get(phase, "to act")
        names = ", ".join(t.label(s) for s in acting)
        lines.append(f"➜ {names} {verb}{_countdown(t)}")
    return clip("\n".join(lines))


def trick_line(t: Table, v: Any, *, me: int | None = None) -> str:
    """The trick in play order from its leader: the cards played, ``…`` for whoever plays now,
    then the seats still to come (``@alice 10♥   @bob Q♥   @carol …   🤖 Bea``)."""
    played = {int(s): int(c) for s, c in v.current_trick}
    leader = v.current_trick[0][0] if v.current_trick else v.to_act
    if leader is None:
        return ""
    parts = []
    for k in range(t.num_seats):
        s = (int(leader) + k) % t.num_seats
        who = "you" if s == me else t.label(s)
        if s in played:
            parts.append(f"{who} {engine.card_pretty(played[s])}")
        elif s == v.to_act:
            parts.append(f"{who} …")
        else:
            parts.append(who)
    return "   ".join(parts)


def house_rules(t: Table) -> str:
    """What this table plays differently from its preset, as the options one types
    (``bag_limit=5 · ten_for_200=on``); empty when it plays the preset as is."""
    return format_rules(t.ruleset.overrides()).replace(" ", " · ")


def _trick_cards(trick: Any) -> list[tuple[int, int]]:
    cards = getattr(trick, "cards", trick)
    return [(int(s), int(c)) for s, c in cards]


def _seating(t: Table) -> str:
    lines = []
    multi = any(len(side) > 1 for side in t.ruleset.sides)
    for i, seats in enumerate(t.ruleset.sides):
        names = " + ".join(f"{s + 1}. {t.label(s) if t.seats[s] else '(empty)'}" for s in seats)
        lines.append(f"Team {i + 1}: {names}" if multi else names)
    free = len(t.empty_seats())
    lines.append(
        f"Host: <@{t.host_id}> · {free} free seat{'s' if free != 1 else ''} · "
        f"{t.settings.get('play_seconds', 60)} s to play, {t.settings.get('bid_seconds', 90)} s to bid"
    )
    lines.append("Press **Join** to sit down; the host presses **Start** (empty seats can go to bots).")
    return "\n".join(lines)


def _winner_line(t: Table) -> str:
    g = t.game
    if g is None or g.winner is None:
        return "The game is over."
    return f"🏆 {side_name(t, g.winner)} win{'s' if len(t.ruleset.sides[g.winner]) == 1 else ''}!"


# ---- hand and game posts -----------------------------------------------------------------------


def _get(obj: Any, name: str, default: Any = None) -> Any:
    if isinstance(obj, dict):
        return obj.get(name, default)
    return getattr(obj, name, default)


def hand_post(t: Table, ev: Any) -> str:
    """One short post per finished hand: bids vs tricks and the engine's score breakdown."""
    hand_no = _get(ev, "hand_no", "?")
    tricks = list(_get(ev, "tricks", []) or [])
    breakdown = list(_get(ev, "breakdown", []) or [])
    record = t.game.hand_records[-1] if t.game is not None and t.game.hand_records else {}
    bids: dict[int, Any] = {int(s): b for s, b in record.get("bids", [])}
    lines = [f"📋 **Hand {hand_no}** · table {t.id}"]
    for i, seats in enumerate(t.ruleset.sides):
        b = breakdown[i] if i < len(breakdown) else None
        bid_txt = " + ".join(_bid_json_label(bids.get(s)) for s in seats)
        took = sum(int(tricks[s]) for s in seats) if tricks else 0
        head = f"{side_name(t, i)}: bid {bid_txt}, took {took}"
        if b is None:
            lines.append(head)
            continue
        parts = []
        for n in _get(b, "nils", ()) or ():
            kind = "blind nil" if _get(n, "kind") == "blind_nil" else "nil"
            verdict = "made" if _get(n, "made") else "failed"
            who = t.label(int(_get(n, "seat", 0))) if len(seats) > 1 else ""
            parts.append(f"{kind}{' by ' + who if who else ''} {verdict} {_get(n, 'points', 0):+d}")
        made = _get(b, "made", None)
        if made is not None:
            verdict = "made" if made else "set"
            parts.append(f"contract {_get(b, 'bid', 0)} {verdict} {_get(b, 'contract_points', 0):+d}")
        bag_points = _get(b, "bag_points", 0) or 0
        if bag_points:
            parts.append(f"bags {bag_points:+d}")
        penalty = _get(b, "bag_penalty", 0) or 0
        if penalty:
            parts.append(f"bag penalty −{abs(penalty)}")
        bonus = _get(b, "bonus_points", 0) or 0
        if bonus:
            parts.append(f"bonus {bonus:+d}")
        total = int(_get(b, "total", 0) or 0)
        before, after = _get(b, "score_before", None), _get(b, "score_after", None)
        run = f" ({before} → {after})" if before is not None and after is not None else ""
        lines.append(f"{head}: {', '.join(parts) or 'no points'} → {total:+d}{run}")
    return clip("\n".join(lines))


def _bid_json_label(bid: Any) -> str:
    if bid is None:
        return "?"
    if bid == "nil":
        return "Nil"
    if bid == "blind_nil":
        return "Blind nil"
    return str(bid)


def game_post(t: Table) -> str:
    """The final post: winner and final scores (a Rematch button rides along)."""
    g = t.game
    assert g is not None
    hands = len(g.hand_records)
    scores = " – ".join(str(s) for s in g.scores)
    if g.winner is None:
        return clip(f"🏁 Table {t.id}: game over after {hands} hands · {scores}")
    members = side_members(t, g.winner)
    who = side_name(t, g.winner)
    if who != members:
        who = f"{who} ({members})"
    others = [s for i, s in enumerate(g.scores) if i != g.winner]
    final = f"{g.scores[g.winner]} – {' – '.join(str(s) for s in others)}"
    verb = "wins" if len(t.ruleset.sides[g.winner]) == 1 else "win"
    return clip(f"🏆 {who} {verb} {final} after {hands} hand{'s' if hands != 1 else ''}.")


# ---- rules and score sheet ----------------------------------------------------------------------


def rules_text(t: Table) -> str:
    rs = t.ruleset
    lines = [f"**Rules at table {t.id}**: {rs.describe()}"]
    if house_rules(t):
        lines.append(f"House rules over {rs.name}: {house_rules(t)}")
    sides = rs.sides
    if any(len(s) > 1 for s in sides):
        lines.append(
            "Partners sit opposite: "
            + "; ".join(
                f"team {i + 1} = seats {' + '.join(str(x + 1) for x in s)}" for i, s in enumerate(sides)
            )
        )
    else:
        lines.append(f"Every player for themselves ({rs.num_seats} players).")
    # every number below is the ruleset's own (house rules change them), never a default
    goal = f"Play to {rs.target_score} points"
    if rs.max_hands:
        goal += f" or {rs.max_hands} hands"
    if rs.lose_score is not None:
        goal += f" (a side at {rs.lose_score} or below loses)"
    lines.append(
        goal
        + "; spades are always trump"
        + (" and may not be led until broken." if rs.spades_must_be_broken else ".")
    )
    if rs.nil_allowed:
        lines.append(
            f"Nil: bid 0 and take no trick for +{rs.nil_value} (−{rs.nil_value} if you take one)."
        )
    if rs.blind_nil_allowed:
        deficit = rs.blind_nil_min_deficit or 0
        cond = f" (only when your side trails by {deficit} or more)" if deficit else ""
        passing = rs.blind_nil_pass or 0
        swap = f"; then you and your partner swap {passing} cards" if passing else ""
        lines.append(f"Blind nil: bid nil before seeing your cards for ±{rs.blind_nil_value}{cond}{swap}.")
    bags = f"Bags: {rs.bag_value:+d} point{'s' if abs(rs.bag_value) != 1 else ''} per overtrick"
    if rs.bag_limit:
        bags += f"; every {rs.bag_limit} bags cost {rs.bag_penalty} points."
    else:
        bags += "; no bag penalty."
    lines.append(bags)
    lines.append(
        "Follow suit if you can. A contract made scores 10 per trick bid; a contract set loses "
        "10 per trick bid."
    )
    return clip("\n".join(lines))


def score_sheet(t: Table) -> str:
    """Running totals after every finished hand (public once the hand is over).

    Each hand record carries the totals *before* it, so hand i's result is hand i+1's ``before``
    (and the game's current totals for the last one): no scoring is redone here."""
    g = t.game
    if g is None or not g.hand_records:
        return f"No hand has finished at table {t.id} yet."
    names = [side_name(t, i) for i in range(len(t.ruleset.sides))]
    records = list(g.hand_records)
    afters: list[tuple[list[int], list[int]]] = []
    for n in range(len(records)):
        if n + 1 < len(records) and isinstance(records[n + 1].get("before"), dict):
            before = records[n + 1]["before"]
            afters.append((list(before.get("scores", [])), list(before.get("bags", []))))
        else:
            afters.append((list(g.scores), list(g.bags)))
    lines = [f"**Score sheet · table {t.id}**", "Hand · " + " · ".join(names)]
    for n, (scores, bags) in enumerate(afters, start=1):
        cells = [f"{scores[i]} ({bags[i]} bag{'s' if bags[i] != 1 else ''})" for i in range(len(scores))]
        lines.append(f"{n} · " + " · ".join(cells))
    rows = lines[2:]
    dropped = 0
    while dropped < len(rows) - 1 and len("\n".join(lines[:2] + ["…"] * bool(dropped) + rows[dropped:])) > (
        MAX_MESSAGE - 60
    ):
        dropped += 1  # a long game: the oldest hands go, and the sheet says so
    gap = [f"… hands 1–{dropped} not shown (the latest {len(rows) - dropped} are)"] if dropped else []
    return clip("\n".join(lines[:2] + gap + rows[dropped:]))


# ---- the private hand panel (ephemeral only) ----------------------------------------------------


def cards_line(cards: list[int]) -> str:
    """`♠ A K 7 3   ♥ 9 4` for a list of cards in display order."""
    groups: dict[int, list[str]] = {}
    order: list[int] = []
    for c in cards:
        suit = engine.suit_of(c)
        if suit not in groups:
            groups[suit] = []
            order.append(suit)
        groups[suit].append(_rank_text(c))
    return "   ".join(f"{engine.suit_symbol(s)} {' '.join(groups[s])}" for s in order)


def _rank_text(card: int) -> str:
    face = card & 63
    if face >= 52:
        return engine.card_pretty(card)
    pretty = engine.card_pretty(card)
    return pretty[:-1] if len(pretty) > 1 else pretty


def hand_panel_text(t: Table, seat: int, hint: str = "") -> str:
    """Header lines of the ephemeral hand panel (the cards are the buttons below it)."""
    g = t.game
    assert g is not None
    v = g.view(seat)
    phase = g.phase.name
    head = f"**Table {t.id}** in <#{t.channel_id}> · hand {v.hand_no}"
    if phase == "PLAY":
        head += f" · trick {v.trick_no + 1} of {v.tricks_per_hand}"
    todo = _todo(t, seat, v, phase)
    if todo:
        head += f" · {todo}"
    lines = [hint, head] if hint else [head]
    if v.hand is None:
        blind = any(b.kind == "blind" for b in g.legal_bids(seat))
        what = "**blind nil** or a **blind bid**" if blind else "**blind nil**"
        lines.append(
            f"Your cards are face down. Bid {what} now, or look at your cards first "
            "(looking gives up bidding blind for this hand)."
        )
        return clip("\n".join(lines))
    cards = engine.cards_of(v.hand)
    lines.append(cards_line(cards) if cards else "(no cards left)")
    acting = t.seats_to_act()
    if phase == "PLAY":
        lines.append("Trick: " + trick_line(t, v, me=seat))
        if seat in acting:
            lines.append("**Your turn**: click a card to play it" + _countdown(t) + ".")
    elif phase == "BID":
        bids = [f"{t.label(s)} {bid_label(b)}" for s, b in enumerate(v.bids) if b is not None]
        if bids:
            lines.append("Bids: " + ", ".join(bids))
        if seat in acting:
            lines.append("**Your bid**: pick it below" + _countdown(t) + ".")
    elif phase == "PASS":
        n = g.pass_size(seat)
        if n:
            lines.append(f"**Pass {n} card{'s' if n != 1 else ''}** to your partner: pick below.")
        else:
            lines.append("Waiting for the card exchange.")
    elif phase == "DRAW":
        drawn = getattr(v, "drawn_card", None)
        if drawn is not None and seat in acting:
            lines.append(f"You drew **{engine.card_pretty(drawn)}**: keep it or discard it.")
    received = getattr(v, "received", None)
    if received and phase == "PLAY" and v.trick_no == 0:
        lines.append("You received: " + " ".join(engine.card_pretty(c) for c in _as_cards(received)))
    return clip("\n".join(lines))


def _todo(t: Table, seat: int, v: Any, phase: str) -> str:
    """What the player must do now, for the panel's header: "you must follow ♥", "your lead:
    spades aren't broken", "waiting for @bob"."""
    acting = t.seats_to_act()
    if phase == "GAME_OVER":
        return "game over"
    if seat not in acting:
        if not acting:
            return ""
        if phase == "PASS":
            return "waiting for the card exchange"
        return "waiting for " + " and ".join(t.label(s) for s in acting)
    if phase == "BID":
        return "your bid" if v.hand is not None else "your bid: blind nil, or look first"
    if phase == "PASS":
        return f"pass {v.pass_size} card{'s' if v.pass_size != 1 else ''} to your partner"
    if phase == "DRAW":
        return "keep or discard the card you drew"
    if phase != "PLAY" or v.hand is None:
        return ""
    # Which cards may be played is the engine's answer (``view.legal_cards``): the header only
    # puts it in words, so variants (2♣ leads, no spades on the first trick) read right too.
    from engine.ruleset import tables

    suit_of = tables(t.ruleset).suit
    held = set(engine.cards_of(v.hand))
    legal = set(v.legal_cards)
    if v.current_trick:
        led = suit_of[int(v.current_trick[0][1])]
        symbol = engine.suit_symbol(led)
        if legal and all(suit_of[c] == led for c in legal):
            return f"you must follow {symbol}"
        if legal == held:
            return f"no {symbol} left: play any card"
        return f"no {symbol} left: play one of the highlighted cards"
    if legal == held or not legal:
        return "your lead"
    if len(legal) == 1:
        return f"you must lead {engine.card_pretty(next(iter(legal)))}"
    if any(suit_of[c] == engine.SPADES for c in held - legal):
        return "your lead: spades aren't broken"
    return "your lead: play one of the highlighted cards"


def _as_cards(x: Any) -> list[int]:
    if isinstance(x, int):
        return engine.cards_of(x)
    return [int(c) for c in x]
