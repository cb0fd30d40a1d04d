"""The engine's refusals as lazy messages.

The engine stays English and pure; its refusals carry a stable ``code`` and structured fields, and
their English sentences follow fixed templates. :func:`explain` turns a refusal into a lazy message
from those (English renders exactly as the engine wrote it); a sentence it does not know is shown as
the engine wrote it. :func:`explain_rules` does the same for a house-rules refusal
(``engine.house_rules``)."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import engine
from bot.i18n import N_, ListOf, _, _n, whole
from bot.lexicon.words import SUIT_A, bid_label, cards_list, suit_name

# ---- the engine's refusals -------------------------------------------------------------------

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


@_t(r"That card is not in your hand\.")
def _not_held(m: re.Match[str]) -> Any:
    return _("That card is not in your hand.")


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
]


def _variant(name: object) -> str:
    # the variants keep their English names in every language (docs/TRANSLATING.md)
    return str(name)


# Why a ruleset cannot be (``RulesetError.reason`` and its ``fields``), in the player's words.
_INCOMPATIBLE: dict[str, Callable[[dict[str, Any]], Any]] = {
    "seats": lambda f: _("Spades is played by 2 to 6 players"),
    "decks": lambda f: _("play with one deck or two"),
    "teams": lambda f: _n(
        "%(n)s player can't be split into teams of %(size)s",
        "%(n)s players can't be split into teams of %(size)s",
        int(f["n"]),
        size=f["size"],
    ),
    "draw_seats": lambda f: _("the draw-and-discard deal is for two players"),
    "draw_decks": lambda f: _("the draw-and-discard deal uses one deck"),
    "draw_pass": lambda f: _("two-player Spades passes no cards for nil; set `nil_pass=0`"),
    "draw_blind": lambda f: _("blind bids don't go with the two-player draw; set `blind_bids=off`"),
    "pass_pairs": lambda f: _(
        "cards are passed between two partners: set `blind_nil_pass=0` and `nil_pass=0` for solo play "
        "and teams of three"
    ),
    "blind_nil_needs_nil": lambda f: _(
        "blind nil needs nil: set `nil_allowed=on` or `blind_nil_allowed=off`"
    ),
    "deuces_all": lambda f: _("`deuces_high_all` needs `deuces_high`"),
    "whiz_mirrors": lambda f: _("whiz and mirrors are two different bidding rules; choose one"),
    "fixed_blind": lambda f: _(
        "in %(variant)s a bid is the number of spades held, so blind bids can't apply",
        variant=_variant(f["variant"]),
    ),
    "mirrors_blind_nil": lambda f: _(
        "in mirrors a bid is the number of spades held, so blind nil can't apply"
    ),
    "mirrors_nil": lambda f: _("mirrors needs nil for a hand without spades"),
    "suicide_pairs": lambda f: _("suicide is for partnerships of two"),
    "suicide_nil": lambda f: _("suicide needs nil"),
    "suicide_board": lambda f: _(
        "suicide and a board can't both apply (the nil partner's team could not reach the board)"
    ),
    "suicide_fixed": lambda f: _("suicide can't be combined with whiz or mirrors"),
    "board_fixed": lambda f: _("a board can't apply when bids are fixed by whiz or mirrors"),
    "mercy_target": lambda f: _(
        "the mercy score (%(lose)s) must be below the target (%(target)s)",
        lose=whole(f["lose"]),
        target=whole(f["target"]),
    ),
    "board_max": lambda f: _n(
        "the board can't be above %(n)s trick", "the board can't be above %(n)s tricks", int(f["n"])
    ),
    "blind_max": lambda f: _("`blind_bid_max` can't be above %(n)s", n=f["n"]),
    "out_of_range": lambda f: _(
        "`%(name)s` must be from %(lo)s to %(hi)s", name=f["name"], lo=whole(f["lo"]), hi=whole(f["hi"])
    ),
}


def incompatible_reasons() -> frozenset[str]:
    """The ruleset reasons the bot words itself (a test checks the engine has no other)."""
    return frozenset(_INCOMPATIBLE)


def explain_rules(exc: Exception) -> Any:
    """A house-rules refusal (``HouseRulesError``) as a lazy message; the rule names stay as typed.
    The refusals with a code (out of range, rules that don't go together) are built from its
    fields; the others from the engine's fixed sentences."""
    code = getattr(exc, "code", "")
    fields: dict[str, Any] = dict(getattr(exc, "fields", {}))
    if code == "out_of_range":
        built = _(
            "`%(name)s=%(value)s` is out of range: it must be from %(lo)s to %(hi)s.",
            name=fields["name"],
            value=fields["value"],
            lo=whole(fields["lo"]),
            hi=whole(fields["hi"]),
        )
        if fields.get("off"):
            built = _(
                "`%(name)s=%(value)s` is out of range: it must be from %(lo)s to %(hi)s (or `off`).",
                name=fields["name"],
                value=fields["value"],
                lo=whole(fields["lo"]),
                hi=whole(fields["hi"]),
            )
        return built
    if code == "no_name":
        return _(
            "`%(token)s` names no rule: write the rule's name before `=`, e.g. `%(example)s`.",
            token=fields["token"],
            example=fields["example"],
        )
    if code == "no_value":
        return _(
            "`%(token)s` has no value after `=`: e.g. `%(name)s=5`.",
            token=fields["token"],
            name=fields["name"],
        )
    if code == "incompatible":
        reason = _INCOMPATIBLE.get(str(fields.pop("reason", "")))
        if reason is not None:
            return _("Those rules don't go together: %(why)s.", why=reason(fields))
    text = str(exc)
    for pattern, build in _RULES:
        m = pattern.match(text)
        if m:
            return build(m)
    return text
