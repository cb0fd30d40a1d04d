"""Results and standings of a league: the standings table, the schedule and history posts, a
result correction by an admin, the season's final post.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass

from bot import lexicon
from bot.clock import Clock, utcnow
from bot.i18n import Text, _, _n, join
from bot.render import league as text
from bot.storage.leagues import LeagueError, LeagueRow, LeagueStore, Result
from engine.ruleset import Ruleset

from . import attendance, seating, standings
from . import schedule as sch
from .core import ruleset_of, schedule_of, settings_of
from .duplicate import Duplicate
from .finals import finals_number
from .gateway import (
    LeagueGateway,
    LeagueRefusal,
    _audit_detail,
    audit_action,
    audit_reason,
    league_status,
    night_status,
    seating_label,
)
from .ratings import rate_stored
from .settings import time_call_label

#: nights on one page of ``/league history`` (each with up to 8 result lines)
HISTORY_NIGHTS = 8
#: what an admin (or the bot) did that the first page of ``/league history`` lists
HISTORY_ACTIONS = [
    "correct",
    "forfeit",
    "sub",
    "remove",
    "skip",
    "start_early",
    "start_late",
    "reopen_checkin",
    "missed",
    "no_show",
    "checked_out",
    "dropped",
    "pause",
    "resume",
    "end",
]


@dataclass(frozen=True)
class HistoryPage:
    """One page of ``/league history``: ``page`` 0 holds the latest nights (and the admin log),
    ``pages - 1`` the first ones."""

    text: Text
    page: int
    pages: int


class Results:
    """Standings, schedule and history posts, and result corrections."""

    def __init__(self, store: LeagueStore, gateway: LeagueGateway, clock: Clock) -> None:
        self.store = store
        self.gateway = gateway
        self.clock = clock

    async def standings_rows(
        self, league: LeagueRow, season: int | None = None
    ) -> tuple[list[standings.Row], int]:
        season = season or league.season
        results = await self.store.rounds.season_results(league.id, season)
        finals = finals_number(league, season)  # the playoffs' finals night is no standings night
        results = [r for r in results if r.night_number != finals]
        rule = settings_of(league).points
        team_of: dict[int, Hashable] = {}
        formed: dict[Hashable, int] = {}
        entrants: list[Hashable]
        if league.format == seating.FIXED:
            teams = await self.store.rosters.teams(league.id, statuses=("active", "removed"))
            for t in teams:
                formed[f"team:{t.id}"] = t.created_at
                for m in t.members:
                    team_of[m] = f"team:{t.id}"
            entrants = [f"team:{t.id}" for t in teams if t.status == "active"]
        else:
            entrants = [m.user_id for m in await self.store.rosters.members(league.id)]

        def entrant(uid: int) -> Hashable:
            return team_of.get(uid, uid) if league.format == seating.FIXED else uid

        def side_entrants(side: list[int | None], played_at: int) -> tuple[Hashable, ...]:
            # fixed teams: a side is its team, also when a substitute played for one of its members;
            # a team formed after the game (by players of a dissolved team) did not play it
            teams = [
                team_of[p]
                for p in side
                if p is not None and p in team_of and (not played_at or formed[team_of[p]] <= played_at)
            ]
            if league.format == seating.FIXED:
                return tuple(dict.fromkeys(teams or [p for p in side if p is not None]))
            return tuple(dict.fromkeys(p for p in side if p is not None))

        rule_of_attendance = settings_of(league).attendance
        subs = await self.store.attendance.season_subs(league.id, season)
        duplicate = settings_of(league).duplicate
        table_mp = await Duplicate(self.store).matchpoints(league, season) if duplicate else {}
        matchpoints: dict[Hashable, float] = defaultdict(float)
        games = []
        for r in results:
            played = attendance.credit(r.sides, r.seats, subs.get(r.league_table_id, ()), rule_of_attendance)
            sides = tuple(side_entrants(side, r.started_at) for side in played.sides)
            if sum(1 for side in sides if side) < 2:
                continue  # against a side of bots only: practice, not a league game
            # a side's entrant is a no-show only when every player it had at the table was one
            # (fixed teams: the partner who was there keeps the team's result)
            absent: set[Hashable] = set()
            for side, players in zip(sides, played.sides, strict=True):
                for e in side:
                    mine = [p for p in players if p is not None and entrant(p) == e]
                    if mine and all(p in played.no_shows for p in mine):
                        absent.add(e)
            forfeits = frozenset(absent) if rule_of_attendance.no_show == attendance.FORFEIT else frozenset()
            skipped = frozenset(absent) if rule_of_attendance.no_show == attendance.NO_GAME else frozenset()
            as_sub = (
                frozenset(entrant(p) for p in played.as_sub)
                if league.format != seating.FIXED
                else frozenset()
            )
            for i, side in enumerate(sides):
                for e in side:
                    if e not in absent and r.forfeit_side != i:
                        matchpoints[e] += table_mp.get((r.league_table_id, i), 0.0)
            games.append(
                standings.GameResult(
                    r.night_number,
                    sides,
                    tuple(r.scores),
                    tuple(r.bags),
                    r.winner_side,
                    forfeits=forfeits,
                    skipped=skipped,
                    as_sub=as_sub,
                    conceded=frozenset(sides[r.forfeit_side])
                    if r.forfeit_side is not None and 0 <= r.forfeit_side < len(sides)
                    else frozenset(),
                )
            )
        nights = await self.store.nights.nights(league.id, season)
        held = [n.number for n in nights if n.status == "finished" and n.number != finals]
        byes = [(n, entrant(u)) for n, u in await self.store.rounds.season_byes(league.id, season)]
        rows = standings.standings(
            games,
            rule,
            entrants=entrants,
            byes=byes,
            nights_held=held,
            matchpoints=dict(matchpoints) if duplicate else None,
        )
        return rows, len(held)

    async def entrant_names(self, league: LeagueRow) -> Callable[[Hashable], Text]:
        names: dict[Hashable, str] = {}
        if league.format == seating.FIXED:
            for t in await self.store.rosters.teams(league.id, statuses=("active", "removed")):
                names[f"team:{t.id}"] = f"**{t.name}** ({' + '.join(text.mention(m) for m in t.members)})"

        def name(e: Hashable) -> Text:
            return names.get(e) or (text.mention(e) if isinstance(e, int) else str(e))

        return name

    async def standings_text(self, league: LeagueRow, *, title: Text | None = None) -> Text:
        rows, held = await self.standings_rows(league)
        rule = settings_of(league).points
        described = rule.describe()
        if settings_of(league).duplicate:
            described = join(described, _("; ranked by matchpoints"), sep="")
        return text.standings(
            league.name,
            league.season,
            rows,
            await self.entrant_names(league),
            held,
            described,
            title=title,
            ranking=ranking_of(league),
            min_nights=rule.min_nights,
        )

    async def schedule_text(self, league: LeagueRow) -> Text:
        schedule = schedule_of(league)
        held = {n.night_date: n.status for n in await self.store.nights.nights(league.id, league.season)}
        return text.schedule(
            league.name,
            schedule,
            sch.describe(schedule),
            held,
            utcnow(self.clock),
            status=league_status(league.status) if league.status != "active" else None,
            format_label=seating_label(league.format),
            settings=settings_of(league),
            rules=lexicon.describe(ruleset_of(league)),
            time_call=time_call_label(settings_of(league).time_call),
        )

    def tables_text(self, league: LeagueRow) -> Text:
        """The league's tables: their rules, turn timers and what happens when time is up."""
        settings = settings_of(league)
        return text.league_tables(
            lexicon.describe(ruleset_of(league)), settings, time_call_label(settings.time_call)
        )

    async def history_text(self, league: LeagueRow) -> Text:
        return (await self.history_page(league)).text

    async def history_page(self, league: LeagueRow, page: int = 0) -> HistoryPage:
        """The league's past nights, :data:`HISTORY_NIGHTS` a page, latest first (``page`` 0, with
        the admin log); a page past the end shows the first nights."""
        nights = [
            n
            for n in await self.store.nights.nights(league.id)
            if n.status in ("finished", "missed", "cancelled")
        ]
        pages = max(1, -(-len(nights) // HISTORY_NIGHTS))
        page = max(0, min(page, pages - 1))
        end = len(nights) - page * HISTORY_NIGHTS
        shown = [
            (n, night_status(n.status), (await self.store.rounds.night_results(n.id))[:8])
            for n in nights[max(0, end - HISTORY_NIGHTS) : end]
        ]
        audit = [] if page else await self.store.audit.log(league.id, limit=10, actions=HISTORY_ACTIONS)
        log = [
            (e, audit_action(e.action), _audit_detail(e.detail), audit_reason(e.detail or {}, e.reason))
            for e in audit
        ]
        if not shown and not log:
            return HistoryPage(text.no_history(league.name), 0, 1)
        return HistoryPage(text.history(league.name, shown, log, page=page, pages=pages), page, pages)

    async def correct(
        self,
        league: LeagueRow,
        actor_id: int,
        *,
        night_number: int,
        round_no: int,
        table_no: int,
        scores: Sequence[int],
        reason: str,
        season: int | None = None,
    ) -> Result:
        """Correct a table's result in any season (``season``: default the current one). The
        game's bags are worked out again from the new scores (when the league's scoring allows it),
        the standings follow, and when the table's game was rated the ratings are recomputed in
        order from that game on. The old and new results go to the audit log."""
        if not reason.strip():
            raise LeagueRefusal(_("Give a reason: it is kept in the league's history."))
        season = season or league.season
        if not 1 <= season <= league.season:
            raise LeagueRefusal(_("There is no season %(n)s.", n=season), "no_season")
        nights = [n for n in await self.store.nights.nights(league.id, season) if n.number == night_number]
        if not nights:
            if season != league.season:
                raise LeagueRefusal(
                    _("Season %(season)s has no night %(n)s.", season=season, n=night_number), "no_night"
                )
            raise LeagueRefusal(_("There is no night %(n)s in this season.", n=night_number), "no_night")
        tables = await self.store.rounds.round_tables(nights[0].id, round_no)
        lt = next((t for t in tables if t.table_no == table_no), None)
        if lt is None:
            raise LeagueRefusal(
                _(
                    "Night %(n)s has no table %(table)s in round %(round)s.",
                    n=night_number,
                    table=table_no,
                    round=round_no,
                ),
                "no_table",
            )
        if len(scores) != len(lt.sides):
            raise LeagueRefusal(
                _n(
                    "Give %(n)s score (one per side, in table order), like `420 380`.",
                    "Give %(n)s scores (one per side, in table order), like `420 380`.",
                    len(lt.sides),
                )
            )
        top = max(scores)
        leaders = [i for i, s in enumerate(scores) if s == top]
        winner = leaders[0] if len(leaders) == 1 else None
        rules = ruleset_of(league)
        bags = [bags_of_score(rules, s) for s in scores]
        try:
            result = await self.store.rounds.correct_result(
                lt.id,
                league_id=league.id,
                scores=list(scores),
                winner_side=winner,
                actor_id=actor_id,
                reason=reason.strip()[:200],
                bags=None if None in bags else [b for b in bags if b is not None],
            )
        except LeagueError as exc:
            raise LeagueRefusal.of(exc) from None
        await self.rerate(result)
        return result

    async def rerate(self, result: Result) -> None:
        """A result changed: rate its game and every later game of the server again, in order."""
        if result.game_id is not None:
            await self.store.ratings.rerate_from(rate_stored, result.game_id)

    async def post_final(self, league: LeagueRow) -> None:
        rows, held = await self.standings_rows(league)
        post = text.final_standings(
            league.name,
            league.season,
            rows,
            await self.entrant_names(league),
            held,
            standings.champions(rows),
            ranking=ranking_of(league),
            min_nights=settings_of(league).points.min_nights,
        )
        await self.gateway.post(league.channel_id, post)


def ranking_of(league: LeagueRow) -> str:
    """What the league's standings rank by: matchpoints in a duplicate league, else its ranking."""
    settings = settings_of(league)
    return standings.MATCHPOINTS if settings.duplicate else settings.points.ranking


def bags_of_score(rules: Ruleset, score: int) -> int | None:
    """The bags a side holds at a final ``score``, worked out from the score: under scoring where
    every item but a bag is a multiple of 10 and 10 bags cost a multiple of 10, the score's last
    digit is the bags carried. None when the league's scoring does not tell (the old bags stay)."""
    tens = (rules.bag_penalty, rules.nil_value, rules.blind_nil_value, rules.ten_for_value)
    if rules.bag_value != 1 or rules.bag_limit != 10 or rules.boston or any(v % 10 for v in tens):
        return None
    return score % 10
