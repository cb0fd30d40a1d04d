"""Text of everything the bot shows: the live table message, hand panels, hand and game posts.

Public texts (the table message, hand and game posts, the score sheet) are built only from public
information (``Game.public_view()``, events, hand records of finished hands), so they can never show
a card somebody still holds. The hand panel is the one private text and is only ever sent ephemerally.
All texts stay under Discord's 2,000-character message limit, in every language.

Every text takes ``lang`` (``bot.i18n.LANGUAGES``): public texts are rendered in the server's
language, the hand panel in the player's own. English is the default.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import engine
from bot import lexicon
from bot.i18n import DEFAULT, N_, ListOf, gettext, ngettext, render
from bot.safe import clip_text
from engine.fair import short
from engine.house_rules import format_rules

if TYPE_CHECKING:
    from bot.model import Table

MAX_MESSAGE = 2000
SUIT_ORDER = (3, 2, 0, 1)  # spades, hearts, clubs, diamonds: the engine's display order


def clip(text: str, limit: int = MAX_MESSAGE) -> str:
    """At most ``limit`` characters, never cutting a ``<@id>`` mention in half."""
    return clip_text(text, limit)


def label(t: Table, seat: int, lang: str = DEFAULT) -> str:
    """A seat as players see it: the player's mention, the bot's name, or "seat 3" when empty."""
    if t.seats[seat] is None:
        return gettext(lang, "seat %(n)s", n=seat + 1)
    return t.label(seat)


def side_name(t: Table, side: int, lang: str = DEFAULT) -> str:
    seats = t.ruleset.sides[side]
    if len(seats) == 1:
        return label(t, seats[0], lang)
    return gettext(lang, "Team %(n)s", n=side + 1)


def side_members(t: Table, side: int, lang: str = DEFAULT) -> str:
    return " + ".join(label(t, s, lang) for s in t.ruleset.sides[side])


def bid_label(bid: Any, lang: str = DEFAULT) -> str:
    return render(lexicon.bid_label(bid), lang)


def rules_line(t: Table, lang: str = DEFAULT) -> str:
    """The ruleset in one line (``standard: to 500 · nil ±100 · …``)."""
    return render(lexicon.describe(t.ruleset), lang)


def _countdown(t: Table, lang: str = DEFAULT) -> str:
    if not t.deadline:
        return ""
    return gettext(lang, " · bot takes over %(when)s", when=f"<t:{int(t.deadline)}:R>")


def _seat_tag(t: Table, seat: int, lang: str = DEFAULT) -> str:
    s = t.seats[seat]
    tag = label(t, seat, lang)
    if s is not None and s.left:
        tag += " 🚪🤖"
    elif s is not None and s.away:
        tag += " 💤"
    if t.game is not None and getattr(t.game, "dealer", None) == seat:
        tag += gettext(lang, " (D)")
    return tag


# ---- the live table message -----------------------------------------------------------------


def table_message(t: Table, lang: str = DEFAULT) -> str:
    """The one live message per table, edited in place as the game moves."""
    head = gettext(lang, "♠ **Spades** · table %(table)s · %(rules)s", table=t.id, rules=rules_line(t, lang))
    house = house_rules(t)
    if house:
        head += "\n" + gettext(lang, "🏠 House rules: %(rules)s", rules=house)
    if t.status == "open":
        return clip(head + "\n" + _seating(t, lang))
    if t.status == "abandoned":
        return clip(head + "\n" + gettext(lang, "🛑 This table was abandoned."))
    g = t.game
    if g is None:
        return clip(head)
    v = g.public_view()
    lines = [head]
    multi = any(len(side) > 1 for side in t.ruleset.sides)
    for i, seats in enumerate(t.ruleset.sides):
        who = " + ".join(_seat_tag(t, s, lang) for s in seats)
        bags = ngettext(lang, "%(n)s bag", "%(n)s bags", v.bags[i])
        score = f"**{v.scores[i]}** · {bags}"
        bids = gettext(lang, "bid %(bids)s", bids=" + ".join(bid_label(v.bids[s], lang) for s in seats))
        took = gettext(lang, "took %(took)s", took=" + ".join(str(v.tricks[s]) for s in seats))
        prefix = gettext(lang, "Team %(n)s", n=i + 1) + "  " if multi else ""
        lines.append(f"{prefix}{who}  {score}  ·  {bids}  ·  {took}")
    phase = g.phase.name
    if phase == "GAME_OVER":
        lines.append(_winner_line(t, lang))
        return clip("\n".join(lines))
    state = gettext(lang, "Hand %(n)s", n=v.hand_no)
    if phase == "PLAY":
        state += gettext(lang, " · trick %(n)s of %(total)s", n=v.trick_no + 1, total=v.tricks_per_hand)
        state += (
            gettext(lang, " · spades broken") if v.spades_broken else gettext(lang, " · spades not broken")
        )
    elif phase == "BID":
        state += gettext(lang, " · bidding")
    elif phase == "PASS":
        state += gettext(lang, " · passing cards for nil")
    elif phase == "DRAW":
        state += gettext(lang, " · drawing")
    lines.append(state)
    if phase == "PLAY":
        lines.append("  " + trick_line(t, v, lang=lang))
        last = getattr(v, "last_trick", None)
        if last and not v.current_trick:
            cards = " ".join(engine.card_pretty(c) for _, c in _trick_cards(last))
            winner = getattr(v, "last_trick_winner", None)
            won = f" → {label(t, winner, lang)}" if winner is not None else ""
            lines.append("  " + gettext(lang, "last trick: %(cards)s", cards=cards + won))
    acting = t.seats_to_act()
    if acting:
        names = ", ".join(label(t, s, lang) for s in acting)
        if phase == "BID":
            line = gettext(lang, "➜ %(who)s to bid", who=names)
        elif phase == "PLAY":
            line = gettext(lang, "➜ %(who)s to play", who=names)
        elif phase == "PASS":
            line = gettext(lang, "➜ %(who)s to pass", who=names)
        elif phase == "DRAW":
            line = gettext(lang, "➜ %(who)s to draw", who=names)
        else:
            line = gettext(lang, "➜ %(who)s to act", who=names)
        lines.append(line + _countdown(t, lang))
    commitment = getattr(g, "commitment", None)
    if commitment:
        # the deal is fixed before anyone bids: this hash of its secret key is revealed with the hand
        lines.append(gettext(lang, "🔐 deal `%(commitment)s` (revealed when the hand is over)",
                             commitment=short_commitment(commitment)))
    return clip("\n".join(lines))


def trick_line(t: Table, v: Any, *, me: int | None = None, lang: str = DEFAULT) -> str:
    """The trick in play order from its leader: the cards played, ``…`` for whoever plays now,
    then the seats still to come (``@alice 10♥   @bob Q♥   @carol …   🤖 Bea``)."""
    played = {int(s): int(c) for s, c in v.current_trick}
    leader = v.current_trick[0][0] if v.current_trick else v.to_act
    if leader is None:
        return ""
    parts = []
    for k in range(t.num_seats):
        s = (int(leader) + k) % t.num_seats
        who = gettext(lang, "you") if s == me else label(t, s, lang)
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


def _seating(t: Table, lang: str = DEFAULT) -> str:
    lines = []
    multi = any(len(side) > 1 for side in t.ruleset.sides)
    empty = gettext(lang, "(empty)")
    for i, seats in enumerate(t.ruleset.sides):
        names = " + ".join(f"{s + 1}. {t.label(s) if t.seats[s] else empty}" for s in seats)
        lines.append(gettext(lang, "Team %(n)s: %(names)s", n=i + 1, names=names) if multi else names)
    free = len(t.empty_seats())
    host = gettext(lang, "Host: %(host)s", host=f"<@{t.host_id}>")
    seats_free = ngettext(lang, "%(n)s free seat", "%(n)s free seats", free)
    timers = gettext(
        lang,
        "%(play)s s to play, %(bid)s s to bid",
        play=t.settings.get("play_seconds", 60),
        bid=t.settings.get("bid_seconds", 90),
    )
    lines.append(f"{host} · {seats_free} · {timers}")
    lines.append(
        gettext(lang, "Press **Join** to sit down; the host presses **Start** (empty seats can go to bots).")
    )
    return "\n".join(lines)


def _winner_line(t: Table, lang: str = DEFAULT) -> str:
    g = t.game
    if g is None or g.winner is None:
        return gettext(lang, "The game is over.")
    who = side_name(t, g.winner, lang)
    if len(t.ruleset.sides[g.winner]) == 1:
        return gettext(lang, "🏆 %(who)s wins!", who=who)
    return gettext(lang, "🏆 %(who)s win!", who=who)


# ---- hand and game posts -----------------------------------------------------------------------


def _get(obj: Any, name: str, default: Any = None) -> Any:
    if isinstance(obj, dict):
        return obj.get(name, default)
    return getattr(obj, name, default)


def hand_post(t: Table, ev: Any, lang: str = DEFAULT) -> str:
    """One short post per finished hand: bids vs tricks and the engine's score breakdown."""
    hand_no = _get(ev, "hand_no", "?")
    tricks = list(_get(ev, "tricks", []) or [])
    breakdown = list(_get(ev, "breakdown", []) or [])
    record = t.game.hand_records[-1] if t.game is not None and t.game.hand_records else {}
    bids: dict[int, Any] = {int(s): b for s, b in record.get("bids", [])}
    lines = [gettext(lang, "📋 **Hand %(n)s** · table %(table)s", n=hand_no, table=t.id)]
    for i, seats in enumerate(t.ruleset.sides):
        b = breakdown[i] if i < len(breakdown) else None
        bid_txt = " + ".join(_bid_json_label(bids.get(s), lang) for s in seats)
        took = sum(int(tricks[s]) for s in seats) if tricks else 0
        head = gettext(
            lang, "%(side)s: bid %(bids)s, took %(took)s", side=side_name(t, i, lang), bids=bid_txt, took=took
        )
        if b is None:
            lines.append(head)
            continue
        parts = []
        for n in _get(b, "nils", ()) or ():
            blind, made = _get(n, "kind") == "blind_nil", bool(_get(n, "made"))
            points = f"{_get(n, 'points', 0):+d}"
            if len(seats) > 1:
                who = t.label(int(_get(n, "seat", 0)))
                if blind:
                    msg = (
                        N_("blind nil by %(who)s made %(points)s")
                        if made
                        else N_("blind nil by %(who)s failed %(points)s")
                    )
                else:
                    msg = (
                        N_("nil by %(who)s made %(points)s")
                        if made
                        else N_("nil by %(who)s failed %(points)s")
                    )
                parts.append(gettext(lang, msg, who=who, points=points))
            else:
                if blind:
                    msg = N_("blind nil made %(points)s") if made else N_("blind nil failed %(points)s")
                else:
                    msg = N_("nil made %(points)s") if made else N_("nil failed %(points)s")
                parts.append(gettext(lang, msg, points=points))
        made = _get(b, "made", None)
        if made is not None:
            contract, points = _get(b, "bid", 0), f"{_get(b, 'contract_points', 0):+d}"
            if made:
                parts.append(gettext(lang, "contract %(bid)s made %(points)s", bid=contract, points=points))
            else:
                parts.append(gettext(lang, "contract %(bid)s set %(points)s", bid=contract, points=points))
        bag_points = _get(b, "bag_points", 0) or 0
        if bag_points:
            parts.append(gettext(lang, "bags %(points)s", points=f"{bag_points:+d}"))
        penalty = _get(b, "bag_penalty", 0) or 0
        if penalty:
            parts.append(gettext(lang, "bag penalty %(points)s", points=f"−{abs(penalty)}"))
        bonus = _get(b, "bonus_points", 0) or 0
        if bonus:
            parts.append(gettext(lang, "bonus %(points)s", points=f"{bonus:+d}"))
        total = int(_get(b, "total", 0) or 0)
        before, after = _get(b, "score_before", None), _get(b, "score_after", None)
        run = f" ({before} → {after})" if before is not None and after is not None else ""
        summary = ", ".join(parts) or gettext(lang, "no points")
        lines.append(f"{head}: {summary} → {total:+d}{run}")
    fair = record.get("fair")
    if isinstance(fair, dict) and fair.get("seed"):
        lines.append(gettext(
            lang,
            "🔓 Deal `%(commitment)s` revealed: seed `%(seed)s` salt `%(salt)s` (press **Verify deal**, "
            "or `python -m engine verify`)",
            commitment=short_commitment(str(fair.get("commitment"))),
            seed=fair["seed"],
            salt=fair.get("salt"),
        ))
    return clip("\n".join(lines))


