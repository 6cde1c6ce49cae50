-- Each tenure of a seat (issue 25): who held a faction from when, one row per seating,
-- never changed; a tenure ends when the next row of the same game and faction begins. The
-- seats held now start at their game's creation (their real start was not recorded).
-- And the level of reliability a game requires of a new player (NULL: anyone).
CREATE TABLE seat_history (
    id       INTEGER PRIMARY KEY,
    game_id  INTEGER NOT NULL REFERENCES games (id),
    faction  TEXT    NOT NULL,
    user_id  INTEGER NOT NULL,
    since    TEXT    NOT NULL, -- ISO-8601 UTC
    turn     INTEGER           -- the game turn it began in (NULL: before turn 1, or a phase)
);
CREATE INDEX seat_history_by_game ON seat_history (game_id, faction, id);
CREATE INDEX seat_history_by_user ON seat_history (user_id);

INSERT INTO seat_history (game_id, faction, user_id, since)
SELECT s.game_id, s.faction, s.user_id, g.created_at
FROM seats AS s JOIN games AS g ON g.id = s.game_id
ORDER BY s.game_id, s.faction;

ALTER TABLE game_settings ADD COLUMN required_level TEXT;
