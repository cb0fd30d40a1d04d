-- 004: a player's own settings, the same in every server (set with /spades me).
--   no_blind_nil: the player never bids blind nil, so their cards are shown as soon as a hand is
--                 dealt (no "Show my cards" click each hand);
--   turn_ping:    ping the player when their turn starts (off by default: only the reminder
--                 shortly before the bot takes over pings).
CREATE TABLE player_settings (
    user_id      INTEGER PRIMARY KEY,
    no_blind_nil INTEGER NOT NULL DEFAULT 0,
    turn_ping    INTEGER NOT NULL DEFAULT 0,
    updated_at   INTEGER NOT NULL
);
