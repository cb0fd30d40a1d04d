"""Pictures: real PNGs, small, with the seats, the winner and the score lines where they belong."""

from __future__ import annotations

import io
import re

import pytest
from PIL import Image

from bot.pictures import (
    CARD_SIZE,
    CHART_SIZE,
    FELT,
    GOLD,
    PANEL,
    RED,
    TABLE_SIZE,
    ScoreSeries,
    SeatInfo,
    SideInfo,
    TableScene,
    card_emoji_name,
    card_png,
    chart_point,
    score_chart_png,
    score_row_box,
    seat_box,
    side_color,
    table_png,
)
from engine.cards import BIG_JOKER, LITTLE_JOKER, parse_card

MAX_BYTES = 100_000


def near(px: tuple[int, ...], color: tuple[int, int, int], tol: int = 14) -> bool:
    return all(abs(a - b) <= tol for a, b in zip(px[:3], color, strict=True))


def open_png(data: bytes) -> Image.Image:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    img = Image.open(io.BytesIO(data))
    img.load()
    return img.convert("RGBA")


def four_seats(winner: int | None) -> TableScene:
    return TableScene(
        "Game over" if winner is not None else "Hand 3",
        [
            SeatInfo("Alice", 0, "4", 5, dealer=True),
            SeatInfo("Bob", 1, "Nil", 0),
            SeatInfo("Carol", 0, "3", 2),
            SeatInfo("Robot", 1, "4", 6, is_bot=True),
        ],
        [SideInfo("Alice & Carol", 512, 3, 71), SideInfo("Bob & Robot", 430, 7, -40)],
        winner=winner,
    )


@pytest.mark.parametrize("winner", [0, 1, None])
def test_table_picture_marks_the_winner(winner: int | None) -> None:
    data = table_png(four_seats(winner))
    assert len(data) < MAX_BYTES
    img = open_png(data)
    assert img.size == TABLE_SIZE
    assert near(img.getpixel((3, TABLE_SIZE[1] // 2)), FELT)
    for seat, side in enumerate([0, 1, 0, 1]):
        box = seat_box(seat, 4)
        mid_y = (box[1] + box[3]) // 2
        assert near(img.getpixel((box[0] + 4, mid_y)), side_color(side))  # the side's stripe
        assert near(img.getpixel(((box[0] + box[2]) // 2, box[3] - 4)), PANEL)
        border = img.getpixel((box[0] - 2, mid_y))
        assert near(border, GOLD) == (side == winner), (seat, border)
    for side in (0, 1):
        row = score_row_box(side)
        inside = img.getpixel((row[2] - 6, (row[1] + row[3]) // 2))
        assert near(inside, GOLD if side == winner else PANEL)


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_seats_never_overlap_and_stay_on_the_picture(n: int) -> None:
    boxes = [seat_box(i, n) for i in range(n)]
    for i, a in enumerate(boxes):
        assert a[0] >= 0 and a[1] >= 60 and a[3] <= TABLE_SIZE[1]
        for b in boxes[i + 1 :]:
            assert a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1], (a, b)
    scene = TableScene(
        "Hand 1", [SeatInfo(f"P{i}", i, None, 0) for i in range(n)], [SideInfo(f"P{i}", 0) for i in range(n)]
    )
    img = open_png(table_png(scene))
    for i, box in enumerate(boxes):
        assert near(img.getpixel((box[0] + 4, (box[1] + box[3]) // 2)), side_color(i))


def test_a_long_name_is_cut_not_spilled() -> None:
    long = TableScene(
        "Hand 1",
        [SeatInfo("W" * 80, 0, "13", 13), SeatInfo("x", 1), SeatInfo("y", 0), SeatInfo("z", 1)],
        [SideInfo("W" * 80, 999), SideInfo("b", 0)],
    )
    img = open_png(table_png(long))
    box = seat_box(0, 4)
    assert near(img.getpixel((box[2] + 3, (box[1] + box[3]) // 2)), FELT)  # nothing drawn past the panel


def test_score_chart_draws_each_side_through_its_scores() -> None:
    scores = [[60, -50], [130, 10], [200, 80], [260, 240], [512, 430]]
    series = ScoreSeries("Score by hand", ["Alice & Carol", "Bob & Robot"], scores, target=500, winner=0)
    data = score_chart_png(series)
    assert len(data) < MAX_BYTES
    img = open_png(data)
    assert img.size == CHART_SIZE
    for hand, row in enumerate(scores, start=1):
        for side, value in enumerate(row):
            assert near(img.getpixel(chart_point(series, hand, value)), side_color(side)), (hand, side)
    # the target line (dashed green) and a blank spot far from every line
    x, y = chart_point(series, 0, 500)
    assert any(near(img.getpixel((x + dx, y)), (60, 140, 60), 30) for dx in range(1, 12))
    assert near(img.getpixel(chart_point(series, 1, 425)), (250, 250, 247), 8)


def test_score_chart_of_a_long_game_with_negative_scores() -> None:
    scores = [[-100 * (h % 3), 40 * h] for h in range(1, 61)]
    series = ScoreSeries("60 hands", ["A", "B"], scores, target=2000, lose=-200)
    img = open_png(score_chart_png(series))
    x, y = chart_point(series, 60, scores[-1][1])
    assert 0 <= x < CHART_SIZE[0] and 0 <= y < CHART_SIZE[1]
    assert near(img.getpixel((x, y)), side_color(1))


def test_card_faces_are_small_distinct_emojis() -> None:
    faces = [*range(52), LITTLE_JOKER, BIG_JOKER]
    names = [card_emoji_name(c) for c in faces]
    assert len(set(names)) == len(faces)
    for name in names:
        assert re.fullmatch(r"[A-Za-z0-9_]{2,32}", name)  # Discord's emoji name rule
    assert card_emoji_name(parse_card("10H")) == "card_10H"
    assert card_emoji_name(parse_card("AS") + 64) == "card_AS"  # the second deck's copy: same face
    pngs = {c: card_png(c) for c in (parse_card("AH"), parse_card("AS"), parse_card("QD"), BIG_JOKER)}
    assert len(set(pngs.values())) == len(pngs)
    for card, data in pngs.items():
        assert len(data) < 256_000  # Discord's emoji upload limit
        img = open_png(data)
        assert img.size == (CARD_SIZE, CARD_SIZE)
        assert img.getpixel((1, 1))[3] == 0  # transparent around the card
        assert near(img.getpixel((CARD_SIZE // 2, 6)), (255, 255, 255), 3)  # white card top
        suit_centre = img.getpixel((CARD_SIZE // 2, int(0.7 * CARD_SIZE)))
        red = card in (parse_card("AH"), parse_card("QD"), BIG_JOKER)
        assert near(suit_centre, RED if red else (25, 25, 25), 20), (card, suit_centre)
