"""History queries: finished games by channel, server or player (paged), a game's hands, a player's
export and "forget me": ``storage.history`` (docs/BOT_STORAGE.md, "History and your data").

The SQL is plain and portable (``?`` parameters, no SQLite-only functions); JSON columns are parsed
in Python.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from .backends import Backend, Session
from .base import Repository, _now
from .models import LIVE_STATUSES, StorageError
from .stats import Stats

# The name a forgotten player's seat keeps in stored records (a marker, not a text for players:
# readers word it in their own language, `bot.render.records.player_name`).
FORMER_PLAYER = "a former player"  # i18n-ok: a stored marker, rendered at read time
EXPORT_FORMAT = "spades-mydata/1"
MAX_PAGE = 25

_GAME_COLUMNS = (
    "g.id, g.table_id, g.guild_id, g.channel_id, g.game_no, g.ruleset, g.hands, g.winner_side, g.sides,"
    " g.with_bots, g.started_at, g.finished_at"
)

# Statements run by ``forget_player`` in one transaction, each with the user id as its only
# parameter. A table added later that holds user ids adds its statement here.
FORGET_STATEMENTS: list[str] = [
    f"UPDATE game_players SET user_id = NULL, name = '{FORMER_PLAYER}' WHERE user_id = ?",
    "UPDATE hand_players SET user_id = NULL WHERE user_id = ?",
    "DELETE FROM hand_reviews WHERE user_id = ?",  # (migration 011)
    # league nights and ratings (migration 002): rosters, check-ins, seats, byes, ratings go; the
    # audit log keeps what happened without naming who did it
    "DELETE FROM ratings WHERE user_id = ?",
    "DELETE FROM rating_history WHERE user_id = ?",
    "DELETE FROM league_checkins WHERE user_id = ?",
    "DELETE FROM league_seats WHERE user_id = ?",
    "DELETE FROM league_byes WHERE user_id = ?",
    "DELETE FROM league_members WHERE user_id = ?",
    "UPDATE league_teams SET captain_id = 0 WHERE captain_id = ?",
    "UPDATE league_audit SET actor_id = NULL WHERE actor_id = ?",
]

# the keys of a league audit line's detail that hold a user id (bot/storage/league_*.py)
AUDIT_USER_KEYS = frozenset({"user", "partner", "partner2", "out", "in"})


class PlayerSeated(StorageError):
    """``forget_player`` refused: the player sits at a live table (leave it first)."""

    def __init__(self, user_id: int, table_ids: list[int]) -> None:
        self.user_id = user_id
        self.table_ids = table_ids
        super().__init__(f"user {user_id} is seated at live table(s) {', '.join(map(str, table_ids))}")


@dataclass(frozen=True)
class GamePlayer:
    seat: int
    side: int
    user_id: int | None  # None for bots and forgotten players
    is_bot: bool
    name: str
    won: bool

    @property
    def forgotten(self) -> bool:
        return not self.is_bot and self.user_id is None


@dataclass(frozen=True)
class GameSummary:
    """One finished game as the history lists it."""

    id: int
    table_id: int
    guild_id: int
    channel_id: int
    game_no: int
    ruleset: dict[str, Any] | str
    hands: int
    winner_side: int | None
    sides: list[dict[str, Any]]  # {"seats": [...], "score": int, "bags": int}
    with_bots: bool
    started_at: int
    finished_at: int
    players: tuple[GamePlayer, ...]

    @property
    def counted(self) -> bool:
        """On the leaderboard and in /stats (``bot.storage.counted``: no bot seat)."""
        return not self.with_bots

    @property
    def preset(self) -> str:
        if isinstance(self.ruleset, str):
            return self.ruleset
        return str(self.ruleset.get("name") or self.ruleset.get("preset") or "standard")

    def side_names(self, side: int) -> list[str]:
        return [p.name for p in self.players if p.side == side]

    def player(self, user_id: int) -> GamePlayer | None:
        return next((p for p in self.players if p.user_id == user_id), None)


@dataclass(frozen=True)
class HistoryPage:
    games: list[GameSummary]
    total: int  # games matching the filter
    offset: int
    limit: int

    @property
    def has_prev(self) -> bool:
        return self.offset > 0

    @property
    def has_next(self) -> bool:
        return self.offset + len(self.games) < self.total

    @property
    def page(self) -> int:
        """1-based page number."""
        return self.offset // max(1, self.limit) + 1

    @property
    def pages(self) -> int:
        return max(1, -(-self.total // max(1, self.limit)))


@dataclass(frozen=True)
class StoredHand:
    """A finished hand of a stored game: its HAND_RECORD.md record and the engine's replay."""

    table_id: int
    game_no: int
    hand_no: int
    record: dict[str, Any]
    result: dict[str, Any] | None  # None when the engine refused the record
    created_at: int


