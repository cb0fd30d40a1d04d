"""The rules of one table in words, in the reader's language (``/rules`` and the Rules button).

The engine explains a ruleset as structured lines (``engine.explain_rule_lines``: a stable key, its
parameters and the English sentence); each key is written here as a catalog message, so every
preset and house rule reads correctly in Polish, Czech and Russian too, with the table's own
numbers (house rules change them), never a default. A long rule set is split at line boundaries
into messages of at most 2,000 characters (:func:`rules_pages`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from bot import lexicon
from bot.i18n import DEFAULT, ListOf, gettext, ngettext, whole
from bot.render.pieces import MAX_MESSAGE, clip, house_rules, rules_line
from engine.rules_text import RULE_KEYS, RuleLine, explain_lines
from engine.ruleset import Ruleset

if TYPE_CHECKING:
    from bot.model import Table


def _seats(lang: str, seats: list[list[int]]) -> str:
    """``seats 1 + 3 against seats 2 + 4``."""
    groups = [gettext(lang, "seats %(seats)s", seats=" + ".join(map(str, side))) for side in seats]
    return gettext(lang, " against ").join(groups)


def _players_solo(lang: str, p: dict[str, Any]) -> str:
    return ngettext(
        lang,
        "%(n)s player, every player for themselves.",
        "%(n)s players, every player for themselves.",
        p["n"],
    )


def _partners(lang: str, p: dict[str, Any]) -> str:
    seats = _seats(lang, p["seats"])
    players = ngettext(lang, "%(n)s player", "%(n)s players", p["n"])
    if p["size"] == 2:
        return ngettext(
            lang,
            "%(players)s in %(n)s team of two, partners sit opposite each other: %(seats)s.",
            "%(players)s in %(n)s teams of two, partners sit opposite each other: %(seats)s.",
            p["sides"],
            players=players,
            seats=seats,
        )
    return ngettext(
        lang,
        "%(players)s in %(n)s team of three, partners sit in every other seat: %(seats)s.",
        "%(players)s in %(n)s teams of three, partners sit in every other seat: %(seats)s.",
        p["sides"],
        players=players,
        seats=seats,
    )


def _draw(lang: str, p: dict[str, Any]) -> str:
    return gettext(
        lang,
        "No deal: players take turns at the face-down deck. Keep the top card and throw the next away "
        "unseen, or throw the top card away and keep the next, until both hold 13 cards; the other 26 sit "
        "out the hand. The player who did not draw first bids first and leads.",
    )


def _deal(lang: str, p: dict[str, Any]) -> str:
    if p["decks"] == 2:
        deck = gettext(lang, "two decks and both jokers") if p["jokers"] else gettext(lang, "two decks")
    else:
        deck = gettext(lang, "one deck and both jokers") if p["jokers"] else gettext(lang, "one deck")
    removed = p["removed"]
    if removed and p["both"]:
        deck = gettext(lang, "%(deck)s, both %(card)s taken out", deck=deck, card=removed[0])
    elif removed:
        deck = gettext(lang, "%(deck)s, the %(cards)s taken out", deck=deck, cards=ListOf(tuple(removed)))
    return ngettext(
        lang,
        "Cards: %(deck)s, %(n)s card each; the deal moves one seat to the left every hand.",
        "Cards: %(deck)s, %(n)s cards each; the deal moves one seat to the left every hand.",
        p["cards"],
        deck=deck,
    )


def _two_decks(lang: str, p: dict[str, Any]) -> str:
    if p["first"]:
        return gettext(lang, "When two identical cards fall on one trick, the first one played wins.")
    return gettext(lang, "When two identical cards fall on one trick, the later one played wins.")


def _goal(lang: str, p: dict[str, Any]) -> str:
    target = whole(p["target"])
    if p["teams"]:
        return ngettext(
            lang,
            "The first side to %(target)s point wins; if more than one gets there in the same hand the "
            "higher score wins, and a tie plays another hand.",
            "The first side to %(target)s points wins; if more than one gets there in the same hand the "
            "higher score wins, and a tie plays another hand.",
            abs(int(p["target"])),
            target=target,
        )
    return ngettext(
        lang,
        "The first player to %(target)s point wins; if more than one gets there in the same hand the "
        "higher score wins, and a tie plays another hand.",
        "The first player to %(target)s points wins; if more than one gets there in the same hand the "
        "higher score wins, and a tie plays another hand.",
        abs(int(p["target"])),
        target=target,
    )


def _max_hands(lang: str, p: dict[str, Any]) -> str:
    return ngettext(
        lang,
        "The game ends after %(n)s hand at the latest; the higher score wins (a tie plays on).",
        "The game ends after %(n)s hands at the latest; the higher score wins (a tie plays on).",
        p["n"],
    )


def _mercy(lang: str, p: dict[str, Any]) -> str:
    score = whole(p["score"])
    if p["teams"]:
        return ngettext(
            lang,
            "Mercy: a side at %(score)s point or below ends the game at once, and the highest score wins.",
            "Mercy: a side at %(score)s points or below ends the game at once, and the highest score wins.",
            abs(int(p["score"])),
            score=score,
        )
    return ngettext(
        lang,
        "Mercy: a player at %(score)s point or below ends the game at once, and the highest score wins.",
        "Mercy: a player at %(score)s points or below ends the game at once, and the highest score wins.",
        abs(int(p["score"])),
        score=score,
    )


def _bidding(lang: str, p: dict[str, Any]) -> str:
    n = p["cards"]
    if p["teams"]:
        return gettext(
            lang,
            "Bidding: one round from the player after the dealer; everyone bids 0 to %(n)s tricks, and "
            "partners' bids add up to their side's contract.",
            n=n,
        )
    if p["draw"]:
        return gettext(
            lang, "Bidding: one round; everyone bids 0 to %(n)s tricks as their own contract.", n=n
        )
    return gettext(
        lang,
        "Bidding: one round from the player after the dealer; everyone bids 0 to %(n)s tricks as their own "
        "contract.",
        n=n,
    )


def _whiz(lang: str, p: dict[str, Any]) -> str:
    if p["nil"]:
        return gettext(
            lang, "Whiz: you bid exactly the number of spades you hold, or nil; with no spade you bid nil."
        )
    return gettext(lang, "Whiz: you bid exactly the number of spades you hold; with no spade you bid 0.")


def _board(lang: str, p: dict[str, Any]) -> str:
    if p["teams"]:
        return ngettext(
            lang,
            "Board: each side must bid at least %(n)s trick in total; the last partner to bid makes up the "
            "difference.",
            "Board: each side must bid at least %(n)s tricks in total; the last partner to bid makes up the "
            "difference.",
            p["n"],
        )
    return ngettext(
        lang,
        "Board: each player must bid at least %(n)s trick.",
        "Board: each player must bid at least %(n)s tricks.",
        p["n"],
    )


def _nil(lang: str, p: dict[str, Any]) -> str:
    plus, minus = whole(p["value"]), whole(-p["value"])
    if p["teams"]:
        return gettext(
            lang,
            "Nil: bid to take no trick at all: +%(plus)s if you take none, %(minus)s if you take any; each "
            "trick you take is a bag (it doesn't count for your partner's contract).",
            plus=plus,
            minus=minus,
        )
    return gettext(
        lang,
        "Nil: bid to take no trick at all: +%(plus)s if you take none, %(minus)s if you take any; each "
        "trick you take is a bag.",
        plus=plus,
        minus=minus,
    )


def _nil_pass(lang: str, p: dict[str, Any]) -> str:
    return ngettext(
        lang,
        "After a nil bid, the nil bidder and their partner each pass %(n)s card to the other, face down.",
        "After a nil bid, the nil bidder and their partner each pass %(n)s cards to the other, face down.",
        p["n"],
    )


def _blind_nil(lang: str, p: dict[str, Any]) -> str:
    plus, minus = whole(p["value"]), whole(-p["value"])
    if p["draw"]:
        parts = [
            gettext(
                lang,
                "Blind nil: bid nil before you draw your first card, for +%(plus)s / %(minus)s.",
                plus=plus,
                minus=minus,
            )
        ]
    else:
        parts = [
            gettext(
                lang,
                "Blind nil: bid nil before looking at your cards, for +%(plus)s / %(minus)s.",
                plus=plus,
                minus=minus,
            )
        ]
    if p["deficit"] and p["teams"]:
        parts.append(
            ngettext(
                lang,
                "Only a side behind by %(n)s point or more may bid it.",
                "Only a side behind by %(n)s points or more may bid it.",
                p["deficit"],
                n=whole(p["deficit"]),
            )
        )
    elif p["deficit"]:
        parts.append(
            ngettext(
                lang,
                "Only a player behind by %(n)s point or more may bid it.",
                "Only a player behind by %(n)s points or more may bid it.",
                p["deficit"],
                n=whole(p["deficit"]),
            )
        )
    else:
        parts.append(gettext(lang, "It may be bid whatever the score."))
    if p["exchange"]:
        parts.append(
            ngettext(
                lang,
                "After the draw you may throw away up to %(n)s card and take as many at random from the "
                "discards.",
                "After the draw you may throw away up to %(n)s cards and take as many at random from the "
                "discards.",
                p["exchange"],
            )
        )
    elif p["passing"]:
        parts.append(
            ngettext(
                lang,
                "Then you and your partner each pass %(n)s card to the other, face down (nobody passes if "
                "you both bid blind nil).",
                "Then you and your partner each pass %(n)s cards to the other, face down (nobody passes if "
                "you both bid blind nil).",
                p["passing"],
            )
        )
    return " ".join(parts)


def _blind_bids(lang: str, p: dict[str, Any]) -> str:
    if p["deficit"] and p["teams"]:
        return ngettext(
            lang,
            "Blind bids: a side behind by %(deficit)s point or more may bid 1 to %(max)s tricks before "
            "looking at their cards; a blind contract made scores 20 per blind trick, a set one loses 10 per "
            "trick.",
            "Blind bids: a side behind by %(deficit)s points or more may bid 1 to %(max)s tricks before "
            "looking at their cards; a blind contract made scores 20 per blind trick, a set one loses 10 per "
            "trick.",
            p["deficit"],
            deficit=whole(p["deficit"]),
            max=p["max"],
        )
    if p["deficit"]:
        return ngettext(
            lang,
            "Blind bids: a player behind by %(deficit)s point or more may bid 1 to %(max)s tricks before "
            "looking at their cards; a blind contract made scores 20 per blind trick, a set one loses 10 per "
            "trick.",
            "Blind bids: a player behind by %(deficit)s points or more may bid 1 to %(max)s tricks before "
            "looking at their cards; a blind contract made scores 20 per blind trick, a set one loses 10 per "
            "trick.",
            p["deficit"],
            deficit=whole(p["deficit"]),
            max=p["max"],
        )
    return gettext(
        lang,
        "Blind bids: anyone may bid 1 to %(max)s tricks before looking at their cards; a blind contract made "
        "scores 20 per blind trick, a set one loses 10 per trick.",
        max=p["max"],
    )


def _misdeal(lang: str, p: dict[str, Any]) -> str:
    if p["teams"]:
        return gettext(
            lang,
            "Misdeal: a player dealt no spade may show their hand and call a new deal before"
            " their side bids.",
        )
    return gettext(
        lang, "Misdeal: a player dealt no spade may show their hand and call a new deal before they bid."
    )


def _first_trick(lang: str, p: dict[str, Any]) -> str:
    return gettext(
        lang,
        "First trick: whoever holds the %(card)s leads it, and nobody may play a spade on that trick unless "
        "they hold nothing else.",
        card=p["card"],
    )


def _scoring(lang: str, p: dict[str, Any]) -> str:
    bag = p["bag"]
    if not bag:
        return gettext(
            lang,
            "Scoring: a contract made scores 10 per trick bid, and each extra trick (a bag)"
            " scores no points; "
            "a contract set loses 10 per trick bid.",
        )
    if bag < 0:
        return ngettext(
            lang,
            "Scoring: a contract made scores 10 per trick bid, and each extra trick (a bag)"
            " costs %(n)s point; "
            "a contract set loses 10 per trick bid.",
            "Scoring: a contract made scores 10 per trick bid, and each extra trick (a bag)"
            " costs %(n)s points; "
            "a contract set loses 10 per trick bid.",
            -bag,
        )
    return ngettext(
        lang,
        "Scoring: a contract made scores 10 per trick bid, and each extra trick (a bag) scores %(n)s point; "
        "a contract set loses 10 per trick bid.",
        "Scoring: a contract made scores 10 per trick bid, and each extra trick (a bag) scores %(n)s points; "
        "a contract set loses 10 per trick bid.",
        bag,
    )


def _bag_limit(lang: str, p: dict[str, Any]) -> str:
    penalty = ngettext(lang, "%(n)s point", "%(n)s points", p["penalty"], n=whole(p["penalty"]))
    return ngettext(
        lang,
        "Bags add up over the game: every %(n)s bag costs %(penalty)s, and the rest carry over.",
        "Bags add up over the game: every %(n)s bags cost %(penalty)s, and the rest carry over.",
        p["n"],
        penalty=penalty,
    )


def _ten_for(lang: str, p: dict[str, Any]) -> str:
    value = whole(p.get("value", 200))
    if p["teams"]:
        return gettext(
            lang,
            "10 for %(value)s: a side that bids 10 or more tricks scores +%(value)s if it makes them and "
            "−%(value)s if not, instead of 10 per trick.",
            value=value,
        )
    return gettext(
        lang,
        "10 for %(value)s: a player who bids 10 or more tricks scores +%(value)s if they make them and "
        "−%(value)s if not, instead of 10 per trick.",
        value=value,
    )


def _set_limit(lang: str, p: dict[str, Any]) -> str:
    if p["teams"]:
        return ngettext(
            lang,
            "A side whose contract is set %(n)s time in a game loses it at once; the highest score of the "
            "others wins.",
            "A side whose contract is set %(n)s times in a game loses it at once; the highest score of the "
            "others wins.",
            p["n"],
        )
    return ngettext(
        lang,
        "A player whose contract is set %(n)s time in a game loses it at once; the highest score of the "
        "others wins.",
        "A player whose contract is set %(n)s times in a game loses it at once; the highest score of the "
        "others wins.",
        p["n"],
    )


def _boston(lang: str, p: dict[str, Any]) -> str:
    if p["teams"]:
        return gettext(
            lang,
            "Boston: a side that bids all %(n)s tricks and takes them all wins the game on the spot.",
            n=p["cards"],
        )
    return gettext(
        lang,
        "Boston: a player who bids all %(n)s tricks and takes them all wins the game on the spot.",
        n=p["cards"],
    )


_LINES: dict[str, Callable[[str, dict[str, Any]], str]] = {
    "players_solo": _players_solo,
    "partners_opposite": _partners,
    "partners_alternate": _partners,
    "draw": _draw,
    "deal": _deal,
    "two_decks": _two_decks,
    "jokers": lambda lang, p: gettext(
        lang,
        "Jokers high: the big joker and then the little joker are the two highest spades, above the ace of "
        "spades.",
    ),
    "deuces_all": lambda lang, p: gettext(
        lang, "Deuces high: all four 2s are spades above the ace of spades: from the top 2♠, 2♦, 2♣, 2♥."
    ),
    "deuces": lambda lang, p: gettext(
        lang, "Deuces high: the 2♠ and then the 2♦ rank above the ace of spades; the 2♦ counts as a spade."
    ),
    "goal": _goal,
    "max_hands": _max_hands,
    "mercy": _mercy,
    "bidding": _bidding,
    "whiz": _whiz,
    "mirrors": lambda lang, p: gettext(
        lang, "Mirrors: you bid exactly the number of spades you hold; with no spade you bid nil."
    ),
    "suicide": lambda lang, p: gettext(
        lang, "Suicide: in each partnership exactly one partner bids nil and the other bids a number."
    ),
    "board": _board,
    "nil": _nil,
    "nil_pass": _nil_pass,
    "no_nil": lambda lang, p: gettext(
        lang, "No nil: a bid of 0 is a contract to take no trick, scored like any other bid."
    ),
    "blind_nil": _blind_nil,
    "blind_bids": _blind_bids,
    "misdeal": _misdeal,
    "play": lambda lang, p: gettext(
        lang,
        "Play: follow the suit led if you can, otherwise play any card. Spades are trumps: the highest spade "
        "wins the trick, or the highest card of the suit led if no spade was played.",
    ),
    "first_trick": _first_trick,
    "spades_broken": lambda lang, p: gettext(
        lang, "Spades can't be led until one has been played on another suit, unless you hold only spades."
    ),
    "spades_any": lambda lang, p: gettext(lang, "Spades may be led at any time."),
    "scoring": _scoring,
    "bag_limit": _bag_limit,
    "no_bag_penalty": lambda lang, p: gettext(lang, "Bags never cost a penalty."),
    "ten_for_200": _ten_for,
    "boston": _boston,
    "set_limit": _set_limit,
}
assert set(_LINES) == set(RULE_KEYS), set(RULE_KEYS) ^ set(_LINES)


def rule_line(line: RuleLine, lang: str = DEFAULT) -> str:
    """One of the engine's rule lines in ``lang``: the key's catalog message with its parameters
    (an unknown key, from a newer engine, reads as the engine's English)."""
    write = _LINES.get(line.key)
    return write(lang, line.params) if write is not None else line.text


def rule_lines(rs: Ruleset, lang: str = DEFAULT) -> list[str]:
    """Every rule of ``rs`` in ``lang``, one line each, in the engine's order."""
    return [rule_line(line, lang) for line in explain_lines(rs)]


def rules_pages(t: Table, lang: str = DEFAULT, limit: int = MAX_MESSAGE) -> list[str]:
    """The table's rules as messages of at most ``limit`` characters: the header (the ruleset in one
    line, the house rules) then every rule line, split only between lines."""
    rs = t.ruleset
    head = [gettext(lang, "**Rules at table %(table)s**: %(rules)s", table=t.id, rules=rules_line(t, lang))]
    extra = house_rules(t)
    if extra:
        head.append(
            gettext(
                lang,
                "House rules over %(preset)s: %(rules)s",
                preset=lexicon.preset_name(rs.name),
                rules=extra,
            )
        )
    pages: list[list[str]] = [head]
    for text in (f"• {line}" for line in rule_lines(rs, lang)):
        page = pages[-1]
        if len("\n".join([*page, text])) > limit and page:
            pages.append([])
        pages[-1].append(text)
    return [clip("\n".join(page), limit) for page in pages]


def rules_text(t: Table, lang: str = DEFAULT) -> str:
    """The table's rules in one message when they fit (else the first of :func:`rules_pages`)."""
    return rules_pages(t, lang)[0]
