"""Playoffs: the season's top entrants meet on a finals night, and its winner is the champion.

Off by default (``/league-season playoffs``). The setting (:class:`PlayoffRule`) and the season's
playoffs as they go (``STATE_KEY``: the qualifiers, the finals night's number and date, the
champion) live in the league's settings, stored like any other; the finals night's bracket (who
took each place) in the night's data. Everything is read back from storage, so a restart between
the season's last night and the finals loses nothing.

* **Qualifying** (:func:`qualify`): the top ``size`` entrants (teams with fixed partners, players
  with rotating partners) in the standings' order, among those ranked who played at least
  ``min_nights`` nights; with ``per_night`` they are ordered by league points per night played
  instead. Entrants level on what orders them are split by the nights played (more first), then
  by the standings' own order (head to head, point difference, bags).
* **The finals night** is one more night of the season (the schedule gets a week longer): the
  league's usual night the next week, or ``date`` when the organiser set one (a later date on the
  league's weekday). It has its own Discord scheduled event, check-in and seating like any night.
* **The bracket** (:func:`pair_sides`, :func:`matches`): a table seats two sides. With fixed
  partners each qualifying team is a side; with rotating partners seeds pair up (1 + 4 against
  2 + 3; with 8, 1 + 8, 2 + 7, 3 + 6, 4 + 5). Two sides play one final table; four play semis
  (1st against 4th, 2nd against 3rd) and then the final. The default, 4 qualifiers, is one final
  table with rotating partners and semis and a final with fixed teams.
* **No-shows** lose their place: the qualifiers who checked in keep their order and the next
  entrants in the standings who checked in move up to fill the places. A place still empty is a
  bot's seat; a side with nobody at all gives its opponent the walkover.
* **The champion** is the winning side of the final (a final called level: the side with more
  points, then the higher seed).
"""

from __future__ import annotations

import logging
from collections.abc import Hashable, Sequence
from dataclasses import dataclass, replace
from datetime import date, timedelta
from typing import TYPE_CHECKING, Any

from bot.clock import Clock
from bot.i18n import Text, _
from bot.render import league as league_text
from bot.render import playoffs as text
from bot.storage.leagues import LeagueError, LeagueRow, LeagueStore, NightRow, Result

from . import schedule as sch
from . import seating, standings
from .core import Leagues, ScheduledEvents, ruleset_of, schedule_of, settings_of
from .errors import LeagueInputError
from .finals import FINALS_KEY, STATE_KEY
from .gateway import LeagueGateway, LeagueRefusal
from .settings import team_size

if TYPE_CHECKING:
    from .results import Results

log = logging.getLogger(__name__)

#: what the slash command offers to order the qualifiers (each client shows them in its own language)
ORDER_LABELS = {
    "standings": "As the standings rank",
    "per_night": "League points per night played",
}

#: ``/league-season playoffs``'s on/off choice
SWITCH_LABELS = {"on": "Playoffs on", "off": "Playoffs off"}

RULE_KEY = "playoffs"
FIELD_KEY = "playoffs_field"  # the finals night's data: who took each place
SIZES_FIXED = (2, 4)
SIZES_ROTATING = (4, 8)
DEFAULT_SIZE = 4

Entrant = Hashable


class PlayoffError(LeagueInputError):
    """A playoffs setting that does not make sense (the message says what is allowed)."""