def short_commitment(commitment: str) -> str:
    """The commitment as players see it on the table (its first 16 hex digits)."""
    return short(commitment)


def _bid_json_label(bid: Any, lang: str = DEFAULT) -> str:
    if bid is None:
        return "?"
    return bid_label(bid, lang)


def game_post(t: Table, lang: str = DEFAULT) -> str:
    """The final post: winner and final scores (a Rematch button rides along)."""
    g = t.game
    assert g is not None
    hands = len(g.hand_records)
    scores = " – ".join(str(s) for s in g.scores)
    if g.winner is None:
        return clip(
            ngettext(
                lang,
                "🏁 Table %(table)s: game over after %(n)s hands · %(scores)s",
                "🏁 Table %(table)s: game over after %(n)s hands · %(scores)s",
                hands,
                table=t.id,
                scores=scores,
            )
        )
    members = side_members(t, g.winner, lang)
    who = side_name(t, g.winner, lang)
    if who != members:
        who = f"{who} ({members})"
    others = [s for i, s in enumerate(g.scores) if i != g.winner]
    final = f"{g.scores[g.winner]} – {' – '.join(str(s) for s in others)}"
    if len(t.ruleset.sides[g.winner]) == 1:
        text = ngettext(
            lang,
            "🏆 %(who)s wins %(final)s after %(n)s hand.",
            "🏆 %(who)s wins %(final)s after %(n)s hands.",
            hands,
            who=who,
            final=final,
        )
    else:
        text = ngettext(
            lang,
            "🏆 %(who)s win %(final)s after %(n)s hand.",
            "🏆 %(who)s win %(final)s after %(n)s hands.",
            hands,
            who=who,
            final=final,
        )
    return clip(text)


