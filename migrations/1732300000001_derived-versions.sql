-- Up Migration

-- Every ingested batch (and nothing else) bumps its server's version in the batch's transaction.
-- The derived Redis state is written after commit, tagged with that version: a write that arrives
-- late is a no-op for players a newer write already set, and the worker rebuilds a server whose
-- Redis state lags behind this number for longer than a grace period.
ALTER TABLE servers ADD COLUMN derived_version bigint NOT NULL DEFAULT 0;
-- Servers with data from before this migration: version 1, so the reconcile job rebuilds their
-- Redis state from PostgreSQL at once (at 0, "never ingested", it would leave it as it is).
UPDATE servers s SET derived_version = 1 WHERE EXISTS (SELECT 1 FROM server_players p WHERE p.server_id = s.id);

-- Down Migration

ALTER TABLE servers DROP COLUMN derived_version;
