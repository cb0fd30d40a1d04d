"""bot.render.review: a hand review as the player reads it, in every language, and its refusals."""

from __future__ import annotations

import re

import pytest

from bot.i18n import LANGUAGES, render
from bot.render.review import TOP_PLAYS, gain_text, refusal_text, review_text
from bot.review import ReviewAnswer, ReviewRefusal
from engine import card_pretty, parse_card
from engine.bids import Bid
from engine.review import Decision, HandReview


def play(trick: int, mine: str, bot: str, gain: float) -> Decision:
    return Decision("play", trick, parse_card(mine), parse_card(bot), gain)


def answer(bid: tuple[int | str, int | str, float], plays: list[Decision]) -> ReviewAnswer:
    mine, bot, gain = bid
    decision = Decision("bid", 0, Bid.parse(mine), Bid.parse(bot), gain)
    return ReviewAnswer(12, 1, 3, HandReview(0, 3, decision, tuple(plays), 13))


FIVE = [
    play(9, "AS", "2S", 31.6),
    play(2, "KH", "3H", 12.2),
    play(5, "QD", "4D", 7.4),
    play(7, "JC", "5C", 2.0),
    play(1, "10C", "6C", 0.2),
]


def test_the_bids_side_by_side_and_the_largest_differences_only() -> None:
    text = render(review_text(answer((6, 4, 18.4), FIVE)), "en")
    assert text.startswith("🧭 **Review of your hand · table 12 · hand 3** (only you see this)")
    assert "**Bid:** you bid 6, the strong bot would have bid 4 (+18 points)." in text
    assert "another card in 5 of your 13 plays" in text
    lines = re.findall(
        r"^• Trick (\d+): you played (\S+), the bot would have played (\S+) \((.*)\)$", text, re.M
    )
    assert lines == [
        ("9", card_pretty(parse_card("AS")), card_pretty(parse_card("2S")), "+32 points"),
        ("2", card_pretty(parse_card("KH")), card_pretty(parse_card("3H")), "+12 points"),
        ("5", card_pretty(parse_card("QD")), card_pretty(parse_card("4D")), "+7 points"),
    ]
    assert len(lines) == TOP_PLAYS
    assert "…and 2 smaller differences." in text
    assert len(text) < 2000


def test_a_hand_played_as_the_bot_would() -> None:
    text = render(review_text(answer(("nil", "nil", 0.0), [])), "en")
    assert "**Bid:** you bid Nil, as the strong bot would have." in text
    assert "the bot would have played all 13 of your cards as you did." in text
    assert "• Trick" not in text and "smaller difference" not in text


def test_gains_are_whole_points_and_noise_is_about_even() -> None:
    assert render(gain_text(1.0), "en") == "+1 point"
    assert render(gain_text(24.6), "en") == "+25 points"
    assert render(gain_text(0.4), "en") == render(gain_text(-3.0), "en") == "about even"


CODES = [
    "not_in_server",
    "other_server",
    "no_table",
    "not_over",
    "night_going",
    "not_at_table",
    "not_reviewed",
    "bad_record",
    "busy",
]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_text_in_every_language(lang: str) -> None:
    texts = [render(review_text(answer((6, 4, 18.4), FIVE)), lang)]
    texts.append(render(review_text(answer(("blind_nil", 3, 40.0), [])), lang))
    refusals = [render(refusal_text(ReviewRefusal(c, {"hand": 3, "night": 4})), lang) for c in CODES]
    assert len(set(refusals)) == len(CODES)  # each reason has its own words
    for text in texts + refusals:
        assert "%(" not in text and len(text) < 2000
    if lang != "en":
        english = [render(refusal_text(ReviewRefusal(c, {"hand": 3, "night": 4})), "en") for c in CODES]
        assert not set(refusals) & set(english)  # translated
    assert "4" in refusals[CODES.index("night_going")] and "3" in refusals[CODES.index("not_over")]
