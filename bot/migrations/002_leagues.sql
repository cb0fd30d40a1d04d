-- 002: league nights (leagues, rosters and team invites, nights, check-ins, rounds, seatings,
-- results, audit log) and skill ratings (current rating, per-game history, which games are rated).
-- Times are unix seconds (BIGINT, UTC). Discord ids are BIGINT. JSON is stored as TEXT.
-- Ids are "INTEGER PRIMARY KEY AUTOINCREMENT" (PostgreSQL: an identity column, see bot/storage/sql.py).

CREATE TABLE leagues (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id    BIGINT NOT NULL,
    channel_id  BIGINT NOT NULL,
    name        TEXT NOT NULL,
    name_key    TEXT NOT NULL,            -- lower-cased name: unique per server while not archived
    status      TEXT NOT NULL CHECK (status IN ('active', 'paused', 'ended', 'archived')),
    format      TEXT NOT NULL CHECK (format IN ('fixed', 'rotating', 'solo')),
    ruleset     TEXT NOT NULL,            -- JSON, engine Ruleset.to_dict()
    settings    TEXT NOT NULL,            -- JSON: rounds, round target/hand limit/minutes, leftover,
                                          --   points rule, role ids, scheduled event id, ...
    schedule    TEXT NOT NULL,            -- JSON, bot.league.schedule.to_dict()
    slot_key    TEXT NOT NULL,            -- "weekday|HH:MM|zone": one league per slot per channel
    season      INTEGER NOT NULL DEFAULT 1,
    version     INTEGER NOT NULL DEFAULT 1,
    created_by  BIGINT NOT NULL,
    created_at  BIGINT NOT NULL,
    updated_at  BIGINT NOT NULL
);
CREATE UNIQUE INDEX leagues_name_per_guild ON leagues (guild_id, name_key) WHERE status <> 'archived';
CREATE UNIQUE INDEX leagues_slot_per_channel
    ON leagues (channel_id, slot_key) WHERE status IN ('active', 'paused');
CREATE INDEX leagues_guild ON leagues (guild_id, status);

-- Fixed-partner teams: created by an invite (pending) and made active when the partner accepts.
CREATE TABLE league_teams (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    league_id   INTEGER NOT NULL REFERENCES leagues (id) ON DELETE CASCADE,
    name        TEXT NOT NULL,
    status      TEXT NOT NULL CHECK (status IN ('pending', 'active', 'removed')),
    captain_id  BIGINT NOT NULL,
    created_at  BIGINT NOT NULL
);
CREATE INDEX league_teams_league ON league_teams (league_id, status);

-- The roster. An invited partner is 'invited' until they accept.
CREATE TABLE league_members (
    league_id   INTEGER NOT NULL REFERENCES leagues (id) ON DELETE CASCADE,
    user_id     BIGINT NOT NULL,
    team_id     INTEGER REFERENCES league_teams (id),
    status      TEXT NOT NULL CHECK (status IN ('invited', 'active', 'removed')),
    removed_by  BIGINT,                   -- who took them off (themselves when they left)
    joined_at   BIGINT NOT NULL,
    PRIMARY KEY (league_id, user_id)
);
CREATE INDEX league_members_user ON league_members (user_id);

-- One row per night of a season, created when the scheduler first looks at it. Status moves
-- scheduled -> checkin -> playing -> finished (or missed / skipped / cancelled) by compare-and-set
-- updates, so a transition happens once even if two timers fire.
CREATE TABLE league_nights (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    league_id    INTEGER NOT NULL REFERENCES leagues (id) ON DELETE CASCADE,
    season       INTEGER NOT NULL,
    number       INTEGER NOT NULL,
    night_date   TEXT NOT NULL,           -- the local date, ISO
    starts_at    BIGINT NOT NULL,
    checkin_at   BIGINT NOT NULL,
    status       TEXT NOT NULL CHECK (status IN
                     ('scheduled', 'checkin', 'playing', 'finished', 'missed', 'skipped', 'cancelled')),
    round_no     INTEGER NOT NULL DEFAULT 0,
    data         TEXT NOT NULL DEFAULT '{}',  -- JSON: message ids, event id, notes
    updated_at   BIGINT NOT NULL,
    UNIQUE (league_id, season, night_date)
);
CREATE INDEX league_nights_open ON league_nights (status);

CREATE TABLE league_checkins (
    night_id    INTEGER NOT NULL REFERENCES league_nights (id) ON DELETE CASCADE,
    user_id     BIGINT NOT NULL,
    status      TEXT NOT NULL CHECK (status IN ('in', 'out')),
    at          BIGINT NOT NULL,
    PRIMARY KEY (night_id, user_id)
);

