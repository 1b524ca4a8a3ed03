-- The export feed's order (src/trust/export.ts).
-- Applied after every migrate (src/store/migrate.ts), in the order its list gives: CREATE OR REPLACE,
-- so this file is the function as it is now and its history is git's. A change of its arguments or
-- result needs a migration that drops the old one first.

-- Every change moves the row to the end of the feed, stamped with its transaction and the time.
CREATE OR REPLACE FUNCTION trust_entries_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.change_xid := pg_current_xact_id();
  NEW.changed_at := clock_timestamp();
  RETURN NEW;
END $$;
CREATE OR REPLACE TRIGGER trust_entries_changed BEFORE INSERT OR UPDATE ON trust_entries
  FOR EACH ROW EXECUTE FUNCTION trust_entries_changed();
