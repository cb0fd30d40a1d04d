-- 009: a league member's opt-in direct messages (/league me notify:): 'off' (the default), 'checkin'
--   (when check-in opens), 'seating' (their table each round) or 'both'.
ALTER TABLE league_members ADD COLUMN notify TEXT NOT NULL DEFAULT 'off';
