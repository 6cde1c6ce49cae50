-- Pings that follow the person (issue 25): each user's preferences in a server (quiet hours
-- in their own time zone, a reminder interval, the heads-up, the digest by direct message),
-- and the last ping of each kind sent to a user in a game, so that none is said twice.
CREATE TABLE ping_prefs (
    guild_id         BIGINT  NOT NULL,
    user_id          BIGINT  NOT NULL,
    quiet_start      TEXT    NOT NULL DEFAULT '', -- 'HH:MM' local time ('' : no quiet hours)
    quiet_end        TEXT    NOT NULL DEFAULT '',
    quiet_zone       TEXT    NOT NULL DEFAULT '', -- an IANA time zone
    interval_minutes INTEGER NOT NULL DEFAULT 0,  -- 0: no reminders
    before_me        INTEGER NOT NULL DEFAULT 0,
    digest           INTEGER NOT NULL DEFAULT 0,
    dm_closed        INTEGER NOT NULL DEFAULT 0,  -- a digest failed: DMs closed
    PRIMARY KEY (guild_id, user_id)
);
CREATE TABLE ping_marks (
    game_id BIGINT  NOT NULL REFERENCES games (id),
    user_id BIGINT  NOT NULL,
    kind    TEXT    NOT NULL,
    key     TEXT    NOT NULL,
    at      TEXT    NOT NULL, -- ISO-8601 UTC
    PRIMARY KEY (game_id, user_id, kind)
);
