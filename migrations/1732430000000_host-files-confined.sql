-- Up Migration

-- Files on the service's host: only the network operator's owners set a server's file
-- paths now, inside GAME_FILES_DIR. The paths communities set for themselves before are cleared: the
-- service never opens a path a community chose (their agents keep their files, `--files`). Each
-- clearing is audited in that community's log with the old paths, so nothing goes unsaid. The
-- operator's own servers keep theirs as they are (absolute ones too): every sync checks them
-- against GAME_FILES_DIR, and one outside it fails (and is audited) rather than being read.
WITH communities AS (
  SELECT s.id, s.account_id, s.ban_file_path, s.priority_file_path FROM servers s JOIN accounts a ON a.id = s.account_id
  WHERE NOT a.is_operator AND (s.ban_file_path IS NOT NULL OR s.priority_file_path IS NOT NULL)
  FOR UPDATE OF s
), cleared AS (
  UPDATE servers s SET ban_file_path = NULL, priority_file_path = NULL FROM communities c WHERE s.id = c.id RETURNING s.id
)
INSERT INTO audit_log (account_id, at, actor_type, actor_name, action, target_type, target_id, details)
SELECT c.account_id, now(), 'system', 'upgrade', 'server.file-paths-cleared', 'server', c.id::text,
  jsonb_build_object('banFilePath', c.ban_file_path, 'priorityFilePath', c.priority_file_path,
    'reason', 'files on the service''s host are the operator''s; the server''s agent keeps its files (--files)')
FROM communities c JOIN cleared USING (id);

-- Two live servers never write one file, and a server's two files are two: one path, either
-- kind, belongs to one live server (compared without case, as a case-insensitive folder would).
-- A unique index cannot span two columns, so a trigger checks, one change at a time. Rows that
-- already share a file stay (their syncs are refused until one path changes).
CREATE FUNCTION servers_one_server_a_file() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.revoked_at IS NOT NULL OR (NEW.ban_file_path IS NULL AND NEW.priority_file_path IS NULL) THEN
    RETURN NEW;
  END IF;
  IF lower(NEW.ban_file_path) = lower(NEW.priority_file_path) THEN
    RAISE EXCEPTION 'the ban file and the priority file of a server are one file'
      USING ERRCODE = 'unique_violation', CONSTRAINT = 'servers_file_path_unique';
  END IF;
  -- Two changes at once would each miss the other's row: they check one after the other.
  PERFORM pg_advisory_xact_lock(hashtext(TG_TABLE_SCHEMA || '.servers file paths'));
  IF EXISTS (
    SELECT 1 FROM servers s WHERE s.id <> NEW.id AND s.revoked_at IS NULL
      AND (lower(s.ban_file_path) IN (lower(NEW.ban_file_path), lower(NEW.priority_file_path))
        OR lower(s.priority_file_path) IN (lower(NEW.ban_file_path), lower(NEW.priority_file_path)))
  ) THEN
    RAISE EXCEPTION 'another live server uses that file' USING ERRCODE = 'unique_violation', CONSTRAINT = 'servers_file_path_unique';
  END IF;
  RETURN NEW;
END
$$;
CREATE TRIGGER servers_one_server_a_file BEFORE INSERT OR UPDATE OF ban_file_path, priority_file_path, revoked_at ON servers
  FOR EACH ROW EXECUTE FUNCTION servers_one_server_a_file();

-- A request whose file failed waits before its next try (1 s, doubling up to 60 s), and keeps why.
ALTER TABLE file_sync_requests ADD COLUMN failures integer NOT NULL DEFAULT 0, ADD COLUMN retry_at timestamptz, ADD COLUMN last_error text;

-- Down Migration

ALTER TABLE file_sync_requests DROP COLUMN failures, DROP COLUMN retry_at, DROP COLUMN last_error;
DROP TRIGGER servers_one_server_a_file ON servers;
DROP FUNCTION servers_one_server_a_file();
