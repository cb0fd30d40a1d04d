"""Review my hand: the answer (the player's bid and plays beside the strong bot's) and its refusals.

Pure functions over an ``engine.review.HandReview``: no service, no discord. The review names the
player's own cards, so it is only ever sent to that player, ephemerally (``cogs.history``). Lazy
messages (``bot.i18n``), rendered in the reader's language; cards as the replays show them
(``engine.card_pretty``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.i18n import Msg, Text, _, _n, join
from bot.render.records import bid_text
from engine import card_pretty

if TYPE_CHECKING:
    from bot.review import ReviewAnswer, ReviewRefusal
    from engine.review import Decision

#: the plays shown at most (the largest differences); the rest are counted
TOP_PLAYS = 3


def gain_text(gain: float) -> Msg:
    """The bot's expected gain, whole points (``+12``); under half a point, "about even"."""
    points = round(gain)
    if points <= 0:
        return _("about even")
    return _n("+%(n)s point", "+%(n)s points", points)


def _play_line(d: Decision) -> Msg:
    assert isinstance(d.player, int) and isinstance(d.bot, int)
    return _(
        "• Trick %(trick)s: you played %(mine)s, the bot would have played %(bot)s (%(gain)s)",
        trick=d.trick,
        mine=card_pretty(d.player),
        bot=card_pretty(d.bot),
        gain=gain_text(d.gain),
    )


def review_text(answer: ReviewAnswer, top: int = TOP_PLAYS) -> Text:
    """The review: the bids side by side, then the ``top`` plays the bot would have changed most."""
    r = answer.review
    head = _(
        "🧭 **Review of your hand · table %(table)s · hand %(hand)s** (only you see this)",
        table=answer.table_id,
        hand=answer.hand_no,
    )
    if r.bid.differs:
        bid = _(
            "**Bid:** you bid %(mine)s, the strong bot would have bid %(bot)s (%(gain)s).",
            mine=bid_text(r.bid.player.to_json()),  # type: ignore[union-attr]
            bot=bid_text(r.bid.bot.to_json()),  # type: ignore[union-attr]
            gain=gain_text(r.bid.gain),
        )
    else:
        bid = _(
            "**Bid:** you bid %(mine)s, as the strong bot would have.",
            mine=bid_text(r.bid.player.to_json()),  # type: ignore[union-attr]
        )
    lines: list[Text] = [head, bid]
    if not r.plays:
        lines.append(
            _n(
                "**Play:** the bot would have played your %(n)s card as you did.",
                "**Play:** the bot would have played all %(n)s of your cards as you did.",
                r.plays_reviewed,
            )
        )
    else:
        lines.append(
            _(
                "**Play:** the bot would have played another card in %(diff)s of your %(cards)s plays. "
                "The largest differences:",
                diff=len(r.plays),
                cards=r.plays_reviewed,
            )
        )
        lines.extend(_play_line(d) for d in r.top(top))
        rest = len(r.plays) - min(top, len(r.plays))
        if rest > 0:
            lines.append(_n("…and %(n)s smaller difference.", "…and %(n)s smaller differences.", rest))
    lines.append(
        _(
            "-# The points are the bot's own estimate from sampled deals for the other hands, "
            "for your side against the other: a guide, not a verdict."
        )
    )
    return join(*lines, sep="\n")


def refusal_text(refusal: ReviewRefusal) -> Msg:
    """Why the review is not shown, by the refusal's code."""
    f = refusal.fields
    code = refusal.code
    if code == "not_in_server":
        return _("Hand reviews belong to a server: use this in a server channel.")
    if code == "other_server":
        return _("That hand was played in another server: its review stays there.")
    if code == "no_table":
        return _("That table no longer exists.")
    if code == "not_over":
        return _("Hand %(hand)s is not over yet: it can be reviewed once it is.", hand=f.get("hand", "?"))
    if code == "night_going":
        return _(
            "League night %(night)s is still going: its hands can be reviewed once the night is over.",
            night=f.get("night", "?"),
        )
    if code == "not_at_table":
        return _("Only the players who played hand %(hand)s can review it.", hand=f.get("hand", "?"))
    if code == "not_reviewed":
        return _("Two-player hands (with the draw) can't be reviewed yet: only hands dealt in full can.")
    if code == "bad_record":
        return _(
            "That hand's record could not be replayed, so it can't be reviewed. Nothing else is affected."
        )
    return _("The bot is too busy to review that hand right now: try again in a minute.")
