"""A league's attendance rules, pure: who counts as a no-show, what a no-show earns, and who is
credited with a seat a substitute took over.

A seat's *absent share* for a player is the share of the seat's actions (bids, plays) somebody else
made for them: the bot (they were away, timed out, left or checked out) or a substitute. A player
whose absent share is over the league's ``share`` is a *no-show* for that game: under the
``forfeit`` rule they get a loss worth the league's loss points (and none of the game's score);
under ``no_game`` the game is not recorded for them at all; ``off`` counts the game as played.
Their partner's result stands either way.

A substitute's seat is credited to the substitute (``credit = substitute``, judged on the part of
the game they held) or to the seat's owner (``credit = owner``, judged on the whole game, so an
owner who left early is a no-show).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from bot.i18n import Text, _, _n, join

from .errors import LeagueInputError

FORFEIT, NO_GAME, OFF = "forfeit", "no_game", "off"
NO_SHOW_RULES = (FORFEIT, NO_GAME, OFF)
SUBSTITUTE, OWNER = "substitute", "owner"
CREDITS = (SUBSTITUTE, OWNER)

#: what ``/league admin attendance`` offers (the slash command's choices, translated with the
#: command's other words)
NO_SHOW_LABELS = {
    FORFEIT: "A forfeit loss for the absent player",
    NO_GAME: "No game recorded for the absent player",
    OFF: "Off: the game counts as played",
}
CREDIT_LABELS = {
    SUBSTITUTE: "The substitute gets the result",
    OWNER: "The seat's owner gets the result",
}

SHARE_RANGE = (10, 90)  # percent of a game
MISS_RANGE = (0, 60)  # minutes; 0 = off
DROP_RANGE = (0, 20)  # no-shows; 0 = off


class AttendanceError(LeagueInputError):
    """An attendance setting out of range (the message says what is allowed)."""


@dataclass(frozen=True)
class AttendanceRule:
    """``no_show``: what a no-show earns; ``share``: the percent of a game somebody else may play a
    player's seat before they are a no-show; ``miss_minutes``: a player who has not played a card or
    bid themselves this many minutes into a round is a no-show (0 = only the share counts);
    ``drop_after``: the no-shows in a season that take a player off the roster (0 = never);
    ``credit``: who gets a substituted seat's result."""

    no_show: str = FORFEIT
    share: int = 50
    miss_minutes: int = 10
    drop_after: int = 0
    credit: str = SUBSTITUTE

    def __post_init__(self) -> None:
        if self.no_show not in NO_SHOW_RULES:
            raise AttendanceError(_("Choose a no-show rule from the list."), "bad_no_show")
        if self.credit not in CREDITS:
            raise AttendanceError(_("Choose who a substitute's seat counts for from the list."), "bad_credit")
        for value, (low, high), code in (
            (self.share, SHARE_RANGE, "share_range"),
            (self.miss_minutes, MISS_RANGE, "miss_range"),
            (self.drop_after, DROP_RANGE, "drop_range"),
        ):
            if not low <= value <= high:
                raise AttendanceError(self._range(code, low, high, value), code)

    @staticmethod
    def _range(code: str, low: int, high: int, value: int) -> Text:
        if code == "share_range":
            return _(
                "The no-show share is %(low)s to %(high)s percent of a game (you gave %(n)s).",
                low=low,
                high=high,
                n=value,
            )
        if code == "miss_range":
            return _(
                "Missing the table counts after 0 (never) to %(high)s minutes (you gave %(n)s).",
                high=high,
                n=value,
            )
        return _("Drop a player after 0 (never) to %(high)s no-shows (you gave %(n)s).", high=high, n=value)

    def to_dict(self) -> dict[str, Any]:
        return {k: getattr(self, k) for k in self.__dataclass_fields__}

    @classmethod
    def from_dict(cls, d: Mapping[str, Any] | None) -> AttendanceRule:
        d = d or {}
        return cls(**{k: d[k] for k in cls.__dataclass_fields__ if k in d})

    def is_no_show(self, absent_share: float) -> bool:
        return self.no_show != OFF and absent_share > self.share / 100

    def describe(self) -> Text:
        """The rule as the league's info post states it."""
        if self.no_show == OFF:
            rule: Text = _("no-show rule off")
        else:
            rule = _(
                "a seat played by someone else for over %(share)s%% of a game: %(result)s for its"
                " absent player, the partner's result stands",
                share=self.share,
                result=_("a forfeit loss") if self.no_show == FORFEIT else _("no game recorded"),
            )
        parts: list[Text] = [rule]
        if self.miss_minutes:
            parts.append(
                _(
                    "missing the table for the first %(n)s min of a round: not seated again that night",
                    n=self.miss_minutes,
                )
            )
        if self.drop_after:
            parts.append(
                _n(
                    "%(n)s no-show in a season: off the roster",
                    "%(n)s no-shows in a season: off the roster",
                    self.drop_after,
                )
            )
        parts.append(
            _("a substitute's seat counts for the substitute")
            if self.credit == SUBSTITUTE
            else _("a substitute's seat counts for its owner")
        )
        return join(*parts, sep="; ")


