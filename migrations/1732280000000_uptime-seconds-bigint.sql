-- Up Migration

-- The ingest schema admits uptimeSeconds up to 3153600000 (100 years), past the integer range.
ALTER TABLE servers ALTER COLUMN uptime_seconds TYPE bigint;

-- Down Migration

ALTER TABLE servers ALTER COLUMN uptime_seconds TYPE integer;
