"""The game's words in every language: bids (shown and typed), suits, cards in a sentence, a
ruleset's one-line description, and the notes of the house-rules autocomplete."""

from __future__ import annotations

import functools
from typing import Any

import engine
from bot.i18n import N_, ChoiceName, Joined, ListOf, Msg, _, _n, gettext, join, render, signed, whole
from engine.house_rules import RuleSuggestion

# ---- bids ------------------------------------------------------------------------------------


def bid_label(bid: Any) -> Msg | str:
    """A bid as players call it: ``4``, ``Nil``/``Zero``/``Ноль``, ``Blind nil``, ``Blind 6``.
    Accepts an engine Bid or its hand-record form (``"nil"``, ``"blind_nil"``, ``"blind 6"``, 4)."""
    if bid is None:
        return "…"
    kind = getattr(bid, "kind", None)
    n = getattr(bid, "n", None)
    if kind is None:
        text = str(bid)
        if text == "nil":
            kind = "nil"
        elif text == "blind_nil":
            kind = "blind_nil"
        elif text.startswith("blind "):
            kind, n = "blind", int(text.split()[1])
        else:
            return text
    if kind == "nil":
        return _("Nil")
    if kind == "blind_nil":
        return _("Blind nil")
    if kind == "blind":
        return _("Blind %(n)s", n=n)
    return str(n)


# Words a player may type for a bid in each language (the engine reads the English ones).
_BID_WORDS: dict[str, str] = {
    # Polish
    "zero": "nil",
    "ślepe zero": "blind nil",
    "slepe zero": "blind nil",
    "zero w ciemno": "blind nil",
    "w ciemno": "blind",
    # Czech
    "slepý nil": "blind nil",
    "slepy nil": "blind nil",
    "naslepo": "blind",
    "nula": "nil",
    # Russian
    "ноль": "nil",
    "нуль": "nil",
    "слепой ноль": "blind nil",
    "вслепую": "blind",
    "втёмную": "blind",
    "втемную": "blind",
}


def parse_bid(text: str) -> engine.Bid:
    """A bid typed in any of the bot's languages (``zero``, ``ślepe zero``, ``slepý nil``,
    ``слепой ноль``, ``w ciemno 5``, ``вслепую 6``) or the engine's own words."""
    flat = " ".join(text.replace("_", " ").lower().split())
    if flat in _BID_WORDS:
        return engine.Bid.parse(_BID_WORDS[flat])
    head, _sep, tail = flat.rpartition(" ")
    if head in _BID_WORDS and _BID_WORDS[head] == "blind" and tail.isdigit():
        return engine.Bid.parse(f"blind {tail}")
    return engine.Bid.parse(text)


def bid_matches(bid: engine.Bid, typed: str, lang: str) -> bool:
    """For autocomplete: does what the player typed start this bid's label (in their language or
    the engine's)?"""
    cur = typed.strip().lower()
    if not cur:
        return True
    label = bid_label(bid)
    shown = label.render(lang) if isinstance(label, Msg) else str(label)
    return shown.lower().startswith(cur) or str(label).lower().startswith(cur) or str(bid).startswith(cur)


# ---- suits -----------------------------------------------------------------------------------

SUIT_NAMES = (N_("clubs"), N_("diamonds"), N_("hearts"), N_("spades"))
SUIT_A = (N_("a club"), N_("a diamond"), N_("a heart"), N_("a spade"))


def suit_name(suit: int) -> Msg:
    return _(SUIT_NAMES[suit])


def cards_list(cards: Any, style: str = "standard") -> ListOf:
    """Cards low to high within a suit, as a sentence in the reader's language (``7♥ and Q♥``)."""
    ordered = sorted((int(c) for c in cards), key=lambda c: (engine.suit_of(c), engine.rank_of(c), c))
    return ListOf(tuple(engine.card_pretty(c) for c in ordered), style)


# ---- presets ----------------------------------------------------------------------------------


def preset_name(name: str) -> str:
    """A preset's name in the reader's language (``two-player`` is *dla dwóch graczy* in Polish),
    the one ``/league create`` offers as a choice; its value (what a player may type) stays
    ``two-player``. A name that is no preset is shown as it is."""
    return ChoiceName(name) if name in engine.PRESETS else name


#: what each preset is, in a few words, for the autocomplete of ``/spades new`` and ``/spades config``
PRESET_BLURBS: dict[str, str] = {
    "standard": N_("partners, to 500, nil and blind nil"),
    "classic-online": N_("partners, to 500, no blind nil (online-room rules)"),
    "two-player": N_("two players draw their hands from the deck"),
    "cutthroat": N_("three players, each for themselves"),
    "solo": N_("four players, each for themselves"),
    "five-player": N_("five players, each for themselves"),
    "six-player": N_("three teams of two, two decks"),
    "six-player-threes": N_("two teams of three, two decks"),
    "six-player-solo": N_("six players, each for themselves, two decks"),
    "jokers-high": N_("two jokers are the top spades"),
    "deuces-high": N_("2♠ and 2♦ are the top spades"),
    "jokers-deuces": N_("two jokers, then 2♠ and 2♦, are the top spades"),
    "whiz": N_("bid the number of spades you hold, or nil"),
    "mirrors": N_("bid exactly the number of spades you hold"),
    "suicide": N_("in each team one partner bids nil"),
    "short": N_("a quick game to 250, 5 bags = −50"),
    "house": N_("blind bids, 10 for 200, Boston, mercy rule"),
}

