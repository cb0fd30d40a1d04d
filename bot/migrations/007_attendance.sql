-- 007: league attendance: no-shows and check-outs, standby players, substitutes, and how much of
-- a league game each seat's player played.

-- A player out for the rest of a night: a no-show (missed the first minutes of a round, or a
-- bot played most of their seat) or a check-out ("I'm out for tonight"). Never seated again that
-- night; the no-shows of a season are counted per player.
CREATE TABLE league_absences (
    night_id        INTEGER NOT NULL REFERENCES league_nights (id) ON DELETE CASCADE,
    user_id         BIGINT NOT NULL,
    kind            TEXT NOT NULL CHECK (kind IN ('no_show', 'checked_out')),
    round_no        INTEGER NOT NULL DEFAULT 0,
    league_table_id INTEGER,
    at              BIGINT NOT NULL,
    PRIMARY KEY (night_id, user_id)
);

-- Players who answered "I'll sub" at check-in, in the order they did.
CREATE TABLE league_standbys (
    night_id    INTEGER NOT NULL REFERENCES league_nights (id) ON DELETE CASCADE,
    user_id     BIGINT NOT NULL,
    at          BIGINT NOT NULL,
    PRIMARY KEY (night_id, user_id)
);

-- A substitute who took a seat (a standby's "Take this seat" or an admin's /league admin sub),
-- with the seat's action counts at the swap: what the seat's owner had played until then.
CREATE TABLE league_subs (
    league_table_id INTEGER NOT NULL REFERENCES league_tables (id) ON DELETE CASCADE,
    night_id        INTEGER NOT NULL REFERENCES league_nights (id) ON DELETE CASCADE,
    out_id          BIGINT NOT NULL,
    in_id           BIGINT NOT NULL,
    acts_at         INTEGER NOT NULL DEFAULT 0,
    auto_at         INTEGER NOT NULL DEFAULT 0,
    by_admin        INTEGER NOT NULL DEFAULT 0,
    at              BIGINT NOT NULL,
    PRIMARY KEY (league_table_id, in_id)
);
CREATE INDEX league_subs_night ON league_subs (night_id);

-- A result's seats as played: {user id: [actions of the seat, of those the bot's]} ('{}' for
-- results recorded before 007: every seat counts as played).
ALTER TABLE league_results ADD COLUMN seats TEXT NOT NULL DEFAULT '{}';
