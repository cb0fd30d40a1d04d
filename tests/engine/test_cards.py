import pytest

from engine import (
    BIG_JOKER,
    HEARTS,
    LITTLE_JOKER,
    SPADES,
    CardParseError,
    card_pretty,
    card_str,
    cards_of,
    count,
    face,
    mask_of,
    parse_card,
    suit_of,
)
from engine.cards import hand_str, make_card, pretty_list


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("AS", "AS"),
        ("as", "AS"),
        ("10h", "10H"),
        ("T♥", "10H"),
        ("QD", "QD"),
        ("2c", "2C"),
        (" k ♠ ", "KS"),
        ("BJ", "BJ"),
        ("lj", "LJ"),
        ("10♦", "10D"),
        ("j♣", "JC"),
    ],
)
def test_parse_and_print(text: str, expected: str) -> None:
    assert card_str(parse_card(text)) == expected


def test_every_card_round_trips() -> None:
    for c in [*range(52), LITTLE_JOKER, BIG_JOKER]:
        assert parse_card(card_str(c)) == c
        assert parse_card(card_pretty(c)) == c if c < 52 else True


@pytest.mark.parametrize("text", ["11H", "1H", "0S", "ZZ", "KX", "", "A", "10", "AS!", "QQH"])
def test_bad_cards_are_refused_with_a_readable_message(text: str) -> None:
    with pytest.raises(CardParseError) as info:
        parse_card(text)
    assert "not a card" in str(info.value)


def test_rank_error_names_the_ranks() -> None:
    with pytest.raises(CardParseError, match=r'"11H" is not a card; ranks are 2-10, J, Q, K, A'):
        parse_card("11H")


def test_ids_and_suits() -> None:
    assert parse_card("AS") == 3 * 13 + 12
    assert suit_of(parse_card("7H")) == HEARTS
    assert suit_of(BIG_JOKER) == SPADES and suit_of(LITTLE_JOKER) == SPADES
    assert face(parse_card("AS") + 64) == parse_card("AS")
    assert card_str(parse_card("AS") + 64) == "AS"


def test_masks_and_display_order() -> None:
    cards = [parse_card(t) for t in ["2D", "AS", "KH", "3C", "BJ", "QS", "AH"]]
    m = mask_of(cards)
    assert count(m) == 7
    assert [card_str(c) for c in cards_of(m)] == ["BJ", "AS", "QS", "AH", "KH", "3C", "2D"]
    assert card_pretty(make_card(12, SPADES)) == "A♠"
    assert hand_str(mask_of(parse_card(t) for t in ["AS", "7S", "9H"])) == "♠ A 7   ♥ 9"
    assert pretty_list([parse_card("QH"), parse_card("7H")]) == "7♥ and Q♥"
