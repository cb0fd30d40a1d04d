"""The engine's refusals as lazy messages, keyed by code.

The engine stays English and pure; each refusal carries a stable ``reason`` (``blind_nil_deficit``,
``must_follow``, …) and the fields to say it (``engine.errors``). :func:`explain` looks the reason
up in :data:`_ENGINE` and words it from the fields (English renders exactly as the engine wrote
it); :func:`explain_rules` does the same for a house-rules refusal (``engine.house_rules``) and
:func:`explain` for a ruleset one. Nothing here reads the engine's English: a reason without words
gets a general refusal (:func:`unknown`) and a warning naming the code, never the text (it may
name a card the player holds)."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

import engine
from bot.i18n import N_, ListOf, Msg, Text, _, _n, whole
from bot.lexicon.words import SUIT_A, bid_label, cards_list, suit_name
from engine.house_rules import rule_kinds
from engine.ruleset import RulesetError

log = logging.getLogger(__name__)

Fields = dict[str, Any]
SeatName = Callable[[int], Text]

#: the refusal a code without words gets (the code is logged)
UNKNOWN = N_("That isn't allowed right now; nothing was changed.")


def unknown(kind: str, code: str) -> Msg:
    """The general refusal for a ``code`` the bot has no words for, with a warning naming it."""
    log.warning("%s refusal without words: code %r", kind, code)
    return _(UNKNOWN)


def engine_seat(seat: int) -> Text:
    """A seat as the engine names it (``seat 2``), when the table's names are not at hand."""
    return _("seat %(n)s", n=seat)


# ---- the engine's refusals (``engine.IllegalAction.reason``) -----------------------------------

_DOING = {
    "look": N_("You can't look at your cards now: %(why)s."),
    "bid": N_("You can't bid now: %(why)s."),
    "pass": N_("You can't pass cards now: %(why)s."),
    "misdeal": N_("You can't call a misdeal now: %(why)s."),
    "draw": N_("You can't draw now: %(why)s."),
    "play": N_("You can't play a card now: %(why)s."),
}
_PHASE = {
    "draw": N_("it's time to draw cards"),
    "bid": N_("it's time to bid"),
    "pass": N_("it's time to pass cards"),
    "play": N_("the hand is being played"),
    "game_over": N_("the game is over"),
}


def _wrong_phase(f: Fields, seat_name: SeatName) -> Msg | None:
    doing, why = _DOING.get(str(f.get("action"))), _PHASE.get(str(f.get("phase")))
    return _(doing, why=_(why)) if doing and why else None


def _standing(deficit: int) -> Msg:
    if deficit < 0:
        return _("you lead by %(n)s", n=-deficit)
    if deficit == 0:
        return _("the scores are level")
    return _("you trail by only %(n)s", n=deficit)


def _blind_nil_deficit(f: Fields, seat_name: SeatName) -> Msg:
    now = _standing(int(f["deficit"]))
    if f["solo"]:
        return _("Blind nil is only allowed when you trail by %(n)s or more (%(now)s).", n=f["need"], now=now)
    return _(
        "Blind nil is only allowed when your team trails by %(n)s or more (%(now)s).", n=f["need"], now=now
    )


def _blind_bids_deficit(f: Fields, seat_name: SeatName) -> Msg:
    now = _standing(int(f["deficit"]))
    if f["solo"]:
        return _(
            "Blind bids are only allowed when you trail by %(n)s or more (%(now)s).", n=f["need"], now=now
        )
    return _(
        "Blind bids are only allowed when your team trails by %(n)s or more (%(now)s).", n=f["need"], now=now
    )


def _bid_range(f: Fields, seat_name: SeatName) -> Msg:
    if f["nil"]:
        return _("Bids go from 0 (nil) to %(n)s.", n=f["n"])
    return _("Bids go from 0 to %(n)s.", n=f["n"])


