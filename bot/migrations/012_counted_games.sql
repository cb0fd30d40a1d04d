-- 012: a counted game (bot/storage/counted.py, docs/COUNTED_GAMES.md), decided once when the game
-- is saved: every seat a person who played most of it themselves (no bot seat, no seat with more
-- than half of its actions taken by the bot standing in). The leaderboard, /stats and /history read
-- this column instead of each deciding from with_bots.
ALTER TABLE games ADD COLUMN counted INTEGER NOT NULL DEFAULT 0;
ALTER TABLE game_players ADD COLUMN counted INTEGER NOT NULL DEFAULT 0;

UPDATE games SET counted = CASE WHEN NOT EXISTS (
    SELECT 1 FROM game_players p WHERE p.game_id = games.id AND (p.is_bot = 1 OR p.bot_share > 0.5)
) THEN 1 ELSE 0 END;

UPDATE game_players SET counted = (SELECT g.counted FROM games g WHERE g.id = game_players.game_id);