#: what each house rule does, in a few words, for the autocomplete of ``rules:``
RULE_BLURBS: dict[str, str] = {
    "num_seats": N_("how many players sit at the table"),
    "partnerships": N_("on: partners; off: everyone for themselves"),
    "team_size": N_("players per team"),
    "decks": N_("how many decks are dealt"),
    "jokers": N_("two jokers above the ace of spades"),
    "deuces_high": N_("2♠ and 2♦ above the ace of spades"),
    "deuces_high_all": N_("all four 2s are top spades"),
    "six_player_first_wins": N_("two decks: the first of two equal cards wins"),
    "two_player_draw": N_("two players draw their hands card by card"),
    "target_score": N_("the score that wins the game"),
    "lose_score": N_("a side at or below this score loses (mercy rule)"),
    "max_hands": N_("the game ends after this many hands"),
    "nil_allowed": N_("nil bids are allowed"),
    "nil_value": N_("points won or lost on a nil"),
    "blind_nil_allowed": N_("blind nil is allowed (bid before seeing the cards)"),
    "blind_nil_value": N_("points won or lost on a blind nil"),
    "blind_nil_pass": N_("cards exchanged with the partner after a blind nil"),
    "nil_pass": N_("cards exchanged with the partner after a nil"),
    "blind_nil_min_deficit": N_("blind nil only this far behind (0: always)"),
    "spades_must_be_broken": N_("no spade lead until spades are broken"),
    "first_trick_two_clubs": N_("the 2♣ leads the first trick"),
    "misdeal_no_spades": N_("a hand without spades may call a misdeal"),
    "bag_limit": N_("bags that cost the bag penalty (off: never)"),
    "bag_penalty": N_("points lost at the bag limit"),
    "bag_value": N_("points per bag (overtrick)"),
    "blind_bids": N_("number bids before looking, when behind"),
    "blind_bid_max": N_("the highest blind bid"),
    "blind_bid_min_deficit": N_("blind bids only this far behind"),
    "ten_for_200": N_("10 tricks bid and made score 200"),
    "ten_for_value": N_("what 10 for 200 scores instead of 200 (e.g. 150)"),
    "boston": N_("bid and take all 13 tricks to win at once"),
    "set_limit": N_("a side set this many times loses the game (off: never)"),
    "board": N_("each team bids at least this many tricks"),
    "suicide": N_("in each team one partner must bid nil"),
    "whiz": N_("bid the number of spades you hold, or nil"),
    "mirrors": N_("bid exactly the number of spades you hold"),
}


def _with_blurb(label: str, blurb: str | None, lang: str) -> str:
    """``label — blurb`` within a choice's 100 characters (the blurb cut first)."""
    if not blurb:
        return label[:100]
    text = f"{label} — {gettext(lang, blurb)}"
    return text if len(text) <= 100 else text[:99] + "…"


def preset_label(name: str, lang: str) -> str:
    """A preset in a menu (the autocomplete of ``/spades new`` and ``/spades config``): its name in
    ``lang``, with the value one may type after it where the two differ (``dla dwóch graczy
    (two-player)``), and what it is in a few words."""
    shown = render(preset_name(name), lang)
    label = shown if shown == name else f"{shown} ({name})"
    return _with_blurb(label, PRESET_BLURBS.get(name), lang)


def preset_matches(name: str, typed: str, lang: str) -> bool:
    """For autocomplete: does what the player typed occur in the preset's value or its name in
    ``lang``?"""
    cur = typed.lower().strip()
    return cur in name or cur in render(preset_name(name), lang).lower()


# ---- a ruleset in one line -------------------------------------------------------------------


def describe(rs: Any) -> Joined:
    """The ruleset's one-line description (``standard: to 500 · nil ±100 · …``) in any language; in
    English exactly ``Ruleset.describe()``. A ruleset is frozen: described once (the live message
    shows it on every redraw)."""
    try:
        return _describe_cached(rs)
    except TypeError:  # (an unhashable stand-in)
        return _describe(rs)


@functools.lru_cache(maxsize=256)
def _describe_cached(rs: Any) -> Joined:
    line = _describe(rs)
    return _Remembered(line.parts, line.sep)


class _Remembered(Joined):
    """A ``Joined`` that keeps its rendering in each language (a ruleset's line, shown unchanged on
    every redraw of its table's live message)."""

    def render(self, lang: str) -> str:
        cache: dict[str, str] = self.__dict__.setdefault("_rendered", {})
        text = cache.get(lang)
        if text is None:
            text = cache[lang] = super().render(lang)
        return text


