-- 001: live tables, finished hands and games, per-player stats, guild settings, metadata.
-- Times are unix seconds (INTEGER, UTC) everywhere.

CREATE TABLE meta (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
);

CREATE TABLE guild_settings (
    guild_id   INTEGER PRIMARY KEY,
    data       TEXT NOT NULL,             -- JSON object
    updated_at INTEGER NOT NULL
);

-- One row per table; "data" is the table service's JSON blob, the rest is indexed.
CREATE TABLE tables (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id   INTEGER NOT NULL,
    channel_id INTEGER NOT NULL,
    host_id    INTEGER NOT NULL,
    status     TEXT NOT NULL CHECK (status IN ('open', 'playing', 'finished', 'abandoned')),
    data       TEXT NOT NULL,             -- JSON object
    version    INTEGER NOT NULL DEFAULT 1,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
);
-- At most one live table per channel, enforced by the database itself (no check-then-insert race).
CREATE UNIQUE INDEX tables_one_live_per_channel
    ON tables (channel_id) WHERE status IN ('open', 'playing');
CREATE INDEX tables_live ON tables (status) WHERE status IN ('open', 'playing');
CREATE INDEX tables_guild ON tables (guild_id);

-- Finished hands: the HAND_RECORD.md record and the engine's replay result.
CREATE TABLE hands (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    table_id   INTEGER NOT NULL REFERENCES tables (id),
    guild_id   INTEGER NOT NULL,
    game_no    INTEGER NOT NULL,
    hand_no    INTEGER NOT NULL,
    record     TEXT NOT NULL,             -- JSON, HAND_RECORD.md
    result     TEXT,                      -- JSON, engine.replay(record); NULL if replay refused it
    created_at INTEGER NOT NULL,
    UNIQUE (table_id, game_no, hand_no)
);

-- One row per seat per finished hand: the numbers the leaderboard sums.
CREATE TABLE hand_players (
    hand_id        INTEGER NOT NULL REFERENCES hands (id) ON DELETE CASCADE,
    guild_id       INTEGER NOT NULL,
    seat           INTEGER NOT NULL,
    side           INTEGER,
    user_id        INTEGER,               -- NULL for a bot seat
    is_bot         INTEGER NOT NULL,
    with_bots      INTEGER NOT NULL,      -- any bot seat in this hand
    tricks         INTEGER NOT NULL DEFAULT 0,
    contract_bid   INTEGER NOT NULL DEFAULT 0,  -- 1 when this seat bid for tricks (part of a contract)
    contract_made  INTEGER NOT NULL DEFAULT 0,  -- 1 when that contract was made
    nil_attempted  INTEGER NOT NULL DEFAULT 0,
    nil_made       INTEGER NOT NULL DEFAULT 0,
    blind_nil      INTEGER NOT NULL DEFAULT 0,
    bags           INTEGER NOT NULL DEFAULT 0,  -- bags the seat's side gained this hand
    points         INTEGER NOT NULL DEFAULT 0,  -- the side's points this hand
    PRIMARY KEY (hand_id, seat)
);
CREATE INDEX hand_players_guild_user ON hand_players (guild_id, user_id);

CREATE TABLE games (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    table_id    INTEGER NOT NULL REFERENCES tables (id),
    guild_id    INTEGER NOT NULL,
    channel_id  INTEGER NOT NULL,
    game_no     INTEGER NOT NULL,
    ruleset     TEXT NOT NULL,            -- JSON, Ruleset.to_dict()
    hands       INTEGER NOT NULL,
    winner_side INTEGER,
    sides       TEXT NOT NULL,            -- JSON [{"seats", "score", "bags"}]
    with_bots   INTEGER NOT NULL,
    started_at  INTEGER NOT NULL,
    finished_at INTEGER NOT NULL,
    UNIQUE (table_id, game_no)
);
CREATE INDEX games_guild ON games (guild_id, finished_at);

CREATE TABLE game_players (
    game_id   INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    guild_id  INTEGER NOT NULL,
    seat      INTEGER NOT NULL,
    side      INTEGER NOT NULL,
    user_id   INTEGER,
    is_bot    INTEGER NOT NULL,
    name      TEXT NOT NULL,
    won       INTEGER NOT NULL,
    with_bots INTEGER NOT NULL,
    PRIMARY KEY (game_id, seat)
);
CREATE INDEX game_players_guild_user ON game_players (guild_id, user_id);
