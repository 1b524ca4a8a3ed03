-- Up Migration

-- Bans as a community manages them: who created and who lifted a ban is kept with it,
-- an imported ban remembers the ban it was copied from, and a Steam64 ban carries its DayZ ID so a
-- search or a file render by either form needs no hashing.
ALTER TABLE bans
  ADD COLUMN dayz_id text,
  ADD COLUMN created_by_id text,
  ADD COLUMN created_by_name text,
  ADD COLUMN lifted_by_id text,
  ADD COLUMN lifted_by_name text,
  ADD COLUMN imported_from uuid,
  ADD COLUMN updated_at timestamptz;
CREATE INDEX bans_account_platform_idx ON bans (account_id, platform_id);
CREATE INDEX bans_account_dayz_idx ON bans (account_id, dayz_id) WHERE dayz_id IS NOT NULL;
CREATE INDEX bans_account_banned_idx ON bans (account_id, banned_at DESC, id);

-- A ban_syncs row whose ban left the file (lifted or expired) keeps its sync time and gets removed_at.
ALTER TABLE ban_syncs ADD COLUMN removed_at timestamptz;
CREATE INDEX ban_syncs_in_file_idx ON ban_syncs (ban_id) WHERE removed_at IS NULL;

-- Syncs the web process asks for (it never writes game files itself); the worker drains them.
-- One row per server and file: a request made while one is pending renews its seq, so a worker that
-- took the older one (and deletes by seq) leaves the newer in place.
CREATE SEQUENCE file_sync_request_seq;
CREATE TABLE file_sync_requests (
  server_id uuid NOT NULL REFERENCES servers (id),
  kind text NOT NULL CHECK (kind IN ('bans', 'priority')),
  requested_at timestamptz NOT NULL,
  seq bigint NOT NULL DEFAULT nextval('file_sync_request_seq'),
  PRIMARY KEY (server_id, kind)
);

-- Down Migration

DROP TABLE file_sync_requests;
DROP SEQUENCE file_sync_request_seq;

DROP INDEX ban_syncs_in_file_idx;
ALTER TABLE ban_syncs DROP COLUMN removed_at;
DROP INDEX bans_account_banned_idx, bans_account_dayz_idx, bans_account_platform_idx;
ALTER TABLE bans DROP COLUMN dayz_id, DROP COLUMN created_by_id, DROP COLUMN created_by_name, DROP COLUMN lifted_by_id,
  DROP COLUMN lifted_by_name, DROP COLUMN imported_from, DROP COLUMN updated_at;
