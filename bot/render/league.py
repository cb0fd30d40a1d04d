"""Texts of the league: its posts (check-in, seating, round and night results, standings, schedule)
and the answers of ``/league`` (cogs/league.py parses, calls the service, renders here, answers).

Every text is a lazy message (``bot.i18n``): a post is rendered in the server's language, an answer
in the user's. Long lists are fitted to Discord's 2,000 characters in the language they are shown
in, and say how many entries they left out. Players are shown as mentions (rendered by Discord,
never pinging: the gateway sends them with mentions disabled except the league role on the
check-in post).

The league's collaborators (``bot.league``) gather what is shown and call these; this module
imports no league code at run time (an import contract says so), only the league's types.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping, Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Any

from bot.i18n import (
    N_,
    Lazy,
    ListOf,
    Msg,
    Num,
    Text,
    _,
    _n,
    channel_mention,
    join,
    ngettext,
    render,
    role_mention,
    timestamp,
    whole,
)
from bot.i18n import mention as user_mention
from bot.permissions import permission_list
from bot.storage.leagues import AuditEntry, LeagueRow, NightRow, Result, Team

if TYPE_CHECKING:  # (bot.league imports this module: the league's types only, no import back)
    from bot.league.ratings import Rating
    from bot.league.schedule import Night, Schedule
    from bot.league.settings import LeagueSettings
    from bot.league.standings import Row

MAX_MESSAGE = 2000


def clip(text: str, limit: int = MAX_MESSAGE) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def ts(when: datetime | int | float, style: str = "F") -> str:
    """A Discord timestamp: every reader sees it in their own time zone."""
    seconds = int(when.timestamp()) if isinstance(when, datetime) else int(when)
    return f"<t:{seconds}:{style}>"


def mention(user_id: int | None) -> Text:
    return _("🤖 bot") if user_id is None else user_mention(user_id)


def side_text(side: Sequence[int | None]) -> Text:
    return join(*(mention(p) for p in side), sep=" + ")


def _fit(lang: str, header: Any, lines: Sequence[Any], footer: Any, limit: int) -> str:
    head, foot = render(header, lang), render(footer, lang)
    out = [head]
    size = len(head) + len(foot) + 40
    shown = 0
    for line in lines:
        text = render(line, lang)
        if size + len(text) + 1 > limit:
            break
        out.append(text)
        size += len(text) + 1
        shown += 1
    if shown < len(lines):
        left = len(lines) - shown
        out.append(ngettext(lang, "…and %(n)s more", "…and %(n)s more", left))
    if foot:
        out.append(foot)
    return clip("\n".join(out), limit)


class LinesWithin(Lazy):
    """Header, as many lines as fit in the reader's language, a "…and N more" line, the footer."""

    header: Any
    lines: tuple[Any, ...]
    footer: Any
    limit: int

    def __new__(
        cls, header: Any, lines: Sequence[Any], footer: Any = "", limit: int = MAX_MESSAGE
    ) -> LinesWithin:
        self = super().__new__(cls, _fit("en", header, lines, footer, limit))
        self.header, self.lines, self.footer, self.limit = header, tuple(lines), footer, limit
        return self

    def __getnewargs__(self) -> tuple[Any, ...]:
        return (self.header, self.lines, self.footer, self.limit)

    def render(self, lang: str) -> str:
        return _fit(lang, self.header, self.lines, self.footer, self.limit)


def lines_within(header: Any, lines: Sequence[Any], footer: Any = "", limit: int = MAX_MESSAGE) -> Text:
    """Header, as many lines as fit, a "…and N more" line, then the footer."""
    return LinesWithin(header, lines, footer, limit)


#: notes on a check-in post, kept by code in the night's data (rendered in the server's language)
NOTES: dict[str, str] = {
    "early": N_("Check-in opened early by an admin."),
    "offline_start": N_(
        "The bot was offline when check-in should have opened: check in now, the night starts shortly."
    ),
    "offline": N_("Check-in opened late (the bot was offline)."),
    "new_league": N_("Check-in opens now: the league was created after its check-in time."),
    "reopened": N_("Check-in is open again: late arrivals join the next round."),
}


def late_note_text(value: Any) -> Text:
    """A stored note: a code of :data:`NOTES`, a moved start, or (older rows) an English text."""
    if isinstance(value, dict) and "late_until" in value:
        return _(
            "The night has started: late arrivals check in here until %(time)s and join the next round.",
            time=ts(int(value["late_until"]), "t"),
        )
    if isinstance(value, dict) and "moved_to" in value:
        return _("Start moved to %(time)s by an admin.", time=ts(int(value["moved_to"]), "t"))
    if isinstance(value, str) and value in NOTES:
        return Msg(NOTES[value])
    return str(value or "")