@dataclass(frozen=True)
class ForgetReport:
    games: int  # game seats handed over to "a former player"
    hands: int  # hand rows no longer counted for the player
    tables: int  # finished tables whose saved seats were cleared


def mentions_user(value: Any, user_id: int) -> bool:
    """True when a JSON value holds an object whose ``user_id`` is ``user_id`` (a seat)."""
    if isinstance(value, dict):
        if value.get("user_id") == user_id and not value.get("bot"):
            return True
        return any(mentions_user(v, user_id) for v in value.values())
    if isinstance(value, list):
        return any(mentions_user(v, user_id) for v in value)
    return False


def scrub_user(value: Any, user_id: int) -> Any:
    """A copy of a JSON value where every object naming ``user_id`` names a former player."""
    if isinstance(value, dict):
        if value.get("user_id") == user_id and not value.get("bot"):
            out = {k: scrub_user(v, user_id) for k, v in value.items()}
            out["user_id"] = None
            if "name" in out:
                out["name"] = FORMER_PLAYER
            return out
        return {k: scrub_user(v, user_id) for k, v in value.items()}
    if isinstance(value, list):
        return [scrub_user(v, user_id) for v in value]
    return value


def _loads(text: str | None) -> Any:
    return None if text is None else json.loads(text)


def _game(row: Any, players: Iterable[Any]) -> GameSummary:
    return GameSummary(
        id=row[0],
        table_id=row[1],
        guild_id=row[2],
        channel_id=row[3],
        game_no=row[4],
        ruleset=json.loads(row[5]),
        hands=row[6],
        winner_side=row[7],
        sides=json.loads(row[8]),
        with_bots=bool(row[9]),
        started_at=row[10],
        finished_at=row[11],
        players=tuple(GamePlayer(p[1], p[2], p[3], bool(p[4]), p[5], bool(p[6])) for p in players),
    )


