"""Pictures for the channel: the table after a hand or at game over, a score chart, card faces.

Pure functions from plain data to PNG bytes (Pillow only: no service, no discord, no I/O), so the
caller can run them in an executor, off the event loop. Sizes and timings: ``bench/pictures.py``.
The layout helpers (``seat_box``, ``score_row_box``, ``chart_point``) say where things are drawn,
for tests that read pixels back.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

from engine.cards import BIG_JOKER, LITTLE_JOKER, card_str, face, rank_of, suit_of

Color = tuple[int, int, int]
Box = tuple[int, int, int, int]

FELT: Color = (22, 84, 52)
FELT_DARK: Color = (16, 66, 40)
PANEL: Color = (245, 242, 232)
INK: Color = (30, 30, 30)
MUTED: Color = (105, 105, 105)
GOLD: Color = (240, 190, 40)
WHITE: Color = (255, 255, 255)
CHART_BG: Color = (250, 250, 247)
GRID: Color = (222, 222, 215)
RED: Color = (200, 30, 40)
BLACK: Color = (25, 25, 25)
# one colour per side (team or solo player), told apart also by colour-blind players
SIDE_COLORS: tuple[Color, ...] = (
    (0, 114, 178),  # blue
    (213, 94, 0),  # vermilion
    (0, 158, 115),  # green
    (204, 121, 167),  # purple
    (86, 180, 233),  # sky
    (230, 159, 0),  # orange
)

TABLE_SIZE = (720, 420)
TABLE_AREA = 470  # width of the felt; the score panel is to its right
SEAT_W, SEAT_H = 150, 62
CHART_SIZE = (640, 320)
CHART_MARGIN = (56, 58, 20, 44)  # left, top, right, bottom
CARD_SIZE = 128

_FONT_DIRS = (
    str(Path(__file__).parent / "assets" / "fonts"),  # DejaVu Sans ships with the bot
    "/usr/share/fonts/truetype/dejavu",
    "/usr/share/fonts/dejavu",
    "/usr/share/fonts/TTF",
    "/Library/Fonts",
)
# Fonts that draw Latin with Polish and Czech diacritics and Cyrillic, best first (regular, bold).
# DejaVu Sans ships with the bot (bot/assets/fonts, its licence beside it); the others, for a
# trimmed install, are looked up by file name in the system's font folders by Pillow itself.
FONT_FILES: tuple[tuple[str, str], ...] = (
    ("DejaVuSans.ttf", "DejaVuSans-Bold.ttf"),
    ("LiberationSans-Regular.ttf", "LiberationSans-Bold.ttf"),
    ("NotoSans-Regular.ttf", "NotoSans-Bold.ttf"),
    ("FreeSans.ttf", "FreeSansBold.ttf"),
    ("arial.ttf", "arialbd.ttf"),
    ("Arial.ttf", "Arial Bold.ttf"),
)
Font = ImageFont.FreeTypeFont | ImageFont.ImageFont


def _font_file(bold: bool) -> str | None:
    """The first of :data:`FONT_FILES` this system has (a path or a name Pillow can open)."""
    for regular, heavy in FONT_FILES:
        name = heavy if bold else regular
        for d in _FONT_DIRS:
            p = Path(d) / name
            if p.is_file():
                return str(p)
        try:
            ImageFont.truetype(name, 10)  # Pillow searches the system's font folders for a bare name
        except OSError:
            continue
        return name
    return None


@lru_cache(maxsize=32)
def font(size: int, bold: bool = False) -> Font:
    """DejaVu Sans (bundled: wide Unicode coverage), else another font with Polish,
    Czech and Cyrillic letters (:data:`FONT_FILES`), else Pillow's own font (Latin only)."""
    path = _font_file(bold) or (_font_file(False) if bold else None)
    if path is not None:
        return ImageFont.truetype(path, size)
    return ImageFont.load_default(size=size)


def _glyph(fnt: Font, ch: str) -> tuple[tuple[int, int], bytes]:
    mask = fnt.getmask(ch)
    return mask.size, bytes(mask)


@lru_cache(maxsize=4096)
def has_glyph(ch: str) -> bool:
    """Whether the pictures' fonts (regular and bold) draw ``ch`` (a letter a font lacks draws as
    the same empty box as a code point no font has)."""
    if ch.isspace():
        return True
    for bold in (False, True):
        fnt = font(14, bold)
        if _glyph(fnt, ch) == _glyph(fnt, "\U0010ffff"):
            return False
    return True


def can_draw(text: str) -> bool:
    """Whether the pictures' fonts have a glyph for every letter of ``text``."""
    return all(has_glyph(ch) for ch in set(text))


