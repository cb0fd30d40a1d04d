"""The game's words in every language: bids, suits, a ruleset's one-line description, and the engine's
refusals as lazy messages.

The engine stays English and pure; its refusals carry a stable ``code`` and structured fields, and
their English sentences follow fixed templates. :func:`explain` turns a refusal into a lazy message
from those (English renders exactly as the engine wrote it); a sentence it does not know is shown as
the engine wrote it.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from typing import Any

import engine
from bot.i18n import N_, Joined, ListOf, Msg, _, _n, gettext, join

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
    parts: list[Any] = [_("%(name)s: to %(target)s", name=rs.name, target=rs.target_score)]
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
            parts.append(_("nil ±%(value)s (pass %(n)s)", value=rs.nil_value, n=rs.nil_pass))
        else:
            parts.append(_("nil ±%(value)s", value=rs.nil_value))
    else:
        parts.append(_("no nil"))
    if rs.nil_allowed and rs.blind_nil_allowed:
        extra: list[Any] = []
        if rs.blind_nil_pass and rs.partnerships:
            extra.append(_("pass %(n)s", n=rs.blind_nil_pass))
        elif rs.blind_nil_pass and rs.two_player_draw:
            extra.append(_("swap up to %(n)s", n=rs.blind_nil_pass))
        if rs.blind_nil_min_deficit:
            extra.append(_("down %(n)s+", n=rs.blind_nil_min_deficit))
        bn = _("blind nil ±%(value)s", value=rs.blind_nil_value)
        parts.append(join(bn, join("(", join(*extra, sep=", "), ")", sep=""), sep=" ") if extra else bn)
    if rs.blind_bids:
        parts.append(
            _(
                "blind bids to %(max)s (down %(n)s+)",
                max=rs.blind_bid_max,
                n=rs.blind_bid_min_deficit,
            )
        )
    if rs.bag_limit:
        # the English says "bags" for any number (as the engine does)
        parts.append(
            _n("%(n)s bags = −%(penalty)s", "%(n)s bags = −%(penalty)s", rs.bag_limit, penalty=rs.bag_penalty)
        )
    if rs.bag_value != 1:
        signed = f"{rs.bag_value:+d}"
        parts.append(_("bags %(value)s each", value=signed) if rs.bag_value else _("bags worth 0"))
    flags = [
        (rs.whiz, _("whiz")),
        (rs.mirrors, _("mirrors")),
        (rs.suicide, _("suicide")),
        (rs.ten_for_200, _("10 for 200")),
        (rs.boston, _("Boston wins")),
        (rs.first_trick_two_clubs, _("2♣ leads")),
        (rs.misdeal_no_spades, _("misdeal on no spades")),
        (not rs.spades_must_be_broken, _("spades lead any time")),
    ]
    parts.extend(label for on, label in flags if on)
    if rs.board:
        parts.append(_("board %(n)s", n=rs.board))
    if rs.lose_score is not None:
        parts.append(_("mercy at %(score)s", score=rs.lose_score))
    if rs.max_hands:
        parts.append(_("%(n)s hands max", n=rs.max_hands))
    return join(*parts, sep=" · ")


# ---- the engine's refusals -------------------------------------------------------------------


def cards_list(cards: Any, style: str = "standard") -> ListOf:
    """Cards low to high within a suit, as a sentence in the reader's language (``7♥ and Q♥``)."""
    ordered = sorted((int(c) for c in cards), key=lambda c: (engine.suit_of(c), engine.rank_of(c), c))
    return ListOf(tuple(engine.card_pretty(c) for c in ordered), style)


def _and_list(items: list[str]) -> Any:
    return ListOf(tuple(items)) if len(items) != 1 else items[0]


_CARD = r"(?P<card>\S+)"
# (engine sentence, the same sentence as a lazy message); the groups become its parameters
_TEMPLATES: list[tuple[re.Pattern[str], Callable[[re.Match[str]], Any]]] = []


def _t(pattern: str) -> Callable[[Callable[[re.Match[str]], Any]], Callable[[re.Match[str]], Any]]:
    def add(fn: Callable[[re.Match[str]], Any]) -> Callable[[re.Match[str]], Any]:
        _TEMPLATES.append((re.compile(f"^{pattern}$"), fn))
        return fn

    return add


