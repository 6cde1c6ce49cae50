-- Games, seats, moderators, the append-only action log and its snapshots.
-- JSON columns hold canonical JSON (sorted keys, no spaces); times are ISO-8601 UTC.

CREATE TABLE games (
    id          INTEGER PRIMARY KEY,
    guild_id    INTEGER NOT NULL,
    channels    TEXT    NOT NULL,  -- object: role -> Discord channel id
    options     TEXT    NOT NULL,  -- object: game options chosen at creation
    variants    TEXT    NOT NULL,  -- array of variant names
    deadlines   TEXT    NOT NULL,  -- object: name -> ISO-8601 UTC time
    status      TEXT    NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'finished')),
    created_at  TEXT    NOT NULL
);
CREATE INDEX games_by_guild ON games (guild_id);
CREATE INDEX games_by_status ON games (status);

CREATE TABLE seats (
    game_id  INTEGER NOT NULL REFERENCES games (id),
    faction  TEXT    NOT NULL,
    user_id  INTEGER NOT NULL,
    PRIMARY KEY (game_id, faction)
) WITHOUT ROWID;
CREATE INDEX seats_by_user ON seats (user_id);

CREATE TABLE moderators (
    game_id  INTEGER NOT NULL REFERENCES games (id),
    user_id  INTEGER NOT NULL,
    PRIMARY KEY (game_id, user_id)
) WITHOUT ROWID;

-- One row per accepted request, never updated or deleted (see the triggers below).
-- kind 'start': body is the phase's start position (GameState.to_dict()); it begins a phase.
-- kind 'action': body is the action (rules.actions.action_to_dict()).
-- kind 'undo' / 'redo': target is the seq of the action entry undone / redone; body is null.
CREATE TABLE action_log (
    game_id     INTEGER NOT NULL REFERENCES games (id),
    seq         INTEGER NOT NULL CHECK (seq >= 1),
    kind        TEXT    NOT NULL CHECK (kind IN ('start', 'action', 'undo', 'redo')),
    target      INTEGER CHECK ((target IS NOT NULL) = (kind IN ('undo', 'redo'))),
    actor       INTEGER NOT NULL,  -- Discord user id; 0 is the bot itself (deadlines)
    body        TEXT    CHECK ((body IS NULL) = (kind IN ('undo', 'redo'))),
    events      TEXT    NOT NULL,  -- array of the events this entry produced
    idem_key    TEXT    NOT NULL,
    created_at  TEXT    NOT NULL,
    PRIMARY KEY (game_id, seq),
    UNIQUE (game_id, idem_key)
);

CREATE TRIGGER action_log_no_update BEFORE UPDATE ON action_log
BEGIN
    SELECT RAISE(ABORT, 'the action log is append-only');
END;

CREATE TRIGGER action_log_no_delete BEFORE DELETE ON action_log
BEGIN
    SELECT RAISE(ABORT, 'the action log is append-only');
END;

-- The position after the effective history whose last entry is head_seq (a 'start' or an
-- 'action' entry). Only a cache: every position can be rebuilt from the log alone.
CREATE TABLE snapshots (
    game_id     INTEGER NOT NULL,
    head_seq    INTEGER NOT NULL,
    state       TEXT    NOT NULL,  -- GameState.to_dict() as canonical JSON
    state_hash  TEXT    NOT NULL,  -- sha256 hex of state
    created_at  TEXT    NOT NULL,
    PRIMARY KEY (game_id, head_seq),
    FOREIGN KEY (game_id, head_seq) REFERENCES action_log (game_id, seq)
);
