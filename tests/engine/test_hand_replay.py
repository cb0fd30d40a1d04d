"""engine.record.hand_replay: a finished hand read back from its record, trick by trick."""

from __future__ import annotations

import json

import pytest

from engine import RecordError, card_str
from engine.record import hand_replay
from tests.engine.helpers import play

PRESETS = ["standard", "house", "two-player", "six-player", "cutthroat", "jokers-high"]


@pytest.mark.parametrize("preset", PRESETS)
def test_a_replay_is_the_hand_as_played(preset: str) -> None:
    g = play(preset, seed=11, hands=4)
    for rec in g.hand_records:
        hr = hand_replay(json.loads(json.dumps(rec)))
        assert hr.steps == g.rs.hand_size + 2
        assert [t.winner for t in hr.tricks] == rec["result"]["trick_winners"]
        assert [card_str(c) for t in hr.tricks for _, c in t.plays] == rec["plays"]
        for t in hr.tricks:
            held = hr.held_before(t.no)
            assert all(h.bit_count() == g.rs.hand_size - t.no + 1 for h in held)
            for seat, card in t.plays:
                assert held[seat] >> card & 1, (t.no, seat, card)  # nobody plays a card they lack
        assert hr.tricks[0].plays[0][0] == (hr.dealer + 1) % g.n or g.rs.first_trick_two_clubs


def test_a_broken_record_is_refused() -> None:
    g = play("standard", seed=2, hands=1)
    rec = json.loads(json.dumps(g.hand_records[0]))
    rec["plays"][0], rec["plays"][1] = rec["plays"][1], rec["plays"][0]
    with pytest.raises(RecordError):
        hand_replay(rec)