# ---- rules and score sheet ----------------------------------------------------------------------


def rules_text(t: Table, lang: str = DEFAULT) -> str:
    rs = t.ruleset
    lines = [gettext(lang, "**Rules at table %(table)s**: %(rules)s", table=t.id, rules=rules_line(t, lang))]
    if house_rules(t):
        lines.append(
            gettext(lang, "House rules over %(preset)s: %(rules)s", preset=rs.name, rules=house_rules(t))
        )
    sides = rs.sides
    if any(len(s) > 1 for s in sides):
        teams = "; ".join(
            gettext(lang, "team %(n)s = seats %(seats)s", n=i + 1, seats=" + ".join(str(x + 1) for x in s))
            for i, s in enumerate(sides)
        )
        lines.append(gettext(lang, "Partners sit opposite: %(teams)s", teams=teams))
    else:
        lines.append(
            ngettext(
                lang,
                "Every player for themselves (%(n)s player).",
                "Every player for themselves (%(n)s players).",
                rs.num_seats,
            )
        )
    # every number below is the ruleset's own (house rules change them), never a default
    goal = ngettext(lang, "Play to %(n)s point", "Play to %(n)s points", rs.target_score)
    if rs.max_hands:
        goal += ngettext(lang, " or %(n)s hand", " or %(n)s hands", rs.max_hands)
    if rs.lose_score is not None:
        goal += gettext(lang, " (a side at %(score)s or below loses)", score=rs.lose_score)
    if rs.spades_must_be_broken:
        goal += gettext(lang, "; spades are always trump and may not be led until broken.")
    else:
        goal += gettext(lang, "; spades are always trump.")
    lines.append(goal)
    if rs.nil_allowed:
        lines.append(
            gettext(
                lang,
                "Nil: bid 0 and take no trick for +%(value)s (−%(value)s if you take one).",
                value=rs.nil_value,
            )
        )
    if rs.blind_nil_allowed:
        deficit = rs.blind_nil_min_deficit or 0
        cond = gettext(lang, " (only when your side trails by %(n)s or more)", n=deficit) if deficit else ""
        passing = rs.blind_nil_pass or 0
        swap = (
            ngettext(
                lang,
                "; then you and your partner swap %(n)s card",
                "; then you and your partner swap %(n)s cards",
                passing,
            )
            if passing
            else ""
        )
        lines.append(
            gettext(
                lang,
                "Blind nil: bid nil before seeing your cards for ±%(value)s%(condition)s%(swap)s.",
                value=rs.blind_nil_value,
                condition=cond,
                swap=swap,
            )
        )
    bags = ngettext(
        lang,
        "Bags: %(value)s point per overtrick",
        "Bags: %(value)s points per overtrick",
        abs(rs.bag_value),
        value=f"{rs.bag_value:+d}",
    )
    if rs.bag_limit:
        bags += ngettext(
            lang,
            "; every %(n)s bags cost %(penalty)s points.",
            "; every %(n)s bags cost %(penalty)s points.",
            rs.bag_limit,
            penalty=rs.bag_penalty,
        )
    else:
        bags += gettext(lang, "; no bag penalty.")
    lines.append(bags)
    lines.append(
        gettext(
            lang,
            "Follow suit if you can. A contract made scores 10 per trick bid; a contract set loses "
            "10 per trick bid.",
        )
    )
    return clip("\n".join(lines))


