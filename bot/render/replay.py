"""Replays of finished hands, step by step: the deal and bids, each trick, the scoring.

Pure functions over hand records (rebuilt by the engine): no service, no discord. Everything here is
about hands that are over, so showing every seat's cards is fine. Texts stay under Discord's 2,000
characters, and are lazy messages (``bot.i18n``): the answer renders them in the reader's language.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from bot.i18n import Text, _, _n, join
from bot.lexicon import preset_name
from bot.render.records import bid_text, seat_word, side_label
from engine import card_pretty, hand_str
from engine.fair import short
from engine.record import HandReplay

if TYPE_CHECKING:
    from bot.model import Table
    from engine.verify import Verdict


def replay_text(
    hr: HandReplay, step: int, *, names: Sequence[str], title: Text, hands_in_game: int | None = None
) -> Text:
    """One step of a replay: 0 the deal and bids, 1..T trick by trick, T+1 the scoring.
    ``title`` names the game ("game #41", "table 12"), ``names`` the seats."""
    names = list(names)
    while len(names) < hr.ruleset.num_seats:
        names.append(seat_word(len(names)))
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
        lines.append(
            join(_("**Bids**:"), join(*(join(names[s], bid_text(b)) for s, b in hr.bids), sep=" · "))
        )
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
        bids = {s: bid_text(b) for s, b in hr.bids}
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


def replay_title(*, game_id: int | None = None, table_id: int = 0, playing: bool = False) -> Text:
    """What a replay's heading names: the stored game, else the table (with its game in progress)."""
    if game_id is not None:
        return _("game #%(game)s", game=game_id)
    if playing:
        return _("table %(table)s (game in progress)", table=table_id)
    return _("table %(table)s", table=table_id)


def table_seat_names(t: Table) -> list[str]:
    """A live table's seats by name (``seat 3`` for an empty one), for a replay of its current game."""
    return [s.name if s is not None else _("seat %(n)s", n=i + 1) for i, s in enumerate(t.seats)]


def verdict_text(verdict: Verdict, fair: dict[str, Any], *, table_id: int, hand_no: int, file: str) -> Text:
    """The answer to "Verify deal": the verdict, the commitment and the revealed key, and how to check
    the attached record (``file``) yourself."""
    mark = "✅" if verdict.ok else "❌"
    commitment, full = short(str(fair.get("commitment"))), str(fair.get("commitment"))
    lines = [
        _(
            "%(mark)s **Hand %(hand)s at table %(table)s**: %(verdict)s",
            mark=mark,
            hand=hand_no,
            table=table_id,
            verdict=verdict.message,
        ),
        _("Commitment shown before the bidding: `%(short)s` (full: `%(full)s`)", short=commitment, full=full),
        _("Revealed seed `%(seed)s` and salt `%(salt)s`.", seed=fair.get("seed"), salt=fair.get("salt")),
        _(
            "Check it yourself with the attached record, `%(file)s`: docs/HAND_RECORD.md says how.",
            file=file,
        ),
    ]
    return join(*lines, sep="\n")