@dataclass(frozen=True)
class PlayoffRule:
    on: bool = False
    size: int = DEFAULT_SIZE  # qualifiers: teams (fixed partners) or players (rotating partners)
    min_nights: int = 0  # nights played to qualify
    per_night: bool = False  # order by league points per night played (uneven attendance)
    date: str | None = None  # the finals night (ISO date); None: the next week

    def check(self, fmt: str, schedule: sch.Schedule | None = None) -> PlayoffRule:
        sizes = SIZES_FIXED if fmt == seating.FIXED else SIZES_ROTATING
        if self.size not in sizes:
            raise PlayoffError(
                _(
                    "Playoffs take %(sizes)s qualifiers in this league's format (you gave %(n)s).",
                    sizes=" / ".join(str(s) for s in sizes),
                    n=self.size,
                ),
                "playoff_size",
            )
        if not 0 <= self.min_nights <= standings.MAX_MIN_NIGHTS:
            raise PlayoffError(
                _(
                    "The nights needed to qualify are 0 to %(max)s (you gave %(n)s).",
                    max=standings.MAX_MIN_NIGHTS,
                    n=self.min_nights,
                ),
                "playoff_nights_range",
            )
        if self.date is not None and schedule is not None:
            try:
                day = date.fromisoformat(self.date)
            except ValueError:
                raise PlayoffError(
                    _("Give the finals date as YYYY-MM-DD (you gave %(date)s).", date=self.date),
                    "playoff_date",
                ) from None
            last = schedule.last_night.day
            if day.weekday() != schedule.weekday or day <= last:
                raise PlayoffError(
                    _(
                        "The finals night is a league night after the last one (%(last)s): "
                        "a %(weekday)s after it.",
                        last=last.isoformat(),
                        weekday=sch.weekday_name(schedule.weekday),
                    ),
                    "playoff_date",
                )
        return self

    def to_dict(self) -> dict[str, Any]:
        return {
            "on": self.on,
            "size": self.size,
            "min_nights": self.min_nights,
            "per_night": self.per_night,
            "date": self.date,
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any] | None) -> PlayoffRule:
        d = d or {}
        return cls(
            on=bool(d.get("on", False)),
            size=int(d.get("size", DEFAULT_SIZE)),
            min_nights=int(d.get("min_nights", 0)),
            per_night=bool(d.get("per_night", False)),
            date=d.get("date") or None,
        )


def describe(league: LeagueRow) -> Text:
    rule = rule_of(league)
    return text.setting(
        rule.on, rule.size, rule.min_nights, rule.per_night, rule.date, league.format == seating.FIXED
    )


def rule_of(league: LeagueRow) -> PlayoffRule:
    return PlayoffRule.from_dict(league.settings.get(RULE_KEY))


def state_of(league: LeagueRow) -> dict[str, Any] | None:
    """This season's playoffs (None before the regular season ended, or without playoffs)."""
    state = league.settings.get(STATE_KEY)
    if isinstance(state, dict) and state.get("season") == league.season:
        return state
    return None


# --- qualifying --------------------------------------------------------------------------------


def per_night(row: standings.Row) -> float:
    """League points per night played (a bye counts as a night)."""
    return row.total / len(row.nights) if row.nights else 0.0


def qualify(rows: Sequence[standings.Row], rule: PlayoffRule) -> tuple[list[Entrant], list[Entrant]]:
    """The qualifiers in seed order, and the next entrants in line (who move up for a no-show)."""
    order = {r.entrant: i for i, r in enumerate(rows)}
    able = [r for r in rows if r.ranked and (r.games or r.byes) and len(r.nights) >= rule.min_nights]

    def key(r: standings.Row) -> tuple[Any, ...]:
        first: Any = -round(per_night(r), 9) if rule.per_night else r.rank
        return (first, -len(r.nights), order[r.entrant])

    ranked = [r.entrant for r in sorted(able, key=key)]
    return ranked[: rule.size], ranked[rule.size :]


# --- the bracket -------------------------------------------------------------------------------


def take_places(
    qualifiers: Sequence[Entrant], reserves: Sequence[Entrant], present: set[Entrant], size: int = 0
) -> list[Entrant | None]:
    """The finals field of ``size`` places (default: one per qualifier): the qualifiers who came,
    in seed order, then the next in line who came; None for a place nobody took."""
    size = size or len(qualifiers)
    came = [e for e in (*qualifiers, *reserves) if e in present][: len(qualifiers)]
    return [*came, *([None] * (size - len(came)))]


