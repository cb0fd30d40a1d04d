"""Rounds of a night, their seatings into league tables, and results: a round starts and finishes
once, a table's result is one keyed row (corrected only by an audited admin change).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from .base import _dumps, _now
from .league_base import LeagueStoreBase
from .league_rows import _LT_COLUMNS, LeagueError, LeagueTable, Result, _lt


class RoundRows(LeagueStoreBase):
    """Rounds, league tables, byes, substitutes and results."""

    async def start_round(
        self,
        night_id: int,
        round_no: int,
        *,
        tables: Sequence[Sequence[Sequence[int | None]]],
        byes: Sequence[int] = (),
        ends_at: int | None = None,
    ) -> list[LeagueTable] | None:
        """Seat a round in one transaction: the round, its tables and seats, its byes, and the night's
        round number (compare-and-set from ``round_no - 1``). None if that round was already seated."""
        now = _now()
        async with self._tx() as conn:
            changed = await conn.execute(
                "UPDATE league_nights SET round_no = ?, status = 'playing', updated_at = ?"
                " WHERE id = ? AND round_no = ? AND status IN ('checkin', 'playing')",
                (round_no, now, night_id, round_no - 1),
            )
            if changed != 1:
                return None
            await conn.execute(
                "INSERT INTO league_rounds (night_id, round_no, status, started_at, ends_at)"
                " VALUES (?, ?, 'playing', ?, ?)",
                (night_id, round_no, now, ends_at),
            )
            out: list[LeagueTable] = []
            for no, sides in enumerate(tables, start=1):
                blob = [list(s) for s in sides]
                lt_id = await conn.fetchval(
                    "INSERT INTO league_tables (night_id, round_no, table_no, sides, status)"
                    " VALUES (?, ?, ?, ?, 'seated') RETURNING id",
                    (night_id, round_no, no, _dumps(blob)),
                )
                assert lt_id is not None
                for side_no, side in enumerate(sides):
                    for uid in side:
                        if uid is not None:
                            await conn.execute(
                                "INSERT INTO league_seats (league_table_id, user_id, side) VALUES (?, ?, ?)",
                                (lt_id, uid, side_no),
                            )
                out.append(LeagueTable(lt_id, night_id, round_no, no, blob, None, None, "seated"))
            for uid in byes:
                await conn.execute(
                    "INSERT INTO league_byes (night_id, round_no, user_id) VALUES (?, ?, ?)",
                    (night_id, round_no, uid),
                )
        return out

    async def round_info(self, night_id: int, round_no: int) -> dict[str, Any] | None:
        row = await self._one(
            "SELECT status, started_at, ends_at, finished_at FROM league_rounds WHERE"
            " night_id = ? AND round_no = ?",
            (night_id, round_no),
        )
        if row is None:
            return None
        return {"status": row[0], "started_at": row[1], "ends_at": row[2], "finished_at": row[3]}

    async def finish_round(self, night_id: int, round_no: int) -> bool:
        """Mark the round finished once (compare-and-set); False when it already was."""
        async with self._tx() as conn:
            changed = await conn.execute(
                "UPDATE league_rounds SET status = 'finished', finished_at = ?"
                " WHERE night_id = ? AND round_no = ? AND status = 'playing'",
                (_now(), night_id, round_no),
            )
            return bool(changed == 1)

    async def round_tables(self, night_id: int, round_no: int) -> list[LeagueTable]:
        rows = await self._all(
            f"SELECT {_LT_COLUMNS} FROM league_tables WHERE night_id = ? AND round_no = ? ORDER BY table_no",
            (night_id, round_no),
        )
        return [_lt(r) for r in rows]

    async def void_tables(
        self,
        night_id: int,
        *,
        league_id: int,
        actor_id: int | None,
        reason: str | None,
        round_no: int | None = None,
        table_no: int | None = None,
    ) -> list[LeagueTable]:
        """Void a night's tables (all of them, a round's or one table): their results no longer
        count. Returns the tables voided now (not void before), audited as ``void``."""
        now = _now()
        where, params = "night_id = ? AND status <> 'void'", [night_id]
        if round_no is not None:
            where, params = where + " AND round_no = ?", [*params, round_no]
        if table_no is not None:
            where, params = where + " AND table_no = ?", [*params, table_no]
        async with self._tx() as conn:
            rows = await conn.fetchall(
                f"SELECT {_LT_COLUMNS} FROM league_tables WHERE {where}", tuple(params)
            )
            tables = [_lt(r) for r in rows]
            if tables:
                await conn.execute(f"UPDATE league_tables SET status = 'void' WHERE {where}", tuple(params))
                detail = {"round": round_no, "table": table_no, "tables": len(tables)}
                await self._audit(conn, league_id, night_id, actor_id, "void", detail, reason, now)
        return tables

    async def league_table(self, league_table_id: int) -> LeagueTable | None:
        row = await self._one(f"SELECT {_LT_COLUMNS} FROM league_tables WHERE id = ?", (league_table_id,))
        return _lt(row) if row else None

    async def league_table_for(self, table_id: int) -> LeagueTable | None:
        """The league table a live table plays for (None for an ordinary game)."""
        row = await self._one(f"SELECT {_LT_COLUMNS} FROM league_tables WHERE table_id = ?", (table_id,))
        return _lt(row) if row else None

    async def link_table(self, league_table_id: int, *, channel_id: int, table_id: int) -> None:
        async with self._tx() as conn:
            await conn.execute(
                "UPDATE league_tables SET channel_id = ?, table_id = ?, status = 'playing' WHERE id = ?",
                (channel_id, table_id, league_table_id),
            )

    async def byes(self, night_id: int) -> list[tuple[int, int]]:
        """(round, user) byes of a night."""
        rows = await self._all(
            "SELECT round_no, user_id FROM league_byes WHERE night_id = ? ORDER BY round_no, user_id",
            (night_id,),
        )
        return [(r, u) for r, u in rows]

    async def busy_players(
        self, user_ids: Sequence[int], *, except_league: int | None = None
    ) -> dict[int, int]:
        """Which of these players sit at an unfinished league table right now: {user: league id}."""
        if not user_ids:
            return {}
        marks = ", ".join("?" for _ in user_ids)
        rows = await self._all(
            "SELECT s.user_id, n.league_id FROM league_seats s"
            " JOIN league_tables t ON t.id = s.league_table_id"
            " JOIN league_nights n ON n.id = t.night_id"
            f" WHERE s.user_id IN ({marks}) AND t.status IN ('seated', 'playing') AND n.status = 'playing'",
            tuple(user_ids),
        )
        return {u: lg for u, lg in rows if lg != except_league}

    async def substitute(
        self,
        league_table_id: int,
        out_id: int,
        in_id: int,
        *,
        league_id: int,
        actor_id: int,
        reason: str | None,
    ) -> LeagueTable:
        """Put ``in_id`` in ``out_id``'s seat of a league table (sides and seats), with an audit line."""
        now = _now()
        async with self._tx() as conn:
            row = await conn.fetchone(
                f"SELECT {_LT_COLUMNS} FROM league_tables WHERE id = ?", (league_table_id,)
            )
            if row is None:
                raise LeagueError("That table no longer exists.", "table_gone")
            lt = _lt(row)
            if out_id not in lt.players:
                raise LeagueError(f"<@{out_id}> is not seated at that table.", "not_seated", user=out_id)
            if in_id in lt.players:
                raise LeagueError(f"<@{in_id}> is already seated at that table.", "seated", user=in_id)
            lt.sides = [[in_id if p == out_id else p for p in side] for side in lt.sides]
            await conn.execute("UPDATE league_tables SET sides = ? WHERE id = ?", (_dumps(lt.sides), lt.id))
            await conn.execute(
                "UPDATE league_seats SET user_id = ? WHERE league_table_id = ? AND user_id = ?",
                (in_id, lt.id, out_id),
            )
            await self._audit(
                conn,
                league_id,
                lt.night_id,
                actor_id,
                "sub",
                {"table": lt.table_no, "round": lt.round_no, "out": out_id, "in": in_id},
                reason,
                now,
            )
        return lt

    async def record_result(
        self,
        league_table_id: int,
        *,
        scores: Sequence[int],
        bags: Sequence[int],
        winner_side: int | None,
        complete: bool,
        game_id: int | None = None,
        seats: dict[int, tuple[int, int]] | None = None,
    ) -> bool:
        """Store a table's result once and mark the table finished; False if it already had one.
        ``seats``: {user: (the seat's actions, of those the bot's)} as the game ended."""
        async with self._tx() as conn:
            changed = await conn.execute(
                "INSERT INTO league_results (league_table_id, game_id, scores, bags, winner_side, complete,"
                " corrected, recorded_at, seats) VALUES (?, ?, ?, ?, ?, ?, 0, ?, ?) ON CONFLICT"
                " (league_table_id) DO NOTHING",
                (
                    league_table_id,
                    game_id,
                    _dumps(list(scores)),
                    _dumps(list(bags)),
                    winner_side,
                    int(complete),
                    _now(),
                    _dumps({str(u): list(c) for u, c in (seats or {}).items()}),
                ),
            )
            if changed != 1:
                return False
            await conn.execute(  # (a voided table stays void: its late result does not count)
                "UPDATE league_tables SET status = 'finished' WHERE id = ? AND status <> 'void'",
                (league_table_id,),
            )
        return True

    async def correct_result(
        self,
        league_table_id: int,
        *,
        league_id: int,
        scores: Sequence[int],
        winner_side: int | None,
        actor_id: int,
        reason: str,
        bags: Sequence[int] | None = None,
    ) -> Result:
        """An admin's correction of a table's result; the old and new results go to the audit log."""
        now = _now()
        async with self._tx() as conn:
            old = await conn.fetchone(
                "SELECT scores, bags, winner_side, forfeit_side FROM league_results"
                " WHERE league_table_id = ?",
                (league_table_id,),
            )
            lt_row = await conn.fetchone(
                f"SELECT {_LT_COLUMNS} FROM league_tables WHERE id = ?", (league_table_id,)
            )
            if lt_row is None:
                raise LeagueError("That table no longer exists.", "table_gone")
            lt = _lt(lt_row)
            if len(scores) != len(lt.sides):
                raise LeagueError(
                    f"Give {len(lt.sides)} scores, one per side.", "score_count", n=len(lt.sides)
                )
            new_bags = list(bags) if bags is not None else (json.loads(old[1]) if old else [0] * len(scores))
            await conn.execute(
                "INSERT INTO league_results (league_table_id, game_id, scores, bags, winner_side, complete,"
                " corrected, recorded_at) VALUES (?, NULL, ?, ?, ?, 1, 1, ?) ON CONFLICT (league_table_id)"
                " DO UPDATE SET scores = excluded.scores, bags = excluded.bags,"
                " winner_side = excluded.winner_side, corrected = 1, forfeit_side = NULL",
                (league_table_id, _dumps(list(scores)), _dumps(new_bags), winner_side, now),
            )
            await conn.execute(
                "UPDATE league_tables SET status = 'finished' WHERE id = ?", (league_table_id,)
            )
            detail = {
                "round": lt.round_no,
                "table": lt.table_no,
                "before": _before(old),
                "after": {"scores": list(scores), "bags": new_bags, "winner": winner_side},
            }
            await self._audit(conn, league_id, lt.night_id, actor_id, "correct", detail, reason, now)
        results = await self._results("lr.league_table_id = ?", (league_table_id,))
        return results[0]

    async def forfeit_table(
        self,
        league_table_id: int,
        *,
        league_id: int,
        loser_side: int,
        loser_id: int,
        actor_id: int,
        reason: str,
    ) -> tuple[Result, LeagueTable]:
        """Award a table by forfeit: ``loser_side`` forfeits (a forfeit loss), the other side wins
        (of three or more sides the others are level). A finished result is overturned; the old
        result, the admin and the reason go to the audit log as ``forfeit``. Returns the result and
        the table as it was (its status before: ``playing`` when a live game must stop)."""
        now = _now()
        async with self._tx() as conn:
            lt_row = await conn.fetchone(
                f"SELECT {_LT_COLUMNS} FROM league_tables WHERE id = ?", (league_table_id,)
            )
            if lt_row is None:
                raise LeagueError("That table no longer exists.", "table_gone")
            lt = _lt(lt_row)
            if lt.status == "void":
                raise LeagueError("That table is void.", "table_void")
            if not 0 <= loser_side < len(lt.sides):
                raise LeagueError(f"<@{loser_id}> is not seated at that table.", "not_seated", user=loser_id)
            old = await conn.fetchone(
                "SELECT scores, bags, winner_side, forfeit_side FROM league_results"
                " WHERE league_table_id = ?",
                (league_table_id,),
            )
            if old is not None and old[3] is not None:
                raise LeagueError("That table is already forfeited.", "forfeited")
            n = len(lt.sides)
            winner = 1 - loser_side if n == 2 else None
            zeros = _dumps([0] * n)
            await conn.execute(
                "INSERT INTO league_results (league_table_id, game_id, scores, bags, winner_side, complete,"
                " corrected, recorded_at, forfeit_side) VALUES (?, NULL, ?, ?, ?, 1, 1, ?, ?)"
                " ON CONFLICT (league_table_id) DO UPDATE SET scores = excluded.scores,"
                " bags = excluded.bags, winner_side = excluded.winner_side, complete = 1, corrected = 1,"
                " forfeit_side = excluded.forfeit_side",
                (league_table_id, zeros, zeros, winner, now, loser_side),
            )
            await conn.execute(
                "UPDATE league_tables SET status = 'finished' WHERE id = ?", (league_table_id,)
            )
            detail = {
                "round": lt.round_no,
                "table": lt.table_no,
                "user": loser_id,
                "side": loser_side,
                "before": _before(old),
            }
            await self._audit(conn, league_id, lt.night_id, actor_id, "forfeit", detail, reason, now)
        results = await self._results("lr.league_table_id = ?", (league_table_id,))
        return results[0], lt

    async def night_results(self, night_id: int) -> list[Result]:
        return await self._results("t.night_id = ?", (night_id,))

    async def season_results(self, league_id: int, season: int) -> list[Result]:
        return await self._results("n.league_id = ? AND n.season = ?", (league_id, season))

    async def _results(self, where: str, params: tuple[Any, ...]) -> list[Result]:
        rows = await self._all(
            "SELECT lr.league_table_id, t.night_id, n.number, t.round_no, t.table_no, t.sides, lr.scores,"
            " lr.bags, lr.winner_side, lr.complete, lr.corrected, lr.game_id,"
            " COALESCE(r.started_at, n.starts_at), lr.seats, lr.forfeit_side"
            " FROM league_results lr JOIN league_tables t ON t.id = lr.league_table_id"
            " JOIN league_nights n ON n.id = t.night_id"
            " LEFT JOIN league_rounds r ON r.night_id = t.night_id AND r.round_no = t.round_no"
            f" WHERE {where} AND t.status <> 'void' ORDER BY n.starts_at, t.round_no, t.table_no",
            params,
        )
        return [
            Result(
                r[0],
                r[1],
                r[2],
                r[3],
                r[4],
                json.loads(r[5]),
                json.loads(r[6]),
                json.loads(r[7]),
                r[8],
                bool(r[9]),
                bool(r[10]),
                r[11],
                int(r[12]),
                {int(u): (int(c[0]), int(c[1])) for u, c in json.loads(r[13] or "{}").items()},
                r[14],
            )
            for r in rows
        ]

    async def hand_records(
        self, league_id: int, season: int, night_id: int | None = None
    ) -> list[tuple[LeagueTable, list[dict[str, Any]]]]:
        """Every league table of a season (or of one night) that was not voided, with the stored
        hand records of its game (``docs/HAND_RECORD.md``; its first game only), in play order."""
        where = "n.league_id = ? AND n.season = ?"
        params: tuple[Any, ...] = (league_id, season)
        if night_id is not None:
            where += " AND t.night_id = ?"
            params = (*params, night_id)
        cols = ", ".join(f"t.{c.strip()}" for c in _LT_COLUMNS.split(","))
        tables = [
            _lt(r)
            for r in await self._all(
                f"SELECT {cols} FROM league_tables t JOIN league_nights n ON n.id = t.night_id"
                f" WHERE {where} AND t.status <> 'void' AND t.table_id IS NOT NULL"
                " ORDER BY t.night_id, t.round_no, t.table_no",
                params,
            )
        ]
        out: list[tuple[LeagueTable, list[dict[str, Any]]]] = []
        for lt in tables:
            rows = await self._all(
                "SELECT record FROM hands WHERE table_id = ? AND game_no ="
                " (SELECT MIN(game_no) FROM hands WHERE table_id = ?) ORDER BY hand_no",
                (lt.table_id, lt.table_id),
            )
            out.append((lt, [json.loads(r[0]) for r in rows]))
        return out

    async def season_byes(self, league_id: int, season: int) -> list[tuple[int, int]]:
        """(night number, user) for every bye of the season."""
        rows = await self._all(
            "SELECT n.number, b.user_id FROM league_byes b JOIN league_nights n ON n.id = b.night_id"
            " WHERE n.league_id = ? AND n.season = ? ORDER BY n.number, b.round_no",
            (league_id, season),
        )
        return [(n, u) for n, u in rows]

    async def season_pairings(
        self, league_id: int, season: int
    ) -> list[tuple[int, int, list[list[int | None]]]]:
        """(night id, round, sides) of every seated table of the season, for the seating history."""
        rows = await self._all(
            "SELECT t.night_id, t.round_no, t.sides FROM league_tables t JOIN league_nights"
            " n ON n.id = t.night_id"
            " WHERE n.league_id = ? AND n.season = ? AND t.status <> 'void' ORDER BY n.starts_at, t.round_no",
            (league_id, season),
        )
        return [(n, r, json.loads(s)) for n, r, s in rows]

    async def game_for_table(self, table_id: int) -> dict[str, Any] | None:
        """The latest finished game of a table: {"game_id", "scores", "bags", "winner_side"} or None."""
        row = await self._one(
            "SELECT id, sides, winner_side FROM games WHERE table_id = ? ORDER BY game_no DESC LIMIT 1",
            (table_id,),
        )
        if row is None:
            return None
        sides = json.loads(row[1])
        return {
            "game_id": row[0],
            "scores": [int(s.get("score", 0)) for s in sides],
            "bags": [int(s.get("bags", 0)) for s in sides],
            "winner_side": row[2],
        }


def _before(old: Any) -> dict[str, Any] | None:
    """The audit log's ``before`` of a result row (scores, bags, winner_side, forfeit_side)."""
    if old is None:
        return None
    out = {"scores": json.loads(old[0]), "bags": json.loads(old[1]), "winner": old[2]}
    if old[3] is not None:
        out["forfeit"] = old[3]
    return out
