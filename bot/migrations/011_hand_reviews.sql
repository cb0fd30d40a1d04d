-- 011: Review my hand (bot/review.py): a player's finished hand reviewed by the strong bot, kept
--   so a second press answers at once (after a restart too) and /stats can show how near the
--   player's bids were to the bot's. ``data`` is engine.review.HandReview.to_dict() as JSON;
--   ``within_one`` 1 when the bid was within one trick of the bot's, 0 when not, NULL for a nil
--   against a number. Forget me deletes a player's rows.
CREATE TABLE hand_reviews (
    table_id    INTEGER NOT NULL,
    game_no     INTEGER NOT NULL,
    hand_no     INTEGER NOT NULL,
    seat        INTEGER NOT NULL,
    guild_id    INTEGER NOT NULL,
    user_id     INTEGER NOT NULL,
    data        TEXT NOT NULL,
    within_one  INTEGER,
    created_at  INTEGER NOT NULL,
    PRIMARY KEY (table_id, game_no, hand_no, seat)
);
CREATE INDEX hand_reviews_guild_user ON hand_reviews (guild_id, user_id);
