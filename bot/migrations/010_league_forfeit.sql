-- 010: a table awarded by forfeit (/league-season forfeit): the side that forfeits (NULL: a game's
--   or a corrected result). Its entrants get a forfeit loss, the other side the win.
ALTER TABLE league_results ADD COLUMN forfeit_side INTEGER;
