"""Typed refusals. ``str(exc)`` is a sentence for the acting player only (it may name that
player's own cards); ``exc.rule`` is the same refusal in the third person without hidden cards
(``seat 1 must follow hearts``), used by hand-record replay. Every exception carries a stable
``code`` (one per class), a finer ``reason`` (one per sentence: ``blind_nil_deficit``,
``must_follow``, …) and the structured ``fields`` the bot needs to say it in a player's language
(seat numbers become names); ``private`` names the fields that must not be shown (a card the
player does not hold: another player may)."""

from __future__ import annotations

from typing import Any


class EngineError(Exception):
    """Base of every error the engine raises on purpose."""

    code = "engine_error"


class IllegalAction(EngineError):
    """An action the rules refuse. Nothing changed in the game."""

    code = "illegal_action"

    def __init__(
        self,
        message: str,
        *,
        seat: int | None = None,
        rule: str | None = None,
        reason: str = "",
        private: tuple[str, ...] = (),
        **fields: Any,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.seat = seat
        self.rule = rule or message
        self.reason = reason or self.code
        self.fields: dict[str, Any] = fields
        self.private = frozenset(private)
        for k, v in fields.items():
            setattr(self, k, v)


class NotYourTurn(IllegalAction):
    code = "not_your_turn"
    expected_seat: int | None = None


class WrongPhase(IllegalAction):
    code = "wrong_phase"
    phase: str = ""


#: The refusal of a card the player does not hold: it names no card (another player may hold it;
#: the card is in the ``card`` field).
NOT_HELD = "That card is not in your hand."


class CardNotHeld(IllegalAction):
    code = "card_not_held"
    card: int = -1


class MustFollowSuit(IllegalAction):
    code = "must_follow"
    suit: int = -1
    playable: tuple[int, ...] = ()


class SpadesNotBroken(IllegalAction):
    code = "spades_not_broken"


class FirstTrickRule(IllegalAction):
    """First-trick variant: the lowest club leads and no spade may be played (if avoidable)."""

    code = "first_trick"


class BidNotAllowed(IllegalAction):
    code = "bid_not_allowed"
    allowed: tuple[Any, ...] = ()


class BadPass(IllegalAction):
    code = "bad_pass"


class AlreadyLooked(IllegalAction):
    code = "already_looked"


class MisdealNotAllowed(IllegalAction):
    code = "misdeal_not_allowed"


class RulesetError(ValueError):
    """Unknown preset or option, or an impossible combination of options. ``reason`` names which
    (``suicide_needs_pairs``, ``out_of_range``, …; empty when there is no code for it) and
    ``fields`` carries its values, so a front end can say it in the player's own words."""

    code = "bad_ruleset"

    def __init__(self, message: str, reason: str = "", **fields: object) -> None:
        super().__init__(message)
        self.reason = reason
        self.fields = fields


class RecordError(EngineError):
    """A hand record that cannot be replayed: ``position`` names the first bad action
    (``plays[17]``), ``str(exc)`` is one line ``plays[17]: 9H is not held by seat 2``."""

    code = "bad_record"

    def __init__(self, position: str, reason: str) -> None:
        super().__init__(f"{position}: {reason}" if position else reason)
        self.position = position
        self.reason = reason
