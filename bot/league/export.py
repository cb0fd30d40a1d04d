"""``/league export``: a season's standings, nights and results as CSV files (headers below and in
docs/LEAGUE_GUIDE.md). The columns are data, not words: codes (``finished``, ``bye``) and numbers,
the same in every language; names are the ones Discord shows (``name_of``), ids beside them.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Callable, Hashable, Sequence
from datetime import UTC, datetime

from bot.i18n import _
from bot.storage.leagues import LeagueRow, LeagueStore

from . import seating
from .gateway import LeagueRefusal
from .results import Results

STANDINGS_HEADER = (
    "season", "rank", "entrant", "name", "players", "league_points", "game_points", "points_per_game",
    "games", "wins", "close_losses", "losses", "draws", "point_diff", "bags", "byes", "nights",
    "no_shows", "sub_games", "dropped_night", "ranked", "forfeit_losses",
)  # fmt: skip
NIGHTS_HEADER = ("season", "night", "date", "starts_at_utc", "status", "rounds", "tables", "byes")
RESULTS_HEADER = (
    "season", "night", "round", "table", "side", "players", "score", "bags", "won", "complete",
    "corrected", "game_id", "forfeit",
)  # fmt: skip


def _csv(header: Sequence[str], rows: Sequence[Sequence[object]]) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(header)
    writer.writerows(rows)
    return out.getvalue()


def _utc(unix: int) -> str:
    return datetime.fromtimestamp(unix, UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


class Export:
    """The CSV files of one season of a league."""

    def __init__(self, store: LeagueStore, results: Results) -> None:
        self.store = store
        self.results = results

    async def season_files(
        self, league: LeagueRow, season: int | None, name_of: Callable[[int], str]
    ) -> list[tuple[str, str]]:
        """``[(file name, CSV text)]``: standings, nights, results of ``season`` (default: the
        current one). A season that has not begun is refused (``no_such_season``)."""
        season = season or league.season
        if not 1 <= season <= league.season:
            raise LeagueRefusal(
                _(
                    "**%(league)s** has seasons 1 to %(current)s (you asked for %(n)s).",
                    league=league.name,
                    current=league.season,
                    n=season,
                ),
                "no_such_season",
            )
        rows, _held = await self.results.standings_rows(league, season)
        teams = {
            f"team:{t.id}": t
            for t in await self.store.rosters.teams(league.id, statuses=("active", "removed"))
        }

        def entrant(e: Hashable) -> tuple[str, str, str]:
            team = teams.get(str(e)) if league.format == seating.FIXED else None
            if team is not None:
                return str(e), team.name, " ".join(str(m) for m in team.members)
            return str(e), name_of(int(str(e))) if str(e).isdigit() else "", str(e)

        standing_rows: list[tuple[object, ...]] = []
        for r in rows:
            key, shown, players = entrant(r.entrant)
            standing_rows.append(
                (
                    season, r.rank or "", key, shown, players, r.total, r.scored, f"{r.per_game:.3f}",
                    r.games, r.wins, r.close_losses, r.losses, r.draws, f"{r.point_diff:.1f}", r.bags,
                    r.byes, len(r.nights), r.no_shows, r.sub_games,
                    "" if r.dropped is None else r.dropped, int(r.ranked), r.forfeit_losses,
                )
            )  # fmt: skip
        results = await self.store.rounds.season_results(league.id, season)
        byes = await self.store.rounds.season_byes(league.id, season)
        night_rows: list[tuple[object, ...]] = []
        for n in await self.store.nights.nights(league.id, season):
            mine = [res for res in results if res.night_id == n.id]
            sat_out = sum(1 for no, _u in byes if no == n.number)
            night_rows.append(
                (
                    season, n.number, n.night_date, _utc(n.starts_at), n.status,
                    len({res.round_no for res in mine}), len(mine), sat_out,
                )
            )  # fmt: skip
        result_rows: list[tuple[object, ...]] = []
        for res in results:
            for i, side in enumerate(res.sides):
                result_rows.append(
                    (
                        season, res.night_number, res.round_no, res.table_no, i + 1,
                        " ".join("bot" if p is None else str(p) for p in side), res.scores[i], res.bags[i],
                        int(res.winner_side == i), int(res.complete), int(res.corrected), res.game_id or "",
                        int(res.forfeit_side == i),
                    )
                )  # fmt: skip
        for night_no, user in byes:
            result_rows.append((season, night_no, "", "", "bye", str(user), "", "", "", "", "", "", ""))
        slug = f"season{season}"
        return [
            (f"{slug}-standings.csv", _csv(STANDINGS_HEADER, standing_rows)),
            (f"{slug}-nights.csv", _csv(NIGHTS_HEADER, night_rows)),
            (f"{slug}-results.csv", _csv(RESULTS_HEADER, result_rows)),
        ]
