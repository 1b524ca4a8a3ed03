-- Up Migration

-- The WAL position of the view a finished export read came from (a replica's or the primary's):
-- a partner resuming from that mark is served from a view at least as new, never an older one.
-- Marks made before have none, and ask for no position.
ALTER TABLE trust_feed_marks ADD COLUMN view_lsn pg_lsn;

-- Down Migration

ALTER TABLE trust_feed_marks DROP COLUMN view_lsn;