def picture_name(name: str, seat: int, empty: str = "Seat %(n)s") -> str:
    """A player's name as the picture can draw it: emoji, other symbols and letters the font lacks
    are left out (they would draw as boxes); ``empty`` (``Seat n``) if nothing is left."""
    import unicodedata

    missing = ("So", "Cs", "Co", "Cn")  # symbols (emoji), surrogates, private use, unassigned
    kept = "".join(
        ch for ch in name if ord(ch) <= 0xFFFF and unicodedata.category(ch) not in missing and has_glyph(ch)
    )
    kept = " ".join(kept.split())
    return kept or empty % {"n": seat + 1}


@dataclass(frozen=True)
class Words:
    """The pictures' own words, in the reader's language (``bot.render.scenes.picture_words`` fills them
    from the catalogs; this module stays free of them). Templates use named ``%(…)s`` fields."""

    bot: str = "%(name)s (bot)"
    seat_line: str = "bid %(bid)s · took %(tricks)s"
    dealer: str = "D"  # the dealer's one-letter mark
    score: str = "Score"
    columns: str = "total · bags"
    columns_hand: str = "total · bags · this hand"
    won: str = "%(name)s won"
    axis: str = "hand"
    won_legend: str = "%(name)s (won)"

    def texts(self) -> tuple[str, ...]:
        return (
            self.bot,
            self.seat_line,
            self.dealer,
            self.score,
            self.columns,
            self.columns_hand,
            self.won,
            self.axis,
            self.won_legend,
        )


ENGLISH = Words()


def side_color(side: int) -> Color:
    return SIDE_COLORS[side % len(SIDE_COLORS)]


def _png(img: Image.Image) -> bytes:
    buf = io.BytesIO()
    # a 64-colour palette keeps flat drawings small (antialiased text included) and is fast
    img.quantize(colors=64, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE).save(
        buf, format="PNG", optimize=False, compress_level=6
    )
    return buf.getvalue()


def _fit(
    draw: ImageDraw.ImageDraw, text: str, fnt: ImageFont.FreeTypeFont | ImageFont.ImageFont, width: int
) -> str:
    """``text`` cut with an ellipsis to fit ``width`` pixels."""
    if draw.textlength(text, font=fnt) <= width:
        return text
    while text and draw.textlength(text + "…", font=fnt) > width:
        text = text[:-1]
    return text + "…"


def _shrink(draw: ImageDraw.ImageDraw, text: str, width: int, sizes: Sequence[int]) -> tuple[str, Font]:
    """``text`` in the first of ``sizes`` it fits in (longer words in other languages), else cut."""
    for size in sizes:
        fnt = font(size)
        if draw.textlength(text, font=fnt) <= width:
            return text, fnt
    fnt = font(sizes[-1])
    return _fit(draw, text, fnt, width), fnt


# -- the table ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class SeatInfo:
    """One seat as the picture shows it."""

    name: str
    side: int
    bid: str | None = None  # "4", "Nil", "Blind nil"; None before bidding
    tricks: int = 0
    is_bot: bool = False
    dealer: bool = False


@dataclass(frozen=True)
class SideInfo:
    """One side (team or solo player): its name, running score and bags, this hand's points."""

    name: str
    score: int
    bags: int = 0
    points: int | None = None  # this hand's change, when the picture follows a hand


@dataclass(frozen=True)
class TableScene:
    """Everything the table picture shows."""

    title: str  # "Hand 3" or "Game over"
    seats: Sequence[SeatInfo]
    sides: Sequence[SideInfo]
    winner: int | None = None  # the winning side, at game over
    subtitle: str = ""  # e.g. the ruleset, "to 500"
    notes: Sequence[str] = field(default_factory=tuple)  # short lines under the scores
    words: Words = ENGLISH


def seat_box(seat: int, num_seats: int) -> Box:
    """Where seat ``seat`` of ``num_seats`` is drawn: seat 0 at the bottom, the others clockwise
    around the table (as players sit: left, across, right for four)."""
    import math

    cx, cy = TABLE_AREA // 2, TABLE_SIZE[1] // 2 + 28
    rx, ry = TABLE_AREA // 2 - SEAT_W // 2 - 8, TABLE_SIZE[1] // 2 - SEAT_H // 2 - 38
    angle = math.pi / 2 + 2 * math.pi * seat / num_seats  # 90° = bottom (y grows downwards)
    x = cx + rx * math.cos(angle)
    y = cy + ry * math.sin(angle)
    x0, y0 = round(x - SEAT_W / 2), round(y - SEAT_H / 2)
    return (x0, y0, x0 + SEAT_W, y0 + SEAT_H)