def checked_in(league_name: str, starts_at: int, *, coming: bool, playing: bool) -> Text:
    """A player's Check in / Can't make it click, confirmed (``playing``: the night is under way)."""
    if not coming:
        return _("Got it: you're marked as not coming tonight.")
    if playing:
        return _("You're checked in: you'll be seated from the next round.")
    return _(
        "You're checked in for **%(league)s**. Seats are drawn at %(time)s.",
        league=league_name,
        time=ts(starts_at, "t"),
    )


def checkin_reopened() -> Text:
    return _("Check-in is open again: whoever checks in now joins the next round.")


def night_started() -> Text:
    return _("The night has started: seats are drawn.")


def postponed(new_start: int) -> Text:
    return _("The night now starts %(time)s.", time=ts(new_start, "F"))


def substituted(player_id: int, out_id: int, table_no: int, *, game_over: bool) -> Text:
    """``/league admin sub`` done (``game_over``: the game had just ended, only the records changed)."""
    done = _(
        "%(player)s now plays for %(out)s at table %(n)s.",
        player=user_mention(player_id),
        out=user_mention(out_id),
        n=table_no,
    )
    if game_over:
        return join(done, _("The game itself had just ended, so only the league's records changed."))
    return done


def seat_offer(standby_id: int, out_id: int, table_no: int) -> Text:
    """The "Take this seat" offer in a table's thread (it pings only ``standby_id``)."""
    return _(
        "🙋 %(standby)s: %(out)s is out at table %(n)s and the bot plays their seat. Press **Take this"
        " seat** to play it for the rest of the game (and the night, unless they come back).",
        standby=user_mention(standby_id),
        out=user_mention(out_id),
        n=table_no,
    )


def dropped_after_no_shows(league_name: str, user_id: int, count: int) -> Text:
    """To the league's channel: the league's drop rule took a player off the roster."""
    return _n(
        "🚫 %(user)s is off the roster of **%(league)s** after %(n)s no-show this season; a league admin"
        " can add them back with `/league admin add`.",
        "🚫 %(user)s is off the roster of **%(league)s** after %(n)s no-shows this season; a league admin"
        " can add them back with `/league admin add`.",
        count,
        user=user_mention(user_id),
        league=league_name,
    )


def no_show_counts(league_name: str, season: int, counts: dict[int, int], drop_after: int) -> Text:
    """The admins' view of the season's no-shows (``/league admin noshows``)."""
    head = _("🚷 **%(league)s: season %(season)s no-shows**", league=league_name, season=season)
    if not counts:
        return join(head, _("Nobody has been a no-show this season."), sep="\n")
    lines: list[Text] = [
        _n("%(user)s: %(n)s no-show", "%(user)s: %(n)s no-shows", n, user=user_mention(u))
        for u, n in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))
    ]
    foot: Text = (
        _n(
            "-# A player is taken off the roster after %(n)s no-show.",
            "-# A player is taken off the roster after %(n)s no-shows.",
            drop_after,
        )
        if drop_after
        else _("-# No player is dropped for no-shows (`/league admin attendance` sets the rule).")
    )
    return lines_within(head, lines, foot)


def invite_declined(team: Team, league_name: str, player_id: int) -> Text:
    """To the league's channel: a team is dissolved, its other players are free again."""
    others = [m for m in team.members if m != player_id]
    return _(
        "👋 **%(team)s** won't play in **%(league)s**: %(player)s declined the invite."
        " %(others)s can form a new team with `/league invite`.",
        team=team.name,
        league=league_name,
        player=user_mention(player_id),
        others=ListOf(tuple(user_mention(m) for m in others)),
    )


def checkin_post(
    league_name: str,
    night: Night,
    closes_at: datetime,
    checked_in: Sequence[int],
    *,
    late_note: Text = "",
    role_id: int | None = None,
    closed: bool = False,
    cant: Sequence[int] = (),
    standby: Sequence[int] = (),
) -> Text:
    head: Text = _(
        "🃏 **%(league)s: night %(n)s** starts %(start)s (%(relative)s).",
        league=league_name,
        n=night.number,
        start=ts(night.start),
        relative=ts(night.start, "R"),
    )
    if role_id:
        head = join(role_mention(role_id), head)
    if closed:
        status = _("Check-in closed at %(time)s.", time=ts(closes_at, "t"))
    else:
        status = _("Check in below before %(time)s; seats are drawn at the start.", time=ts(closes_at, "t"))
    lines: list[Text] = [head, status]
    if late_note:
        lines.append(join("⚠️", late_note))
    if checked_in:
        who: Text = ", ".join(user_mention(u) for u in checked_in)
    else:
        who = _("nobody yet")
    lines.append(_("**Checked in (%(count)s):** %(who)s", count=len(checked_in), who=who))
    if standby:
        lines.append(
            _(
                "**Standby (%(count)s):** %(who)s",
                count=len(standby),
                who=", ".join(user_mention(u) for u in standby),
            )
        )
    if cant:
        lines.append(_("Can't make it: %(count)s", count=len(cant)))
    return LinesWithin(lines[0], lines[1:])