class Sub(Protocol):
    """A substitute in a seat (``bot.storage.leagues.SubRow``)."""

    @property
    def out_id(self) -> int: ...
    @property
    def in_id(self) -> int: ...
    @property
    def acts_at(self) -> int: ...
    @property
    def auto_at(self) -> int: ...


@dataclass(frozen=True)
class Credited:
    """Who a league game counts for: ``sides`` (bot seats None), the players of it who were
    no-shows, and those credited as substitutes."""

    sides: list[list[int | None]]
    no_shows: frozenset[int] = frozenset()
    as_sub: frozenset[int] = frozenset()
    absent_share: dict[int, float] = field(default_factory=dict)


def _share(absent: int, total: int) -> float:
    return absent / total if total > 0 else 0.0


def credit(
    sides: Sequence[Sequence[int | None]],
    seats: Mapping[int, tuple[int, int]],
    subs: Iterable[Sub],
    rule: AttendanceRule,
) -> Credited:
    """Who gets the result of a game whose ``sides`` are the players at its end, with the seats'
    action counts (``seats``: {player: (actions, the bot's)} at the end; a player missing from it
    played their whole seat) and the substitutes who came in (in order)."""
    by_in: dict[int, Sub] = {}
    for s in subs:
        by_in[s.in_id] = s
    out_sides: list[list[int | None]] = []
    no_shows: set[int] = set()
    as_sub: set[int] = set()
    shares: dict[int, float] = {}
    for side in sides:
        new: list[int | None] = []
        for uid in side:
            if uid is None:
                new.append(None)
                continue
            acts, auto = seats.get(uid, (0, 0))
            sub = by_in.get(uid)
            if sub is None:
                holder, absent = uid, _share(auto, acts)
            else:
                # the owner played until the swap (their own actions then), the substitute after it
                # (the seat's bot actions restart at the swap)
                owner, first, seen = sub.out_id, sub, {uid}
                while owner in by_in and owner not in seen:  # a substitute's substitute: the owner
                    seen.add(owner)
                    first = by_in[owner]
                    owner = first.out_id
                if rule.credit == OWNER:
                    own = max(0, first.acts_at - first.auto_at)
                    holder, absent = owner, 1.0 - _share(own, max(acts, sub.acts_at))
                else:
                    part = max(0, acts - sub.acts_at)
                    holder, absent = uid, _share(auto, part)
                    as_sub.add(uid)
            shares[holder] = absent
            if rule.is_no_show(absent):
                no_shows.add(holder)
            new.append(holder)
        out_sides.append(new)
    return Credited(out_sides, frozenset(no_shows), frozenset(as_sub), shares)