def score_row_box(side: int) -> Box:
    """Where side ``side``'s score row is drawn in the panel right of the table."""
    x0 = TABLE_AREA + 12
    y0 = 74 + side * 54
    return (x0, y0, TABLE_SIZE[0] - 12, y0 + 46)


def table_png(scene: TableScene) -> bytes:
    """The table picture: seats with bids and tricks, the scores, the winner (PNG bytes)."""
    w, h = TABLE_SIZE
    words = scene.words
    img = Image.new("RGB", (w, h), FELT)
    d = ImageDraw.Draw(img)
    n = len(scene.seats)
    # the table top
    d.ellipse((40, 96, TABLE_AREA - 40, h - 30), fill=FELT_DARK)
    d.text((16, 12), _fit(d, scene.title, font(24, True), TABLE_AREA - 24), font=font(24, True), fill=WHITE)
    if scene.subtitle:
        sub = _fit(d, scene.subtitle, font(14), TABLE_AREA - 24)
        d.text((16, 44), sub, font=font(14), fill=(200, 220, 205))
    for i, seat in enumerate(scene.seats):
        box = seat_box(i, n)
        won = scene.winner is not None and seat.side == scene.winner
        if won:
            d.rounded_rectangle((box[0] - 4, box[1] - 4, box[2] + 4, box[3] + 4), 12, fill=GOLD)
        d.rounded_rectangle(box, 9, fill=PANEL)
        d.rounded_rectangle((box[0], box[1], box[0] + 10, box[3]), 5, fill=side_color(seat.side))
        name = seat.name
        f_name = font(15, True)
        if seat.is_bot:
            name = words.bot % {"name": name}
        d.text((box[0] + 18, box[1] + 8), _fit(d, name, f_name, SEAT_W - 26), font=f_name, fill=INK)
        bid = "—" if seat.bid is None else seat.bid
        line = words.seat_line % {"bid": bid, "tricks": seat.tricks}
        line, f_line = _shrink(d, line, SEAT_W - 26, (14, 13, 12, 11))
        if line.endswith("…"):  # a long bid ("Слепой ноль"): cut the bid, keep the tricks
            rest = d.textlength(words.seat_line % {"bid": "", "tricks": seat.tricks}, font=f_line)
            short_bid = _fit(d, bid, f_line, int(SEAT_W - 26 - rest))
            line = words.seat_line % {"bid": short_bid, "tricks": seat.tricks}
        d.text((box[0] + 18, box[1] + 34), line, font=f_line, fill=MUTED)
        if seat.dealer:
            dx, dy = box[2] - 20, box[1] + 6
            d.ellipse((dx, dy, dx + 14, dy + 14), fill=INK)
            d.text((dx + 7, dy + 7), words.dealer[:2], font=font(10, True), fill=WHITE, anchor="mm")
    # the score panel
    d.rectangle((TABLE_AREA, 0, w, h), fill=(12, 52, 32))
    panel_w = w - TABLE_AREA - 28
    d.text(
        (TABLE_AREA + 14, 16), _fit(d, words.score, font(22, True), panel_w), font=font(22, True), fill=WHITE
    )
    hdr = words.columns_hand if any(s.points is not None for s in scene.sides) else words.columns
    d.text((TABLE_AREA + 14, 48), _fit(d, hdr, font(12), panel_w), font=font(12), fill=(190, 210, 195))
    for i, side in enumerate(scene.sides):
        box = score_row_box(i)
        won = scene.winner == i
        d.rounded_rectangle(box, 8, fill=GOLD if won else PANEL)
        d.rounded_rectangle((box[0], box[1], box[0] + 8, box[3]), 4, fill=side_color(i))
        label = side.name
        d.text(
            (box[0] + 16, box[1] + 5),
            _fit(d, label, font(13, True), box[2] - box[0] - 24),
            font=font(13, True),
            fill=INK,
        )
        nums = f"{side.score} · {side.bags}"
        if side.points is not None:
            nums += f" · {side.points:+d}"
        d.text((box[0] + 16, box[1] + 24), nums, font=font(15), fill=INK)
    y = score_row_box(len(scene.sides))[1]
    if scene.winner is not None and 0 <= scene.winner < len(scene.sides):
        msg = words.won % {"name": scene.sides[scene.winner].name}
        d.text(
            (TABLE_AREA + 14, y),
            _fit(d, msg, font(15, True), w - TABLE_AREA - 24),
            font=font(15, True),
            fill=GOLD,
        )
        y += 24
    for note in scene.notes[:4]:
        d.text(
            (TABLE_AREA + 14, y),
            _fit(d, note, font(12), w - TABLE_AREA - 24),
            font=font(12),
            fill=(210, 225, 215),
        )
        y += 18
    return _png(img)


