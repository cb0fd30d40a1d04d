"""The stats rows of a finished hand: the engine's per-side breakdown attributed to seats."""

from __future__ import annotations

from typing import Any

from bot.hand_stats import hand_player_rows, scored_rows
from engine import Game, HandScored, Ruleset
from engine.bots import get_bot


def _players(users: list[int | None]) -> list[dict[str, Any]]:
    return [{"seat": s, "user_id": u, "is_bot": u is None} for s, u in enumerate(users)]


def test_partnership_breakdown_is_attributed_per_seat() -> None:
    result = {
        "tricks": [4, 0, 5, 4],
        "breakdown": [
            {"seats": [0, 2], "bid": 7, "tricks": 9, "made": True, "bags": 2, "nils": [], "points": 72},
            {
                "seats": [1, 3],
                "bid": 3,
                "tricks": 4,
                "made": True,
                "bags": 1,
                "nils": [{"seat": 1, "kind": "blind_nil", "made": True}],
                "points": 231,
            },
        ],
    }
    rows = {r["seat"]: r for r in hand_player_rows(result, _players([10, 11, None, 13]))}
    assert rows[0]["contract_bid"] and rows[0]["contract_made"] and not rows[0]["nil_attempted"]
    assert (rows[0]["side"], rows[0]["bags"], rows[0]["points"], rows[0]["tricks"]) == (0, 2, 72, 4)
    assert rows[1]["nil_attempted"] and rows[1]["nil_made"] and rows[1]["blind_nil"]
    assert not rows[1]["contract_bid"] and not rows[1]["contract_made"]
    assert rows[2]["user_id"] is None and rows[2]["is_bot"]
    assert all(r["with_bots"] for r in rows.values())
    assert rows[3]["contract_bid"] and rows[3]["contract_made"] and rows[3]["bags"] == 1


def test_set_contract_and_failed_nil() -> None:
    result = {
        "tricks": [1, 5, 2, 5],
        "breakdown": [
            {
                "seats": [0, 2],
                "bid": 6,
                "tricks": 2,
                "made": False,
                "bags": 1,
                "nils": [{"seat": 0, "kind": "nil", "made": False}],
                "points": -160,
            },
            {"seats": [1, 3], "bid": 10, "tricks": 10, "made": True, "bags": 0, "nils": [], "points": 100},
        ],
    }
    rows = {r["seat"]: r for r in hand_player_rows(result, _players([10, 11, 12, 13]))}
    assert rows[0]["nil_attempted"] and not rows[0]["nil_made"] and not rows[0]["blind_nil"]
    assert rows[2]["contract_bid"] and not rows[2]["contract_made"]
    assert not any(r["with_bots"] for r in rows.values())


def test_side_of_only_nils_has_no_contract() -> None:
    """Solo play: a seat that bid nil is its own side with made=None; it is no contract."""
    result = {
        "tricks": [0, 6, 7],
        "breakdown": [
            {"seats": [0], "bid": 0, "tricks": 0, "made": None, "bags": 0,
             "nils": [{"seat": 0, "kind": "nil", "made": True}], "points": 100},
            {"seats": [1], "bid": 5, "tricks": 6, "made": True, "bags": 1, "nils": [], "points": 51},
            {"seats": [2], "bid": 8, "tricks": 7, "made": False, "bags": 0, "nils": [], "points": -80},
        ],
    }  # fmt: skip
    rows = {r["seat"]: r for r in hand_player_rows(result, _players([10, 11, 12]))}
    assert (rows[0]["contract_bid"], rows[0]["nil_made"]) == (False, True)
    assert (rows[1]["contract_bid"], rows[1]["contract_made"], rows[1]["bags"]) == (True, True, 1)
    assert (rows[2]["contract_bid"], rows[2]["contract_made"], rows[2]["side"]) == (True, False, 2)


def test_rows_from_hand_scored_are_the_rows_of_the_hands_record() -> None:
    """The table store's rows (from the live HandScored) are those of the record's stored result."""
    game = Game.new(Ruleset.preset("standard"), seed=5)
    bots = [get_bot("heuristic", seat) for seat in range(4)]
    scored: list[HandScored] = []
    while game.winner is None:
        seat = game.seats_to_act()[0]
        scored += [e for e in game.apply(bots[seat].act(game.view(seat))) if isinstance(e, HandScored)]
    players = _players([10, 11, None, 13])
    assert len(scored) == len(game.hand_records) > 1
    for ev, record in zip(scored, game.hand_records, strict=True):
        assert scored_rows(ev, players) == hand_player_rows(record["result"], players)
