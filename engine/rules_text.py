"""The rules of a table in plain words, for ``/rules`` and for players.

Each line is built from the ruleset's own numbers, so house rules read as they are played;
docs/RULES.md is the longer reference these lines follow. :func:`explain_lines` gives each line as a
:class:`RuleLine`: a stable ``key`` naming the rule, its ``params`` (plain numbers, booleans, seat
numbers and card names) and the English ``text``, so a translation can say the same from the key and
the parameters; :func:`explain` is the English text alone (the engine's CLI prints it).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from .cards import BIG_JOKER, COPY_OFFSET, LITTLE_JOKER, card_pretty, join_words
from .ruleset import Ruleset, fmt_int, tables


@dataclass(frozen=True)
class RuleLine:
    """One rule of a table: a stable key, its parameters, and the English sentence."""

    key: str
    params: dict[str, Any] = field(default_factory=dict)
    text: str = ""


#: every key :func:`explain_lines` can give (a translation must know each)
RULE_KEYS: tuple[str, ...] = (
    "players_solo",
    "partners_opposite",
    "partners_alternate",
    "draw",
    "deal",
    "two_decks",
    "jokers",
    "deuces_all",
    "deuces",
    "goal",
    "max_hands",
    "mercy",
    "bidding",
    "whiz",
    "mirrors",
    "suicide",
    "board",
    "nil",
    "nil_pass",
    "no_nil",
    "blind_nil",
    "blind_bids",
    "misdeal",
    "play",
    "first_trick",
    "spades_broken",
    "spades_any",
    "scoring",
    "bag_limit",
    "no_bag_penalty",
    "ten_for_200",
    "boston",
    "set_limit",
)


def _seats(seats: Sequence[int]) -> str:
    return " + ".join(str(x + 1) for x in seats)


def _plural(n: int, word: str) -> str:
    return f"{fmt_int(n)} {word}{'' if n == 1 else 's'}"


def explain(rs: Ruleset) -> list[str]:
    """The rules of a table in plain words, one line per rule: every preset and house rule that
    is on gets a line, with this ruleset's own numbers (docs/RULES.md is the longer reference).

    >>> from engine import Ruleset
    >>> lines = explain(Ruleset.preset("standard", bag_limit=5))
    >>> lines[0]
    '4 players in two teams of two, partners sit opposite each other: seats 1 + 3 against seats 2 + 4.'
    >>> lines[-1]
    'Bags add up over the game: every 5 bags cost 100 points, and the rest carry over.'
    >>> explain_lines(Ruleset())[0].key
    'partners_opposite'
    """
    return [line.text for line in explain_lines(rs)]


def explain_lines(rs: Ruleset) -> list[RuleLine]:
    """:func:`explain` as structured lines (key, parameters, English text), in the same order."""
    t = tables(rs)
    n, top = rs.num_seats, t.hand_size
    teams = rs.partnerships
    side_word = "side" if teams else "player"
    lines: list[RuleLine] = []

    def add(key: str, text: str, **params: Any) -> None:
        assert key in RULE_KEYS, key
        lines.append(RuleLine(key, {"teams": teams, **params}, text))

    # who plays with whom
    if not teams:
        add("players_solo", f"{n} players, every player for themselves.", n=n)
    else:
        k = rs.num_sides
        which = {2: "two", 3: "three"}.get(k, str(k))
        of = "two" if rs.team_size == 2 else "three"
        teams_text = " against ".join(f"seats {_seats(side)}" for side in rs.sides)
        where = "opposite each other" if rs.team_size == 2 else "in every other seat"
        add(
            "partners_opposite" if rs.team_size == 2 else "partners_alternate",
            f"{n} players in {which} teams of {of}, partners sit {where}: {teams_text}.",
            n=n,
            sides=k,
            size=rs.team_size,
            seats=[[x + 1 for x in side] for side in rs.sides],
        )
    # the cards
    full = [
        f + COPY_OFFSET * d
        for d in range(rs.decks)
        for f in list(range(52)) + ([LITTLE_JOKER, BIG_JOKER] if rs.jokers else [])
    ]
    removed = sorted(set(full) - set(t.deck))
    deck = "two decks" if rs.decks == 2 else "one deck"
    if rs.jokers:
        deck += " and both jokers"
    out = ""
    faces = [card_pretty(c & 63) for c in removed]
    both = len(set(faces)) == 1 and len(faces) == 2
    if removed:
        out = (", both " + faces[0] if both else ", the " + join_words(faces)) + " taken out"
    if rs.two_player_draw:
        add(
            "draw",
            "No deal: players take turns at the face-down deck. Keep the top card and throw the next "
            "away unseen, or throw the top card away and keep the next, until both hold 13 cards; the "
            "other 26 sit out the hand. The player who did not draw first bids first and leads.",
        )
    else:
        add(
            "deal",
            f"Cards: {deck}{out}, {top} cards each; the deal moves one seat to the left every hand.",
            decks=rs.decks,
            jokers=rs.jokers,
            removed=sorted(set(faces)) if both else faces,
            both=both,
            cards=top,
        )
    if rs.decks == 2:
        which_wins = "first" if rs.six_player_first_wins else "later"
        add(
            "two_decks",
            f"When two identical cards fall on one trick, the {which_wins} one played wins.",
            first=rs.six_player_first_wins,
        )
    if rs.jokers:
        add(
            "jokers",
            "Jokers high: the big joker and then the little joker are the two highest spades, "
            "above the ace of spades.",
        )
    if rs.deuces_high:
        if rs.deuces_high_all:
            add(
                "deuces_all",
                "Deuces high: all four 2s are spades above the ace of spades: from the top 2♠, 2♦, 2♣, 2♥.",
            )
        else:
            add(
                "deuces",
                "Deuces high: the 2♠ and then the 2♦ rank above the ace of spades; the 2♦ counts as a spade.",
            )
    # the goal
    add(
        "goal",
        f"The first {side_word} to {fmt_int(rs.target_score)} points wins; if more than one gets "
        "there in the same hand the higher score wins, and a tie plays another hand.",
        target=rs.target_score,
    )
    if rs.max_hands:
        add(
            "max_hands",
            f"The game ends after {_plural(rs.max_hands, 'hand')} at the latest; the higher "
            "score wins (a tie plays on).",
            n=rs.max_hands,
        )
    if rs.lose_score is not None:
        add(
            "mercy",
            f"Mercy: a {side_word} at {fmt_int(rs.lose_score)} points or below ends the game at "
            "once, and the highest score wins.",
            score=rs.lose_score,
        )
    # bidding
    start = "" if rs.two_player_draw else " from the player after the dealer"
    if teams:
        add(
            "bidding",
            f"Bidding: one round{start}; everyone bids 0 to {top} tricks, and partners' bids "
            "add up to their side's contract.",
            cards=top,
            draw=rs.two_player_draw,
        )
    else:
        add(
            "bidding",
            f"Bidding: one round{start}; everyone bids 0 to {top} tricks as their own contract.",
            cards=top,
            draw=rs.two_player_draw,
        )
    if rs.whiz:
        nil = ", or nil" if rs.nil_allowed else ""
        add(
            "whiz",
            f"Whiz: you bid exactly the number of spades you hold{nil}; with no spade you bid "
            + ("nil." if rs.nil_allowed else "0."),
            nil=rs.nil_allowed,
        )
    if rs.mirrors:
        add("mirrors", "Mirrors: you bid exactly the number of spades you hold; with no spade you bid nil.")
    if rs.suicide:
        add(
            "suicide",
            "Suicide: in each partnership exactly one partner bids nil and the other bids a number.",
        )
    if rs.board:
        who = "Each side" if teams else "Each player"
        add(
            "board",
            f"Board: {who.lower()} must bid at least {rs.board} tricks in total; the last "
            "partner to bid makes up the difference."
            if teams
            else f"Board: {who.lower()} must bid at least {rs.board} tricks.",
            n=rs.board,
        )
    if rs.nil_allowed:
        mine = " (it doesn't count for your partner's contract)" if teams else ""
        add(
            "nil",
            f"Nil: bid to take no trick at all: +{fmt_int(rs.nil_value)} if you take none, "
            f"{fmt_int(-rs.nil_value)} if you take any; each trick you take is a bag{mine}.",
            value=rs.nil_value,
        )
        if rs.nil_pass and teams:
            add(
                "nil_pass",
                f"After a nil bid, the nil bidder and their partner each pass "
                f"{_plural(rs.nil_pass, 'card')} to the other, face down.",
                n=rs.nil_pass,
            )
    else:
        add("no_nil", "No nil: a bid of 0 is a contract to take no trick, scored like any other bid.")
    if rs.nil_allowed and rs.blind_nil_allowed:
        cond = (
            f" Only a {side_word} behind by {fmt_int(rs.blind_nil_min_deficit)} points or more may bid it."
            if rs.blind_nil_min_deficit
            else " It may be bid whatever the score."
        )
        if rs.two_player_draw:
            how = "bid nil before you draw your first card"
        else:
            how = "bid nil before looking at your cards"
        value = f"+{fmt_int(rs.blind_nil_value)} / {fmt_int(-rs.blind_nil_value)}"
        text = f"Blind nil: {how}, for {value}.{cond}"
        exchange = passing = 0
        if rs.blind_nil_pass and rs.two_player_draw:
            exchange = rs.blind_nil_pass
            text += (
                f" After the draw you may throw away up to {_plural(rs.blind_nil_pass, 'card')} "
                "and take as many at random from the discards."
            )
        elif rs.blind_nil_pass and teams:
            passing = rs.blind_nil_pass
            text += (
                f" Then you and your partner each pass {_plural(rs.blind_nil_pass, 'card')} to the "
                "other, face down (nobody passes if you both bid blind nil)."
            )
        add(
            "blind_nil",
            text,
            value=rs.blind_nil_value,
            deficit=rs.blind_nil_min_deficit or 0,
            draw=rs.two_player_draw,
            exchange=exchange,
            passing=passing,
        )
    if rs.blind_bids:
        cond = (
            f"a {side_word} behind by {fmt_int(rs.blind_bid_min_deficit)} points or more may"
            if rs.blind_bid_min_deficit
            else "anyone may"
        )
        add(
            "blind_bids",
            f"Blind bids: {cond} bid 1 to {rs.blind_bid_max} tricks before looking at their "
            "cards; a blind contract made scores 20 per blind trick, a set one loses 10 per "
            "trick.",
            deficit=rs.blind_bid_min_deficit or 0,
            max=rs.blind_bid_max,
        )
    if rs.misdeal_no_spades:
        add(
            "misdeal",
            "Misdeal: a player dealt no spade may show their hand and call a new deal before "
            + ("their side bids." if teams else "they bid."),
        )
    # play
    add(
        "play",
        "Play: follow the suit led if you can, otherwise play any card. The highest spade "
        "wins the trick, or the highest card of the suit led if no spade was played.",
    )
    if rs.first_trick_two_clubs:
        card = card_pretty(t.lowest_club[0] & 63)
        add(
            "first_trick",
            f"First trick: whoever holds the {card} leads it, and "
            "nobody may play a spade on that trick unless they hold nothing else.",
            card=card,
        )
    if rs.spades_must_be_broken:
        add(
            "spades_broken",
            "Spades can't be led until one has been played on another suit, unless you hold only spades.",
        )
    else:
        add("spades_any", "Spades may be led at any time.")
    # scoring
    worth = abs(rs.bag_value)
    bag = "no points" if not worth else _plural(worth, "point")
    verb = "costs" if rs.bag_value < 0 else "scores"
    add(
        "scoring",
        f"Scoring: a contract made scores 10 per trick bid, and each extra trick (a bag) {verb} "
        f"{bag}; a contract set loses 10 per trick bid.",
        bag=rs.bag_value,
    )
    if rs.bag_limit:
        add(
            "bag_limit",
            f"Bags add up over the game: every {rs.bag_limit} bags cost "
            f"{_plural(rs.bag_penalty, 'point')}, and the rest carry over.",
            n=rs.bag_limit,
            penalty=rs.bag_penalty,
        )
    else:
        add("no_bag_penalty", "Bags never cost a penalty.")
    if rs.ten_for_200:
        add(
            "ten_for_200",
            f"10 for {fmt_int(rs.ten_for_value)}: a side that bids 10 or more tricks scores "
            f"+{fmt_int(rs.ten_for_value)} if it makes them and {fmt_int(-rs.ten_for_value)} if not, "
            "instead of 10 per trick.",
            value=rs.ten_for_value,
        )
    if rs.boston:
        add(
            "boston",
            f"Boston: a {side_word} that bids all {top} tricks and takes them all wins the game on the spot.",
            cards=top,
        )
    if rs.set_limit is not None:
        times = "1 time" if rs.set_limit == 1 else f"{rs.set_limit} times"
        add(
            "set_limit",
            f"A {side_word} whose contract is set {times} in a game loses it at once; the highest "
            "score of the others wins.",
            n=rs.set_limit,
        )
    return lines