def score_sheet(t: Table, lang: str = DEFAULT) -> str:
    """Running totals after every finished hand (public once the hand is over).

    Each hand record carries the totals *before* it, so hand i's result is hand i+1's ``before``
    (and the game's current totals for the last one): no scoring is redone here."""
    g = t.game
    if g is None or not g.hand_records:
        return gettext(lang, "No hand has finished at table %(table)s yet.", table=t.id)
    names = [side_name(t, i, lang) for i in range(len(t.ruleset.sides))]
    records = list(g.hand_records)
    afters: list[tuple[list[int], list[int]]] = []
    for n in range(len(records)):
        if n + 1 < len(records) and isinstance(records[n + 1].get("before"), dict):
            before = records[n + 1]["before"]
            afters.append((list(before.get("scores", [])), list(before.get("bags", []))))
        else:
            afters.append((list(g.scores), list(g.bags)))
    lines = [
        gettext(lang, "**Score sheet · table %(table)s**", table=t.id),
        gettext(lang, "Hand") + " · " + " · ".join(names),
    ]
    for n, (scores, bags) in enumerate(afters, start=1):
        cells = [
            f"{scores[i]} ({ngettext(lang, '%(n)s bag', '%(n)s bags', bags[i])})" for i in range(len(scores))
        ]
        lines.append(f"{n} · " + " · ".join(cells))
    rows = lines[2:]
    dropped = 0
    while dropped < len(rows) - 1 and len("\n".join(lines[:2] + ["…"] * bool(dropped) + rows[dropped:])) > (
        MAX_MESSAGE - 60
    ):
        dropped += 1  # a long game: the oldest hands go, and the sheet says so
    gap = (
        [
            gettext(
                lang,
                "… hands 1–%(n)s not shown (the latest %(shown)s are)",
                n=dropped,
                shown=len(rows) - dropped,
            )
        ]
        if dropped
        else []
    )
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


