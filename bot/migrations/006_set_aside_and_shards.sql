-- 006: tables set aside at restore, lookups by channel, and shard ownership leases.

-- Why a table could not be restored (invalid JSON, a damaged page, refused by the table service).
-- A set-aside table is marked 'abandoned' (which frees its channel) and is never loaded again.
ALTER TABLE tables ADD COLUMN set_aside TEXT;

-- /score, /table… look a channel's tables up by index, so one damaged row never blocks another
-- channel's lookup (a scan would read every page).
CREATE INDEX tables_channel ON tables (channel_id, id);

-- Which process runs which shard: one lease per shard, renewed while the process lives, released
-- when it stops. Times are milliseconds of the database's clock. See docs/SHARDING.md.
CREATE TABLE shard_leases (
    shard_id    INTEGER PRIMARY KEY,
    shard_count INTEGER NOT NULL,
    owner       TEXT NOT NULL,
    acquired_at INTEGER NOT NULL,
    expires_at  INTEGER NOT NULL
);
