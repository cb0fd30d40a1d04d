"""Texts of the league posts: check-in, seating, round and night results, standings, schedule.

Every text is clipped to Discord's 2,000 characters; long lists say how many entries they left out.
Players are shown as mentions (rendered by Discord, never pinging: the gateway sends them with
mentions disabled except the league role on the check-in post).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from datetime import datetime

from .schedule import Night, Schedule, describe
from .standings import Row

MAX_MESSAGE = 2000


def clip(text: str, limit: int = MAX_MESSAGE) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def ts(when: datetime | int | float, style: str = "F") -> str:
    """A Discord timestamp: every reader sees it in their own time zone."""
    seconds = int(when.timestamp()) if isinstance(when, datetime) else int(when)
    return f"<t:{seconds}:{style}>"


def mention(user_id: int | None) -> str:
    return "🤖 bot" if user_id is None else f"<@{user_id}>"


def side_text(side: Sequence[int | None]) -> str:
    return " + ".join(mention(p) for p in side)


def lines_within(header: str, lines: Sequence[str], footer: str = "", limit: int = MAX_MESSAGE) -> str:
    """Header, as many lines as fit, a "…and N more" line, then the footer."""
    out = [header]
    size = len(header) + len(footer) + 40
    shown = 0
    for line in lines:
        if size + len(line) + 1 > limit:
            break
        out.append(line)
        size += len(line) + 1
        shown += 1
    if shown < len(lines):
        out.append(f"…and {len(lines) - shown} more")
    if footer:
        out.append(footer)
    return clip("\n".join(out), limit)


def checkin_post(
    league_name: str,
    night: Night,
    closes_at: datetime,
    checked_in: Sequence[int],
    *,
    late_note: str = "",
    role_id: int | None = None,
    closed: bool = False,
    cant: Sequence[int] = (),
) -> str:
    head = f"🃏 **{league_name}: night {night.number}** starts {ts(night.start)} ({ts(night.start, 'R')})."
    if role_id:
        head = f"<@&{role_id}> " + head
    if closed:
        status = f"Check-in closed at {ts(closes_at, 't')}."
    else:
        status = f"Check in below before {ts(closes_at, 't')}; seats are drawn at the start."
    lines = [head, status]
    if late_note:
        lines.append(f"⚠️ {late_note}")
    who = ", ".join(mention(u) for u in checked_in) if checked_in else "nobody yet"
    lines.append(f"**Checked in ({len(checked_in)}):** {who}")
    if cant:
        lines.append(f"Can't make it: {len(cant)}")
    return clip("\n".join(lines))


def seating_post(
    league_name: str,
    night_number: int,
    round_no: int,
    rounds: int,
    tables: Sequence[tuple[int, Sequence[Sequence[int | None]], int | None]],
    byes: Sequence[int],
    ends_at: datetime | None,
    *,
    note: str = "",
) -> str:
    """``tables``: (table number, sides, channel or thread id)."""
    head = f"🪑 **{league_name}: night {night_number}, round {round_no} of {rounds}**"
    if ends_at is not None:
        head += f"; time is called {ts(ends_at, 't')}"
    lines = []
    for no, sides, where in tables:
        place = f" in <#{where}>" if where else ""
        lines.append(f"Table {no}{place}: " + " vs ".join(side_text(s) for s in sides))
    footer = ""
    if byes:
        footer = "Sitting out this round (bye): " + ", ".join(mention(u) for u in byes)
    if note:
        footer = (footer + "\n" if footer else "") + note
    return lines_within(head, lines, footer)


def result_line(
    table_no: int,
    sides: Sequence[Sequence[int | None]],
    scores: Sequence[int],
    winner: int | None,
    complete: bool,
    corrected: bool = False,
) -> str:
    parts = []
    for i, side in enumerate(sides):
        mark = "🏆 " if winner == i else ""
        parts.append(f"{mark}{side_text(side)} **{scores[i]}**")
    tail = ""
    if not complete:
        tail = " (time called: scored as it stood)"
    if corrected:
        tail += " (corrected by an admin)"
    return f"Table {table_no}: " + " vs ".join(parts) + tail


def round_results_post(
    league_name: str, night_number: int, round_no: int, lines: Sequence[str], *, next_note: str = ""
) -> str:
    head = f"📋 **{league_name}: night {night_number}, round {round_no} results**"
    return lines_within(head, lines, next_note)


def standings_lines(
    rows: Sequence[Row], name: Callable[[Hashable], str], nights_held: int, *, limit_rows: int = 25
) -> list[str]:
    out = []
    for r in rows[:limit_rows]:
        tie = "=" if r.tied else ""
        dropped = f", week {r.dropped} dropped" if r.dropped is not None else ""
        out.append(
            f"{tie}{r.rank}. {name(r.entrant)}: **{r.total}** pts ({r.wins}W {r.close_losses}CL {r.losses}L"
            f"{' ' + str(r.draws) + 'D' if r.draws else ''}, diff {r.point_diff:+.0f}, bags {r.bags},"
            f" nights {r.attendance(nights_held)}{dropped})"
        )
    if len(rows) > limit_rows:
        out.append(f"…and {len(rows) - limit_rows} more")
    return out


def standings_post(title: str, lines: Sequence[str], footer: str = "") -> str:
    if not lines:
        return clip(f"{title}\nNo results yet.")
    return lines_within(title, lines, footer)


def schedule_lines(schedule: Schedule, held: dict[str, str], now: datetime) -> list[str]:
    """One line per night of the season; ``held`` maps a night's date to its status."""
    out = []
    for n in schedule.nights():
        status = held.get(n.key)
        mark = {
            "finished": "✅",
            "missed": "⚠️ missed",
            "cancelled": "✖️ cancelled",
            "playing": "▶️ now",
            "checkin": "📝 check-in open",
        }.get(status or "", "")
        if not mark and n.start_utc < now:
            mark = "—"
        out.append(f"Night {n.number}: {ts(n.start)} {mark}".rstrip())
    for d in sorted(schedule.skipped):
        out.append(f"~~{d.isoformat()}~~ skipped")
    return out


def schedule_header(name: str, schedule: Schedule) -> str:
    return f"📅 **{name}**: {describe(schedule)}, {schedule.total_weeks} weeks"
