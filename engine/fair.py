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

Everything here is pure and deterministic but ``new_key`` (``secrets``). Checking a revealed key
against a hand record is ``engine.verify``.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import cached_property

SCHEME = "sha256-v1"
SHORT_LEN = 16  # hex digits of the commitment shown on the table (64 bits)


@dataclass(frozen=True)
class DealKey:
    """One hand's secret: the shuffle seed and the salt of its commitment (lower-case hex)."""

    seed: str
    salt: str

    @cached_property
    def commitment(self) -> str:
        """Hashed once per key: the live message shows it on every redraw, and a table's copies
        share their key."""
        return commitment(self.seed, self.salt)


def new_key() -> DealKey:
    """A fresh, unpredictable key (``secrets``)."""
    return DealKey(secrets.token_hex(32), secrets.token_hex(16))


def derived_key(seed: int | str, salt: str, hand_no: int) -> DealKey:
    """The key of a hand of a *reproducible* game (``Game.new(seed=...)``, tests only): derived
    from the game's seed, so anyone who knows that seed knows every deal. Live games use
    ``new_key``."""
    base = f"spades-test-deal|{seed}|{salt}|{hand_no}"
    return DealKey(
        hashlib.sha256(base.encode()).hexdigest(), hashlib.sha256((base + "|salt").encode()).hexdigest()[:32]
    )


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
            yield int.from_bytes(block[j : j + 4], "big")
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


__all__ = [
    "SCHEME",
    "SHORT_LEN",
    "DealKey",
    "commitment",
    "deal_order",
    "derived_key",
    "new_key",
    "replacements",
    "short",
    "shuffle",
]