def seating_post(
    league_name: str,
    night_number: int,
    round_no: int,
    rounds: int,
    tables: Sequence[tuple[int, Sequence[Sequence[int | None]], int | None]],
    byes: Sequence[int],
    ends_at: datetime | None,
    *,
    note: Text = "",
) -> Text:
    """``tables``: (table number, sides, channel or thread id)."""
    head: Text = _(
        "🪑 **%(league)s: night %(night)s, round %(round)s of %(rounds)s**",
        league=league_name,
        night=night_number,
        round=round_no,
        rounds=rounds,
    )
    if ends_at is not None:
        head = join(head, _("; time is called %(time)s", time=ts(ends_at, "t")), sep="")
    lines: list[Text] = []
    versus = _(" vs ")
    for no, sides, where in tables:
        players = join(*(side_text(s) for s in sides), sep=versus)
        if where:
            lines.append(
                _(
                    "Table %(n)s in %(where)s: %(players)s",
                    n=no,
                    where=channel_mention(where),
                    players=players,
                )
            )
        else:
            lines.append(_("Table %(n)s: %(players)s", n=no, players=players))
    parts: list[Text] = []
    if byes:
        parts.append(
            _("Sitting out this round (bye): %(players)s", players=", ".join(user_mention(u) for u in byes))
        )
    if note:
        parts.append(note)
    return lines_within(head, lines, join(*parts, sep="\n"))


def result_line(
    table_no: int,
    sides: Sequence[Sequence[int | None]],
    scores: Sequence[int],
    winner: int | None,
    complete: bool,
    corrected: bool = False,
    round_no: int | None = None,
) -> Text:
    parts = []
    # the winner and the winning score first, as in every other result (the game post, /history)
    for i in sorted(range(len(sides)), key=lambda i: (i != winner, i)):
        side = sides[i]
        mark = "🏆 " if winner == i else ""
        parts.append(join(join(mark, side_text(side), sep=""), f"**{scores[i]}**"))
    tail: list[Text] = []
    if not complete:
        tail.append(_(" (time called: scored as it stood)"))
    elif winner is None:
        tail.append(_(" (a draw)"))
    if corrected:
        tail.append(_(" (corrected by an admin)"))
    players = join(*parts, sep=_(" vs "))
    if round_no is None:
        line = _("Table %(n)s: %(players)s", n=table_no, players=players)
    else:
        line = _("R%(round)s table %(n)s: %(players)s", round=round_no, n=table_no, players=players)
    return join(line, *tail, sep="")


def round_results_post(
    league_name: str, night_number: int, round_no: int, lines: Sequence[Text], *, next_note: Text = ""
) -> Text:
    head = _(
        "📋 **%(league)s: night %(night)s, round %(round)s results**",
        league=league_name,
        night=night_number,
        round=round_no,
    )
    return lines_within(head, lines, next_note)


def round_results(
    league_name: str,
    night_number: int,
    round_no: int,
    results: Sequence[Result],
    *,
    more_rounds: bool,
    timed_out: bool,
) -> Text:
    """A round's results post: its tables, whether time was called, whether a round follows."""
    lines = [
        result_line(r.table_no, r.sides, r.scores, r.winner_side, r.complete, r.corrected) for r in results
    ]
    note: Text = _("Next round's seats follow.") if more_rounds else ""
    if timed_out:
        note = join(_("⏱️ Time was called: unfinished games were scored as they stood."), note)
    return round_results_post(league_name, night_number, round_no, lines, next_note=note)


def night_results(
    league_name: str,
    night_number: int,
    results: Sequence[Result],
    *,
    footer: Text = "",
    matchpoints: Mapping[tuple[int, int], float] | None = None,
) -> Text:
    """The night's results post, every round's tables (``footer``: the seating seed's reveal;
    ``matchpoints``: a duplicate league's, by ``(league table id, side)``, shown per table)."""
    lines: list[Text] = []
    for r in results:
        line = result_line(
            r.table_no, r.sides, r.scores, r.winner_side, r.complete, r.corrected, round_no=r.round_no
        )
        if matchpoints is not None:
            per_side = " – ".join(
                f"{matchpoints.get((r.league_table_id, i), 0.0):g}" for i in range(len(r.sides))
            )
            line = join(line, _("· matchpoints %(points)s", points=per_side))
        lines.append(line)
    return lines_within(
        _("🌙 **%(league)s: night %(n)s results**", league=league_name, n=night_number), lines, footer
    )


def night_off(
    league_name: str, night_number: int, *, checked_in: int = 0, needed: int = 2, last: Night | None = None
) -> Text:
    """A night cancelled at its start for low turnout; the week is given back (the season now ends on
    ``last``)."""
    head = _n(
        "✖️ **%(league)s**: night %(n)s is off: %(count)s player checked in, and a night needs %(needed)s.",
        "✖️ **%(league)s**: night %(n)s is off: %(count)s players checked in, and a night needs %(needed)s.",
        checked_in,
        league=league_name,
        n=night_number,
        count=checked_in,
        needed=needed,
    )
    if last is None:
        return head
    return join(head, week_back(last), sep=" ")