_DOING = {
    "look at your cards": N_("You can't look at your cards now: %(why)s."),
    "bid": N_("You can't bid now: %(why)s."),
    "pass cards": N_("You can't pass cards now: %(why)s."),
    "call a misdeal": N_("You can't call a misdeal now: %(why)s."),
    "draw": N_("You can't draw now: %(why)s."),
    "play": N_("You can't play now: %(why)s."),
    "play a card": N_("You can't play a card now: %(why)s."),
}
_PHASE = {
    "it's time to draw cards": N_("it's time to draw cards"),
    "it's time to bid": N_("it's time to bid"),
    "it's time to pass cards": N_("it's time to pass cards"),
    "the hand is being played": N_("the hand is being played"),
    "the game is over": N_("the game is over"),
}


@_t(r"You can't (?P<doing>.+) now: (?P<why>.+)\.")
def _wrong_phase(m: re.Match[str]) -> Any:
    doing, why = _DOING.get(m["doing"]), _PHASE.get(m["why"])
    return _(doing, why=_(why)) if doing and why else None


@_t(r"There is no seat (?P<n>\d+) at this table\.")
def _no_seat(m: re.Match[str]) -> Any:
    return _("There is no seat %(n)s at this table.", n=m["n"])


@_t(r"You have already looked at your cards\.")
def _looked(m: re.Match[str]) -> Any:
    return _("You have already looked at your cards.")


@_t(r"Blind nil isn't allowed at this table\.")
def _no_blind_nil(m: re.Match[str]) -> Any:
    return _("Blind nil isn't allowed at this table.")


@_t(r"Blind bids aren't allowed at this table\.")
def _no_blind_bids(m: re.Match[str]) -> Any:
    return _("Blind bids aren't allowed at this table.")


def _lead_or(text: str) -> Any:
    if text == "the scores are level":
        return _("the scores are level")
    m = re.fullmatch(r"you lead by (\d+)", text)
    if m:
        return _("you lead by %(n)s", n=m[1])
    m = re.fullmatch(r"you trail by only (\d+)", text)
    if m:
        return _("you trail by only %(n)s", n=m[1])
    return None


@_t(
    r"Blind (?P<what>nil is|bids are) only allowed when (?P<who>you trail|your team trails) by "
    r"(?P<n>-?\d+) or more \((?P<now>[^)]+)\)\."
)
def _deficit(m: re.Match[str]) -> Any:
    now = _lead_or(m["now"])
    if now is None:
        return None
    solo = m["who"] == "you trail"
    if m["what"] == "nil is":
        if solo:
            return _(
                "Blind nil is only allowed when you trail by %(n)s or more (%(now)s).", n=m["n"], now=now
            )
        return _(
            "Blind nil is only allowed when your team trails by %(n)s or more (%(now)s).", n=m["n"], now=now
        )
    if solo:
        return _("Blind bids are only allowed when you trail by %(n)s or more (%(now)s).", n=m["n"], now=now)
    return _(
        "Blind bids are only allowed when your team trails by %(n)s or more (%(now)s).", n=m["n"], now=now
    )


@_t(r"Blind bids go from 1 to (?P<n>\d+)\.")
def _blind_range(m: re.Match[str]) -> Any:
    return _("Blind bids go from 1 to %(n)s.", n=m["n"])


@_t(r"You've already looked at your cards, so you can't bid (?P<what>blind nil|a blind bid)\.")
def _looked_blind(m: re.Match[str]) -> Any:
    if m["what"] == "blind nil":
        return _("You've already looked at your cards, so you can't bid blind nil.")
    return _("You've already looked at your cards, so you can't bid a blind bid.")


@_t(r"Nil isn't allowed at this table: bid a number of tricks\.")
def _no_nil(m: re.Match[str]) -> Any:
    return _("Nil isn't allowed at this table: bid a number of tricks.")


@_t(r"Bids go from (?P<low>0 \(nil\)|0) to (?P<n>\d+)\.")
def _bid_range(m: re.Match[str]) -> Any:
    if m["low"] == "0":
        return _("Bids go from 0 to %(n)s.", n=m["n"])
    return _("Bids go from 0 (nil) to %(n)s.", n=m["n"])


@_t(r"In mirrors you must bid the number of spades you hold \((?P<n>\d+)\)\.")
def _mirrors(m: re.Match[str]) -> Any:
    return _("In mirrors you must bid the number of spades you hold (%(n)s).", n=m["n"])


@_t(r"In mirrors you hold no spades, so you must bid nil\.")
def _mirrors_nil(m: re.Match[str]) -> Any:
    return _("In mirrors you hold no spades, so you must bid nil.")