CREATE TABLE league_rounds (
    night_id    INTEGER NOT NULL REFERENCES league_nights (id) ON DELETE CASCADE,
    round_no    INTEGER NOT NULL,
    status      TEXT NOT NULL CHECK (status IN ('playing', 'finished')),
    started_at  BIGINT NOT NULL,
    ends_at     BIGINT,                   -- the round's time limit
    finished_at BIGINT,
    PRIMARY KEY (night_id, round_no)
);

-- One seated table of a round; table_id links to the live table once the bot opened it.
CREATE TABLE league_tables (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    night_id    INTEGER NOT NULL REFERENCES league_nights (id) ON DELETE CASCADE,
    round_no    INTEGER NOT NULL,
    table_no    INTEGER NOT NULL,
    sides       TEXT NOT NULL,            -- JSON [[user_id | null, ...], ...] (null = a bot seat)
    channel_id  BIGINT,                   -- the thread (or channel) the table plays in
    table_id    INTEGER REFERENCES tables (id),
    status      TEXT NOT NULL CHECK (status IN ('seated', 'playing', 'finished', 'void')),
    UNIQUE (night_id, round_no, table_no)
);
CREATE INDEX league_tables_table ON league_tables (table_id);

-- Who sat at each table (for "a player in two leagues' tables at once" and substitutions).
CREATE TABLE league_seats (
    league_table_id INTEGER NOT NULL REFERENCES league_tables (id) ON DELETE CASCADE,
    user_id         BIGINT NOT NULL,
    side            INTEGER NOT NULL,
    PRIMARY KEY (league_table_id, user_id)
);
CREATE INDEX league_seats_user ON league_seats (user_id);

CREATE TABLE league_byes (
    night_id    INTEGER NOT NULL REFERENCES league_nights (id) ON DELETE CASCADE,
    round_no    INTEGER NOT NULL,
    user_id     BIGINT NOT NULL,
    PRIMARY KEY (night_id, round_no, user_id)
);

-- The result of a league table: written once when its game ends (or time is called); an admin
-- correction rewrites it and leaves a line in league_audit.
CREATE TABLE league_results (
    league_table_id INTEGER PRIMARY KEY REFERENCES league_tables (id) ON DELETE CASCADE,
    game_id         INTEGER REFERENCES games (id),
    scores          TEXT NOT NULL,        -- JSON [int per side]
    bags            TEXT NOT NULL,        -- JSON [int per side]
    winner_side     INTEGER,              -- NULL: level when time was called
    complete        INTEGER NOT NULL,     -- 0 when time was called and the game scored as it stood
    corrected       INTEGER NOT NULL DEFAULT 0,
    recorded_at     BIGINT NOT NULL
);

CREATE TABLE league_audit (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    league_id   INTEGER NOT NULL REFERENCES leagues (id) ON DELETE CASCADE,
    night_id    INTEGER,
    actor_id    BIGINT,                   -- NULL for the bot itself (missed night, late start)
    action      TEXT NOT NULL,
    detail      TEXT NOT NULL DEFAULT '{}',  -- JSON
    reason      TEXT,
    at          BIGINT NOT NULL
);
CREATE INDEX league_audit_league ON league_audit (league_id, at);

-- Skill ratings per server (OpenSkill mu/sigma), their history per game, and which games have
-- been looked at (rated or not), so every game is rated exactly once and in order.
CREATE TABLE ratings (
    guild_id    BIGINT NOT NULL,
    user_id     BIGINT NOT NULL,
    mu          REAL NOT NULL,
    sigma       REAL NOT NULL,
    games       INTEGER NOT NULL,
    updated_at  BIGINT NOT NULL,
    PRIMARY KEY (guild_id, user_id)
);

CREATE TABLE rating_history (
    game_id      INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    user_id      BIGINT NOT NULL,
    mu_before    REAL,                    -- NULL: the player's first rated game
    sigma_before REAL,
    mu_after     REAL NOT NULL,
    sigma_after  REAL NOT NULL,
    PRIMARY KEY (game_id, user_id)
);

CREATE TABLE rated_games (
    game_id     INTEGER PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    guild_id    BIGINT NOT NULL,
    rated       INTEGER NOT NULL,         -- 0: looked at, not a rated game (bots only, one side...)
    at          BIGINT NOT NULL
);

-- The share of a seat's actions the bot took (away, timed out, left): a seat the bot played for
-- most of the game is not rated for its human. Games stored before this are taken as 0.
ALTER TABLE game_players ADD COLUMN bot_share REAL NOT NULL DEFAULT 0;