def week_back(last: Night) -> Text:
    return _("The week is given back: the season now ends on %(last)s.", last=last.day.isoformat())


def night_cancelled(
    league_name: str, night_number: int, by: int, reason: str | None, last: Night | None
) -> Text:
    """An admin cancelled tonight (in any phase): nothing of it counts, the week is given back."""
    head = _(
        "✖️ **%(league)s**: night %(n)s is cancelled by %(admin)s; nothing played tonight counts.",
        league=league_name,
        n=night_number,
        admin=user_mention(by),
    )
    parts: list[Text] = [head]
    if reason:
        parts.append(_("Reason: %(reason)s", reason=reason))
    if last is not None:
        parts.append(week_back(last))
    return join(*parts, sep=" ")


def night_missed(league_name: str, number: int, day: str, why: Text, grace_minutes: int, last: Night) -> Text:
    """A night nobody ran (``why`` in words) after its grace period: the season now ends on ``last``."""
    return _n(
        "⚠️ **%(league)s**: night %(n)s (%(date)s) was missed: %(why)s, and the grace period of"
        " %(minutes)s minute is over. The season now ends on %(last)s.",
        "⚠️ **%(league)s**: night %(n)s (%(date)s) was missed: %(why)s, and the grace period of"
        " %(minutes)s minutes is over. The season now ends on %(last)s.",
        grace_minutes,
        league=league_name,
        n=number,
        date=day,
        why=why,
        minutes=grace_minutes,
        last=last.day.isoformat(),
    )


def table_title(league_name: str, night: int, round_no: int, table: int) -> Text:
    """A league table's title (its thread's name)."""
    return _(
        "%(league)s · night %(night)s · round %(round)s · table %(table)s",
        league=league_name,
        night=night,
        round=round_no,
        table=table,
    )


def table_not_opened(league_name: str, round_no: int, table: int) -> Text:
    """To the league's admins, once per table: Discord refused to open it."""
    return _(
        "⚠️ **%(league)s**: I couldn't open table %(table)s of round %(round)s (can I create threads"
        " here?). I keep trying until the round's time is up.",
        league=league_name,
        table=table,
        round=round_no,
    )


def standings_lines(
    rows: Sequence[Row],
    name: Callable[[Hashable], Text],
    nights_held: int,
    *,
    limit_rows: int = 25,
    ranking: str = "points",
    min_nights: int = 0,
) -> list[Text]:
    """One line per entrant; ``ranking`` (``bot.league.standings.RANKINGS``) says what ranks them,
    shown after the record when it is not league points; an entrant short of ``min_nights`` has no
    rank yet ("–")."""
    out: list[Text] = []
    for r in rows[:limit_rows]:
        rank = f"{'=' if r.tied else ''}{r.rank}" if r.rank else "–"
        diff = f"{r.point_diff:+.0f}"
        record = (
            _(
                "%(wins)sW %(close)sCL %(losses)sL %(draws)sD",
                wins=r.wins,
                close=r.close_losses,
                losses=r.losses,
                draws=r.draws,
            )
            if r.draws
            else _("%(wins)sW %(close)sCL %(losses)sL", wins=r.wins, close=r.close_losses, losses=r.losses)
        )
        line = _(
            "%(rank)s. %(name)s: **%(total)s** pts (%(record)s, diff %(diff)s, bags %(bags)s,"
            " nights %(nights)s)",
            rank=rank,
            name=name(r.entrant),
            total=r.total,
            record=record,
            diff=diff,
            bags=r.bags,
            nights=r.attendance(nights_held),
        )
        if r.dropped is not None:
            line = _(
                "%(rank)s. %(name)s: **%(total)s** pts (%(record)s, diff %(diff)s, bags %(bags)s, "
                "nights %(nights)s, week %(week)s dropped)",
                rank=rank,
                name=name(r.entrant),
                total=r.total,
                record=record,
                diff=diff,
                bags=r.bags,
                nights=r.attendance(nights_held),
                week=r.dropped,
            )
        shown: Text = line
        if ranking == "game_points":
            shown = join(shown, _("· **%(n)s** game points", n=whole(r.scored)))
        elif ranking == "per_game":
            shown = join(shown, _("· **%(n)s** points per game", n=Num(r.per_game, "0.00")))
        elif ranking == "matchpoints":
            shown = join(shown, _("· **%(n)s** matchpoints", n=Num(r.matchpoints, "0.#")))
        if not r.rank:
            shown = join(
                shown,
                _("· not ranked yet (%(n)s of %(min)s nights)", n=len(r.nights), min=min_nights),
            )
        if r.no_shows:
            shown = join(shown, _n("· %(n)s no-show", "· %(n)s no-shows", r.no_shows))
        if r.forfeit_losses:
            shown = join(shown, _n("· %(n)s forfeit loss", "· %(n)s forfeit losses", r.forfeit_losses))
        if r.sub_games:
            shown = join(shown, _n("· %(n)s game as a sub", "· %(n)s games as a sub", r.sub_games))
        out.append(shown)
    if len(rows) > limit_rows:
        out.append(_n("…and %(n)s more", "…and %(n)s more", len(rows) - limit_rows))
    return out


