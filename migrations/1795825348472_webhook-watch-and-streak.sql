-- Up Migration

-- Idempotent (IF NOT EXISTS): merged branches run their migrations in merge order.

-- A Discord endpoint's role mentioned by the messages that report a watched player joining
-- (a Discord role id; null: no one is mentioned).
ALTER TABLE webhook_endpoints ADD COLUMN IF NOT EXISTS mention_role_id text;

-- Who paused an endpoint: 'hand' (its community) or 'failures' (the worker, after 24 hours of
-- failed deliveries: the dashboard tells the community on every page). Null while not paused.
ALTER TABLE webhook_endpoints ADD COLUMN IF NOT EXISTS paused_by text;
UPDATE webhook_endpoints SET paused_by = CASE WHEN paused_reason = 'paused by hand' THEN 'hand' ELSE 'failures' END
  WHERE paused_at IS NOT NULL AND paused_by IS NULL;

-- A player's kills on a server since their last death there (any death: by a player or not), as
-- ingestion applied them (src/ingest/sql/player-totals.sql). Counted from this migration on: rows
-- already there start at 0.
ALTER TABLE server_players ADD COLUMN IF NOT EXISTS streak integer DEFAULT 0 NOT NULL;

-- Down Migration

ALTER TABLE server_players DROP COLUMN IF EXISTS streak;
ALTER TABLE webhook_endpoints DROP COLUMN IF EXISTS paused_by;
ALTER TABLE webhook_endpoints DROP COLUMN IF EXISTS mention_role_id;
