-- Event claims are partitioned by day (src/ingest/event-claims.ts).
-- Applied after every migrate (src/store/migrate.ts), in the order its list gives: CREATE OR REPLACE,
-- so this file is the function as it is now and its history is git's. A change of its arguments or
-- result needs a migration that drops the old one first.

-- Adds the partition of one UTC day unless it exists; claims of that day already in the default
-- partition move into it. The default partition is locked first, so no claim of that day can
-- reach it between the move and the attach. Answers whether it added the partition.
CREATE OR REPLACE FUNCTION event_claims_add_day(d date) RETURNS boolean LANGUAGE plpgsql AS $$
DECLARE
  name text := 'event_claims_' || to_char(d, 'YYYYMMDD');
  day_start timestamptz := d::timestamp AT TIME ZONE 'UTC';
  day_end timestamptz := (d + 1)::timestamp AT TIME ZONE 'UTC';
BEGIN
  IF to_regclass(name) IS NOT NULL THEN RETURN false; END IF;
  LOCK TABLE event_claims_other IN SHARE ROW EXCLUSIVE MODE;
  EXECUTE format('CREATE TABLE %I (LIKE event_claims)', name);
  EXECUTE format('WITH moved AS (DELETE FROM event_claims_other WHERE sent_at >= $1 AND sent_at < $2 RETURNING *) INSERT INTO %I SELECT * FROM moved', name)
    USING day_start, day_end;
  EXECUTE format('ALTER TABLE event_claims ATTACH PARTITION %I FOR VALUES FROM (%L) TO (%L)', name, day_start, day_end);
  RETURN true;
END
$$;
