-- Up Migration

-- What a community's ban file holds over time, instead of one row per ban and server: every server
-- of an account is written the same file (rendered once per account), so a server's file holds
-- the entries that were open at its last sync (game_file_syncs.synced_at). A first sync of 50,000
-- bans to 20 servers wrote 1,000,000 ban_syncs rows and each later sync checked 50,000 per server;
-- now it writes 50,000 once and checks them once per account. An entry is closed (removed_at) when
-- its ban leaves the file, and a ban back in force gets a new entry.
CREATE TABLE ban_file_entries (
  account_id uuid NOT NULL,
  ban_id uuid NOT NULL,
  added_at timestamptz NOT NULL,
  removed_at timestamptz,
  PRIMARY KEY (account_id, ban_id, added_at)
);
-- One open entry per ban: two syncs of one account that overlapped (a job lock that ran out) fail
-- on it rather than record a ban twice, and are retried from their requests.
CREATE UNIQUE INDEX ban_file_entries_open_idx ON ban_file_entries (ban_id) WHERE removed_at IS NULL;

-- The records kept so far: a ban in any server's file is open, since its first recorded sync; one
-- that left every file is closed when it left the last. (Until its next sync, a server whose file
-- lost a ban before another server's did lists it still.)
INSERT INTO ban_file_entries (account_id, ban_id, added_at, removed_at)
  SELECT b.account_id, s.ban_id, min(s.synced_at), CASE WHEN bool_or(s.removed_at IS NULL) THEN NULL ELSE max(s.removed_at) END
  FROM ban_syncs s JOIN bans b ON b.id = s.ban_id
  GROUP BY b.account_id, s.ban_id;
-- A server with records but no sync of its own (they were recorded without a sync) keeps its list:
-- its last sync is its latest record.
INSERT INTO game_file_syncs (server_id, kind, path, sha256, entries, synced_at)
  SELECT s.server_id, 'bans', NULL, '', count(*) FILTER (WHERE s.removed_at IS NULL), max(greatest(s.synced_at, s.removed_at))
  FROM ban_syncs s
  WHERE NOT EXISTS (SELECT 1 FROM game_file_syncs g WHERE g.server_id = s.server_id AND g.kind = 'bans')
  GROUP BY s.server_id;

DROP TABLE ban_syncs;

-- Down Migration

CREATE TABLE ban_syncs (
  server_id uuid NOT NULL,
  ban_id uuid NOT NULL,
  synced_at timestamptz NOT NULL,
  removed_at timestamptz,
  PRIMARY KEY (server_id, ban_id)
);
CREATE INDEX ban_syncs_in_file_idx ON ban_syncs (ban_id) WHERE removed_at IS NULL;
INSERT INTO ban_syncs (server_id, ban_id, synced_at)
  SELECT DISTINCT ON (g.server_id, e.ban_id) g.server_id, e.ban_id, e.added_at
  FROM game_file_syncs g JOIN servers v ON v.id = g.server_id
    JOIN ban_file_entries e ON e.account_id = v.account_id AND e.added_at <= g.synced_at AND (e.removed_at IS NULL OR e.removed_at > g.synced_at)
  WHERE g.kind = 'bans'
  ORDER BY g.server_id, e.ban_id, e.added_at DESC;
DROP TABLE ban_file_entries;
