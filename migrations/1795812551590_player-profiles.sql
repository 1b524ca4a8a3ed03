-- Up Migration

-- Idempotent (IF NOT EXISTS, ON CONFLICT): a database brought onto the baseline from before the
-- squash runs it again over what it may hold.

-- What a community's player profile and player search read beyond the totals: the names each
-- player was seen under on the account's servers, their play sessions, the ten newest kills and
-- deaths per server, and the account's private notes and watch flags. The rules that fill the
-- new tables and columns are in src/players/sql/ and src/ingest/sql/player-totals.sql.

-- Every name a player had on a server, with the first and last time seen under it (the current
-- name's last sighting is the server_players row's name_at, kept there). Written by a trigger on
-- server_players when a row is made or renamed, not at every batch; per server, so it is written
-- under the server's lock like the totals and two servers' batches never wait for each other's
-- rows. lower(name) is indexed byte-wise (text_pattern_ops): a case-insensitive prefix among a
-- server's players is one index range.
CREATE TABLE IF NOT EXISTS player_names (
    server_id uuid NOT NULL,
    platform_id text NOT NULL,
    name text NOT NULL,
    first_seen_at timestamp with time zone NOT NULL,
    last_seen_at timestamp with time zone NOT NULL,
    CONSTRAINT player_names_pkey PRIMARY KEY (server_id, platform_id, name)
);

CREATE INDEX IF NOT EXISTS player_names_search_idx ON player_names USING btree (server_id, lower(name) text_pattern_ops, platform_id);

-- A player's play sessions on a server: from the presence that started one (a connect, or a
-- heartbeat after a gap longer than the online window) to the disconnect or the last presence
-- before such a gap; ended_at is null while the session may still run. Written by ingestion only
-- when a session starts or ends, never at a heartbeat.
CREATE TABLE IF NOT EXISTS player_sessions (
    server_id uuid NOT NULL,
    platform_id text NOT NULL,
    started_at timestamp with time zone NOT NULL,
    ended_at timestamp with time zone,
    CONSTRAINT player_sessions_pkey PRIMARY KEY (server_id, platform_id, started_at)
);

-- The times (as the events gave them) of the player's ten newest kills and ten newest deaths by a
-- player's hand on the server, newest first: the profile reads those kills by the kills' primary
-- key. Indexes on kills by player would cost ingestion its throughput (two random index inserts a
-- kill); these arrays ride on the row update every kill already makes.
ALTER TABLE server_players ADD COLUMN IF NOT EXISTS recent_kills_at timestamp with time zone[];
ALTER TABLE server_players ADD COLUMN IF NOT EXISTS recent_deaths_at timestamp with time zone[];

-- An account's private notes about a player: never read by the Data API, the trust network or a
-- partner.
CREATE TABLE IF NOT EXISTS player_notes (
    id uuid DEFAULT gen_random_uuid() NOT NULL,
    account_id uuid NOT NULL,
    platform_id text NOT NULL,
    body text NOT NULL,
    created_by_id text,
    created_by_name text,
    created_at timestamp with time zone NOT NULL,
    CONSTRAINT player_notes_pkey PRIMARY KEY (id),
    CONSTRAINT player_notes_account_id_fkey FOREIGN KEY (account_id) REFERENCES accounts(id)
);

CREATE INDEX IF NOT EXISTS player_notes_player_idx ON player_notes USING btree (platform_id, account_id, created_at DESC);

-- The players an account watches (the dashboard marks them in its online lists).
CREATE TABLE IF NOT EXISTS player_watches (
    account_id uuid NOT NULL,
    platform_id text NOT NULL,
    watched_by_id text,
    watched_by_name text,
    watched_at timestamp with time zone NOT NULL,
    CONSTRAINT player_watches_pkey PRIMARY KEY (account_id, platform_id),
    CONSTRAINT player_watches_account_id_fkey FOREIGN KEY (account_id) REFERENCES accounts(id)
);

CREATE INDEX IF NOT EXISTS player_watches_player_idx ON player_watches USING btree (platform_id);

-- A player's ban and queue history in the profile: the audit entries of the account's bans by
-- their ids, and of its queue entries by the player (a removed entry is gone from priority_queue).
CREATE INDEX IF NOT EXISTS audit_log_target_idx ON audit_log USING btree (account_id, target_type, target_id, id);

CREATE INDEX IF NOT EXISTS audit_log_queue_player_idx ON audit_log USING btree (account_id, ((details ->> 'platformId')), id) WHERE (target_type = 'queue-entry');

-- The names the totals hold today are each player's first entry (their history before this
-- migration is kept nowhere but in the kills, which are not read back here).
INSERT INTO player_names (server_id, platform_id, name, first_seen_at, last_seen_at)
    SELECT server_id, platform_id, name, coalesce(name_at, presence_at, now()), coalesce(name_at, presence_at, now())
    FROM server_players WHERE name IS NOT NULL
    ON CONFLICT (server_id, platform_id, name) DO NOTHING;

-- Down Migration

DROP TRIGGER IF EXISTS server_players_named ON server_players;
DROP TRIGGER IF EXISTS server_players_renamed ON server_players;
DROP FUNCTION IF EXISTS server_players_name_seen;
DROP INDEX IF EXISTS audit_log_queue_player_idx;
DROP INDEX IF EXISTS audit_log_target_idx;
DROP TABLE IF EXISTS player_watches;
DROP TABLE IF EXISTS player_notes;
ALTER TABLE server_players DROP COLUMN IF EXISTS recent_deaths_at;
ALTER TABLE server_players DROP COLUMN IF EXISTS recent_kills_at;
DROP TABLE IF EXISTS player_sessions;
DROP TABLE IF EXISTS player_names;