@_t(r"In whiz you must bid the number of spades you hold \((?P<n>\d+)\)(?P<nil> or nil)?\.")
def _whiz(m: re.Match[str]) -> Any:
    if m["nil"]:
        return _("In whiz you must bid the number of spades you hold (%(n)s) or nil.", n=m["n"])
    return _("In whiz you must bid the number of spades you hold (%(n)s).", n=m["n"])


@_t(r"In (?P<which>whiz|mirrors) your bid is the number of spades you hold: look at your cards first\.")
def _look_first(m: re.Match[str]) -> Any:
    if m["which"] == "whiz":
        return _("In whiz your bid is the number of spades you hold: look at your cards first.")
    return _("In mirrors your bid is the number of spades you hold: look at your cards first.")


@_t(r"In suicide exactly one partner bids nil: your partner bid nil, so you must bid a number\.")
def _suicide_number(m: re.Match[str]) -> Any:
    return _("In suicide exactly one partner bids nil: your partner bid nil, so you must bid a number.")


@_t(r"In suicide exactly one partner bids nil: your partner bid (?P<bid>.+), so you must bid nil\.")
def _suicide_nil(m: re.Match[str]) -> Any:
    bid = _bid_from_label(m["bid"])
    return _(
        "In suicide exactly one partner bids nil: your partner bid %(bid)s, so you must bid nil.",
        bid=bid,
    )


def _bid_from_label(label: str) -> Any:
    try:
        return bid_label(engine.Bid.parse(label))
    except ValueError:
        return label


@_t(r"(?P<team>You|Your team) must bid at least (?P<board>\d+) in total: bid (?P<n>\d+) or more\.")
def _board(m: re.Match[str]) -> Any:
    if m["team"] == "You":
        return _("You must bid at least %(board)s in total: bid %(n)s or more.", board=m["board"], n=m["n"])
    return _("Your team must bid at least %(board)s in total: bid %(n)s or more.", board=m["board"], n=m["n"])


@_t(r"That bid isn't allowed here\.")
def _not_allowed(m: re.Match[str]) -> Any:
    return _("That bid isn't allowed here.")


@_t(r"Only blind nil can be bid before the draw; the other bids come after it\.")
def _predraw(m: re.Match[str]) -> Any:
    return _("Only blind nil can be bid before the draw; the other bids come after it.")


@_t(r"You have already bid blind nil\.")
def _already_blind(m: re.Match[str]) -> Any:
    return _("You have already bid blind nil.")


@_t(r"You have no cards to pass this hand\.")
def _no_pass(m: re.Match[str]) -> Any:
    return _("You have no cards to pass this hand.")


@_t(r"You have already passed your cards\.")
def _passed(m: re.Match[str]) -> Any:
    return _("You have already passed your cards.")


@_t(r"You must pass exactly (?P<n>\d+) cards?\.")
def _pass_size(m: re.Match[str]) -> Any:
    return _n("You must pass exactly %(n)s card.", "You must pass exactly %(n)s cards.", int(m["n"]))


@_t(f"You don't hold {_CARD}\\.")
def _not_held(m: re.Match[str]) -> Any:
    return _("You don't hold %(card)s.", card=m["card"])


@_t(r"You have already exchanged your cards\.")
def _exchanged(m: re.Match[str]) -> Any:
    return _("You have already exchanged your cards.")


@_t(r"You have no cards to exchange this hand\.")
def _no_exchange(m: re.Match[str]) -> Any:
    return _("You have no cards to exchange this hand.")


@_t(r"You may exchange at most (?P<n>\d+) different cards\.")
def _exchange_size(m: re.Match[str]) -> Any:
    return _n(
        "You may exchange at most %(n)s different card.",
        "You may exchange at most %(n)s different cards.",
        int(m["n"]),
    )


@_t(r"Those replacement cards did not come from the discards\.")
def _replacement(m: re.Match[str]) -> Any:
    return _("Those replacement cards did not come from the discards.")


@_t(r"Misdeals aren't called at this table\.")
def _no_misdeal(m: re.Match[str]) -> Any:
    return _("Misdeals aren't called at this table.")


@_t(r"You can only call a misdeal with no spades\.")
def _misdeal_spades(m: re.Match[str]) -> Any:
    return _("You can only call a misdeal with no spades.")


@_t(r"It's too late to call a misdeal: your team has bid\.")
def _misdeal_late(m: re.Match[str]) -> Any:
    return _("It's too late to call a misdeal: your team has bid.")


