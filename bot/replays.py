"""History, score sheets and replays of finished hands as text, and the pictures' data.

Pure functions over stored data (hand records, ``GameSummary``): no service, no discord. Everything
here is about hands that are over, so showing every seat's cards is fine. Texts stay under
Discord's 2,000 characters. Texts are lazy messages (``bot.i18n``): the answer that shows them
renders them in the reader's language.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import Any

from bot.i18n import DEFAULT, Text, _, _n, gettext, join, render, timestamp
from bot.lexicon import bid_label, describe, preset_name
from bot.pictures import ENGLISH, ScoreSeries, SeatInfo, SideInfo, TableScene, Words, can_draw, picture_name
from bot.storage.history import FORMER_PLAYER, GamePlayer, GameSummary, HistoryPage, StoredHand
from engine import Bid, Ruleset, card_pretty, hand_str, parse_card
from engine.fair import short
from engine.record import replay_game

MAX_MESSAGE = 2000


def clip(text: str, limit: int = MAX_MESSAGE) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def bid_text(bid: Any) -> Text:
    """A record's bid (``4``, ``"nil"``, ``"blind 6"``) as players say it, in the reader's language
    (``Nil``, ``Zero``, ``Ноль``)."""
    if bid is None:
        return "?"
    try:
        return bid_label(Bid.parse(bid))
    except ValueError:
        return str(bid)


def ruleset_of(record_or_game: Any) -> Ruleset:
    raw = record_or_game.get("ruleset", "standard") if isinstance(record_or_game, dict) else record_or_game
    try:
        return Ruleset.from_dict(raw)
    except (ValueError, TypeError):
        return Ruleset.preset("standard")


def _seat(s: int) -> Text:
    return _("seat %(n)s", n=s + 1)


def player_name(name: str) -> Text:
    """A stored player's name as the reader sees it: ``/spades forgetme`` leaves the marker
    ``FORMER_PLAYER`` in the records, worded here in the reader's language ("były gracz")."""
    return _("a former player") if name == FORMER_PLAYER else name


def _unnamed(p: GamePlayer) -> bool:
    return p.is_bot and p.name == f"seat {p.seat + 1}"  # i18n-ok: the English an older record stored


def seat_names(game: GameSummary) -> list[str]:
    # an empty seat has no stored name (older records hold the English "seat 3"): worded here
    names = {p.seat: player_name(p.name) for p in game.players if p.name and not _unnamed(p)}
    n = max((p.seat for p in game.players), default=-1) + 1
    return [names.get(s, _seat(s)) for s in range(n)]


def side_label(rs: Ruleset, names: Sequence[str], side: int) -> Text:
    """``Alice & Carol`` for a team, the player's name in solo play."""
    return join(*(names[s] if s < len(names) else _seat(s) for s in rs.sides[side]), sep=" & ")


# ---- the history list ---------------------------------------------------------------------------


def game_line(g: GameSummary) -> Text:
    """One game in the history: id, date, sides with scores (winner first, 🏆), preset, hands."""
    rs = ruleset_of(g.ruleset)
    names = seat_names(g)
    order = sorted(range(len(g.sides)), key=lambda i: (i != g.winner_side, i))
    parts = []
    for i in order:
        who = side_label(rs, names, i) if i < rs.num_sides else _("side %(n)s", n=i + 1)
        trophy = "🏆 " if i == g.winner_side else ""
        parts.append(join(join(trophy, who, sep=""), str(g.sides[i].get("score", "?"))))
    hands = _n("%(n)s hand", "%(n)s hands", g.hands)
    return join(
        f"`#{g.id}` <t:{g.finished_at}:d>", join(*parts, sep=" – "), preset_name(g.preset), hands, sep=" · "
    )


def history_text(page: HistoryPage, scope: Text) -> Text:
    """A page of the history list (``scope``: "this channel", "this server", "@alice")."""
    head = _("📜 **Finished games** · %(scope)s", scope=scope)
    if not page.total:
        return join(head, _("No finished games yet."), sep="\n")
    lines: list[Text] = [
        join(
            head,
            _n(
                "page %(page)s of %(pages)s (%(n)s game)",
                "page %(page)s of %(pages)s (%(n)s games)",
                page.total,
                page=page.page,
                pages=page.pages,
            ),
            sep=" · ",
        )
    ]
    for g in page.games:
        lines.append(game_line(g))
    lines.append(_("Pick a game below for its score sheet; `/replay game:<id>` replays its hands."))
    return join(*lines, sep="\n")