def standings_post(title: Text, lines: Sequence[Text], footer: Text = "") -> Text:
    if not lines:
        return join(title, _("No results yet."), sep="\n")
    return lines_within(title, lines, footer)


def schedule_lines(schedule: Schedule, held: dict[str, str], now: datetime) -> list[Text]:
    """One line per night of the season; ``held`` maps a night's date to its status."""
    out: list[Text] = []
    marks: dict[str, Text] = {
        "finished": "✅",
        "missed": _("⚠️ missed"),
        "cancelled": _("✖️ cancelled"),
        "playing": _("▶️ now"),
        "checkin": _("📝 check-in open"),
    }
    for n in schedule.nights():
        status = held.get(n.key)
        mark: Text = marks.get(status or "", "")
        if not mark and n.start_utc < now:
            mark = "—"
        out.append(join(_("Night %(n)s: %(start)s", n=n.number, start=ts(n.start)), mark))
    for d in sorted(schedule.skipped):
        out.append(_("~~%(date)s~~ skipped", date=d.isoformat()))
    return out


def schedule_header(name: str, schedule: Schedule, described: Text) -> Text:
    """``described``: the schedule in words (``bot.league.schedule.describe``)."""
    return _n(
        "📅 **%(league)s**: %(schedule)s, %(n)s week",
        "📅 **%(league)s**: %(schedule)s, %(n)s weeks",
        schedule.total_weeks,
        league=name,
        schedule=described,
    )


def standings(
    league_name: str,
    season: int,
    rows: Sequence[Row],
    name: Callable[[Hashable], Text],
    held: int,
    points: Text,
    *,
    title: Text | None = None,
    ranking: str = "points",
    min_nights: int = 0,
) -> Text:
    """The season's standings after ``held`` nights; ``points``: the points rule in words;
    ``ranking`` and ``min_nights`` as in ``standings_lines``."""
    head = title or _n(
        "🏅 **%(league)s: season %(season)s standings** (after %(n)s night)",
        "🏅 **%(league)s: season %(season)s standings** (after %(n)s nights)",
        held,
        league=league_name,
        season=season,
    )
    return standings_post(
        head,
        standings_lines(rows, name, held, ranking=ranking, min_nights=min_nights),
        _("-# Points: %(points)s. Ties: head to head, point difference, fewest bags.", points=points),
    )


def final_standings(
    league_name: str,
    season: int,
    rows: Sequence[Row],
    name: Callable[[Hashable], Text],
    held: int,
    champions: Sequence[Hashable],
    *,
    ranking: str = "points",
    min_nights: int = 0,
) -> Text:
    """The season's last post: the final standings and its champions (only entrants who played
    ``min_nights`` nights may be champions)."""
    head = _("🏆 **%(league)s: season %(season)s final standings**", league=league_name, season=season)
    foot: Text
    if champions:
        foot = _("Champions: %(names)s 🎉", names=join(*(name(c) for c in champions), sep=", "))
    elif any(r.games or r.byes for r in rows):
        foot = _n(
            "No champion: nobody played the %(n)s night needed to be ranked.",
            "No champion: nobody played the %(n)s nights needed to be ranked.",
            min_nights,
        )
    else:
        foot = _("No games were played.")
    lines = standings_lines(rows, name, held, ranking=ranking, min_nights=min_nights)
    return standings_post(head, lines, foot)


def schedule(
    league_name: str,
    schedule: Schedule,
    described: Text,
    held: dict[str, str],
    now: datetime,
    *,
    status: Text | None,
    format_label: Text,
    settings: LeagueSettings,
    rules: Text,
    time_call: Text = "",
) -> Text:
    """``/league schedule``: the season's nights (``held``: a night's date -> its status), the
    league's ``status`` in words unless it runs, its format, rounds and rules (``rules``), its
    tables' turn timers and what happens when a round's time is up (``time_call``: its label)."""
    leftover = {"bot": _("a bot seat"), "threes": _("a table of three (cutthroat), else a bye")}.get(
        settings.leftover, _("a bye")
    )
    foot = _n(
        "-# %(format)s, %(n)s round of up to %(minutes)s min (%(rules)s); leftover players: %(leftover)s.",
        "-# %(format)s, %(n)s rounds of up to %(minutes)s min (%(rules)s); leftover players: %(leftover)s.",
        settings.rounds,
        format=format_label,
        minutes=settings.round_minutes,
        rules=rules,
        leftover=leftover,
    )
    footer: Text = join(
        foot,
        turns_line(settings, time_call),
        _("-# Attendance: %(rule)s.", rule=settings.attendance.describe()),
        sep="\n",
    )
    if settings.duplicate:
        footer = join(footer, DUPLICATE_LINE, sep="\n")
    points = settings.points
    if points.ranking != "points" or points.min_nights or points.bye:
        # the season's own rules (``/league-season rules``): said only when the league chose them
        footer = join(footer, _("-# Standings: %(rule)s.", rule=points.describe()), sep="\n")
    header: Text = schedule_header(league_name, schedule, described)
    if status is not None:
        header = join(header, join("(", status, ")", sep=""))
    return lines_within(header, schedule_lines(schedule, held, now), footer)


