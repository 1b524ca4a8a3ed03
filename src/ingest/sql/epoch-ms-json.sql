-- A helper of the batch functions.
-- Applied after every migrate (src/store/migrate.ts), in the order its list gives: CREATE OR REPLACE,
-- so this file is the function as it is now and its history is git's. A change of its arguments or
-- result needs a migration that drops the old one first.

-- Epoch milliseconds of a timestamp as JSON: a number or null.
CREATE OR REPLACE FUNCTION epoch_ms_json(t timestamptz) RETURNS text LANGUAGE sql STABLE PARALLEL SAFE
  RETURN coalesce(round(date_part('epoch', t) * 1000)::text, 'null');