def hand_panel_text(t: Table, seat: int, hint: str = "", lang: str = DEFAULT) -> str:
    """Header lines of the ephemeral hand panel (the cards are the buttons below it)."""
    g = t.game
    assert g is not None
    v = g.view(seat)
    phase = g.phase.name
    head = gettext(
        lang,
        "**Table %(table)s** in %(channel)s · hand %(n)s",
        table=t.id,
        channel=f"<#{t.channel_id}>",
        n=v.hand_no,
    )
    if phase == "PLAY":
        head += gettext(lang, " · trick %(n)s of %(total)s", n=v.trick_no + 1, total=v.tricks_per_hand)
    todo = _todo(t, seat, v, phase, lang)
    if todo:
        head += f" · {todo}"
    lines = [hint, head] if hint else [head]
    if v.hand is None:
        blind = any(b.kind == "blind" for b in g.legal_bids(seat))
        if blind:
            text = gettext(
                lang,
                "Your cards are face down. Bid **blind nil** or a **blind bid** now, or look at your cards "
                "first (looking gives up bidding blind for this hand).",
            )
        else:
            text = gettext(
                lang,
                "Your cards are face down. Bid **blind nil** now, or look at your cards first (looking "
                "gives up bidding blind for this hand).",
            )
        lines.append(text)
        return clip("\n".join(lines))
    cards = engine.cards_of(v.hand)
    lines.append(cards_line(cards) if cards else gettext(lang, "(no cards left)"))
    acting = t.seats_to_act()
    if phase == "PLAY":
        lines.append(gettext(lang, "Trick: %(trick)s", trick=trick_line(t, v, me=seat, lang=lang)))
        if seat in acting:
            lines.append(
                gettext(
                    lang,
                    "**Your turn**: click a card to play it%(countdown)s.",
                    countdown=_countdown(t, lang),
                )
            )
    elif phase == "BID":
        bids = [f"{label(t, s, lang)} {bid_label(b, lang)}" for s, b in enumerate(v.bids) if b is not None]
        if bids:
            lines.append(gettext(lang, "Bids: %(bids)s", bids=", ".join(bids)))
        if seat in acting:
            lines.append(
                gettext(lang, "**Your bid**: pick it below%(countdown)s.", countdown=_countdown(t, lang))
            )
    elif phase == "PASS":
        n = g.pass_size(seat)
        if n:
            lines.append(
                ngettext(
                    lang,
                    "**Pass %(n)s card** to your partner: pick below.",
                    "**Pass %(n)s cards** to your partner: pick below.",
                    n,
                )
            )
        else:
            lines.append(gettext(lang, "Waiting for the card exchange."))
    elif phase == "DRAW":
        drawn = getattr(v, "drawn_card", None)
        if drawn is not None and seat in acting:
            lines.append(
                gettext(lang, "You drew **%(card)s**: keep it or discard it.", card=engine.card_pretty(drawn))
            )
    received = getattr(v, "received", None)
    if received and phase == "PLAY" and v.trick_no == 0:
        lines.append(
            gettext(
                lang,
                "You received: %(cards)s",
                cards=" ".join(engine.card_pretty(c) for c in _as_cards(received)),
            )
        )
    return clip("\n".join(lines))