# ---- a game's score sheet -------------------------------------------------------------------------


def score_sheet_text(game: GameSummary, hands: Sequence[StoredHand]) -> str:
    """Every hand of a stored game: each side's bids, tricks, points and running total."""
    rs = ruleset_of(game.ruleset)
    names = seat_names(game)
    sides = [side_label(rs, names, i) for i in range(rs.num_sides)]
    head: list[Text] = [
        _(
            "📊 **Game #%(game)s** · %(preset)s · finished %(when)s",
            game=game.id,
            preset=preset_name(game.preset),
            when=timestamp(game.finished_at, "f"),
        ),
        join(*(join(f"**{i + 1}**", s) for i, s in enumerate(sides)), sep=" · "),
    ]
    rows = []
    for h in hands:
        res = h.result or h.record.get("result") or {}
        tricks = res.get("tricks") or []
        scores = res.get("scores") or []
        breakdown = res.get("breakdown") or []
        bids = {int(s): b for s, b in h.record.get("bids", [])}
        cells = []
        for i, seats in enumerate(rs.sides):
            bid = join(*(bid_text(bids.get(s)) for s in seats), sep="+")
            took = sum(int(tricks[s]) for s in seats if s < len(tricks))
            pts = breakdown[i].get("total", breakdown[i].get("points", 0)) if i < len(breakdown) else 0
            total = scores[i] if i < len(scores) else "?"
            cells.append(join(bid, f"/{took} {int(pts):+d} → **{total}**", sep=""))
        rows.append(join(f"`{h.hand_no:>2}`", join(*cells, sep=" · ")))
    tail: list[Text] = []
    if game.winner_side is not None and game.winner_side < len(sides):
        final = " – ".join(str(s.get("score")) for s in game.sides)
        tail.append(
            _n(
                "🏆 %(side)s won %(final)s after %(n)s hand.",
                "🏆 %(side)s won %(final)s after %(n)s hands.",
                game.hands,
                side=sides[game.winner_side],
                final=final,
            )
        )
    tail.append(
        _("Cells: bid/took, points, total. `/replay game:%(game)s hand:<n>` replays a hand.", game=game.id)
    )
    dropped = 0
    # room for a longer translation of the header and footer: the rows are mostly numbers
    room = MAX_MESSAGE - 250
    while dropped < len(rows) - 1 and len("\n".join([*head, "…", *rows[dropped:], *tail])) > room:
        dropped += 1
    gap: list[Text] = [_("… hands 1–%(n)s not shown", n=dropped)] if dropped else []
    return join(*head, *gap, *rows[dropped:], *tail, sep="\n")


# ---- replays ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Trick:
    no: int  # 1-based
    plays: tuple[tuple[int, int], ...]  # (seat, card) in play order
    winner: int


@dataclass(frozen=True)
class HandReplay:
    """A finished hand read trick by trick (rebuilt by the engine from the record)."""

    record: dict[str, Any]
    ruleset: Ruleset
    hand_no: int
    dealer: int
    dealt: tuple[int, ...]  # per seat, a card mask, as dealt (two-player: as kept after the draw)
    bids: tuple[tuple[int, str], ...]
    passes: tuple[tuple[int, tuple[int, ...]], ...]
    tricks: tuple[Trick, ...]
    result: dict[str, Any]

    @property
    def steps(self) -> int:
        """The deal and bids, one step per trick, the scoring."""
        return len(self.tricks) + 2

    def held_before(self, trick_no: int) -> list[int]:
        """Each seat's cards before trick ``trick_no`` (1-based) was played (after any pass)."""
        hands = list(self.after_pass)
        for t in self.tricks[: trick_no - 1]:
            for seat, card in t.plays:
                hands[seat] &= ~(1 << card)
        return hands

    @property
    def after_pass(self) -> list[int]:
        hands = list(self.dealt)
        for seat, cards in self.passes:
            for c in cards:
                hands[seat] &= ~(1 << c)
        n = len(hands)
        if self.ruleset.two_player_draw:
            for seat, cards in (tuple(x) for x in self.record.get("replacements") or []):
                for c in cards:
                    hands[seat] |= 1 << parse_card(c)
            return hands
        for seat, cards in self.passes:  # partners swap: the cards arrive at the partner
            partner = self.ruleset.partner_of(seat)
            if partner is not None and partner < n:
                for c in cards:
                    hands[partner] |= 1 << c
        return hands


