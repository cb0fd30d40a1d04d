"""Provably fair deals: a per-hand secret seed, a commitment shown before the hand, a reveal after.

Scheme ``sha256-v1`` (docs/ENGINE_API.md, "Provably fair deals"):

- Before a hand is dealt the dealer draws a **seed** (32 random bytes, 64 hex digits) and a
  **salt** (16 random bytes, 32 hex digits) with ``secrets``. The seed alone decides the deal.
- The **commitment** is ``sha256("spades-deal/1\\n" + seed + "\\n" + salt)`` in hex; its first 16
  digits are the short form shown to players. It is published before anyone bids; the seed
  and salt stay secret until the hand is over, then the hand record reveals them.
- The deck (the ruleset's card ids in ascending order) is shuffled by Fisher–Yates driven by a
  SHA-256 counter stream: block ``i`` is ``sha256(seed + "|" + label + "|" + str(i))`` (ASCII),
  read as big-endian 32-bit words; a draw below ``n`` takes the next word ``w`` and returns
  ``w % n`` unless ``w >= 2**32 - 2**32 % n`` (then the word is skipped: no modulo bias). For
  ``i`` from ``len - 1`` down to ``1`` swap ``deck[i]`` with ``deck[draw below i + 1]``. The label
  of the deal is ``deal|<redeal>`` (0 for the first deal of a hand, 1 after one misdeal …).
  Seat ``s`` gets cards ``s*k … s*k+k-1`` of the shuffled deck (``k`` the hand size); in the
  two-player draw the shuffled deck is the stock. The cards a two-player blind nil bidder
  receives from the discards are the first ``r`` of the discards (ascending ids) shuffled with the
  label ``swap|<redeal>|<seat>``.

Everything here is pure and deterministic but ``new_key`` (``secrets``).
"""

from __future__ import annotations

import hashlib
import json
import re
import secrets
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

SCHEME = "sha256-v1"
SHORT_LEN = 16  # hex digits of the commitment shown on the table (64 bits)
MIN_PREFIX = 8  # the shortest commitment prefix ``verify`` accepts
_HEX64 = re.compile(r"[0-9a-f]{64}")
_HEX32 = re.compile(r"[0-9a-f]{32}")
_HEX = re.compile(r"[0-9a-f]+")


@dataclass(frozen=True)
class DealKey:
    """One hand's secret: the shuffle seed and the salt of its commitment (lower-case hex)."""

    seed: str
    salt: str

    @property
    def commitment(self) -> str:
        return commitment(self.seed, self.salt)


def new_key() -> DealKey:
    """A fresh, unpredictable key (``secrets``)."""
    return DealKey(secrets.token_hex(32), secrets.token_hex(16))


def derived_key(seed: int | str, salt: str, hand_no: int) -> DealKey:
    """The key of a hand of a *reproducible* game (``Game.new(seed=...)``, tests only): derived
    from the game's seed, so anyone who knows that seed knows every deal. Live games use
    ``new_key``."""
    base = f"spades-test-deal|{seed}|{salt}|{hand_no}"
    return DealKey(hashlib.sha256(base.encode()).hexdigest(),
                   hashlib.sha256((base + "|salt").encode()).hexdigest()[:32])


def commitment(seed: str, salt: str) -> str:
    """The full commitment (64 hex digits) to a seed and salt."""
    return hashlib.sha256(f"spades-deal/1\n{seed}\n{salt}".encode()).hexdigest()


def short(commit: str) -> str:
    """The short form shown to players (the first 16 hex digits)."""
    return commit[:SHORT_LEN]


def _words(seed: str, label: str) -> Iterator[int]:
    prefix = f"{seed}|{label}|".encode()
    i = 0
    while True:
        block = hashlib.sha256(prefix + str(i).encode()).digest()
        for j in range(0, 32, 4):
            yield int.from_bytes(block[j:j + 4], "big")
        i += 1


