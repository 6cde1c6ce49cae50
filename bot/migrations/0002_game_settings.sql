-- A game's settings in typed columns, one row per game (they were keys of games.options and
-- games.deadlines, which are dropped). Times are ISO-8601 UTC, durations seconds, and the
-- per-faction columns canonical JSON objects keyed by faction.

CREATE TABLE game_settings (
    game_id           INTEGER PRIMARY KEY REFERENCES games (id),
    maps              TEXT    NOT NULL DEFAULT 'action',  -- when maps are drawn
    turn              INTEGER,                            -- the game turn the maps show
    moderator_role    INTEGER,                            -- Discord role id
    private_channels  TEXT    NOT NULL DEFAULT '{}',      -- object: faction -> channel id
    step_s            REAL    NOT NULL DEFAULT 43200,
    prompt_s          REAL    NOT NULL DEFAULT 7200,
    reminder_s        REAL    NOT NULL DEFAULT 3600,
    wait_key          TEXT,                               -- what the running deadline is for
    deadline          TEXT,
    reminded          INTEGER NOT NULL DEFAULT 0 CHECK (reminded IN (0, 1)),
    paused_left_s     REAL,                               -- set while a moderator pauses
    prompt_token      TEXT,                               -- the wait prompt answers are bound to
    prompts_asked     TEXT    NOT NULL DEFAULT '{}',      -- object: faction -> prompt message
    prompts_closed    TEXT    NOT NULL DEFAULT '{}',      -- object: "token:faction" -> how
    standing_orders   TEXT    NOT NULL DEFAULT '{}',      -- object: faction -> {order: choice}
    ally_offers       TEXT    NOT NULL DEFAULT '{}'       -- object: shipper -> {ally, amount}
);

INSERT INTO game_settings (
    game_id, maps, turn, moderator_role, private_channels, step_s, prompt_s, reminder_s,
    wait_key, deadline, reminded, paused_left_s, prompt_token, prompts_asked, prompts_closed,
    standing_orders, ally_offers
)
SELECT
    id,
    coalesce(json_extract(options, '$.maps'), 'action'),
    json_extract(options, '$.turn'),
    json_extract(options, '$.moderator_role'),
    coalesce(json_extract(options, '$.private_channels'), '{}'),
    coalesce(json_extract(options, '$.timing.step_s'), 43200),
    coalesce(json_extract(options, '$.timing.prompt_s'), 7200),
    coalesce(json_extract(options, '$.timing.reminder_s'), 3600),
    json_extract(options, '$.session.wait'),
    json_extract(deadlines, '$.deadline'),
    json_extract(deadlines, '$.reminded') IS NOT NULL,
    json_extract(options, '$.session.paused_left_s'),
    json_extract(options, '$.session.token'),
    coalesce(json_extract(options, '$.session.asked'), '{}'),
    coalesce(json_extract(options, '$.session.closed'), '{}'),
    coalesce(json_extract(options, '$.standing_orders'), '{}'),
    coalesce(json_extract(options, '$.ally_offers'), '{}')
FROM games;

ALTER TABLE games DROP COLUMN options;
ALTER TABLE games DROP COLUMN deadlines;
