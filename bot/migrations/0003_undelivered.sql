-- Messages a game's delivery could not get to Discord before the bot stopped (a channel
-- gone, an outage): sent at the next start, in order. payload_json: see bot.delivery.Job.
CREATE TABLE undelivered (
    game_id       INTEGER NOT NULL REFERENCES games (id),
    seq           INTEGER NOT NULL,
    payload_json  TEXT    NOT NULL,
    PRIMARY KEY (game_id, seq)
);