#: a duplicate league's info post says so (``bot.league.duplicate``)
DUPLICATE_LINE = _(
    "-# Duplicate rounds: every full table of a round plays the same deals; the standings rank by"
    " matchpoints."
)


def turns_line(settings: LeagueSettings, time_call: Text) -> Text:
    """The league tables' turn timers and its time call (``time_call``: the choice's label)."""
    return _(
        "-# Turns: %(play)s s to play, %(bid)s s to bid; when a round's time is up: %(time_call)s.",
        play=settings.play_seconds,
        bid=settings.bid_seconds,
        time_call=time_call,
    )


def league_tables(rules: Text, settings: LeagueSettings, time_call: Text) -> Text:
    """What ``/league create`` answers about the league's tables: rules, timers and time call."""
    return join(_("-# Tables: %(rules)s.", rules=rules), turns_line(settings, time_call), sep="\n")


def exported(league_name: str, season: int) -> Text:
    """``/league export``'s answer, above its CSV files (columns: docs/LEAGUE_GUIDE.md)."""
    return _(
        "📎 **%(league)s**, season %(season)s: standings, nights and results as CSV files.",
        league=league_name,
        season=season,
    )


def no_history(league_name: str) -> Text:
    return _("📜 **%(league)s**: no nights played yet.", league=league_name)


def history(
    league_name: str,
    nights: Sequence[tuple[NightRow, Text, Sequence[Result]]],
    log: Sequence[tuple[AuditEntry, Text, Text, Text | None]],
    *,
    page: int,
    pages: int,
) -> Text:
    """One page of ``/league history`` (``page`` 0 is the latest): each night (with its status in
    words) and its results, then the admin log (each entry with its action, detail and reason in
    words)."""
    lines: list[Text] = []
    for n, status, results in nights:
        lines.append(
            _(
                "**S%(season)s night %(n)s** (%(date)s): %(status)s",
                season=n.season,
                n=n.number,
                date=n.night_date,
                status=status,
            )
        )
        for r in results:
            line = result_line(
                r.table_no, r.sides, r.scores, r.winner_side, r.complete, r.corrected, round_no=r.round_no
            )
            lines.append(join(" ", line, sep=""))
    foot_lines: list[Text] = [_("**Admin log**")] if log else []
    for e, action, detail, reason in log:
        who = mention(e.actor_id) if e.actor_id else _("the bot")
        entry = join(
            _("%(when)s %(who)s: %(action)s", when=ts(e.at, "d"), who=who, action=action), detail, sep=""
        )
        if reason:
            entry = join(entry, ": ", reason, sep="")
        foot_lines.append(entry)
    title: Text = _("📜 **%(league)s: history**", league=league_name)
    if pages > 1:
        title = _(
            "📜 **%(league)s: history** (page %(page)s of %(pages)s)",
            league=league_name,
            page=pages - page,
            pages=pages,
        )
    return lines_within(title, lines + foot_lines)


