-- Up Migration

CREATE TABLE accounts (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  name text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE api_keys (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  account_id uuid NOT NULL REFERENCES accounts (id),
  name text NOT NULL,
  tier text NOT NULL CHECK (tier IN ('standard', 'partner')),
  key_hash bytea NOT NULL UNIQUE,
  created_at timestamptz NOT NULL DEFAULT now(),
  revoked_at timestamptz
);
CREATE INDEX api_keys_account_idx ON api_keys (account_id);

CREATE TABLE servers (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  account_id uuid NOT NULL REFERENCES accounts (id),
  name text NOT NULL,
  ingest_token_hash bytea NOT NULL UNIQUE,
  ban_file_path text,
  priority_file_path text,
  restart_command text,
  created_at timestamptz NOT NULL DEFAULT now(),
  revoked_at timestamptz,
  map text,
  game_version text,
  online boolean NOT NULL DEFAULT false,
  status_at timestamptz,
  last_seen_at timestamptz,
  players integer,
  fps double precision,
  uptime_seconds integer,
  metrics_at timestamptz
);
CREATE INDEX servers_account_idx ON servers (account_id);

-- Network-wide identity of a player; service_id is the UUID the trust network publishes.
CREATE TABLE players (
  platform_id text PRIMARY KEY,
  service_id uuid NOT NULL UNIQUE DEFAULT gen_random_uuid(),
  name text NOT NULL,
  first_seen_at timestamptz NOT NULL,
  last_seen_at timestamptz NOT NULL
);

-- Per-server totals, updated in the same transaction as the events that change them;
-- Redis leaderboards and online windows are rebuilt from this table.
CREATE TABLE server_players (
  server_id uuid NOT NULL REFERENCES servers (id),
  platform_id text NOT NULL,
  name text,
  kills integer NOT NULL DEFAULT 0,
  deaths integer NOT NULL DEFAULT 0,
  headshots integer NOT NULL DEFAULT 0,
  kill_distance_sum double precision NOT NULL DEFAULT 0,
  play_seconds double precision NOT NULL DEFAULT 0,
  shots_fired bigint NOT NULL DEFAULT 0,
  shots_hit bigint NOT NULL DEFAULT 0,
  online_at timestamptz,
  PRIMARY KEY (server_id, platform_id)
);

-- ts is unique per server at microsecond precision, so a date-time cursor pages exactly.
CREATE TABLE kills (
  server_id uuid NOT NULL REFERENCES servers (id),
  ts timestamptz NOT NULL,
  killer_platform_id text NOT NULL,
  killer_name text NOT NULL,
  victim_platform_id text NOT NULL,
  victim_name text NOT NULL,
  weapon text NOT NULL,
  distance double precision NOT NULL,
  is_headshot boolean NOT NULL,
  hit_zone text,
  PRIMARY KEY (server_id, ts)
);

CREATE TABLE ingest_events (
  server_id uuid NOT NULL,
  event_id uuid NOT NULL,
  received_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (server_id, event_id)
);

CREATE TABLE bans (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  account_id uuid NOT NULL REFERENCES accounts (id),
  platform_id text NOT NULL,
  player_name text,
  reason text,
  source text NOT NULL CHECK (source IN ('manual', 'import', 'cloud')),
  banned_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz,
  lifted_at timestamptz
);
CREATE INDEX bans_account_idx ON bans (account_id);

-- When each ban was last written to each server's ban file.
CREATE TABLE ban_syncs (
  server_id uuid NOT NULL REFERENCES servers (id),
  ban_id uuid NOT NULL REFERENCES bans (id),
  synced_at timestamptz NOT NULL,
  PRIMARY KEY (server_id, ban_id)
);
CREATE INDEX ban_syncs_order_idx ON ban_syncs (server_id, synced_at DESC);

-- Down Migration

DROP TABLE ban_syncs, bans, ingest_events, kills, server_players, players, servers, api_keys, accounts;
