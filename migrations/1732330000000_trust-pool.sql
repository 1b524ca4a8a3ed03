-- Up Migration

-- Chat-platform user ids linked to players (the chat `link` action, or an admin).
CREATE TABLE player_links (
  chat_user_id text PRIMARY KEY,
  platform_id text NOT NULL,
  linked_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX player_links_platform_idx ON player_links (platform_id);

-- The community ban pool. account_id, submitted_by and note never leave the controller.
-- change_xid is the id of the transaction that last changed the row: the export feed orders by it
-- and serves only rows below the oldest running transaction, so a late commit is never skipped.
CREATE TABLE trust_entries (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  platform_id text NOT NULL,
  account_id uuid NOT NULL REFERENCES accounts (id),
  submitted_by uuid,
  ban_id uuid REFERENCES bans (id),
  status text NOT NULL CHECK (status IN ('pending', 'rejected', 'active', 'overturned', 'expired')),
  category text NOT NULL CHECK (category IN ('cheating', 'exploiting', 'griefing', 'toxicity', 'ban_evasion', 'other')),
  reason text NOT NULL,
  evidence jsonb NOT NULL DEFAULT '[]',
  note text,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  expires_at timestamptz,
  decided_at timestamptz,
  change_xid xid8 NOT NULL DEFAULT pg_current_xact_id(),
  changed_at timestamptz NOT NULL DEFAULT clock_timestamp()
);
CREATE INDEX trust_entries_player_idx ON trust_entries (platform_id);
CREATE INDEX trust_entries_feed_idx ON trust_entries (change_xid, id);
CREATE INDEX trust_entries_changed_idx ON trust_entries (changed_at);
CREATE INDEX trust_entries_due_idx ON trust_entries (expires_at) WHERE status = 'active';
-- One open submission or entry per ban.
CREATE UNIQUE INDEX trust_entries_ban_idx ON trust_entries (ban_id) WHERE ban_id IS NOT NULL AND status IN ('pending', 'active');

-- Every change moves the row to the end of the feed, stamped with its transaction and the time.
CREATE FUNCTION trust_entries_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.change_xid := pg_current_xact_id();
  NEW.changed_at := clock_timestamp();
  RETURN NEW;
END $$;
CREATE TRIGGER trust_entries_changed BEFORE INSERT OR UPDATE ON trust_entries
  FOR EACH ROW EXECUTE FUNCTION trust_entries_changed();

-- Partner keys of the export feed; only the SHA-256 of a key is stored.
CREATE TABLE partner_keys (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  name text NOT NULL,
  tier text NOT NULL CHECK (tier IN ('basic', 'premium')),
  key_hash bytea NOT NULL UNIQUE,
  created_at timestamptz NOT NULL DEFAULT now(),
  revoked_at timestamptz
);

-- Down Migration

DROP TABLE partner_keys, trust_entries, player_links;
DROP FUNCTION trust_entries_changed();
