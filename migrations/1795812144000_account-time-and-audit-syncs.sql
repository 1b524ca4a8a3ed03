-- Up Migration

-- How a community's dashboard shows times: an IANA zone (checked by the service, not here: the
-- zone database changes with the runtime's) and a 24-hour or 12-hour clock.
ALTER TABLE accounts
    ADD COLUMN time_zone text DEFAULT 'UTC' NOT NULL,
    ADD COLUMN clock text DEFAULT '24h' NOT NULL,
    ADD CONSTRAINT accounts_clock_check CHECK ((clock = ANY (ARRAY['24h'::text, '12h'::text])));

-- The audit log leaves the worker's routine file syncs out unless asked: a community whose files
-- sync often would otherwise page through thousands of them to find a few changes.
CREATE INDEX audit_log_account_no_syncs_idx ON audit_log USING btree (account_id, id DESC) WHERE (action <> 'files.sync');

-- Down Migration

DROP INDEX audit_log_account_no_syncs_idx;
ALTER TABLE accounts DROP CONSTRAINT accounts_clock_check, DROP COLUMN clock, DROP COLUMN time_zone;