class History(Repository):
    """``storage.history``: finished games paged, their hands, a player's export and "forget me"."""

    def __init__(self, backend: Backend, stats: Stats) -> None:
        super().__init__(backend)
        self.stats = stats  # (a player's numbers in their export)

    async def _with_players(self, rows: list[Any]) -> list[GameSummary]:
        if not rows:
            return []
        ids = [r[0] for r in rows]
        marks = ", ".join("?" for _ in ids)
        players = await self._fetchall(
            "SELECT game_id, seat, side, user_id, is_bot, name, won FROM game_players"
            f" WHERE game_id IN ({marks}) ORDER BY game_id, seat",
            ids,
        )
        by_game: dict[int, list[Any]] = {i: [] for i in ids}
        for p in players:
            by_game[p[0]].append(p)
        return [_game(r, by_game[r[0]]) for r in rows]

    async def recent_games(
        self,
        guild_id: int,
        *,
        channel_id: int | None = None,
        user_id: int | None = None,
        limit: int = 10,
        offset: int = 0,
    ) -> HistoryPage:
        """One page of the server's finished games, newest first; only the channel's, or only
        those ``user_id`` played in, when given. ``limit`` is capped at 25."""
        limit = max(1, min(MAX_PAGE, limit))
        offset = max(0, offset)
        where = "g.guild_id = ?"
        params: list[Any] = [guild_id]
        if channel_id is not None:
            where += " AND g.channel_id = ?"
            params.append(channel_id)
        if user_id is not None:
            where += " AND EXISTS (SELECT 1 FROM game_players p WHERE p.game_id = g.id AND p.user_id = ?)"
            params.append(user_id)
        count = await self._fetchone(f"SELECT COUNT(*) FROM games g WHERE {where}", params)
        rows = await self._fetchall(
            f"SELECT {_GAME_COLUMNS} FROM games g WHERE {where}"
            " ORDER BY g.finished_at DESC, g.id DESC LIMIT ? OFFSET ?",
            [*params, limit, offset],
        )
        return HistoryPage(await self._with_players(rows), int(count[0]), offset, limit)

    async def game(self, game_id: int) -> GameSummary | None:
        """A finished game by id (any server: the caller checks ``guild_id``)."""
        row = await self._fetchone(f"SELECT {_GAME_COLUMNS} FROM games g WHERE g.id = ?", (game_id,))
        if row is None:
            return None
        return (await self._with_players([row]))[0]

    async def game_hands(self, game_id: int) -> list[StoredHand]:
        """Every stored hand of a finished game, in play order."""
        rows = await self._fetchall(
            "SELECT h.table_id, h.game_no, h.hand_no, h.record, h.result, h.created_at FROM hands h"
            " JOIN games g ON g.table_id = h.table_id AND g.game_no = h.game_no"
            " WHERE g.id = ? ORDER BY h.hand_no",
            (game_id,),
        )
        return [StoredHand(r[0], r[1], r[2], json.loads(r[3]), _loads(r[4]), r[5]) for r in rows]

    async def game_hand(self, game_id: int, hand_no: int) -> StoredHand | None:
        """One hand of a finished game, or None."""
        row = await self._fetchone(
            "SELECT h.table_id, h.game_no, h.hand_no, h.record, h.result, h.created_at FROM hands h"
            " JOIN games g ON g.table_id = h.table_id AND g.game_no = h.game_no"
            " WHERE g.id = ? AND h.hand_no = ?",
            (game_id, hand_no),
        )
        return (
            None
            if row is None
            else StoredHand(row[0], row[1], row[2], json.loads(row[3]), _loads(row[4]), row[5])
        )

    async def table_hand(self, table_id: int, game_no: int, hand_no: int) -> StoredHand | None:
        """One finished hand of a table's game (finished or still going), or None."""
        row = await self._fetchone(
            "SELECT table_id, game_no, hand_no, record, result, created_at FROM hands"
            " WHERE table_id = ? AND game_no = ? AND hand_no = ?",
            (table_id, game_no, hand_no),
        )
        return (
            None
            if row is None
            else StoredHand(row[0], row[1], row[2], json.loads(row[3]), _loads(row[4]), row[5])
        )

    async def hand_seats(self, table_id: int, game_no: int, hand_no: int) -> dict[int, int]:
        """The human players of a finished hand: their Discord id and their seat (bots left out;
        a forgotten player is no longer named)."""
        rows = await self._fetchall(
            "SELECT hp.user_id, hp.seat FROM hand_players hp JOIN hands h ON h.id = hp.hand_id"
            " WHERE h.table_id = ? AND h.game_no = ? AND h.hand_no = ? AND hp.is_bot = 0"
            " AND hp.user_id IS NOT NULL",
            (table_id, game_no, hand_no),
        )
        return {int(r[0]): int(r[1]) for r in rows}

    async def hand_count(self, table_id: int, game_no: int) -> int:
        """How many hands of a table's game are finished and stored."""
        row = await self._fetchone(
            "SELECT COUNT(*) FROM hands WHERE table_id = ? AND game_no = ?", (table_id, game_no)
        )
        return int(row[0])

    async def table_guild(self, table_id: int) -> int | None:
        """The server a table belongs to (to refuse another server's hands), or None."""
        row = await self._fetchone("SELECT guild_id FROM tables WHERE id = ?", (table_id,))
        return None if row is None else int(row[0])

    async def game_id_of(self, table_id: int, game_no: int) -> int | None:
        """The id ``/replay`` takes for a table's game, once it is finished."""
        row = await self._fetchone(
            "SELECT id FROM games WHERE table_id = ? AND game_no = ?", (table_id, game_no)
        )
        return None if row is None else int(row[0])

    async def live_tables_with(self, user_id: int) -> list[int]:
        """Ids of the open or playing tables where ``user_id`` holds a seat."""
        marks = ", ".join("?" for _ in LIVE_STATUSES)
        rows = await self._fetchall(
            f"SELECT id, data FROM tables WHERE status IN ({marks}) ORDER BY id", LIVE_STATUSES
        )
        return [r[0] for r in rows if mentions_user(json.loads(r[1]).get("seats"), user_id)]

    async def export(self, user_id: int) -> dict[str, Any]:
        """Everything stored about one player, in every server, as one JSON-safe object: their
        stats per server, their games (with the seats' names as shown at the table) and, per hand,
        their seat, cards as dealt, bid, tricks and their side's points."""
        games_rows = await self._fetchall(
            f"SELECT {_GAME_COLUMNS} FROM games g WHERE EXISTS (SELECT 1 FROM game_players p"
            " WHERE p.game_id = g.id AND p.user_id = ?) ORDER BY g.finished_at, g.id",
            (user_id,),
        )
        games = await self._with_players(games_rows)
        hand_rows = await self._fetchall(
            "SELECT h.guild_id, h.table_id, h.game_no, h.hand_no, h.record, h.created_at, hp.seat,"
            " hp.tricks, hp.contract_bid, hp.contract_made, hp.nil_attempted, hp.nil_made, hp.blind_nil,"
            " hp.bags, hp.points, g.id FROM hand_players hp JOIN hands h ON h.id = hp.hand_id"
            " LEFT JOIN games g ON g.table_id = h.table_id AND g.game_no = h.game_no"
            " WHERE hp.user_id = ? ORDER BY h.created_at, h.id",
            (user_id,),
        )
        guilds = sorted({r[0] for r in hand_rows} | {g.guild_id for g in games})
        stats = []
        for guild_id in guilds:
            st = await self.stats.player(guild_id, user_id)
            if st is not None:
                stats.append(
                    {
                        "guild_id": guild_id,
                        "rank": st.rank,
                        "games": st.games,
                        "wins": st.wins,
                        "not_counted": st.not_counted,
                        "hands": st.hands,
                        "contracts_bid": st.contracts_bid,
                        "contracts_made": st.contracts_made,
                        "nils_attempted": st.nils_attempted,
                        "nils_made": st.nils_made,
                        "bags": st.bags,
                        "win_pct": round(st.win_pct, 1),
                        "bid_accuracy": round(st.bid_accuracy, 1),
                    }
                )
        hands = []
        for r in hand_rows:
            record = json.loads(r[4])
            seat = r[6]
            bid = next((b for s, b in record.get("bids", []) if s == seat), None)
            deal = record.get("deal") or []
            hands.append(
                {
                    "guild_id": r[0],
                    "game_id": r[15],
                    "table_id": r[1],
                    "game_no": r[2],
                    "hand_no": r[3],
                    "played_at": r[5],
                    "seat": seat,
                    "dealt": deal[seat] if seat < len(deal) else None,
                    "bid": bid,
                    "tricks": r[7],
                    "contract_bid": bool(r[8]),
                    "contract_made": bool(r[9]),
                    "nil": bool(r[10]),
                    "nil_made": bool(r[11]),
                    "blind_nil": bool(r[12]),
                    "side_bags": r[13],
                    "side_points": r[14],
                }
            )
        out_games = []
        for g in games:
            me = g.player(user_id)
            out_games.append(
                {
                    "game_id": g.id,
                    "guild_id": g.guild_id,
                    "channel_id": g.channel_id,
                    "started_at": g.started_at,
                    "finished_at": g.finished_at,
                    "ruleset": g.ruleset,
                    "hands": g.hands,
                    "seat": me.seat if me else None,
                    "side": me.side if me else None,
                    "won": me.won if me else None,
                    "winner_side": g.winner_side,
                    "sides": g.sides,
                    "players": [
                        {
                            "seat": p.seat,
                            "side": p.side,
                            "name": p.name,
                            "is_bot": p.is_bot,
                            "you": p.user_id == user_id,
                        }
                        for p in g.players
                    ],
                }
            )
        ratings = [
            {"guild_id": g, "mu": mu, "sigma": sigma, "rated_games": n, "updated_at": at}
            for g, mu, sigma, n, at in await self._fetchall(
                "SELECT guild_id, mu, sigma, games, updated_at FROM ratings WHERE user_id = ?"
                " ORDER BY guild_id",
                (user_id,),
            )
        ]
        leagues = [
            {"guild_id": g, "league": name, "season": season, "status": status, "team": team, "joined_at": at}
            for g, name, season, status, team, at in await self._fetchall(
                "SELECT l.guild_id, l.name, l.season, m.status, t.name, m.joined_at FROM league_members m"
                " JOIN leagues l ON l.id = m.league_id LEFT JOIN league_teams t ON t.id = m.team_id"
                " WHERE m.user_id = ? ORDER BY m.joined_at",
                (user_id,),
            )
        ]
        checkins = [
            {"league": name, "night": night_date, "answer": answer, "at": at}
            for name, night_date, answer, at in await self._fetchall(
                "SELECT l.name, n.night_date, c.status, c.at FROM league_checkins c"
                " JOIN league_nights n ON n.id = c.night_id JOIN leagues l ON l.id = n.league_id"
                " WHERE c.user_id = ? ORDER BY c.at",
                (user_id,),
            )
        ]
        reviews = [
            {
                "guild_id": g,
                "table_id": t,
                "game_no": gn,
                "hand_no": h,
                "seat": seat,
                "review": json.loads(data),
                "at": at,
            }
            for g, t, gn, h, seat, data, at in await self._fetchall(
                "SELECT guild_id, table_id, game_no, hand_no, seat, data, created_at FROM hand_reviews"
                " WHERE user_id = ? ORDER BY created_at, table_id, game_no, hand_no",
                (user_id,),
            )
        ]
        return {
            "format": EXPORT_FORMAT,
            "user_id": user_id,
            "exported_at": _now(),
            "stats": stats,
            "games": out_games,
            "hands": hands,
            "ratings": ratings,
            "leagues": leagues,
            "league_checkins": checkins,
            "hand_reviews": reviews,
        }

    async def forget(self, user_id: int) -> ForgetReport:
        """Remove a player's personal data everywhere, in one transaction: their seats in past
        games become "a former player" (user id gone, name replaced, results and everyone
        else's numbers untouched), their hands stop counting for them, and finished tables' saved
        seats and host forget them. Refused with ``PlayerSeated`` while they sit at a live table."""
        marks = ", ".join("?" for _ in LIVE_STATUSES)
        async with self._transaction() as tx:
            live = await tx.fetchall(
                f"SELECT id, data FROM tables WHERE status IN ({marks}) ORDER BY id", LIVE_STATUSES
            )
            seated = [r[0] for r in live if mentions_user(json.loads(r[1]).get("seats"), user_id)]
            if seated:
                raise PlayerSeated(user_id, seated)
            counts = [await tx.execute(sql, (user_id,)) for sql in FORGET_STATEMENTS]
            found = await tx.fetchall(
                f"SELECT id, data, host_id FROM tables WHERE status NOT IN ({marks})"
                " AND (host_id = ? OR data LIKE ?)",
                (*LIVE_STATUSES, user_id, f"%{user_id}%"),
            )
            tables = 0
            for table_id, blob, host_id in found:
                data = json.loads(blob)
                if not mentions_user(data, user_id) and host_id != user_id:
                    continue
                await tx.execute(
                    "UPDATE tables SET data = ?, host_id = ?, version = version + 1 WHERE id = ?",
                    (
                        json.dumps(scrub_user(data, user_id), separators=(",", ":")),
                        0 if host_id == user_id else host_id,
                        table_id,
                    ),
                )
                tables += 1
            await self._forget_in_leagues(tx, user_id)
        return ForgetReport(games=counts[0], hands=counts[1], tables=tables)

    async def _forget_in_leagues(self, tx: Session, user_id: int) -> None:
        """The league rows whose JSON or text names the player: past seatings and the audit log
        keep what happened, with the player's id replaced by 0 (Discord shows an unknown user)."""
        like = f"%{user_id}%"
        rows = await tx.fetchall("SELECT id, sides FROM league_tables WHERE sides LIKE ?", (like,))
        for row_id, sides in rows:
            scrubbed = [[0 if p == user_id else p for p in side] for side in json.loads(sides)]
            sql = "UPDATE league_tables SET sides = ? WHERE id = ?"
            await tx.execute(sql, (json.dumps(scrubbed), row_id))
        rows = await tx.fetchall(
            "SELECT id, detail, reason FROM league_audit WHERE detail LIKE ? OR reason LIKE ?", (like, like)
        )
        for row_id, detail, reason in rows:
            data = json.loads(detail)
            if isinstance(data, dict):
                data = {k: 0 if v == user_id and k in AUDIT_USER_KEYS else v for k, v in data.items()}
            text = reason
            if text is not None:
                for mention in (f"<@{user_id}>", f"<@!{user_id}>"):
                    text = text.replace(mention, FORMER_PLAYER)
            sql = "UPDATE league_audit SET detail = ?, reason = ? WHERE id = ?"
            await tx.execute(sql, (json.dumps(data), text, row_id))


__all__ = [
    "EXPORT_FORMAT",
    "FORGET_STATEMENTS",
    "FORMER_PLAYER",
    "ForgetReport",
    "GamePlayer",
    "GameSummary",
    "History",
    "HistoryPage",
    "PlayerSeated",
    "StoredHand",
]
