-- Who may open a seat, who seats a volunteer, and when a faction goes on autopilot (issue
-- 25); and each server's channel for "seat open" posts.
ALTER TABLE game_settings ADD COLUMN players_open INTEGER NOT NULL DEFAULT 0;
ALTER TABLE game_settings ADD COLUMN first_volunteer INTEGER NOT NULL DEFAULT 0;
ALTER TABLE game_settings ADD COLUMN autopilot_after INTEGER NOT NULL DEFAULT 0;
ALTER TABLE game_settings ADD COLUMN missed TEXT NOT NULL DEFAULT '{}'; -- faction: deadlines missed in a row
CREATE TABLE servers (
    guild_id           INTEGER PRIMARY KEY,
    volunteers_channel INTEGER -- NULL: none chosen
);
