"""Rulesets: every option of RULES.md sections 1-5, named presets, validation, JSON form."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass, fields
from functools import lru_cache
from typing import Any

from .cards import (
    BIG_JOKER,
    CLUBS,
    COPY_OFFSET,
    DIAMONDS,
    HEARTS,
    LITTLE_JOKER,
    SPADES,
    make_card,
)
from .errors import RulesetError


@dataclass(frozen=True)
class Ruleset:
    """A complete, immutable description of the rules of one table.

    Build one with ``Ruleset.preset(name, **overrides)``; ``Ruleset()`` is ``standard``.

    >>> rs = Ruleset.preset("standard")
    >>> rs.describe()
    'standard: to 500 · nil ±100 · blind nil ±200 (pass 3) · 10 bags = −100'
    >>> rs.sides, rs.partner_of(0), rs.side_of(3), rs.hand_size
    (((0, 2), (1, 3)), 2, 1, 13)
    >>> Ruleset.preset("cutthroat").sides, Ruleset.preset("cutthroat").partner_of(0)
    (((0,), (1,), (2,)), None)

    Only the options that differ from the preset are stored, and they round-trip exactly:

    >>> house = rs.with_options(bag_limit=5)
    >>> house.to_dict()
    {'preset': 'standard', 'bag_limit': 5}
    >>> Ruleset.from_dict(house.to_dict()) == house, rs.to_json()
    (True, 'standard')
    """

    name: str = "standard"
    # Players and sides
    num_seats: int = 4
    partnerships: bool = True
    team_size: int = 2
    # Deck
    decks: int = 1
    jokers: bool = False
    deuces_high: bool = False  # 2S then 2D rank above the ace of spades (2D becomes a spade)
    deuces_high_all: bool = False  # ... and 2C, 2H too
    six_player_first_wins: bool = True  # two decks: the first of two identical cards wins
    two_player_draw: bool = False
    # Game end
    target_score: int = 500
    lose_score: int | None = None  # mercy: a side at or below it loses at once
    max_hands: int | None = None
    # Nil
    nil_allowed: bool = True
    nil_value: int = 100
    blind_nil_allowed: bool = True
    blind_nil_value: int = 200
    blind_nil_pass: int = 3
    nil_pass: int = 0
    blind_nil_min_deficit: int = 0
    # Play
    spades_must_be_broken: bool = True
    first_trick_two_clubs: bool = False
    misdeal_no_spades: bool = False
    # Scoring
    bag_limit: int | None = 10
    bag_penalty: int = 100
    bag_value: int = 1
    blind_bids: bool = False
    blind_bid_max: int = 7
    blind_bid_min_deficit: int = 100
    ten_for_200: bool = False
    ten_for_value: int = 200  # what 10 for 200 scores: ±this for a contract of 10 or more
    boston: bool = False
    set_limit: int | None = None  # a side set this many times in a game loses it (off: None)
    # Bidding constraints
    board: int = 0
    suicide: bool = False
    whiz: bool = False
    mirrors: bool = False

    def __post_init__(self) -> None:
        _validate(self)

    # -- construction -----------------------------------------------------------------------
    @classmethod
    def preset(cls, name: str = "standard", **overrides: Any) -> Ruleset:
        """A named preset with optional overrides; raises RulesetError for unknown names,
        unknown options, wrong types and impossible combinations.

        >>> Ruleset.preset("Classic Online") == Ruleset.preset("classic-online")
        True
        >>> Ruleset.preset("standard", target_score=300).target_score
        300
        >>> try:
        ...     Ruleset.preset("whiz", blind_bids=True)
        ... except RulesetError as refusal:
        ...     print(refusal.code, "-", refusal)
        bad_ruleset - Whiz bids are the number of spades held, so blind bids can't apply
        """
        key = str(name).strip().lower().replace("_", "-").replace(" ", "-")
        key = _ALIASES.get(key, key)
        if key not in PRESETS:
            raise RulesetError(
                f'"{name}" is not a ruleset; choose one of {", ".join(PRESETS)}',
                "unknown_preset",
                name=str(name),
                choices=tuple(PRESETS),
            )
        base = PRESETS[key]
        if not overrides:
            return base
        _check_options(overrides)
        try:
            return dataclasses.replace(base, **overrides)
        except TypeError as e:  # pragma: no cover - _check_options catches these
            raise RulesetError(str(e), "bad_option") from None

    def with_options(self, **overrides: Any) -> Ruleset:
        _check_options(overrides)
        return dataclasses.replace(self, **overrides)

    # -- sides ------------------------------------------------------------------------------
    @property
    def sides(self) -> tuple[tuple[int, ...], ...]:
        return _sides(self.num_seats, self.partnerships, self.team_size)

    @property
    def num_sides(self) -> int:
        return len(self.sides)

    def side_of(self, seat: int) -> int:
        if not self.partnerships:
            return seat
        return seat % (self.num_seats // self.team_size)

    def partner_of(self, seat: int) -> int | None:
        """The one partner in teams of two; None in solo play and teams of three."""
        if not self.partnerships or self.team_size != 2:
            return None
        return (seat + self.num_seats // 2) % self.num_seats

    def teammates(self, seat: int) -> tuple[int, ...]:
        return tuple(s for s in self.sides[self.side_of(seat)] if s != seat)

    # -- deck -------------------------------------------------------------------------------
    @property
    def deck(self) -> tuple[int, ...]:
        """Every card id in play (before the two-player draw discards half)."""
        return tables(self).deck

    @property
    def hand_size(self) -> int:
        return tables(self).hand_size

    @property
    def tricks_per_hand(self) -> int:
        return tables(self).hand_size

    @property
    def max_bid(self) -> int:
        return tables(self).hand_size

    @property
    def blind_possible(self) -> bool:
        """Whether any blind bid (blind nil or blind n) exists under these rules."""
        return (self.blind_nil_allowed and self.nil_allowed) or self.blind_bids

    # -- score conditions -------------------------------------------------------------------
    def blind_nil_open(self, deficit: int) -> bool:
        """Whether a side ``deficit`` points behind the leader (negative: ahead) may bid blind
        nil. ``blind_nil_min_deficit`` 0 means no score condition at all; 100 means behind by
        100 or more."""
        return (
            self.blind_nil_allowed
            and self.nil_allowed
            and (self.blind_nil_min_deficit == 0 or deficit >= self.blind_nil_min_deficit)
        )

    def blind_bids_open(self, deficit: int) -> bool:
        """As ``blind_nil_open``, for blind number bids (``blind_bid_min_deficit``)."""
        return self.blind_bids and (self.blind_bid_min_deficit == 0 or deficit >= self.blind_bid_min_deficit)

    # -- description and JSON ---------------------------------------------------------------
    def overrides(self) -> dict[str, Any]:
        """Options that differ from the preset this ruleset is named after (a new dict each call;
        worked out once per ruleset: every save of a table writes them)."""
        known: dict[str, Any] | None = self.__dict__.get("_overrides")
        if known is None:
            base = PRESETS.get(self.name, STANDARD)
            known = {
                f.name: getattr(self, f.name)
                for f in fields(self)
                if f.name != "name" and getattr(self, f.name) != getattr(base, f.name)
            }
            object.__setattr__(self, "_overrides", known)  # (frozen: not a field, not compared)
        return dict(known)

    def to_dict(self) -> dict[str, Any]:
        """``{"preset": name, <options that differ>...}``; JSON-safe, exact round trip. A
        custom name (not a preset) is kept as ``"name"`` over the ``standard`` preset."""
        if self.name not in PRESETS:
            return {"preset": "standard", "name": self.name, **self.overrides()}
        return {"preset": self.name, **self.overrides()}

    def to_json(self) -> str | dict[str, Any]:
        """The HAND_RECORD form: the bare preset name when nothing differs."""
        ov = self.overrides()
        return self.name if not ov and self.name in PRESETS else self.to_dict()

    @classmethod
    def from_dict(cls, d: str | dict[str, Any] | Ruleset) -> Ruleset:
        if isinstance(d, Ruleset):
            return d
        if isinstance(d, str):
            return cls.preset(d)
        if not isinstance(d, dict):
            raise RulesetError('A ruleset is a preset name or an object with a "preset" key', "not_a_ruleset")
        d = dict(d)
        custom = d.pop("name", None)
        rs = cls.preset(d.pop("preset", "standard"), **d)
        if custom is not None and custom != rs.name:
            if not isinstance(custom, str) or not custom.strip():
                raise RulesetError('A ruleset "name" must be a text', "name_not_text")
            rs = dataclasses.replace(rs, name=custom)
        return rs

    from_json = from_dict

    def describe(self) -> str:
        """One short human line, e.g. ``standard: to 500 · nil ±100 · blind nil ±200 ·
        10 bags = −100``."""
        parts = [f"{self.name}: to {fmt_int(self.target_score)}"]
        if self.num_seats != 4 or not self.partnerships or self.team_size != 2:
            if not self.partnerships:
                parts.append(f"{self.num_seats} players solo")
            else:
                parts.append(f"{self.num_seats} players, teams of {self.team_size}")
        if self.two_player_draw:
            parts.append("draw to 13")
        if self.decks == 2:
            parts.append("two decks")
        if self.jokers:
            parts.append("jokers high")
        if self.deuces_high:
            parts.append("deuces high" + (" (all four)" if self.deuces_high_all else ""))
        if self.nil_allowed:
            nil = f"nil ±{fmt_int(self.nil_value)}"
            if self.nil_pass and self.partnerships:
                nil += f" (pass {self.nil_pass})"
            parts.append(nil)
        else:
            parts.append("no nil")
        if self.nil_allowed and self.blind_nil_allowed:
            bn = f"blind nil ±{fmt_int(self.blind_nil_value)}"
            extra = []
            if self.blind_nil_pass and self.partnerships:
                extra.append(f"pass {self.blind_nil_pass}")
            elif self.blind_nil_pass and self.two_player_draw:
                extra.append(f"swap up to {self.blind_nil_pass}")
            if self.blind_nil_min_deficit:
                extra.append(f"down {fmt_int(self.blind_nil_min_deficit)}+")
            if extra:
                bn += " (" + ", ".join(extra) + ")"
            parts.append(bn)
        if self.blind_bids:
            cond = f" (down {fmt_int(self.blind_bid_min_deficit)}+)" if self.blind_bid_min_deficit else ""
            parts.append(f"blind bids to {self.blind_bid_max}{cond}")
        if self.bag_limit:
            parts.append(f"{self.bag_limit} bags = {fmt_int(-self.bag_penalty)}")
        if self.bag_value != 1:
            sign = "+" if self.bag_value > 0 else ""
            parts.append(f"bags {sign}{fmt_int(self.bag_value)} each" if self.bag_value else "bags worth 0")
        flags = [
            (self.whiz, "whiz"),
            (self.mirrors, "mirrors"),
            (self.suicide, "suicide"),
            (self.ten_for_200, f"10 for {fmt_int(self.ten_for_value)}"),
            (self.boston, "Boston wins"),
            (self.first_trick_two_clubs, "2♣ leads"),
            (self.misdeal_no_spades, "misdeal on no spades"),
            (not self.spades_must_be_broken, "spades lead any time"),
        ]
        parts.extend(label for on, label in flags if on)
        if self.board:
            parts.append(f"board {self.board}")
        if self.set_limit is not None:
            parts.append("set once loses" if self.set_limit == 1 else f"set {self.set_limit} times loses")
        if self.lose_score is not None:
            parts.append(f"mercy at {fmt_int(self.lose_score)}")
        if self.max_hands:
            parts.append(f"{self.max_hands} hands max")
        return " · ".join(parts)

    def __str__(self) -> str:
        return self.describe()


# -- validation ---------------------------------------------------------------------------

_FIELD_TYPES: dict[str, tuple[type, ...]] = {}


def _check_options(overrides: dict[str, Any]) -> None:
    if not _FIELD_TYPES:
        for f in fields(Ruleset):
            t = str(f.type)
            if t == "bool":
                _FIELD_TYPES[f.name] = (bool,)
            elif t == "int":
                _FIELD_TYPES[f.name] = (int,)
            elif t == "int | None":
                _FIELD_TYPES[f.name] = (int, type(None))
            else:
                _FIELD_TYPES[f.name] = (str,)
    for key, value in overrides.items():
        if key not in _FIELD_TYPES:
            known = ", ".join(sorted(k for k in _FIELD_TYPES if k != "name"))
            raise RulesetError(
                f'"{key}" is not a ruleset option; options are {known}', "unknown_option", name=key
            )
        types = _FIELD_TYPES[key]
        ok = isinstance(value, types) and not (bool not in types and isinstance(value, bool))
        if not ok:
            want = {"(<class 'bool'>,)": "true or false", "(<class 'int'>,)": "a whole number"}.get(
                str(types), "a whole number or null" if int in types else "a text"
            )
            raise RulesetError(f'Option "{key}" must be {want}, not {value!r}', "bad_option", name=key)


# The sensible range of every numeric option that has no natural bound from the deck: what a
# table or a server default may set (docs/RULES.md section 5, "Ranges"). Bounds that depend on the
# deal (board, blind_bid_max, passes) and on another option (lose_score below the target) are
# checked in ``_validate``. A value outside the range is refused with the range, so a stray
# 20-digit number never reaches a game or a database column.
RANGES: dict[str, tuple[int, int, str]] = {
    "target_score": (50, 10_000, "the score that wins"),
    "lose_score": (-10_000, 10_000, "the mercy score"),
    "max_hands": (1, 1_000, "the number of hands"),
    "nil_value": (0, 1_000, "the points for nil"),
    "blind_nil_value": (0, 1_000, "the points for blind nil"),
    "blind_nil_min_deficit": (0, 10_000, "how far behind a side must be to bid blind nil"),
    "blind_bid_min_deficit": (0, 10_000, "how far behind a side must be to bid blind"),
    "bag_limit": (1, 100, "the bags that cost a penalty"),
    "bag_penalty": (0, 1_000, "the points a full set of bags costs"),
    "bag_value": (-100, 100, "the points per bag"),
    "ten_for_value": (50, 1_000, "the points for 10 tricks bid"),
    "set_limit": (1, 10, "the sets that lose the game"),
    "board": (0, 26, "the smallest bid per side"),
    "blind_bid_max": (1, 26, "the highest blind bid"),
    # passing needs partners of two (13 or 17 cards each) or the two-player draw (13 cards), so
    # 12 always leaves a card in the hand
    "blind_nil_pass": (0, 12, "the cards passed after blind nil"),
    "nil_pass": (0, 12, "the cards passed after nil"),
}


def fmt_int(value: int) -> str:
    """A signed number for players: ``−200`` with a real minus sign, ``1,000``; a number too
    long to read is cut (``12345678…``) so a message never carries 20 digits."""
    text = f"{abs(value):,}"
    if len(text) > 13:
        text = text[:9] + "…"
    return ("−" if value < 0 else "") + text


def _check_ranges(rs: Ruleset) -> None:
    for name, (lo, hi, what) in RANGES.items():
        value = getattr(rs, name)
        if value is None:
            continue
        if not lo <= value <= hi:
            off = " (or off)" if name in ("lose_score", "max_hands", "bag_limit", "set_limit") else ""
            raise RulesetError(
                f"{name} ({what}) must be from {fmt_int(lo)} to {fmt_int(hi)}{off}, not {fmt_int(value)}",
                "out_of_range",
                name=name,
                value=value,
                lo=lo,
                hi=hi,
                off=bool(off),
            )


def _validate(rs: Ruleset) -> None:
    def bad(msg: str, reason: str, **values: object) -> None:
        raise RulesetError(msg, reason, **values)

    _check_options({f.name: getattr(rs, f.name) for f in fields(rs)})
    _check_ranges(rs)
    n = rs.num_seats
    if not 2 <= n <= 6:
        bad("Spades is played by 2 to 6 players", "seats")
    if rs.decks not in (1, 2):
        bad("Play with one deck or two", "decks")
    if rs.partnerships and (rs.team_size not in (2, 3) or n % rs.team_size or n // rs.team_size < 2):
        bad(f"{n} players can't be split into teams of {rs.team_size}", "teams", n=n, size=rs.team_size)
    if rs.two_player_draw:
        if n != 2:
            bad("The draw-and-discard deal is for two players", "draw_seats")
        if rs.decks != 1:
            bad("The draw-and-discard deal uses one deck", "draw_decks")
        if rs.nil_pass:
            bad("Two-player Spades passes no cards for nil; set nil_pass to 0", "draw_pass")
        if rs.blind_bids:
            bad("Blind bids with the two-player draw aren't supported; set blind_bids to false", "draw_blind")
    if (
        (rs.blind_nil_pass or rs.nil_pass)
        and not (rs.partnerships and rs.team_size == 2)
        and not (rs.two_player_draw)
    ):
        bad(
            "Cards are passed between two partners: set blind_nil_pass and nil_pass to 0 "
            "for solo play and teams of three",
            "pass_pairs",
        )
    if rs.blind_nil_allowed and not rs.nil_allowed:
        bad(
            "Blind nil needs nil: set nil_allowed to true or blind_nil_allowed to false",
            "blind_nil_needs_nil",
        )
    if rs.deuces_high_all and not rs.deuces_high:
        bad("deuces_high_all needs deuces_high", "deuces_all")
    if rs.whiz and rs.mirrors:
        bad("Whiz and mirrors are two different bidding rules; choose one", "whiz_mirrors")
    if (rs.whiz or rs.mirrors) and rs.blind_bids:
        which = "Whiz" if rs.whiz else "Mirrors"
        bad(
            f"{which} bids are the number of spades held, so blind bids can't apply",
            "fixed_blind",
            variant=which.lower(),
        )
    if rs.mirrors and rs.blind_nil_allowed:
        bad("Mirrors bids are the number of spades held, so blind nil can't apply", "mirrors_blind_nil")
    if rs.mirrors and not rs.nil_allowed:
        bad("Mirrors needs nil for a hand without spades", "mirrors_nil")
    if rs.suicide:
        if not (rs.partnerships and rs.team_size == 2):
            bad("Suicide is for partnerships of two", "suicide_pairs")
        if not rs.nil_allowed:
            bad("Suicide needs nil", "suicide_nil")
        if rs.board:
            bad(
                "Suicide and a board can't both apply (the nil partner's team could not reach the board)",
                "suicide_board",
            )
        if rs.whiz or rs.mirrors:
            bad("Suicide can't be combined with whiz or mirrors", "suicide_fixed")
    if rs.board and (rs.whiz or rs.mirrors):
        bad("A board can't apply when bids are fixed by whiz or mirrors", "board_fixed")
    if rs.lose_score is not None and rs.lose_score >= rs.target_score:
        bad(
            f"lose_score (the mercy score, {fmt_int(rs.lose_score)}) must be below the target "
            f"({fmt_int(rs.target_score)})",
            "mercy_target",
            lose=rs.lose_score,
            target=rs.target_score,
        )
    t = _tables(n, rs.decks, rs.jokers, rs.deuces_high, rs.deuces_high_all, rs.two_player_draw)
    if rs.board > t.hand_size:
        bad(f"The board can't be above {t.hand_size} tricks", "board_max", n=t.hand_size)
    if rs.blind_bid_max > t.hand_size:
        bad(f"blind_bid_max can't be above {t.hand_size}", "blind_max", n=t.hand_size)


# -- derived tables (cached per ruleset) -----------------------------------------------------


@dataclass(frozen=True)
class Tables:
    """Per-ruleset lookup tables used on the hot path."""

    deck: tuple[int, ...]
    hand_size: int
    suit: tuple[int, ...]  # effective suit per card id (jokers, high deuces -> spades)
    power: tuple[int, ...]  # trick strength within the effective suit; trumps >= 100
    suit_masks: tuple[int, ...]  # mask of the deck's cards per effective suit
    deck_mask: int
    lowest_club: tuple[int, ...]  # club ids from lowest, both copies (first-trick rule)


def winning_play(
    trick: Sequence[tuple[int, int]], suit: Sequence[int], power: Sequence[int], last_wins: bool
) -> tuple[int, int]:
    """The ``(seat, card)`` that leads a non-empty trick (``(seat, card)`` in play order): the
    highest spade, else the highest card of the led suit. Two identical cards (two decks) go to
    the later one when ``last_wins`` (``not Ruleset.six_player_first_wins``). ``suit`` and
    ``power`` are the ruleset's tables (`Tables`), so jokers and high deuces count as spades.

    The one statement of the rule: ``Game`` closes each trick with it and the bots read the
    trick in progress with it. ``Game._playout_random`` keeps its own copy, resolving the trick
    card by card as it plays (same comparisons, same order), and so does ``engine.playout`` for
    the plain deck (by rank within the suit), because a call per card there costs a measurable
    share of every playout."""
    win = trick[0]
    win_suit, win_power = suit[win[1]], power[win[1]]
    for i in range(1, len(trick)):
        play = trick[i]
        cs = suit[play[1]]
        if cs == win_suit:
            p = power[play[1]]
            if p > win_power or (last_wins and p == win_power):
                win, win_power = play, p
        elif cs == SPADES:
            win, win_suit, win_power = play, cs, power[play[1]]
    return win


@lru_cache(maxsize=64)
def _sides(n: int, partnerships: bool, team_size: int) -> tuple[tuple[int, ...], ...]:
    if not partnerships:
        return tuple((s,) for s in range(n))
    k = n // team_size
    return tuple(tuple(range(i, n, k)) for i in range(k))


def tables(rs: Ruleset) -> Tables:
    return _tables(rs.num_seats, rs.decks, rs.jokers, rs.deuces_high, rs.deuces_high_all, rs.two_player_draw)


@lru_cache(maxsize=64)
def _tables(n: int, decks: int, jokers: bool, deuces_high: bool, deuces_all: bool, draw: bool) -> Tables:
    high_deuces = []  # ascending strength, all above the ace of spades
    if deuces_high:
        if deuces_all:
            high_deuces += [make_card(0, HEARTS), make_card(0, CLUBS)]
        high_deuces += [make_card(0, DIAMONDS), make_card(0, SPADES)]
    faces = list(range(52)) + ([LITTLE_JOKER, BIG_JOKER] if jokers else [])
    cards = [f + COPY_OFFSET * d for d in range(decks) for f in faces]
    if draw:
        hand_size = 13
    else:
        # Remove low cards until the deck splits evenly (RULES.md section 4): 2C (3 players),
        # 2D and 2H (5 players), 2C and 2D (jokers with 4 players), both 2C (6 players, 2 decks).
        order = ["2D", "2H", "2C", "3D", "3H", "3C"] if n == 5 else ["2C", "2D", "2H", "3C", "3D", "3H"]
        from .cards import parse_card

        removal = [parse_card(t) for t in order]
        removal = [c for c in removal if c not in high_deuces]
        extra = len(cards) % n
        removed: list[int] = []
        i = 0
        while len(removed) < extra:
            f = removal[i // decks]
            removed.append(f + COPY_OFFSET * (i % decks))
            i += 1
        cards = [c for c in cards if c not in removed]
        hand_size = len(cards) // n
    suit = [0] * 128
    power = [0] * 128
    for c in range(128):
        f = c & 63
        if f >= 54:
            continue
        if f >= 52:
            suit[c], power[c] = SPADES, 100 + (f - 52) + 13 + len(high_deuces)
        elif f in high_deuces:
            suit[c], power[c] = SPADES, 113 + high_deuces.index(f)
        else:
            s, r = divmod(f, 13)
            suit[c] = s
            power[c] = 100 + r if s == SPADES else r
    masks = [0, 0, 0, 0]
    for c in cards:
        masks[suit[c]] |= 1 << c
    deck_mask = sum(1 << c for c in cards)
    clubs = sorted((c for c in cards if suit[c] == CLUBS), key=lambda c: (power[c], c))
    return Tables(
        tuple(sorted(cards)), hand_size, tuple(suit), tuple(power), tuple(masks), deck_mask, tuple(clubs)
    )


# -- presets ------------------------------------------------------------------------------

STANDARD = Ruleset()
_NO_PASS: dict[str, Any] = {"blind_nil_pass": 0, "nil_pass": 0}

PRESETS: dict[str, Ruleset] = {
    "standard": STANDARD,
    "classic-online": Ruleset(name="classic-online", blind_nil_allowed=False, blind_nil_pass=0),
    # RULES.md section 3, with its blind nil: declared before the first draw; the blind nil
    # bidder then exchanges up to 3 cards with random discards (blind_nil_pass). Without it:
    # Ruleset.preset("two-player", blind_nil_allowed=False).
    "two-player": Ruleset(
        name="two-player", num_seats=2, partnerships=False, two_player_draw=True, nil_pass=0
    ),
    "cutthroat": Ruleset(name="cutthroat", num_seats=3, partnerships=False, **_NO_PASS),
    "solo": Ruleset(name="solo", num_seats=4, partnerships=False, **_NO_PASS),
    "five-player": Ruleset(name="five-player", num_seats=5, partnerships=False, **_NO_PASS),
    "six-player": Ruleset(name="six-player", num_seats=6, decks=2, team_size=2),
    "six-player-threes": Ruleset(name="six-player-threes", num_seats=6, decks=2, team_size=3, **_NO_PASS),
    "six-player-solo": Ruleset(name="six-player-solo", num_seats=6, decks=2, partnerships=False, **_NO_PASS),
    "jokers-high": Ruleset(name="jokers-high", jokers=True),
    "deuces-high": Ruleset(name="deuces-high", deuces_high=True),
    # big joker, little joker, 2♠, 2♦, then the ace of spades (the 2♣ and 2♥ are taken out)
    "jokers-deuces": Ruleset(name="jokers-deuces", jokers=True, deuces_high=True),
    "whiz": Ruleset(name="whiz", whiz=True, blind_nil_allowed=False, blind_nil_pass=0),
    "mirrors": Ruleset(name="mirrors", mirrors=True, blind_nil_allowed=False, blind_nil_pass=0),
    "suicide": Ruleset(name="suicide", suicide=True, blind_nil_allowed=False, blind_nil_pass=0),
    "short": Ruleset(name="short", target_score=250, bag_limit=5, bag_penalty=50),
    "house": Ruleset(
        name="house",
        blind_nil_min_deficit=100,
        blind_bids=True,
        ten_for_200=True,
        boston=True,
        lose_score=-200,
    ),
}
_ALIASES = {
    "classic": "classic-online",
    "online": "classic-online",
    "2p": "two-player",
    "two": "two-player",
    # an earlier preset: two-player with blind nil, which "two-player" now has itself
    "two-player-blind": "two-player",
    "three-player": "cutthroat",
    "3p": "cutthroat",
    "5p": "five-player",
    "6p": "six-player",
    "jokers": "jokers-high",
    "deuces": "deuces-high",
    "jokers-deuces-high": "jokers-deuces",
}