def pair_sides(field: Sequence[Entrant | None], fixed: bool) -> list[tuple[Entrant | None, ...]]:
    """The bracket's sides in seed order: each team, or pairs of players (1 + n, 2 + n-1, ...)."""
    if fixed:
        return [(e,) for e in field]
    n = len(field)
    return [(field[k], field[n - 1 - k]) for k in range(n // 2)]


def matches(
    sides: int, round_no: int, winners: Sequence[int | None] = ()
) -> list[tuple[int | None, int | None]]:
    """The side indexes meeting in ``round_no``: two sides play the final in round 1; four play
    semis (1 v 4, 2 v 3) and then the final of the semis' ``winners`` (None: nobody advanced)."""
    if sides == 2:
        return [(0, 1)] if round_no == 1 else []
    if round_no == 1:
        return [(0, 3), (1, 2)]
    if round_no == 2:
        return [(winners[0], winners[1])]
    return []


def rounds_for(sides: int) -> int:
    return 1 if sides == 2 else 2


def winner(a: int | None, b: int | None, scores: tuple[int, int] | None, won: int | None) -> int | None:
    """Who advances from a match of sides ``a`` and ``b`` (seed indexes; None: an empty place).
    ``scores``/``won``: the table's result (None when it was not played: a walkover)."""
    if a is None or b is None:
        return a if b is None else b
    if scores is None:
        return None
    if won is None:  # called level: more points, then the higher seed
        won = 0 if scores[0] >= scores[1] else 1
    return (a, b)[won]


# --- the service -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Finals:
    """A finals night's bracket as stored: the field and each side's players (None: a bot)."""

    field: list[Entrant | None]
    sides: list[tuple[int | None, ...]]


class Playoffs:
    """Qualify at the regular season's end, schedule and seat the finals, crown the champion."""

    def __init__(
        self,
        store: LeagueStore,
        gateway: LeagueGateway,
        clock: Clock,
        *,
        leagues: Leagues,
        results: Results,
        events: ScheduledEvents,
    ) -> None:
        self.store = store
        self.gateway = gateway
        self.clock = clock
        self.leagues = leagues
        self.results = results
        self.events = events

    # ---- the organiser's setting

    async def set_rule(
        self,
        league: LeagueRow,
        actor_id: int,
        *,
        on: bool | None = None,
        size: int | None = None,
        min_nights: int | None = None,
        order: str | None = None,
        finals_date: str | None = None,
    ) -> LeagueRow:
        old = rule_of(league)
        if order is not None and order not in ORDER_LABELS:
            raise LeagueRefusal(
                _("Order the qualifiers as the standings rank or by points per night."), "bad_order"
            )
        per_night = None if order is None else order == "per_night"
        changes: dict[str, Any] = {
            k: v
            for k, v in {"on": on, "size": size, "min_nights": min_nights, "per_night": per_night}.items()
            if v is not None
        }
        if finals_date is not None:
            typed = finals_date.strip()
            changes["date"] = None if typed.lower() in ("", "none", "next") else typed
        if not changes:
            raise LeagueRefusal(_("Nothing to change: give at least one new value."), "nothing_to_change")
        if state_of(league) is not None:
            raise LeagueRefusal(
                _("This season's playoffs are under way: their settings apply from the next season."),
                "playoffs_started",
            )
        try:
            new = replace(old, **changes).check(league.format, schedule_of(league))
        except PlayoffError as exc:
            raise LeagueRefusal.of(exc) from None
        if new == old:
            raise LeagueRefusal(
                _("Nothing to change: those are the league's settings already."), "nothing_to_change"
            )
        league.settings = {**league.settings, RULE_KEY: new.to_dict()}
        return await self.leagues.save(league, actor_id, "edit", {"settings": {RULE_KEY: new.to_dict()}})

    # ---- the season's end (the scheduler: every night of the schedule is behind us)

    async def season_end(self, league: LeagueRow) -> bool:
        """True when the playoffs took the season's end over: the finals were scheduled, or they
        were played and the champion was named (the season is over)."""
        state = state_of(league)
        if state is None:
            if not rule_of(league).on:
                return False
            return await self._schedule_finals(league)
        if state.get("champion") is not None:
            return False
        return await self._crown(league, state)

    async def _schedule_finals(self, league: LeagueRow) -> bool:
        rule = rule_of(league)
        rows, _held = await self.results.standings_rows(league)
        qualifiers, reserves = qualify(rows, rule)
        if len(qualifiers) < 2:
            return False  # nobody to play the finals: the season ends as it would without them
        schedule = schedule_of(league)
        last = schedule.last_night
        day = last.day + timedelta(days=7)
        if rule.date is not None:
            wanted = date.fromisoformat(rule.date)
            if wanted.weekday() == schedule.weekday and wanted > day:
                day = wanted
        skipped = set(schedule.skipped)
        between = last.day + timedelta(days=7)
        while between < day:
            skipped.add(between)
            between += timedelta(days=7)
        try:
            finals = replace(schedule, weeks=schedule.weeks + 1, skipped=frozenset(skipped))
        except sch.ScheduleError:
            log.warning("league %s: no week left for the finals", league.id)
            return False  # a season of the most weeks there can be: it ends without finals
        night = finals.last_night
        state = {
            "season": league.season,
            "qualifiers": list(qualifiers),
            "reserves": list(reserves),
            "size": rule.size,  # the bracket's places (fewer qualifiers: the rest are empty)
            "night": night.number,
            "date": night.key,
            "champion": None,
        }
        league.schedule = sch.to_dict(finals)
        finals_of_seasons = {**(league.settings.get(FINALS_KEY) or {}), str(league.season): night.number}
        league.settings = {**league.settings, STATE_KEY: state, FINALS_KEY: finals_of_seasons}
        try:
            league = await self.store.rosters.update_league(
                league, actor_id=None, action="playoffs", detail={"finals": night.key}
            )
        except LeagueError:
            return True  # changed meanwhile: the next tick looks again
        name = await self.results.entrant_names(league)
        players = await self._players(league, qualifiers)
        post = text.qualifiers(league.name, league.season, [name(e) for e in qualifiers], night.start_utc)
        await self.gateway.post(league.channel_id, post, users=players)
        await self.events.sync(league)
        return True

    async def _players(self, league: LeagueRow, entrants: Sequence[Entrant]) -> list[int]:
        if league.format != seating.FIXED:
            return [e for e in entrants if isinstance(e, int)]
        members = {f"team:{t.id}": t.members for t in await self.store.rosters.teams(league.id)}
        return [m for e in entrants for m in members.get(str(e), ())]

    # ---- the finals night

    async def finals_of(self, league: LeagueRow, night: NightRow, players: Sequence[int]) -> Finals:
        """The night's bracket: taken once, from who checked in (``players``), when round 1 is
        seated, and kept in the night's data (a restart, and round 2, read it back)."""
        stored = night.data.get(FIELD_KEY)
        if isinstance(stored, dict):
            return Finals(list(stored["field"]), [tuple(s) for s in stored["sides"]])
        state = state_of(league) or {}
        fixed = league.format == seating.FIXED
        teams = {f"team:{t.id}": t.members for t in await self.store.rosters.teams(league.id)}
        present: set[Entrant]
        if fixed:
            present = {e for e, members in teams.items() if any(m in players for m in members)}
        else:
            present = set(players)
        qualifiers = state.get("qualifiers", [])
        field = take_places(qualifiers, state.get("reserves", []), present, _size(state, len(qualifiers)))
        sides: list[tuple[int | None, ...]] = []
        if fixed:
            size = team_size(league.format, ruleset_of(league))
            for e in field:
                here = [m for m in teams.get(str(e), ()) if m in players] if e is not None else []
                sides.append(tuple([*here, *([None] * (size - len(here)))][:size]))
        else:
            for pair in pair_sides(field, fixed=False):
                sides.append(tuple(p if isinstance(p, int) else None for p in pair))
        blob = {"field": field, "sides": [list(s) for s in sides]}
        await self.store.nights.update_night_data(night.id, **{FIELD_KEY: blob})
        night.data[FIELD_KEY] = blob
        return Finals(field, sides)

    def rounds(self, league: LeagueRow) -> int:
        state = state_of(league) or {}
        n = _size(state, len(state.get("qualifiers", [])))
        return rounds_for(n if league.format == seating.FIXED else n // 2)

    async def seat(
        self, league: LeagueRow, night: NightRow, round_no: int, players: Sequence[int]
    ) -> seating.Seating | None:
        finals = await self.finals_of(league, night, players)
        played = await self.store.rounds.night_results(night.id)
        winners = self._winners(finals, played, 1) if round_no > 1 else []
        tables = []
        for a, b in matches(len(finals.sides), round_no, winners):
            if a is None or b is None or not any(finals.sides[a]) or not any(finals.sides[b]):
                continue  # a walkover: nobody to play
            tables.append(seating.TablePlan((finals.sides[a], finals.sides[b])))
        if not tables and round_no == 1 and not any(any(s) for s in finals.sides):
            return None
        return seating.Seating(tuple(tables))

    def _winners(self, finals: Finals, played: Sequence[Result], round_no: int) -> list[int | None]:
        sides = [s if any(s) else None for s in finals.sides]
        out: list[int | None] = []
        prior = self._winners(finals, played, round_no - 1) if round_no > 1 else []
        for a, b in matches(len(sides), round_no, prior):
            a = a if a is not None and sides[a] is not None else None
            b = b if b is not None and sides[b] is not None else None
            result = _result_of(played, round_no, finals.sides, a, b)
            if result is None:
                out.append(winner(a, b, None, None))
                continue
            scores, won = result
            out.append(winner(a, b, scores, won))
        return out

    async def _crown(self, league: LeagueRow, state: dict[str, Any]) -> bool:
        nights = [
            n
            for n in await self.store.nights.nights(league.id, league.season)
            if n.number == state["night"] and n.status == "finished"
        ]
        if not nights:
            return False  # no finals were held (the season was cut short): it ends as usual
        night = nights[-1]
        fresh = await self.store.rosters.get_league(league.id)
        if fresh is None or fresh.status != "active":
            return True
        finals = await self.finals_of(fresh, night, [])
        played = await self.store.rounds.night_results(night.id)
        last = rounds_for(len(finals.sides))
        (won,) = self._winners(finals, played, last)
        champions: list[Entrant] = []
        if won is not None:
            champions = list(pair_sides(finals.field, league.format == seating.FIXED)[won])
            champions = [e for e in champions if e is not None]
        fresh.status = "ended"
        fresh.settings = {**fresh.settings, STATE_KEY: {**state, "champion": champions or ["-"]}}
        # the season's length is its regular season's again (a new season is as long)
        schedule = schedule_of(fresh)
        if schedule.weeks > 1:
            fresh.schedule = sch.to_dict(replace(schedule, weeks=schedule.weeks - 1))
        try:
            fresh = await self.store.rosters.update_league(fresh, actor_id=None, action="season_over")
        except LeagueError:
            return True  # the next tick looks again
        rows, held = await self.results.standings_rows(fresh)
        name = await self.results.entrant_names(fresh)
        rule = settings_of(fresh).points
        await self.gateway.post(
            fresh.channel_id,
            league_text.final_standings(
                fresh.name,
                fresh.season,
                rows,
                name,
                held,
                champions,
                ranking=rule.ranking,
                min_nights=rule.min_nights,
            ),
        )
        players = await self._players(fresh, champions)
        await self.gateway.post(
            fresh.channel_id,
            text.champion(fresh.name, fresh.season, [name(e) for e in champions]),
            users=players,
        )
        await self.events.sync(fresh)
        return True


def _size(state: dict[str, Any], qualifiers: int) -> int:
    """The bracket's places: the setting's size when the finals were scheduled."""
    return int(state.get("size") or qualifiers)


def _result_of(
    played: Sequence[Result],
    round_no: int,
    sides: Sequence[tuple[int | None, ...]],
    a: int | None,
    b: int | None,
) -> tuple[tuple[int, int], int | None] | None:
    """The result of the table where sides ``a`` and ``b`` met in ``round_no``: the scores in
    bracket order and the winner (0: ``a``, 1: ``b``, None: level); None when not played."""
    if a is None or b is None:
        return None
    mine = {p for p in sides[a] if p is not None}
    theirs = {p for p in sides[b] if p is not None}
    for r in played:
        if r.round_no != round_no or len(r.sides) != 2:
            continue
        first = {p for p in r.sides[0] if p is not None}
        second = {p for p in r.sides[1] if p is not None}
        if (first & mine or second & theirs) and not (first & theirs):
            flip = False
        elif first & theirs or second & mine:
            flip = True
        else:
            continue
        scores = (r.scores[1], r.scores[0]) if flip else (r.scores[0], r.scores[1])
        won = None if r.winner_side is None else (r.winner_side ^ 1 if flip else r.winner_side)
        return scores, won
    return None