def hand_replay(record: dict[str, Any]) -> HandReplay:
    """Rebuild a finished hand from its record; raises ``engine.RecordError`` when it does not replay."""
    g = replay_game(record)
    n = g.n
    history = g.history()
    tricks = []
    for i in range(0, len(history), n):
        no = i // n + 1
        tricks.append(Trick(no, tuple(history[i : i + n]), g.trick_winners[no - 1]))
    bids = tuple((int(s), bid_text(b)) for s, b in record.get("bids", []))
    passes = tuple((s, tuple(_bits(m))) for s, m in g.pass_log)
    return HandReplay(
        record,
        g.rs,
        g.hand_no,
        g.dealer,
        tuple(g.dealt),
        bids,
        passes,
        tuple(tricks),
        dict(g.hand_records[-1]["result"]),
    )


def _bits(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def replay_text(
    hr: HandReplay, step: int, *, names: Sequence[str], title: Text, hands_in_game: int | None = None
) -> Text:
    """One step of a replay: 0 the deal and bids, 1..T trick by trick, T+1 the scoring.
    ``title`` names the game ("game #41", "table 12"), ``names`` the seats."""
    names = list(names)
    while len(names) < hr.ruleset.num_seats:
        names.append(_seat(len(names)))
    step = max(0, min(step, hr.steps - 1))
    if hands_in_game:
        which = _("hand %(n)s of %(total)s", n=hr.hand_no, total=hands_in_game)
    else:
        which = _("hand %(n)s", n=hr.hand_no)
    head = _(
        "🔁 **Replay · %(title)s · %(which)s** · %(rules)s · step %(step)s of %(steps)s",
        title=title,
        which=which,
        rules=preset_name(hr.ruleset.name),
        step=step + 1,
        steps=hr.steps,
    )
    lines: list[Text] = [head]
    if step == 0:
        fair = hr.record.get("fair") or {}
        dealer: Text = _("Dealer: %(name)s", name=names[hr.dealer])
        if fair.get("commitment"):
            dealer = join(dealer, _("commitment `%(short)s`", short=short(fair["commitment"])), sep=" · ")
        lines.append(dealer)
        lines.append(_("**As dealt** (after the draw)") if hr.ruleset.two_player_draw else _("**As dealt**"))
        for s in range(hr.ruleset.num_seats):
            lines.append(join(names[s], hand_str(hr.dealt[s]) or "—", sep=": "))
        lines.append(join(_("**Bids**:"), join(*(join(names[s], b) for s, b in hr.bids), sep=" · ")))
        for seat, cards in hr.passes:
            partner = hr.ruleset.partner_of(seat)
            shown = " ".join(card_pretty(c) for c in cards)
            if hr.ruleset.two_player_draw:
                lines.append(_("%(name)s exchanged %(cards)s", name=names[seat], cards=shown))
            elif partner is not None:
                lines.append(
                    _(
                        "%(name)s passed %(cards)s to %(partner)s",
                        name=names[seat],
                        cards=shown,
                        partner=names[partner],
                    )
                )
            else:
                lines.append(_("%(name)s passed %(cards)s", name=names[seat], cards=shown))
        return join(*lines, sep="\n")
    if step <= len(hr.tricks):
        t = hr.tricks[step - 1]
        held = hr.held_before(t.no)
        lead = names[t.plays[0][0]] if t.plays else "?"
        plays = join(*(join(names[s], card_pretty(c)) for s, c in t.plays), sep=" · ")
        lines.append(
            _(
                "**Trick %(n)s of %(total)s** (led by %(lead)s): %(plays)s → **%(winner)s**",
                n=t.no,
                total=len(hr.tricks),
                lead=lead,
                plays=plays,
                winner=names[t.winner],
            )
        )
        taken = [0] * hr.ruleset.num_seats
        for x in hr.tricks[: t.no]:
            taken[x.winner] += 1
        bids = dict(hr.bids)
        seats = range(hr.ruleset.num_seats)
        so_far = join(
            *(join(names[s], join(f"{taken[s]}/", bids.get(s, "?"), sep="")) for s in seats), sep=" · "
        )
        lines.append(_("Tricks so far: %(tricks)s", tricks=so_far))
        lines.append(_("_Held before this trick:_"))
        for s in range(hr.ruleset.num_seats):
            lines.append(join(names[s], hand_str(held[s]) or "—", sep=": "))
        return join(*lines, sep="\n")
    # the scoring
    res = hr.result
    lines.append(_("**Scoring**"))
    for b in res.get("breakdown", []):
        side = int(b.get("side", 0))
        who = side_label(hr.ruleset, names, side)
        parts: list[Text] = []
        for nil in b.get("nils", []):
            name, points = names[int(nil["seat"])], f"{int(nil.get('points', 0)):+d}"
            blind = nil.get("kind") == "blind_nil"
            if nil.get("made"):
                parts.append(
                    _("%(name)s's blind nil made %(points)s", name=name, points=points)
                    if blind
                    else _("%(name)s's nil made %(points)s", name=name, points=points)
                )
            else:
                parts.append(
                    _("%(name)s's blind nil failed %(points)s", name=name, points=points)
                    if blind
                    else _("%(name)s's nil failed %(points)s", name=name, points=points)
                )
        if b.get("made") is not None:
            points = f"{int(b.get('contract_points', 0)):+d}"
            if b.get("made"):
                parts.append(
                    _(
                        "contract %(bid)s made with %(tricks)s %(points)s",
                        bid=b.get("bid"),
                        tricks=b.get("tricks"),
                        points=points,
                    )
                )
            else:
                parts.append(
                    _(
                        "contract %(bid)s set with %(tricks)s %(points)s",
                        bid=b.get("bid"),
                        tricks=b.get("tricks"),
                        points=points,
                    )
                )
        if b.get("bag_points"):
            points = f"{int(b['bag_points']):+d}"
            bags = int(b.get("bags", 0))
            parts.append(_n("%(n)s bag %(points)s", "%(n)s bags %(points)s", bags, points=points))
        if b.get("bag_penalty"):
            parts.append(_("bag penalty %(points)s", points=int(b["bag_penalty"])))
        if b.get("bonus_points"):
            points = f"{int(b['bonus_points']):+d}"
            parts.append(_("bonus %(points)s", points=points))
        total = int(b.get("total", b.get("points", 0)))
        what = join(*parts, sep=", ") if parts else _("no points")
        lines.append(
            _(
                "%(who)s: %(what)s → %(total)s (%(before)s → %(after)s)",
                who=who,
                what=what,
                total=format(total, "+d"),
                before=b.get("score_before", "?"),
                after=b.get("score_after", "?"),
            )
        )
    fair = hr.record.get("fair")
    if fair:
        lines.append(
            _(
                "🔐 Deal key revealed: seed `%(seed)s` salt `%(salt)s` (commitment `%(short)s`…). "
                "**%(button)s** recomputes the deal.",
                seed=fair.get("seed"),
                salt=fair.get("salt"),
                short=short(str(fair.get("commitment"))),
                # the label of the button under the replay, in the reader's language
                button=_("Verify deal"),
            )
        )
    return join(*lines, sep="\n")


# ---- the pictures' data -------------------------------------------------------------------------


def picture_words(lang: str) -> Words:
    """The pictures' own words in ``lang`` (English where the catalog has none)."""
    if lang == DEFAULT:
        return ENGLISH
    return Words(
        # TRANSLATORS: a bot's name on the table picture
        bot=gettext(lang, "%(name)s (bot)"),
        # TRANSLATORS: under a player's name on the table picture (about 16 letters fit)
        seat_line=gettext(lang, "bid %(bid)s · took %(tricks)s"),
        # TRANSLATORS: the one-letter mark of the dealer's seat on the table picture
        dealer=gettext(lang, "D"),
        # TRANSLATORS: the heading of the score panel on the table picture
        score=gettext(lang, "Score"),
        # TRANSLATORS: the columns of the score panel on the table picture (about 30 letters fit)
        columns=gettext(lang, "total · bags"),
        columns_hand=gettext(lang, "total · bags · this hand"),
        won=gettext(lang, "%(name)s won"),
        # TRANSLATORS: the horizontal axis of the score chart (hand 1, 2, 3…)
        axis=gettext(lang, "hand"),
        won_legend=gettext(lang, "%(name)s (won)"),
    )


def picture_language(lang: str) -> str:
    """``lang`` if the pictures' fonts can draw its words, else English (a system without a font
    that has Polish, Czech or Cyrillic letters still gets readable pictures)."""
    if lang == DEFAULT:
        return lang
    probe = "".join(picture_words(lang).texts()) + gettext(lang, "Game over")
    return lang if can_draw(probe) else DEFAULT


def picture_names(names: Sequence[Any], lang: str = DEFAULT) -> list[str]:
    """Players' names as the pictures can draw them (``Seat n`` in ``lang`` for an empty one)."""
    empty = gettext(lang, "Seat %(n)s")
    return [picture_name(render(n, lang), i, empty) for i, n in enumerate(names)]


def hand_scene(
    record: dict[str, Any],
    names: Sequence[str],
    *,
    title: str | None = None,
    winner: int | None = None,
    subtitle: str = "",
    lang: str = DEFAULT,
    bots: Collection[int] = (),
) -> TableScene:
    """The table picture after a finished hand (``winner`` set at game over), its words in ``lang``;
    the seats in ``bots`` are marked as bots."""
    rs = ruleset_of(record)
    res = record.get("result") or {}
    tricks = res.get("tricks") or [0] * rs.num_seats
    bids = {int(s): b for s, b in record.get("bids", [])}
    seats = [
        SeatInfo(
            render(names[s] if s < len(names) else _seat(s), lang),
            rs.side_of(s),
            render(bid_label(bids[s]), lang) if s in bids else None,
            int(tricks[s]) if s < len(tricks) else 0,
            is_bot=s in bots,
            dealer=s == record.get("dealer"),
        )
        for s in range(rs.num_seats)
    ]
    breakdown = res.get("breakdown") or []
    scores = res.get("scores") or [0] * rs.num_sides
    bags = res.get("bags") or [0] * rs.num_sides
    points = [int(b.get("total", b.get("points", 0))) for b in breakdown]
    sides = [
        SideInfo(
            render(side_label(rs, names, i), lang),
            int(scores[i]),
            int(bags[i]),
            points[i] if i < len(points) else None,
        )
        for i in range(rs.num_sides)
    ]
    hand_no = record.get("hand_no", "?")
    if title is None:
        title = gettext(lang, "Game over") if winner is not None else gettext(lang, "Hand %(n)s", n=hand_no)
    notes = [gettext(lang, "after hand %(n)s", n=hand_no)] if winner is not None else []
    subtitle = subtitle or render(describe(rs), lang)[:70]
    return TableScene(
        title, seats, sides, winner=winner, subtitle=subtitle, notes=notes, words=picture_words(lang)
    )


def game_series(
    records: Sequence[dict[str, Any]],
    names: Sequence[str],
    *,
    winner: int | None = None,
    title: str | None = None,
    lang: str = DEFAULT,
) -> ScoreSeries:
    """The score chart over a game's finished hands, its words in ``lang``."""
    rs = ruleset_of(records[0]) if records else Ruleset.preset("standard")
    scores = [list((r.get("result") or {}).get("scores") or [0] * rs.num_sides) for r in records]
    return ScoreSeries(
        gettext(lang, "Score by hand") if title is None else title,
        [render(side_label(rs, names, i), lang) for i in range(rs.num_sides)],
        scores,
        target=rs.target_score,
        lose=rs.lose_score,
        winner=winner,
        words=picture_words(lang),
    )


__all__ = [
    "HandReplay",
    "Trick",
    "bid_text",
    "game_line",
    "game_series",
    "hand_replay",
    "hand_scene",
    "history_text",
    "picture_language",
    "picture_names",
    "picture_words",
    "replay_text",
    "score_sheet_text",
    "seat_names",
    "side_label",
]
