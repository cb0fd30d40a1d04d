"""The rules of one table in words: every number is the table's own ruleset (house rules change
them), never a default."""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.i18n import DEFAULT, gettext, ngettext
from bot.render.pieces import clip, house_rules, rules_line

if TYPE_CHECKING:
    from bot.model import Table


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
