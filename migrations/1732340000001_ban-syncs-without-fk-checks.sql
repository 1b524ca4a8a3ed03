-- Up Migration

-- ban_syncs is written only by the file sync, from the server it syncs and the bans it selects in
-- the same statement, and neither bans nor servers are ever deleted: the two foreign keys checked
-- nothing the statement does not already guarantee, and their per-row checks were most of the cost
-- of a first sync (50,000 bans: one row each per server).
ALTER TABLE ban_syncs DROP CONSTRAINT ban_syncs_server_id_fkey, DROP CONSTRAINT ban_syncs_ban_id_fkey;

-- Down Migration

ALTER TABLE ban_syncs ADD CONSTRAINT ban_syncs_server_id_fkey FOREIGN KEY (server_id) REFERENCES servers (id),
  ADD CONSTRAINT ban_syncs_ban_id_fkey FOREIGN KEY (ban_id) REFERENCES bans (id);
