"""bot.views.buttons: the hand post's buttons (Replay hand, Verify deal, Review my hand), their
custom ids as the persistent items read them back, in the server's language."""

from __future__ import annotations

import re

import engine
from bot.views.buttons import hand_post_view
from bot.views.history import HandPostButton
from tests.bot.factories import open_table


def buttons(fair: bool, lang: str = "en") -> list[tuple[str | None, str | None]]:
    t = open_table(engine.Ruleset.preset("standard"), table_id=12)
    t.game_no = 3
    record = {"hand_no": 5, **({"fair": {"commitment": "ab"}} if fair else {})}
    view = hand_post_view(t, record, lang)
    return [(getattr(b, "label", None), getattr(b, "custom_id", None)) for b in view.children]


def test_the_hand_post_offers_a_review_of_ones_own_hand() -> None:
    assert buttons(fair=True) == [
        ("Replay hand", "hv:12:3:5:r"),
        ("Verify deal", "hv:12:3:5:v"),
        ("Review my hand", "hv:12:3:5:w"),
    ]
    assert buttons(fair=False) == [("Replay hand", "hv:12:3:5:r"), ("Review my hand", "hv:12:3:5:w")]
    assert buttons(fair=False, lang="pl")[1] == (
        "Analiza mojego rozdania",
        "hv:12:3:5:w",
    )  # the server's language


def test_every_hand_post_button_is_read_back_by_its_persistent_item() -> None:
    template = re.compile(HandPostButton.__discord_ui_compiled_template__.pattern)
    for _, custom_id in buttons(fair=True):
        assert custom_id is not None
        m = template.match(custom_id)
        assert m is not None, custom_id
        assert (m["t"], m["g"], m["h"]) == ("12", "3", "5") and m["what"] == custom_id[-1]