def _look_first(f: Fields, seat_name: SeatName) -> Msg:
    if f["variant"] == "whiz":
        return _("In whiz your bid is the number of spades you hold: look at your cards first.")
    return _("In mirrors your bid is the number of spades you hold: look at your cards first.")


def _whiz_count(f: Fields, seat_name: SeatName) -> Msg:
    if f["nil"]:
        return _("In whiz you must bid the number of spades you hold (%(n)s) or nil.", n=f["n"])
    return _("In whiz you must bid the number of spades you hold (%(n)s).", n=f["n"])


def _board(f: Fields, seat_name: SeatName) -> Msg:
    if f["solo"]:
        return _("You must bid at least %(board)s in total: bid %(n)s or more.", board=f["board"], n=f["n"])
    return _("Your team must bid at least %(board)s in total: bid %(n)s or more.", board=f["board"], n=f["n"])


def _not_a_bid(f: Fields, seat_name: SeatName) -> Msg:
    why, typed = f.get("why"), str(f.get("text", ""))
    if why == "unknown":
        return _(
            '"%(bid)s" is not a bid; bid a number of tricks (like 4), nil, blind nil or a blind number '
            "(like blind 6)",
            bid=typed,
        )
    if why == "negative":
        return _('"%(bid)s" is not a bid; bids are 0 or more tricks or nil', bid=typed)
    if why == "blind_zero":
        return _('"%(bid)s" is not a bid; a blind bid promises at least 1 trick', bid=typed)
    allowed = tuple(f.get("allowed") or ())
    if not allowed:
        return _("That bid isn't allowed here.")
    return _(
        "%(bid)s is not a bid. Allowed now: %(allowed)s.",
        bid=_quoted(str(f.get("bid"))[:20]),
        allowed=ListOf(tuple(bid_label(b) for b in allowed)),
    )


def _spades_not_broken(f: Fields, seat_name: SeatName) -> Msg | None:
    suits = [int(s) for s in f.get("suits") or () if 0 <= int(s) < 4]
    if not suits:
        return None
    return _(
        "Spades aren't broken yet: lead %(suits)s.", suits=ListOf(tuple(_(SUIT_A[s]) for s in suits), "or")
    )


def _must_follow(f: Fields, seat_name: SeatName) -> Msg | None:
    suit, playable = int(f.get("suit", -1)), tuple(f.get("playable") or ())
    if not (0 <= suit < 4 and playable):
        return None
    return _(
        "You must follow %(suit)s: you hold %(cards)s.", suit=suit_name(suit), cards=cards_list(playable)
    )


