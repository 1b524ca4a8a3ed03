-- Up Migration

-- What the last sync of each server's game file did: the path it wrote (a first sync of a path
-- imports the entries already in it) and a digest of the content.
CREATE TABLE game_file_syncs (
  server_id uuid NOT NULL REFERENCES servers (id),
  kind text NOT NULL CHECK (kind IN ('bans', 'priority')),
  path text,
  sha256 text NOT NULL,
  entries integer NOT NULL,
  synced_at timestamptz NOT NULL,
  PRIMARY KEY (server_id, kind)
);

-- The ban file renders the account's bans in force oldest first, read in keyset pages.
CREATE INDEX bans_in_force_idx ON bans (account_id, banned_at, id) WHERE lifted_at IS NULL;
-- The expiry job finds bans that ran out since its last run.
CREATE INDEX bans_expiry_idx ON bans (expires_at) WHERE expires_at IS NOT NULL AND lifted_at IS NULL;

-- Priority-queue (VIP) entries: one per player and scope; server_ids NULL = every server
-- of the account; scope_key is 'all' or the sorted server ids, so "one entry per player and scope"
-- is a unique index.
CREATE TABLE priority_queue (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  account_id uuid NOT NULL REFERENCES accounts (id),
  platform_id text NOT NULL,
  player_name text,
  comment text,
  server_ids uuid[],
  scope_key text NOT NULL,
  expires_at timestamptz,
  source text NOT NULL DEFAULT 'manual' CHECK (source IN ('manual', 'store', 'import')),
  created_by_id text,
  created_by_name text,
  created_at timestamptz NOT NULL,
  updated_at timestamptz
);
CREATE UNIQUE INDEX priority_queue_player_scope_idx ON priority_queue (account_id, platform_id, scope_key);
CREATE INDEX priority_queue_expiry_idx ON priority_queue (expires_at) WHERE expires_at IS NOT NULL;
CREATE INDEX priority_queue_account_idx ON priority_queue (account_id, created_at DESC, id);

-- Down Migration

DROP TABLE priority_queue, game_file_syncs;
DROP INDEX bans_in_force_idx, bans_expiry_idx;