def player_card(
    league_name: str,
    *,
    member_status: str | None,
    team: Team | None,
    team_status: Text,
    row: Row | None,
    entrants: int,
    held: int,
    rating: Rating,
    next_start: int | None,
    answer: str | None,
) -> Text:
    """``/league me``: sign-up, team (``team_status`` in words), standing among ``entrants`` after
    ``held`` nights, rating, and the player's answer (in, out, None) for the night at ``next_start``."""
    team_line: Text = ""
    if team is not None:
        team_line = _("Team **%(team)s** (%(status)s)", team=team.name, status=team_status)
        if team.status == "pending" and team.invited:
            team_line = _(
                "Team **%(team)s** (invite pending: waiting for %(players)s to accept)",
                team=team.name,
                players=ListOf(tuple(mention(u) for u in team.invited)),
            )
    next_night: Text = ""
    if next_start is not None:
        if answer == "in":
            next_night = _("Next night: %(start)s: checked in", start=ts(next_start))
        elif answer == "out":
            next_night = _("Next night: %(start)s: not coming", start=ts(next_start))
        else:
            next_night = _("Next night: %(start)s: not checked in", start=ts(next_start))
    if member_status is None:
        head = _("You're not signed up for **%(league)s**.", league=league_name)
    elif member_status == "invited":
        head = _("**%(league)s**: you're invited to a team.", league=league_name)
    else:
        head = _("**%(league)s**: you're signed up.", league=league_name)
    if row is None:
        stats: Text = _("No league games yet.")
    else:
        stats = _(
            "Rank %(rank)s of %(count)s · %(total)s pts · %(wins)sW %(close)sCL %(losses)sL ·"
            " nights %(nights)s",
            rank=row.rank or "–",
            count=entrants,
            total=row.total,
            wins=row.wins,
            close=row.close_losses,
            losses=row.losses,
            nights=row.attendance(held),
        )
        if row.no_shows:
            stats = join(stats, _n("· %(n)s no-show", "· %(n)s no-shows", row.no_shows))
        if row.forfeit_losses:
            stats = join(stats, _n("· %(n)s forfeit loss", "· %(n)s forfeit losses", row.forfeit_losses))
        if row.sub_games:
            stats = join(stats, _n("· %(n)s game as a sub", "· %(n)s games as a sub", row.sub_games))
    if rating.provisional:
        rated = _n(
            "Rating %(rating)s (%(n)s rated game, provisional)",
            "Rating %(rating)s (%(n)s rated games, provisional)",
            rating.games,
            rating=rating.display(),
        )
    else:
        rated = _n(
            "Rating %(rating)s (%(n)s rated game)",
            "Rating %(rating)s (%(n)s rated games)",
            rating.games,
            rating=rating.display(),
        )
    return join(head, team_line, stats, rated, next_night, sep="\n")


# ---- the answers of /league (cogs/league.py) ------------------------------------------------------

NOT_ADMIN = _("Only server managers (Manage Server) or the league's admin role can do that.")
APOLOGY = _("Sorry, something went wrong on my side; nothing was changed. Please try again.")


def created(league: LeagueRow, schedule: Schedule, described: Text) -> Text:
    """``/league create``: the league's schedule, its first night and how players join.
    ``described``: the schedule in words (``bot.league.schedule.describe``)."""
    first = schedule.nights()[0]
    set_up = _n(
        "✅ **%(league)s** is set: %(schedule)s, %(n)s week, first night %(first)s.",
        "✅ **%(league)s** is set: %(schedule)s, %(n)s weeks, first night %(first)s.",
        schedule.weeks,
        league=league.name,
        schedule=described,
        first=timestamp(first.start_utc.timestamp(), "F"),
    )
    if league.format == "fixed":
        join_how = _n(
            "Teams join with `/league invite`; check-in opens %(minutes)s minute before each night.",
            "Teams join with `/league invite`; check-in opens %(minutes)s minutes before each night.",
            schedule.checkin_minutes,
            minutes=schedule.checkin_minutes,
        )
    else:
        join_how = _n(
            "Players join with `/league signup`; check-in opens %(minutes)s minute before each night.",
            "Players join with `/league signup`; check-in opens %(minutes)s minutes before each night.",
            schedule.checkin_minutes,
            minutes=schedule.checkin_minutes,
        )
    return join(set_up, join_how)


def saved(schedule_text: Text) -> Text:
    return join(_("✅ Saved."), schedule_text, sep="\n")


def paused(league: LeagueRow) -> Text:
    return _(
        "⏸️ **%(league)s** is paused. Nights that pass while paused are skipped; `/league resume` it.",
        league=league.name,
    )


def resumed(schedule_text: Text) -> Text:
    return join(_("▶️ Resumed."), schedule_text, sep="\n")


def skipped(day: str, last: Night) -> Text:
    return _("⏭️ %(date)s is skipped. The season now ends on %(last)s.", date=day, last=last.day.isoformat())


def season_ended(league: LeagueRow) -> Text:
    return _(
        "🏁 **%(league)s**'s season %(season)s is over; the final standings are posted.",
        league=league.name,
        season=league.season,
    )


def season_started(league: LeagueRow, schedule_text: Text) -> Text:
    return join(
        _("🆕 Season %(season)s of **%(league)s**.", season=league.season, league=league.name),
        schedule_text,
        sep="\n",
    )


def archived(league: LeagueRow) -> Text:
    return _("🗄️ **%(league)s** is archived; its name is free again.", league=league.name)


def signed_up(league: LeagueRow) -> Text:
    return _(
        "✅ You're signed up for **%(league)s**. Check in on the bot's post before each night.",
        league=league.name,
    )


def left(league: LeagueRow) -> Text:
    return _("You've left **%(league)s**.", league=league.name)