#: every reason the engine refuses with (``IllegalAction.reason``) -> its words, from the fields;
#: ``seat_name`` names a seat as the table shows it
_ENGINE: dict[str, Callable[[Fields, SeatName], Msg | None]] = {
    "no_seat": lambda f, sn: _("There is no seat %(n)s at this table.", n=f["n"]),
    "wrong_phase": _wrong_phase,
    "not_your_turn": lambda f, sn: _("It's %(names)s's turn, not yours.", names=sn(int(f["expected_seat"]))),
    "already_looked": lambda f, sn: _("You have already looked at your cards."),
    "blind_nil_off": lambda f, sn: _("Blind nil isn't allowed at this table."),
    "blind_bids_off": lambda f, sn: _("Blind bids aren't allowed at this table."),
    "blind_nil_deficit": _blind_nil_deficit,
    "blind_bids_deficit": _blind_bids_deficit,
    "blind_range": lambda f, sn: _("Blind bids go from 1 to %(n)s.", n=f["n"]),
    "looked_blind_nil": lambda f, sn: _("You've already looked at your cards, so you can't bid blind nil."),
    "looked_blind_bid": lambda f, sn: _("You've already looked at your cards, so you can't bid a blind bid."),
    "nil_off": lambda f, sn: _("Nil isn't allowed at this table: bid a number of tricks."),
    "bid_range": _bid_range,
    "look_first": _look_first,
    "mirrors_count": lambda f, sn: _(
        "In mirrors you must bid the number of spades you hold (%(n)s).", n=f["n"]
    ),
    "mirrors_nil": lambda f, sn: _("In mirrors you hold no spades, so you must bid nil."),
    "whiz_count": _whiz_count,
    "suicide_number": lambda f, sn: _(
        "In suicide exactly one partner bids nil: your partner bid nil, so you must bid a number."
    ),
    "suicide_nil": lambda f, sn: _(
        "In suicide exactly one partner bids nil: your partner bid %(bid)s, so you must bid nil.",
        bid=bid_label(f["partner_bid"]),
    ),
    "board": _board,
    "bid_refused": lambda f, sn: _("That bid isn't allowed here."),
    "not_a_bid": _not_a_bid,
    "predraw_blind_nil_only": lambda f, sn: _(
        "Only blind nil can be bid before the draw; the other bids come after it."
    ),
    "already_blind_nil": lambda f, sn: _("You have already bid blind nil."),
    "no_pass": lambda f, sn: _("You have no cards to pass this hand."),
    "passed": lambda f, sn: _("You have already passed your cards."),
    "not_a_card": lambda f, sn: _("That is not a card of this game."),
    "pass_size": lambda f, sn: _n(
        "You must pass exactly %(n)s card.", "You must pass exactly %(n)s cards.", int(f["size"])
    ),
    "card_not_held": lambda f, sn: _("That card is not in your hand."),
    "exchanged": lambda f, sn: _("You have already exchanged your cards."),
    "no_exchange": lambda f, sn: _("You have no cards to exchange this hand."),
    "exchange_size": lambda f, sn: _n(
        "You may exchange at most %(n)s different card.",
        "You may exchange at most %(n)s different cards.",
        int(f["size"]),
    ),
    "replacement": lambda f, sn: _("Those replacement cards did not come from the discards."),
    "misdeal_off": lambda f, sn: _("Misdeals aren't called at this table."),
    "misdeal_spades": lambda f, sn: _("You can only call a misdeal with no spades."),
    "misdeal_late": lambda f, sn: _("It's too late to call a misdeal: your team has bid."),
    "must_follow": _must_follow,
    "first_no_spades": lambda f, sn: _("No spades on the first trick while you hold another suit."),
    "first_lead": lambda f, sn: _(
        "The first trick must be led with %(card)s.", card=engine.card_pretty(int(f["card"]))
    ),
    "spades_not_broken": _spades_not_broken,
}


def engine_reasons() -> frozenset[str]:
    """The engine refusal reasons the bot words (a test checks the engine gives no other)."""
    return frozenset(_ENGINE)


def explain(exc: Exception, seat_name: SeatName = engine_seat) -> Msg:
    """An engine refusal as a lazy message for the player who acted (their own cards may appear;
    a field the engine marks private never does). ``seat_name`` names the seats (the table's
    player names; by default the engine's ``seat 2``). A ruleset refusal is worded as well."""
    if isinstance(exc, RulesetError):
        return explain_ruleset(exc)
    reason = str(getattr(exc, "reason", "") or getattr(exc, "code", ""))
    build = _ENGINE.get(reason)
    fields = getattr(exc, "fields", None)
    if build is not None and isinstance(fields, dict):
        private: frozenset[str] = getattr(exc, "private", frozenset())
        built = build({k: v for k, v in fields.items() if k not in private}, seat_name)
        if built is not None:
            return built
    return unknown("engine", reason)


# ---- house rules (``engine.house_rules``) and rulesets -----------------------------------------


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


def _quoted(typed: object) -> str:
    return "`" + str(typed).replace("`", "'")[:30] + "`"  # the name as typed, in a code span