# -- the score chart --------------------------------------------------------------------------


@dataclass(frozen=True)
class ScoreSeries:
    """Each side's running score after every hand (``scores[hand][side]``)."""

    title: str
    sides: Sequence[str]
    scores: Sequence[Sequence[int]]
    target: int | None = None
    lose: int | None = None  # the mercy line, when the ruleset has one
    winner: int | None = None
    words: Words = ENGLISH


def _chart_range(series: ScoreSeries) -> tuple[int, int]:
    values = [v for row in series.scores for v in row] + [0]
    if series.target is not None:
        values.append(series.target)
    if series.lose is not None:
        values.append(series.lose)
    lo, hi = min(values), max(values)
    if hi == lo:
        hi = lo + 100
    step = 50 if hi - lo <= 400 else 100 if hi - lo <= 1000 else 250
    return (lo // step) * step, -((-hi) // step) * step


def chart_point(series: ScoreSeries, hand_index: int, value: int) -> tuple[int, int]:
    """Pixel of ``value`` after hand ``hand_index`` (0 = before the first hand)."""
    w, h = CHART_SIZE
    left, top, right, bottom = CHART_MARGIN
    lo, hi = _chart_range(series)
    hands = max(1, len(series.scores))
    x = left + (w - left - right) * hand_index / hands
    y = top + (h - top - bottom) * (hi - value) / (hi - lo)
    return round(x), round(y)


def score_chart_png(series: ScoreSeries) -> bytes:
    """A line per side over the game's hands, the target (and mercy) lines dashed (PNG bytes)."""
    w, h = CHART_SIZE
    left, _top, right, bottom = CHART_MARGIN
    img = Image.new("RGB", (w, h), CHART_BG)
    d = ImageDraw.Draw(img)
    d.text((left, 10), _fit(d, series.title, font(16, True), w - left - right), font=font(16, True), fill=INK)
    lo, hi = _chart_range(series)
    step = 50 if hi - lo <= 400 else 100 if hi - lo <= 1000 else 250
    f = font(11)
    for v in range(lo, hi + 1, step):
        _, y = chart_point(series, 0, v)
        d.line((left, y, w - right, y), fill=GRID if v else (170, 170, 165), width=1)
        d.text((left - 6, y), str(v), font=f, fill=MUTED, anchor="rm")
    hands = len(series.scores)
    every = max(1, -(-hands // 12))
    for i in range(0, hands + 1, every):
        x, _ = chart_point(series, i, lo)
        d.text((x, h - bottom + 8), str(i), font=f, fill=MUTED, anchor="mt")
    d.text(((left + w - right) // 2, h - 14), series.words.axis, font=f, fill=MUTED, anchor="mm")
    for line, color in ((series.target, (60, 140, 60)), (series.lose, (180, 60, 60))):
        if line is None:
            continue
        _, y = chart_point(series, 0, line)
        for x in range(left, w - right, 12):
            d.line((x, y, min(x + 6, w - right), y), fill=color, width=2)
    for s in range(len(series.sides)):
        pts = [chart_point(series, 0, 0)] + [
            chart_point(series, i + 1, row[s]) for i, row in enumerate(series.scores)
        ]
        color = side_color(s)
        d.line(pts, fill=color, width=3, joint="curve")
        for x, y in pts[1:]:
            d.ellipse((x - 3, y - 3, x + 3, y + 3), fill=color)
    # legend
    x = left + 4
    for s, name in enumerate(series.sides):
        label = series.words.won_legend % {"name": name} if series.winner == s else name
        label = _fit(d, label, font(12, series.winner == s), 180)
        d.rectangle((x, 34, x + 10, 44), fill=side_color(s))
        d.text((x + 14, 39), label, font=font(12, series.winner == s), fill=INK, anchor="lm")
        x += 24 + int(d.textlength(label, font=font(12, series.winner == s)))
        if x > w - right - 60:
            break
    return _png(img)


# -- card faces (application emojis) ------------------------------------------------------------


def card_emoji_name(card: int) -> str:
    """The application emoji's name for a card face: ``card_AS``, ``card_10H``, ``card_BJ``."""
    return "card_" + card_str(face(card))


def _suit_shape(d: ImageDraw.ImageDraw, suit: int, cx: float, cy: float, r: float, fill: Color) -> None:
    """A suit symbol drawn as shapes (no font needed), about ``2r`` across, centred at cx, cy."""
    if suit == 1:  # diamond
        d.polygon([(cx, cy - r), (cx + 0.75 * r, cy), (cx, cy + r), (cx - 0.75 * r, cy)], fill=fill)
        return
    if suit in (2, 3):  # heart, or spade (an upside-down heart with a stem)
        sgn = 1 if suit == 2 else -1
        lobe = 0.52 * r
        ly = cy - sgn * 0.35 * r
        for lx in (cx - lobe, cx + lobe):
            d.ellipse((lx - lobe, ly - lobe, lx + lobe, ly + lobe), fill=fill)
        edge = ly + sgn * 0.15 * r
        d.polygon(
            [(cx - 2 * lobe + 0.04 * r, edge), (cx + 2 * lobe - 0.04 * r, edge), (cx, cy + sgn * r)],
            fill=fill,
        )
        if suit == 3:
            d.polygon([(cx, cy + 0.1 * r), (cx - 0.35 * r, cy + r), (cx + 0.35 * r, cy + r)], fill=fill)
        return
    # club: three leaves and a stem
    leaf = 0.4 * r
    for lx, ly in ((cx, cy - 0.5 * r), (cx - 0.5 * r, cy + 0.1 * r), (cx + 0.5 * r, cy + 0.1 * r)):
        d.ellipse((lx - leaf, ly - leaf, lx + leaf, ly + leaf), fill=fill)
    d.polygon([(cx, cy - 0.1 * r), (cx - 0.35 * r, cy + r), (cx + 0.35 * r, cy + r)], fill=fill)


def _star(d: ImageDraw.ImageDraw, cx: float, cy: float, r: float, fill: Color) -> None:
    import math

    pts = []
    for i in range(10):
        rr = r if i % 2 == 0 else r * 0.45
        a = -math.pi / 2 + i * math.pi / 5
        pts.append((cx + rr * math.cos(a), cy + rr * math.sin(a)))
    d.polygon(pts, fill=fill)


def card_color(card: int) -> Color:
    """The ink of a card face: red for hearts, diamonds and the big joker, else black."""
    c = face(card)
    if c == BIG_JOKER:
        return RED
    if c == LITTLE_JOKER:
        return BLACK
    return RED if suit_of(c) in (1, 2) else BLACK


def card_png(card: int) -> bytes:
    """A card face for an application emoji: 128×128, transparent around a white card, the rank
    on top and the suit below (jokers: a star and "JKR"), drawn big enough to read at button size."""
    s = CARD_SIZE
    scale = 2  # drawn at twice the size and scaled down: smooth edges without a font for suits
    big = Image.new("RGBA", (s * scale, s * scale), (0, 0, 0, 0))
    d = ImageDraw.Draw(big)
    m = 10 * scale
    d.rounded_rectangle(
        (m, 0, s * scale - m, s * scale - 1),
        14 * scale,
        fill=(*WHITE, 255),
        outline=(120, 120, 120, 255),
        width=2 * scale,
    )
    c = face(card)
    ink = card_color(c)
    cx = s * scale / 2
    if c in (BIG_JOKER, LITTLE_JOKER):
        _star(d, cx, 0.62 * s * scale, 0.3 * s * scale, ink)
        # i18n-ok: a card face, the same in every language (drawn once, uploaded as an emoji)
        d.text((cx, 0.2 * s * scale), "JKR", font=font(30 * scale, True), fill=ink, anchor="mm")
    else:
        rank = "23456789TJQKA"[rank_of(c)]
        label = "10" if rank == "T" else rank
        size = 50 if label == "10" else 58
        d.text((cx, 0.27 * s * scale), label, font=font(size * scale, True), fill=ink, anchor="mm")
        _suit_shape(d, suit_of(c), cx, 0.7 * s * scale, 0.22 * s * scale, ink)
    img = big.resize((s, s), Image.Resampling.LANCZOS)
    buf = io.BytesIO()
    img.save(buf, format="PNG", optimize=True)
    return buf.getvalue()


__all__ = [
    "CARD_SIZE",
    "CHART_SIZE",
    "ENGLISH",
    "FONT_FILES",
    "GOLD",
    "TABLE_SIZE",
    "ScoreSeries",
    "SeatInfo",
    "SideInfo",
    "TableScene",
    "Words",
    "can_draw",
    "card_color",
    "card_emoji_name",
    "card_png",
    "chart_point",
    "has_glyph",
    "picture_name",
    "score_chart_png",
    "score_row_box",
    "seat_box",
    "side_color",
    "table_png",
]