def _describe(rs: Any) -> Joined:
    parts: list[Any] = [
        _("%(name)s: to %(target)s", name=preset_name(rs.name), target=whole(rs.target_score))
    ]
    if rs.num_seats != 4 or not rs.partnerships or rs.team_size != 2:
        if not rs.partnerships:
            parts.append(_n("%(n)s player solo", "%(n)s players solo", rs.num_seats))
        else:
            parts.append(_("%(n)s players, teams of %(size)s", n=rs.num_seats, size=rs.team_size))
    if rs.two_player_draw:
        parts.append(_("draw to 13"))
    if rs.decks == 2:
        parts.append(_("two decks"))
    if rs.jokers:
        parts.append(_("jokers high"))
    if rs.deuces_high:
        parts.append(_("deuces high (all four)") if rs.deuces_high_all else _("deuces high"))
    if rs.nil_allowed:
        if rs.nil_pass and rs.partnerships:
            parts.append(_("nil ±%(value)s (pass %(n)s)", value=whole(rs.nil_value), n=rs.nil_pass))
        else:
            parts.append(_("nil ±%(value)s", value=whole(rs.nil_value)))
    else:
        parts.append(_("no nil"))
    if rs.nil_allowed and rs.blind_nil_allowed:
        extra: list[Any] = []
        if rs.blind_nil_pass and rs.partnerships:
            extra.append(_("pass %(n)s", n=rs.blind_nil_pass))
        elif rs.blind_nil_pass and rs.two_player_draw:
            extra.append(_("swap up to %(n)s", n=rs.blind_nil_pass))
        if rs.blind_nil_min_deficit:
            extra.append(_("down %(n)s+", n=whole(rs.blind_nil_min_deficit)))
        bn = _("blind nil ±%(value)s", value=whole(rs.blind_nil_value))
        parts.append(join(bn, join("(", join(*extra, sep=", "), ")", sep=""), sep=" ") if extra else bn)
    if rs.blind_bids:
        parts.append(
            _(
                "blind bids to %(max)s (down %(n)s+)",
                max=rs.blind_bid_max,
                n=whole(rs.blind_bid_min_deficit),
            )
        )
    if rs.bag_limit:
        # the English says "bags" for any number (as the engine does)
        parts.append(
            _n(
                "%(n)s bags = −%(penalty)s",
                "%(n)s bags = −%(penalty)s",
                rs.bag_limit,
                penalty=whole(rs.bag_penalty),
            )
        )
    if rs.bag_value != 1:
        each = _("bags %(value)s each", value=signed(rs.bag_value))
        parts.append(each if rs.bag_value else _("bags worth 0"))
    flags = [
        (rs.whiz, _("whiz")),
        (rs.mirrors, _("mirrors")),
        (rs.suicide, _("suicide")),
        (rs.ten_for_200, _("10 for %(value)s", value=whole(rs.ten_for_value))),
        (rs.boston, _("Boston wins")),
        (rs.first_trick_two_clubs, _("2♣ leads")),
        (rs.misdeal_no_spades, _("misdeal on no spades")),
        (not rs.spades_must_be_broken, _("spades lead any time")),
    ]
    parts.extend(label for on, label in flags if on)
    if rs.board:
        parts.append(_("board %(n)s", n=rs.board))
    if rs.set_limit is not None:
        parts.append(
            _("set once loses")
            if rs.set_limit == 1
            else _n("set %(n)s times loses", "set %(n)s times loses", rs.set_limit)
        )
    if rs.lose_score is not None:
        parts.append(_("mercy at %(score)s", score=whole(rs.lose_score)))
    if rs.max_hands:
        parts.append(_n("%(n)s hand max", "%(n)s hands max", rs.max_hands))
    return join(*parts, sep=" · ")


# ---- the house-rules autocomplete -------------------------------------------------------------


def rules_suggestion(suggestion: RuleSuggestion, lang: str) -> str:
    """A house-rules autocomplete entry (``bag_limit=… (now 10) — bags that cost…``,
    ``nil_value=100 (preset)``) with its note and what the rule does in the reader's language; the
    option itself stays as it is typed."""
    last = suggestion.shown.rsplit(" ", 1)[-1]
    blurb = RULE_BLURBS.get(last.split("=", 1)[0])
    if suggestion.note == "now":
        note = gettext(lang, "(now %(value)s)", value=suggestion.current)
        return _with_blurb(f"{suggestion.shown} {note}", blurb, lang)
    if suggestion.note == "preset":
        note = gettext(lang, "(preset)")
        return f"{suggestion.shown} {note}"[:100]
    return suggestion.shown[:100]


# ---- leaderboard sorts --------------------------------------------------------------------------

# The words for storage's sort codes (``bot.storage.SORTS``); English, shown with
# ``bot.i18n.gettext`` in the reader's language.
SORT_LABELS: dict[str, str] = {
    "wins": N_("Wins"),
    "win_pct": N_("Win %"),
    "games": N_("Games played"),
    "bid_accuracy": N_("Bid accuracy"),
    "nils": N_("Nils made"),
    "bags": N_("Fewest bags per hand"),
    "rating": N_("Rating"),
}


# ---- marked constants ----------------------------------------------------------------------------


def english(lang: str, message: str) -> str:
    """Render a marked constant (``N_``) in ``lang``."""
    return gettext(lang, message)
