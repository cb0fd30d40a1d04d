"""The leaderboard and /stats as embeds: a page of the board, one player's stats, and what the
board's footer and sort picker say. Pure functions over ``PlayerStats``: no storage, no interaction.

The paging arithmetic lives here too (``PAGE_SIZE``, ``page_count``, the sort keys that the
leaderboard's buttons carry in their custom ids).
"""

from __future__ import annotations

import math

import discord

from bot.i18n import DEFAULT, Num, Text, _, gettext, ngettext
from bot.lexicon.words import SORT_LABELS
from bot.storage import SORTS, PlayerStats
from bot.storage.reviews import BidAccuracy

PAGE_SIZE = 10
BOT_MARK = "🤖"
EMBED_COLOUR = discord.Colour.dark_green()

EMPTY_SERVER = _(
    "No finished hands in this server yet, so there is no leaderboard. Open a table with "
    "`/spades new`: every finished hand counts."
)
NOT_IN_SERVER = _("The leaderboard and stats belong to a server: use this command in a server channel.")
WRONG_SERVER = _("This leaderboard belongs to another server. Use `/leaderboard` here for this one.")
BOTS_HAVE_NO_STATS = _("Bots don't keep stats: only people are on the leaderboard.")


def _pct(value: float, lang: str = DEFAULT) -> str:
    """A percentage (0-100) as the language writes it: ``67%``, ``67 %``."""
    return Num(round(value) / 100, percent=True).render(lang)


def _num(value: float, pattern: str, lang: str) -> str:
    return Num(value, pattern).render(lang)


ALL_GAMES = "__all"  # a sort key suffix: count games with bots in W/G too


def split_sort(key: str) -> tuple[str, bool]:
    """``wins`` -> ("wins", humans only); ``wins__all`` -> ("wins", every game); unknown -> wins."""
    base, _sep, flag = key.partition("__")
    return (base if base in SORTS else "wins"), flag != "all"


def sort_key(sort: str, humans_only: bool) -> str:
    return sort if humans_only else sort + ALL_GAMES


def page_count(total: int) -> int:
    return max(1, math.ceil(total / PAGE_SIZE))


def rating_text(p: PlayerStats, lang: str = DEFAULT, *, provisional: int) -> str:
    """``rating 12.3`` (``?`` while provisional: under ``provisional`` rated games) or ``unrated``."""
    if p.rating is None:
        return gettext(lang, "unrated")
    mark = "?" if p.rated_games < provisional else ""
    return gettext(lang, "rating %(value)s%(mark)s", value=_num(p.rating, "0.0", lang), mark=mark)


def leaderboard_line(p: PlayerStats, lang: str = DEFAULT, sort: str = "wins", *, provisional: int) -> str:
    """One player's line; W and G as counted by the board (games with bots are marked); a rating is
    provisional under ``provisional`` rated games (``bot.league.ratings.PROVISIONAL_GAMES``)."""
    bots = f" ({BOT_MARK} {p.not_counted})" if p.not_counted else ""
    record = gettext(lang, "%(wins)s W / %(games)s G", wins=p.wins, games=p.games)
    if sort == "rating":
        rated = ngettext(lang, "%(n)s rated game", "%(n)s rated games", p.rated_games)
        rating = rating_text(p, lang, provisional=provisional)
        return f"**{p.rank}.** <@{p.user_id}> · {rating} ({rated}) · {record}{bots}"
    if p.contracts_bid:
        bids = gettext(
            lang,
            "bids %(pct)s (%(made)s/%(bid)s)",
            pct=_pct(p.bid_accuracy, lang),
            made=p.contracts_made,
            bid=p.contracts_bid,
        )
    else:
        bids = gettext(lang, "bids –")
    # no rate for no game: "win 0%" over 0 counted games would say they lost them all
    win = gettext(lang, "win %(pct)s", pct=_pct(p.win_pct, lang) if p.games else "–")
    nils = gettext(lang, "nils %(made)s/%(tried)s", made=p.nils_made, tried=p.nils_attempted)
    bags = gettext(lang, "%(n)s bags/hand", n=_num(p.bags_per_hand, "0.0", lang))
    return f"**{p.rank}.** <@{p.user_id}> · {record}{bots} · {win} · {bids} · {nils} · {bags}"


