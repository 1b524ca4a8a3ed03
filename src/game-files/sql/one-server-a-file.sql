-- Files on the service's host (src/servers/file-paths.ts).
-- Applied after every migrate (src/store/migrate.ts), in the order its list gives: CREATE OR REPLACE,
-- so this file is the function as it is now and its history is git's. A change of its arguments or
-- result needs a migration that drops the old one first.

-- Two live servers never write one file, and a server's two files are two: one path, either
-- kind, belongs to one live server (compared without case, as a case-insensitive folder would).
-- A unique index cannot span two columns, so a trigger checks, one change at a time. Rows that
-- already share a file stay (their syncs are refused until one path changes).
CREATE OR REPLACE FUNCTION servers_one_server_a_file() RETURNS trigger LANGUAGE plpgsql AS $$
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
CREATE OR REPLACE TRIGGER servers_one_server_a_file BEFORE INSERT OR UPDATE OF ban_file_path, priority_file_path, revoked_at ON servers
  FOR EACH ROW EXECUTE FUNCTION servers_one_server_a_file();
