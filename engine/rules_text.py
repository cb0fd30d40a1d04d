"""The rules of a table in plain words (``explain(ruleset)``), for ``/rules`` and for players.

Each line is built from the ruleset's own numbers, so house rules read as they are played;
docs/RULES.md is the longer reference these lines follow.
"""

from __future__ import annotations

from collections.abc import Sequence

from .cards import BIG_JOKER, COPY_OFFSET, LITTLE_JOKER, card_pretty, join_words
from .ruleset import Ruleset, fmt_int, tables


def _seats(seats: Sequence[int]) -> str:
    return " + ".join(str(x + 1) for x in seats)


def _plural(n: int, word: str) -> str:
    return f"{fmt_int(n)} {word}{'' if n == 1 else 's'}"


def explain(rs: Ruleset) -> list[str]:
    """The rules of a table in plain words, one line per rule: every preset and house rule that
    is on gets a line, with this ruleset's own numbers (docs/RULES.md is the longer reference)."""
    t = tables(rs)
    n, top = rs.num_seats, t.hand_size
    teams = rs.partnerships
    side_word = "side" if teams else "player"
    lines: list[str] = []
    # who plays with whom
    if not teams:
        lines.append(f"{n} players, every player for themselves.")
    else:
        k = rs.num_sides
        which = {2: "two", 3: "three"}.get(k, str(k))
        of = "two" if rs.team_size == 2 else "three"
        teams_text = " against ".join(f"seats {_seats(side)}" for side in rs.sides)
        where = "opposite each other" if rs.team_size == 2 else "in every other seat"
        lines.append(f"{n} players in {which} teams of {of}, partners sit {where}: {teams_text}.")
    # the cards
    full = [f + COPY_OFFSET * d for d in range(rs.decks)
            for f in list(range(52)) + ([LITTLE_JOKER, BIG_JOKER] if rs.jokers else [])]
    removed = sorted(set(full) - set(t.deck))
    deck = "two decks" if rs.decks == 2 else "one deck"
    if rs.jokers:
        deck += " and both jokers"
    out = ""
    if removed:
        faces = [card_pretty(c & 63) for c in removed]
        out = (", both " + faces[0] if len(set(faces)) == 1 and len(faces) == 2
               else ", the " + join_words(faces)) + " taken out"
    if rs.two_player_draw:
        lines.append(
            "No deal: players take turns at the face-down deck. Keep the top card and throw the next "
            "away unseen, or throw the top card away and keep the next, until both hold 13 cards; the "
            "other 26 sit out the hand. The player who did not draw first bids first and leads.")
    else:
        lines.append(f"Cards: {deck}{out}, {top} cards each; the deal moves one seat to the left "
                     "every hand.")
    if rs.decks == 2:
        which_wins = "first" if rs.six_player_first_wins else "later"
        lines.append(f"When two identical cards fall on one trick, the {which_wins} one played wins.")
    if rs.jokers:
        lines.append("Jokers high: the big joker and then the little joker are the two highest spades, "
                     "above the ace of spades.")
    if rs.deuces_high:
        if rs.deuces_high_all:
            lines.append("Deuces high: all four 2s are spades above the ace of spades: from the top "
                         "2♠, 2♦, 2♣, 2♥.")
        else:
            lines.append("Deuces high: the 2♠ and then the 2♦ rank above the ace of spades; the 2♦ "
                         "counts as a spade.")
    # the goal
    goal = (f"The first {side_word} to {fmt_int(rs.target_score)} points wins; if more than one gets "
            "there in the same hand the higher score wins, and a tie plays another hand.")
    lines.append(goal)
    if rs.max_hands:
        lines.append(f"The game ends after {_plural(rs.max_hands, 'hand')} at the latest; the higher "
                     "score wins (a tie plays on).")
    if rs.lose_score is not None:
        lines.append(f"Mercy: a {side_word} at {fmt_int(rs.lose_score)} points or below ends the game at "
                     "once, and the highest score wins.")
    # bidding
    start = "" if rs.two_player_draw else " from the player after the dealer"
    if teams:
        lines.append(f"Bidding: one round{start}; everyone bids 0 to {top} tricks, and partners' bids "
                     "add up to their side's contract.")
    else:
        lines.append(f"Bidding: one round{start}; everyone bids 0 to {top} tricks as their own contract.")
    if rs.whiz:
        nil = ", or nil" if rs.nil_allowed else ""
        lines.append(f"Whiz: you bid exactly the number of spades you hold{nil}; with no spade you bid "
                     + ("nil." if rs.nil_allowed else "0."))
    if rs.mirrors:
        lines.append("Mirrors: you bid exactly the number of spades you hold; with no spade you bid nil.")
    if rs.suicide:
        lines.append("Suicide: in each partnership exactly one partner bids nil and the other bids a number.")
    if rs.board:
        who = "Each side" if teams else "Each player"
        lines.append(f"Board: {who.lower()} must bid at least {rs.board} tricks in total; the last "
                     "partner to bid makes up the difference." if teams else
                     f"Board: {who.lower()} must bid at least {rs.board} tricks.")
    if rs.nil_allowed:
        mine = " (it doesn't count for your partner's contract)" if teams else ""
        lines.append(f"Nil: bid to take no trick at all: +{fmt_int(rs.nil_value)} if you take none, "
                     f"{fmt_int(-rs.nil_value)} if you take any; each trick you take is a bag{mine}.")
        if rs.nil_pass and teams:
            lines.append(f"After a nil bid, the nil bidder and their partner each pass "
                         f"{_plural(rs.nil_pass, 'card')} to the other, face down.")
    else:
        lines.append("No nil: a bid of 0 is a contract to take no trick, scored like any other bid.")
    if rs.nil_allowed and rs.blind_nil_allowed:
        cond = (f" Only a {side_word} behind by {fmt_int(rs.blind_nil_min_deficit)} points or more may "
                "bid it." if rs.blind_nil_min_deficit else " It may be bid whatever the score.")
        if rs.two_player_draw:
            how = "bid nil before you draw your first card"
        else:
            how = "bid nil before looking at your cards"
        value = f"+{fmt_int(rs.blind_nil_value)} / {fmt_int(-rs.blind_nil_value)}"
        text = f"Blind nil: {how}, for {value}.{cond}"
        if rs.blind_nil_pass and rs.two_player_draw:
            text += (f" After the draw you may throw away up to {_plural(rs.blind_nil_pass, 'card')} "
                     "and take as many at random from the discards.")
        elif rs.blind_nil_pass and teams:
            text += (f" Then you and your partner each pass {_plural(rs.blind_nil_pass, 'card')} to the "
                     "other, face down (nobody passes if you both bid blind nil).")
        lines.append(text)
    if rs.blind_bids:
        cond = (f"a {side_word} behind by {fmt_int(rs.blind_bid_min_deficit)} points or more may"
                if rs.blind_bid_min_deficit else "anyone may")
        lines.append(f"Blind bids: {cond} bid 1 to {rs.blind_bid_max} tricks before looking at their "
                     "cards; a blind contract made scores 20 per blind trick, a set one loses 10 per trick.")
    if rs.misdeal_no_spades:
        lines.append("Misdeal: a player dealt no spade may show their hand and call a new deal before "
                     + ("their side bids." if teams else "they bid."))
    # play
    lines.append("Play: follow the suit led if you can, otherwise play any card. The highest spade "
                 "wins the trick, or the highest card of the suit led if no spade was played.")
    if rs.first_trick_two_clubs:
        lines.append(f"First trick: whoever holds the {card_pretty(t.lowest_club[0] & 63)} leads it, and "
                     "nobody may play a spade on that trick unless they hold nothing else.")
    if rs.spades_must_be_broken:
        lines.append("Spades can't be led until one has been played on another suit, unless you hold "
                     "only spades.")
    else:
        lines.append("Spades may be led at any time.")
    # scoring
    worth = abs(rs.bag_value)
    bag = "no points" if not worth else _plural(worth, "point")
    verb = "costs" if rs.bag_value < 0 else "scores"
    lines.append(f"Scoring: a contract made scores 10 per trick bid, and each extra trick (a bag) {verb} "
                 f"{bag}; a contract set loses 10 per trick bid.")
    if rs.bag_limit:
        lines.append(f"Bags add up over the game: every {rs.bag_limit} bags cost "
                     f"{_plural(rs.bag_penalty, 'point')}, and the rest carry over.")
    else:
        lines.append("Bags never cost a penalty.")
    if rs.ten_for_200:
        lines.append("10 for 200: a side that bids 10 or more tricks scores +200 if it makes them and "
                     "−200 if not, instead of 10 per trick.")
    if rs.boston:
        lines.append(f"Boston: a {side_word} that bids all {top} tricks and takes them all wins the game "
                     "on the spot.")
    return lines
