"""Check a fair deal after the fact: a revealed seed and salt against the commitment shown before
the hand, and against the hand record (``python -m engine verify``; the scheme is ``engine.fair``)."""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .cards import CardParseError, card_str, parse_card
from .errors import RecordError, RulesetError
from .fair import SCHEME, SHORT_LEN, DealKey, commitment, deal_order, short
from .record import replay
from .ruleset import Ruleset, tables

MIN_PREFIX = 8  # the shortest commitment prefix ``verify`` accepts
_HEX64 = re.compile(r"[0-9a-f]{64}")
_HEX32 = re.compile(r"[0-9a-f]{32}")
_HEX = re.compile(r"[0-9a-f]+")


@dataclass(frozen=True)
class Verdict:
    """The outcome of ``verify``: ``ok`` and one line that says what was (or was not) shown."""

    ok: bool
    message: str

    def __bool__(self) -> bool:
        return self.ok


def _faces(cards: Sequence[int]) -> list[str]:
    return sorted(card_str(c) for c in cards)


def _record_faces(cards: Any) -> list[str] | None:
    if not isinstance(cards, list):
        return None
    try:
        return sorted(card_str(parse_card(c)) for c in cards)
    except (CardParseError, TypeError, AttributeError):
        return None


def verify(
    record: Any, *, seed: str | None = None, salt: str | None = None, commitment_seen: str | None = None
) -> Verdict:
    """Check a hand record's deal against a revealed seed and salt and a commitment.

    ``seed``/``salt`` default to the record's ``fair.seed``/``fair.salt`` (the reveal);
    ``commitment_seen`` (the full commitment or at least 8 of its first hex digits, e.g. the short
    form a player saw on the table) defaults to the record's ``fair.commitment``. Checks, in order:
    the seed and salt hash to the commitment; the deal (and, two-player, the stock, the draws and
    the blind nil replacements) is the one the seed deals; the record replays under the rules to
    the result it states.

    >>> import random
    >>> from engine import Game
    >>> game = Game.new("standard", seed=7, dealer=0, fair=True)
    >>> game.commitment[:16]  # shown before anyone bids
    '0490fe2fbd0e2271'
    >>> game.playout(random.Random(1))
    >>> record = game.hand_records[0]  # reveals the seed and salt
    >>> bool(verify(record))
    True
    >>> record["deal"][0], record["deal"][1] = record["deal"][1], record["deal"][0]
    >>> verify(record).message
    "FAIL: seat 0's cards are not the ones the seed deals"
    """
    if not isinstance(record, dict):
        return Verdict(False, "FAIL: a hand record is a JSON object")
    fair = record.get("fair")
    if fair is not None and not isinstance(fair, dict):
        return Verdict(False, "FAIL: the record's fair field must be an object")
    fair = fair or {}
    if fair.get("scheme", SCHEME) != SCHEME:
        return Verdict(
            False,
            f"FAIL: unknown fairness scheme {json.dumps(fair.get('scheme'))}; this verifier knows {SCHEME}",
        )
    seed = (seed if seed is not None else fair.get("seed")) or None
    salt = (salt if salt is not None else fair.get("salt")) or None
    if seed is None or salt is None:
        return Verdict(
            False,
            "FAIL: no seed and salt to check: the record reveals none "
            "(a hand dealt before fair deals, or one still in play)",
        )
    seed, salt = str(seed).strip().lower(), str(salt).strip().lower()
    if not _HEX64.fullmatch(seed):
        return Verdict(False, "FAIL: the seed must be 64 hex digits")
    if not _HEX32.fullmatch(salt):
        return Verdict(False, "FAIL: the salt must be 32 hex digits")
    full = commitment(seed, salt)
    recorded = fair.get("commitment")
    if recorded is not None and recorded != full:
        return Verdict(
            False,
            f"FAIL: the seed and salt hash to {short(full)}…, not to the record's "
            f"commitment {short(str(recorded))}…",
        )
    seen = commitment_seen if commitment_seen is not None else recorded
    if seen is None:
        return Verdict(False, "FAIL: no commitment to check against (give --commitment)")
    seen = str(seen).strip().lower().replace("…", "").replace(" ", "")
    if len(seen) < MIN_PREFIX or not _HEX.fullmatch(seen) or len(seen) > 64:
        return Verdict(False, f"FAIL: a commitment is {MIN_PREFIX} to 64 hex digits")
    if not full.startswith(seen):
        return Verdict(
            False,
            f"FAIL: the seed and salt hash to {short(full)}…, not to the commitment {seen[:SHORT_LEN]}…",
        )
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
        expected = [_faces(deck[s * k : (s + 1) * k]) for s in range(n)]
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
                return Verdict(
                    False,
                    f"FAIL: the deal matches but the record states {key} "
                    f"{json.dumps(stated[key])}; replaying gives {json.dumps(result[key])}",
                )
    hand = record.get("hand_no", 1)
    return Verdict(
        True,
        f"OK: hand {hand} was dealt from the committed seed ({short(full)}…): "
        f"the seed and salt match the commitment, the deal matches, the record replays",
    )


__all__ = ["MIN_PREFIX", "Verdict", "verify"]
