-- A deadline extended per faction (issue 25): each extended faction's time beyond the
-- wait's deadline, in seconds; and the hours without progress after which the moderators
-- hear that the game is stalled (0: never).
ALTER TABLE game_settings ADD COLUMN extended TEXT NOT NULL DEFAULT '{}'; -- faction: seconds
ALTER TABLE game_settings ADD COLUMN stall_after_hours INTEGER NOT NULL DEFAULT 72;