def _todo(t: Table, seat: int, v: Any, phase: str, lang: str = DEFAULT) -> str:
    """What the player must do now, for the panel's header: "you must follow ♥", "your lead:
    spades aren't broken", "waiting for @bob"."""
    acting = t.seats_to_act()
    if phase == "GAME_OVER":
        return gettext(lang, "game over")
    if seat not in acting:
        if not acting:
            return ""
        if phase == "PASS":
            return gettext(lang, "waiting for the card exchange")
        return gettext(
            lang, "waiting for %(who)s", who=render(ListOf(tuple(label(t, s, lang) for s in acting)), lang)
        )
    if phase == "BID":
        return (
            gettext(lang, "your bid")
            if v.hand is not None
            else gettext(lang, "your bid: blind nil, or look first")
        )
    if phase == "PASS":
        return ngettext(
            lang, "pass %(n)s card to your partner", "pass %(n)s cards to your partner", v.pass_size
        )
    if phase == "DRAW":
        return gettext(lang, "keep or discard the card you drew")
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
            return gettext(lang, "you must follow %(suit)s", suit=symbol)
        if legal == held:
            return gettext(lang, "no %(suit)s left: play any card", suit=symbol)
        return gettext(lang, "no %(suit)s left: play one of the highlighted cards", suit=symbol)
    if legal == held or not legal:
        return gettext(lang, "your lead")
    if len(legal) == 1:
        return gettext(lang, "you must lead %(card)s", card=engine.card_pretty(next(iter(legal))))
    if any(suit_of[c] == engine.SPADES for c in held - legal):
        return gettext(lang, "your lead: spades aren't broken")
    return gettext(lang, "your lead: play one of the highlighted cards")


def _as_cards(x: Any) -> list[int]:
    if isinstance(x, int):
        return engine.cards_of(x)
    return [int(c) for c in x]