def leaderboard_embed(
    players: list[PlayerStats],
    *,
    sort: str,
    page: int,
    total: int,
    guild_name: str | None,
    lang: str = DEFAULT,
    humans_only: bool = True,
    provisional: int,
) -> discord.Embed:
    """A page of the leaderboard (``provisional``: see ``leaderboard_line``)."""
    title = gettext(lang, "🏆 Leaderboard · %(server)s", server=guild_name) if guild_name else None
    embed = discord.Embed(
        title=title or gettext(lang, "🏆 Leaderboard"),
        description="\n".join(leaderboard_line(p, lang, sort, provisional=provisional) for p in players),
        colour=EMBED_COLOUR,
    )
    sorted_by = gettext(lang, "Sorted by %(what)s", what=gettext(lang, SORT_LABELS[sort]).lower())
    where = gettext(lang, "page %(page)s/%(pages)s", page=page + 1, pages=page_count(total))
    players_n = ngettext(lang, "%(n)s player", "%(n)s players", total)
    if humans_only:
        legend = gettext(
            lang,
            "W/G count games between people (no bot seat); %(mark)s n = games with bots (not "
            "counted) · ? = provisional",
            mark=BOT_MARK,
        )
    else:
        legend = gettext(
            lang,
            "W/G count every game; %(mark)s n = of them with bots · ? = provisional",
            mark=BOT_MARK,
        )
    embed.set_footer(text=f"{sorted_by} · {where} · {players_n} · {legend}")
    return embed


def no_stats(who: str | None = None) -> Text:
    """Why there are no stats to show: the reader's own (``who`` None) or someone else's."""
    if who is None:
        return _(
            "You have no finished hands in this server yet. Stats start with the first finished "
            "hand (`/spades new` opens a table)."
        )
    return _(
        "%(who)s has no finished hands in this server yet. Stats start with the first finished "
        "hand (`/spades new` opens a table).",
        who=who,
    )


def stats_embed(
    p: PlayerStats,
    *,
    name: str,
    total: int,
    avatar: str | None,
    lang: str = DEFAULT,
    against_bot: BidAccuracy | None = None,
) -> discord.Embed:
    """A player's /stats; ``against_bot``: their reviewed hands (Review my hand) and the bids within
    one trick of the strong bot's (shown once a hand was reviewed)."""
    embed = discord.Embed(title=f"♠ {name}", colour=EMBED_COLOUR)
    if avatar:
        embed.set_thumbnail(url=avatar)
    # the same counted games as the leaderboard (bot.storage.counted): no rank and no rate without one
    if p.games:
        rank = gettext(lang, "#%(rank)s of %(total)s by wins", rank=p.rank, total=total)
    else:
        rank = gettext(lang, "not ranked yet (no counted game)")
    embed.add_field(name=gettext(lang, "Rank"), value=rank)
    embed.add_field(
        name=gettext(lang, "Games"),
        value=gettext(
            lang, "%(games)s (%(wins)s W · %(losses)s L)", games=p.games, wins=p.wins, losses=p.losses
        ),
    )
    embed.add_field(name=gettext(lang, "Win rate"), value=_pct(p.win_pct, lang) if p.games else "–")
    embed.add_field(
        name=gettext(lang, "Bid accuracy"),
        value=gettext(
            lang,
            "%(pct)s (%(made)s/%(bid)s contracts made)",
            pct=_pct(p.bid_accuracy, lang),
            made=p.contracts_made,
            bid=p.contracts_bid,
        )
        if p.contracts_bid
        else "–",
    )
    if against_bot is not None and against_bot.share is not None:
        embed.add_field(
            name=gettext(lang, "Bids against the bot"),
            value=ngettext(
                lang,
                "%(pct)s within one trick of the strong bot's bid (%(within)s of %(n)s reviewed hand)",
                "%(pct)s within one trick of the strong bot's bid (%(within)s of %(n)s reviewed hands)",
                against_bot.reviewed,
                pct=_pct(100 * against_bot.share, lang),
                within=against_bot.within_one,
            ),
        )
    embed.add_field(
        name=gettext(lang, "Nils"),
        value=gettext(lang, "%(made)s made of %(tried)s", made=p.nils_made, tried=p.nils_attempted),
    )
    embed.add_field(
        name=gettext(lang, "Bags"),
        value=ngettext(
            lang,
            "%(per)s per hand (%(bags)s in %(n)s hand)",
            "%(per)s per hand (%(bags)s in %(n)s hands)",
            p.hands,
            per=_num(p.bags_per_hand, "0.00", lang),
            bags=p.bags,
        ),
    )
    embed.add_field(
        name=gettext(lang, "%(mark)s Not counted", mark=BOT_MARK),
        value=ngettext(
            lang,
            "%(n)s game with bots (not in games, wins or rank)",
            "%(n)s games with bots (not in games, wins or rank)",
            p.not_counted,
        )
        if p.not_counted
        else gettext(lang, "none"),
        inline=False,
    )
    return embed