def shuffle(seed: str, deck: Sequence[int], label: str) -> list[int]:
    """``deck`` shuffled by the seed's stream for ``label`` (Fisher–Yates, no modulo bias)."""
    out = list(deck)
    words = _words(seed, label)
    for i in range(len(out) - 1, 0, -1):
        n = i + 1
        limit = 2**32 - 2**32 % n
        w = next(words)
        while w >= limit:
            w = next(words)
        j = w % n
        out[i], out[j] = out[j], out[i]
    return out


def deal_label(redeal: int) -> str:
    return f"deal|{redeal}"


def swap_label(redeal: int, seat: int) -> str:
    return f"swap|{redeal}|{seat}"


def deal_order(seed: str, deck: Sequence[int], redeal: int = 0) -> list[int]:
    """The shuffled deck of a hand's deal (``redeal`` counts misdeals before it)."""
    return shuffle(seed, deck, deal_label(redeal))


def replacements(seed: str, pool: Sequence[int], k: int, redeal: int, seat: int) -> list[int]:
    """The ``k`` cards a two-player blind nil bidder draws from the discards ``pool``."""
    return shuffle(seed, sorted(pool), swap_label(redeal, seat))[:k]


# -- verification -----------------------------------------------------------------------------

@dataclass(frozen=True)
class Verdict:
    """The outcome of ``verify``: ``ok`` and one line that says what was (or was not) shown."""

    ok: bool
    message: str

    def __bool__(self) -> bool:
        return self.ok


def _faces(cards: Sequence[int]) -> list[str]:
    from .cards import card_str

    return sorted(card_str(c) for c in cards)


def _record_faces(cards: Any) -> list[str] | None:
    from .cards import CardParseError, card_str, parse_card

    if not isinstance(cards, list):
        return None
    try:
        return sorted(card_str(parse_card(c)) for c in cards)
    except (CardParseError, TypeError, AttributeError):
        return None