@_t(r"No spades on the first trick while you hold another suit\.")
def _first_no_spades(m: re.Match[str]) -> Any:
    return _("No spades on the first trick while you hold another suit.")


@_t(f"The first trick must be led with {_CARD}\\.")
def _first_lead(m: re.Match[str]) -> Any:
    return _("The first trick must be led with %(card)s.", card=m["card"])


def explain(exc: Exception) -> Any:
    """An engine refusal as a lazy message for the player who acted (their own cards may appear)."""
    code = getattr(exc, "code", "")
    if code == "must_follow":
        suit = int(getattr(exc, "suit", -1))
        playable = tuple(getattr(exc, "playable", ()) or ())
        if 0 <= suit < 4 and playable:
            return _(
                "You must follow %(suit)s: you hold %(cards)s.",
                suit=suit_name(suit),
                cards=cards_list(playable),
            )
    if code == "spades_not_broken":
        m = re.fullmatch(r"Spades aren't broken yet: lead (.+)\.", str(exc))
        if m:
            suits = [s for s in (engine.HEARTS, engine.CLUBS, engine.DIAMONDS) if f"a {_SINGULAR[s]}" in m[1]]
            if suits:
                return _(
                    "Spades aren't broken yet: lead %(suits)s.",
                    suits=ListOf(tuple(_(SUIT_A[s]) for s in suits), "or"),
                )
    text = str(exc)
    for pattern, build in _TEMPLATES:
        m = pattern.match(text)
        if m:
            built = build(m)
            if built is not None:
                return built
    return text


_SINGULAR = ("club", "diamond", "heart", "spade")

# ---- house rules (``engine.house_rules``) ----------------------------------------------------------

_RULES: list[tuple[re.Pattern[str], Callable[[re.Match[str]], Any]]] = [
    (
        re.compile(r"^`(?P<name>[^`]*)` is on or off, not `(?P<raw>[^`]*)`\.$"),
        lambda m: _("`%(name)s` is on or off, not `%(raw)s`.", name=m["name"], raw=m["raw"]),
    ),
    (
        re.compile(r"^`(?P<name>[^`]*)` takes a whole number \(or `off`\), not `(?P<raw>[^`]*)`\.$"),
        lambda m: _(
            "`%(name)s` takes a whole number (or `off`), not `%(raw)s`.", name=m["name"], raw=m["raw"]
        ),
    ),
    (
        re.compile(r"^`(?P<name>[^`]*)` takes a whole number, not `(?P<raw>[^`]*)`\.$"),
        lambda m: _("`%(name)s` takes a whole number, not `%(raw)s`.", name=m["name"], raw=m["raw"]),
    ),
    (
        re.compile(r"^`(?P<token>[^`]*)` has no value: write options as name=value, e\.g\. `bag_limit=5`\.$"),
        lambda m: _(
            "`%(token)s` has no value: write options as name=value, e.g. `bag_limit=5`.", token=m["token"]
        ),
    ),
    (
        re.compile(r"^`(?P<name>[^`]*)` is not a rule\. Rules: (?P<rules>.*)\.$"),
        lambda m: _("`%(name)s` is not a rule. Rules: %(rules)s.", name=m["name"], rules=m["rules"]),
    ),
    (
        re.compile(r"^Those rules don't go together: (?P<why>.*)\.$", re.S),
        lambda m: _("Those rules don't go together: %(why)s.", why=m["why"]),
    ),
]


def rules_suggestion(label: str, lang: str) -> str:
    """A house-rules autocomplete label (``bag_limit=… (now 10)``, ``nil_value=100 (preset)``)
    with its note in the reader's language; the option itself stays as it is typed."""
    m = re.fullmatch(r"(?P<rule>.*) \(now (?P<value>[^)]*)\)", label)
    if m:
        note = gettext(lang, "(now %(value)s)", value=m["value"])
        return f"{m['rule']} {note}"[:100]
    if label.endswith(" (preset)"):
        note = gettext(lang, "(preset)")
        return f"{label[: -len(' (preset)')]} {note}"[:100]
    return label


def explain_rules(exc: Exception) -> Any:
    """A house-rules refusal (``HouseRulesError``) as a lazy message; the rule names stay as typed."""
    text = str(exc)
    for pattern, build in _RULES:
        m = pattern.match(text)
        if m:
            return build(m)
    return text


def english(lang: str, message: str) -> str:
    """Render a marked constant (``N_``) in ``lang``."""
    return gettext(lang, message)
