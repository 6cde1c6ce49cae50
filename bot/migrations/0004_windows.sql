-- Secret windows (docs/windows.md): each game's fixed window time, and the prompts the
-- session offers together now (an object: see bot.settings.Offer).
ALTER TABLE game_settings ADD COLUMN window_s REAL NOT NULL DEFAULT 300;
ALTER TABLE game_settings ADD COLUMN offer TEXT NOT NULL DEFAULT '{}';