def verify(record: Any, *, seed: str | None = None, salt: str | None = None,
           commitment_seen: str | None = None) -> Verdict:
    """Check a hand record's deal against a revealed seed and salt and a commitment.

    ``seed``/``salt`` default to the record's ``fair.seed``/``fair.salt`` (the reveal);
    ``commitment_seen`` (the full commitment or at least 8 of its first hex digits, e.g. the short
    form a player saw on the table) defaults to the record's ``fair.commitment``. Checks, in order:
    the seed and salt hash to the commitment; the deal (and, two-player, the stock, the draws and
    the blind nil replacements) is the one the seed deals; the record replays under the rules to
    the result it states.
    """
    from .errors import RecordError, RulesetError
    from .record import replay
    from .ruleset import Ruleset, tables

    if not isinstance(record, dict):
        return Verdict(False, "FAIL: a hand record is a JSON object")
    fair = record.get("fair")
    if fair is not None and not isinstance(fair, dict):
        return Verdict(False, "FAIL: the record's fair field must be an object")
    fair = fair or {}
    if fair.get("scheme", SCHEME) != SCHEME:
        return Verdict(False, f"FAIL: unknown fairness scheme {json.dumps(fair.get('scheme'))}; "
                              f"this verifier knows {SCHEME}")
    seed = (seed if seed is not None else fair.get("seed")) or None
    salt = (salt if salt is not None else fair.get("salt")) or None
    if seed is None or salt is None:
        return Verdict(False, "FAIL: no seed and salt to check: the record reveals none "
                              "(a hand dealt before fair deals, or one still in play)")
    seed, salt = str(seed).strip().lower(), str(salt).strip().lower()
    if not _HEX64.fullmatch(seed):
        return Verdict(False, "FAIL: the seed must be 64 hex digits")
    if not _HEX32.fullmatch(salt):
        return Verdict(False, "FAIL: the salt must be 32 hex digits")
    full = commitment(seed, salt)
    recorded = fair.get("commitment")
    if recorded is not None and recorded != full:
        return Verdict(False, f"FAIL: the seed and salt hash to {short(full)}…, not to the record's "
                              f"commitment {short(str(recorded))}…")
    seen = commitment_seen if commitment_seen is not None else recorded
    if seen is None:
        return Verdict(False, "FAIL: no commitment to check against (give --commitment)")
    seen = str(seen).strip().lower().replace("…", "").replace(" ", "")
    if len(seen) < MIN_PREFIX or not _HEX.fullmatch(seen) or len(seen) > 64:
        return Verdict(False, f"FAIL: a commitment is {MIN_PREFIX} to 64 hex digits")
    if not full.startswith(seen):
        return Verdict(False, f"FAIL: the seed and salt hash to {short(full)}…, "
                              f"not to the commitment {seen[:SHORT_LEN]}…")
    try:
        rs = Ruleset.from_dict(record.get("ruleset", "standard"))
    except (RulesetError, TypeError) as e:
        return Verdict(False, f"FAIL: ruleset: {e}")
    redeal = fair.get("redeal", 0)
    if not isinstance(redeal, int) or isinstance(redeal, bool) or redeal < 0:
        return Verdict(False, "FAIL: fair.redeal must be a whole number of misdeals, 0 or more")
    t = tables(rs)
    deck = deal_order(seed, t.deck, redeal)
    deal = record.get("deal")
    if not isinstance(deal, list) or len(deal) != rs.num_seats:
        return Verdict(False, f"FAIL: the record's deal must list {rs.num_seats} seats")
    n, k = rs.num_seats, t.hand_size
    if rs.two_player_draw:
        draw = record.get("draw") or {}
        stock = draw.get("stock") if isinstance(draw, dict) else None
        keeps = draw.get("keeps") if isinstance(draw, dict) else None
        if not isinstance(stock, list) or not isinstance(keeps, list):
            return Verdict(False, "FAIL: a two-player record must carry draw.stock and draw.keeps")
        from .cards import card_str

        if [card_str(c) for c in deck] != [str(c).upper() for c in stock]:
            return Verdict(False, "FAIL: the stock is not the one the seed shuffles")
        dealer = record.get("dealer", 0)
        if dealer not in (0, 1):
            return Verdict(False, "FAIL: the dealer must be seat 0 or 1")
        kept: list[list[int]] = [[], []]
        seat, pos = dealer, 0
        for keep in keeps:
            if pos + 1 >= len(deck):
                return Verdict(False, "FAIL: the record draws more cards than the stock holds")
            kept[seat].append(deck[pos] if keep else deck[pos + 1])
            pos += 2
            seat = 1 - seat
        expected = [_faces(h) for h in kept]
    else:
        expected = [_faces(deck[s * k:(s + 1) * k]) for s in range(n)]
    for s in range(n):
        if _record_faces(deal[s]) != expected[s]:
            return Verdict(False, f"FAIL: seat {s}'s cards are not the ones the seed deals")
    try:
        result = replay(record, deal_key=DealKey(seed, salt), redeal=redeal)
    except RecordError as e:
        return Verdict(False, f"FAIL: the deal matches but the record does not replay: {e}")
    stated = record.get("result")
    if isinstance(stated, dict):
        for key in ("tricks", "scores", "bags", "winner"):
            if key in stated and stated[key] != result[key]:
                return Verdict(False, f"FAIL: the deal matches but the record states {key} "
                                      f"{json.dumps(stated[key])}; replaying gives {json.dumps(result[key])}")
    hand = record.get("hand_no", 1)
    return Verdict(True, f"OK: hand {hand} was dealt from the committed seed ({short(full)}…): "
                         f"the seed and salt match the commitment, the deal matches, the record replays")


__all__ = [
    "MIN_PREFIX",
    "SCHEME",
    "SHORT_LEN",
    "DealKey",
    "Verdict",
    "commitment",
    "deal_order",
    "derived_key",
    "new_key",
    "replacements",
    "short",
    "shuffle",
    "verify",
]