def invited(league: LeagueRow, team: Team, partners: Sequence[int]) -> Text:
    """``/league invite``: one partner (pairs) or two (teams of three)."""
    if len(partners) == 1:
        return _(
            "📨 Invite sent: %(partner)s joins **%(team)s** with `/league accept league:%(league)s`.",
            partner=user_mention(partners[0]),
            team=team.name,
            league=league.name,
        )
    return _(
        "📨 Invites sent: %(partners)s join **%(team)s** with `/league accept league:%(league)s`;"
        " the team plays once both have accepted.",
        partners=ListOf(tuple(user_mention(p) for p in partners)),
        team=team.name,
        league=league.name,
    )


def accepted(league: LeagueRow, team: Team) -> Text:
    if team.invited:
        return _(
            "🤝 You accepted: **%(team)s** plays in **%(league)s** once %(players)s accepts too.",
            team=team.name,
            league=league.name,
            players=ListOf(tuple(user_mention(u) for u in team.invited)),
        )
    return _("🤝 You're on **%(team)s** in **%(league)s**.", team=team.name, league=league.name)


def declined(team: Team) -> Text:
    return _("You declined the invite to **%(team)s**.", team=team.name)


def member_added(league: LeagueRow, player_id: int) -> Text:
    return _("%(player)s is on **%(league)s**'s roster.", player=user_mention(player_id), league=league.name)


def member_removed(league: LeagueRow, player_id: int) -> Text:
    return _(
        "%(player)s is off **%(league)s**'s roster (their results stay in the standings).",
        player=user_mention(player_id),
        league=league.name,
    )


def corrected(night: int, round_no: int, table: int, scores: Sequence[int]) -> Text:
    return _(
        "✏️ Corrected night %(night)s, round %(round)s, table %(table)s: %(scores)s.",
        night=night,
        round=round_no,
        table=table,
        scores=" – ".join(map(str, scores)),
    )


def admin_role_set(role_id: int | None) -> Text:
    return (
        _("League admins: %(role)s and server managers.", role=role_mention(role_id))
        if role_id
        else _("League admins: server managers.")
    )


def no_threads(league_name: str, channel_id: int, missing: Sequence[str], starts_at: int) -> Text:
    """Told to a league's admins when check-in opens: without threads, one table per round."""

    return _(
        "**%(league)s**: I can't open a thread per table in %(channel)s (missing: %(missing)s), so only"
        " one table of each round can play in the channel itself. Give me these permissions there before"
        " the night starts at %(time)s.",
        league=league_name,
        channel=channel_mention(channel_id),
        missing=permission_list(missing),
        time=ts(starts_at, "t"),
    )


def interested_nudge(league_name: str, night_number: int, players: Sequence[int]) -> Text:
    """The one ping for members who marked the night's event "Interested" when check-in opens."""
    return _(
        "🔔 %(players)s: check-in for **%(league)s** night %(n)s is open (you marked the event as"
        " Interested). Press **Check in** on the post above to be seated.",
        players=" ".join(user_mention(u) for u in players),
        league=league_name,
        n=night_number,
    )


def dm_checkin(league_name: str, night_number: int, starts_at: int, channel_id: int) -> Text:
    """The opt-in direct message when check-in opens."""
    return _(
        "🔔 Check-in for **%(league)s** night %(n)s is open in %(channel)s; seats are drawn at %(time)s.",
        league=league_name,
        n=night_number,
        channel=channel_mention(channel_id),
        time=ts(starts_at, "t"),
    )


def dm_seated(league_name: str, night_number: int, round_no: int, table_no: int, where: int | None) -> Text:
    """The opt-in direct message with a player's table of the round."""
    if where is None:
        return _(
            "🃏 **%(league)s** night %(n)s, round %(round)s: you are at table %(table)s.",
            league=league_name,
            n=night_number,
            round=round_no,
            table=table_no,
        )
    return _(
        "🃏 **%(league)s** night %(n)s, round %(round)s: your table %(table)s is ready in %(where)s.",
        league=league_name,
        n=night_number,
        round=round_no,
        table=table_no,
        where=channel_mention(where),
    )


def dm_undelivered(players: Sequence[int]) -> Text:
    """Said in the league channel (pinging nobody) when opted-in direct messages bounced."""
    return _(
        "📭 I could not send a direct message to %(players)s (direct messages from this server are"
        " closed): check the league channel instead, or allow them in the server's privacy settings.",
        players=", ".join(user_mention(u) for u in players),
    )


NOTIFY_LABELS = {
    "off": N_("no direct messages"),
    "checkin": N_("a direct message when check-in opens"),
    "seating": N_("a direct message with your table each round"),
    "both": N_("direct messages when check-in opens and with your table each round"),
}


def notify_set(league_name: str, notify: str, *, delivered: bool) -> Text:
    said = _(
        "**%(league)s**: you get %(what)s.", league=league_name, what=Msg(NOTIFY_LABELS.get(notify, notify))
    )
    if notify == "off" or delivered:
        return said
    return join(
        said,
        _(
            "⚠️ My test message could not reach you: your direct messages from this server are closed."
            " Allow them (the server's Privacy Settings) or you'll get nothing."
        ),
        sep="\n",
    )
