-- 003: history, replays and "your data": indexes to browse finished games by channel and by
-- player, and to find every row of one player (export, forget) without a full scan.
-- A forgotten player keeps their seats in past games as user_id NULL, is_bot 0, name
-- 'a former player' (see docs/BOT_STORAGE.md): no new table is needed for that.

CREATE INDEX games_channel ON games (channel_id, finished_at);
CREATE INDEX game_players_user ON game_players (user_id);
CREATE INDEX hand_players_user ON hand_players (user_id);