#: a ruleset the engine refuses for another reason than options that don't go together
_RULESET: dict[str, Callable[[dict[str, Any]], Msg]] = {
    "unknown_preset": lambda f: _(
        '"%(name)s" is not a ruleset; choose one of %(presets)s',
        name=str(f["name"])[:30],
        presets=", ".join(engine.PRESETS),
    ),
    "unknown_option": lambda f: _(
        "`%(name)s` is not a rule. Rules: %(rules)s.",
        name=str(f["name"])[:30],
        rules=", ".join(rule_kinds()),
    ),
    "bad_option": lambda f: _("`%(name)s` doesn't take that value.", name=str(f.get("name", "?"))[:30]),
    "not_a_ruleset": lambda f: _("That ruleset can't be read."),
    "name_not_text": lambda f: _("That ruleset can't be read."),
}


def incompatible_reasons() -> frozenset[str]:
    """The ruleset reasons the bot words itself (a test checks the engine has no other)."""
    return frozenset(_INCOMPATIBLE) | frozenset(_RULESET)


def explain_ruleset(exc: Exception) -> Msg:
    """A ruleset refusal (``RulesetError``: its ``reason`` and ``fields``) as a lazy message."""
    return _ruleset_message(str(getattr(exc, "reason", "")), dict(getattr(exc, "fields", {})))


def _ruleset_message(reason: str, fields: dict[str, Any]) -> Msg:
    other = _RULESET.get(reason)
    if other is not None:
        return other(fields)
    why = _INCOMPATIBLE.get(reason)
    if why is not None:
        return _("Those rules don't go together: %(why)s.", why=why(fields))
    return unknown("ruleset", reason)


def _out_of_range(f: dict[str, Any]) -> Msg:
    params = {"name": f["name"], "value": f["value"], "lo": whole(f["lo"]), "hi": whole(f["hi"])}
    if f.get("off"):
        return _(
            "`%(name)s=%(value)s` is out of range: it must be from %(lo)s to %(hi)s (or `off`).", **params
        )
    return _("`%(name)s=%(value)s` is out of range: it must be from %(lo)s to %(hi)s.", **params)


def _not_whole(f: dict[str, Any]) -> Msg:
    if f.get("off"):
        return _("`%(name)s` takes a whole number (or `off`), not `%(raw)s`.", name=f["name"], raw=f["raw"])
    return _("`%(name)s` takes a whole number, not `%(raw)s`.", name=f["name"], raw=f["raw"])


#: every house-rules refusal (``HouseRulesError.code``) -> its words, from the fields
_HOUSE: dict[str, Callable[[dict[str, Any]], Msg]] = {
    "out_of_range": _out_of_range,
    "no_name": lambda f: _(
        "`%(token)s` names no rule: write the rule's name before `=`, e.g. `%(example)s`.",
        token=f["token"],
        example=f["example"],
    ),
    "no_value": lambda f: _(
        "`%(token)s` has no value after `=`: e.g. `%(name)s=5`.", token=f["token"], name=f["name"]
    ),
    "no_equals": lambda f: _(
        "`%(token)s` has no value: write options as name=value, e.g. `bag_limit=5`.", token=f["token"]
    ),
    "not_on_off": lambda f: _("`%(name)s` is on or off, not `%(raw)s`.", name=f["name"], raw=f["raw"]),
    "not_whole": _not_whole,
    "unknown_rule": lambda f: _(
        "`%(name)s` is not a rule. Rules: %(rules)s.", name=f["name"], rules=", ".join(f["rules"])
    ),
}


def house_rules_codes() -> frozenset[str]:
    """The house-rules refusal codes the bot words (``incompatible`` is worded by its reason)."""
    return frozenset(_HOUSE) | {"incompatible"}


def explain_rules(exc: Exception) -> Msg:
    """A house-rules refusal (``HouseRulesError``) as a lazy message, from its ``code`` and
    ``fields``; the rule names stay as typed."""
    code = str(getattr(exc, "code", ""))
    fields: dict[str, Any] = dict(getattr(exc, "fields", {}))
    if code == "incompatible":
        return _ruleset_message(str(fields.pop("reason", "")), fields)
    build = _HOUSE.get(code)
    if build is not None:
        return build(fields)
    return unknown("house rules", code)
