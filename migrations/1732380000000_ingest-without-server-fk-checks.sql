-- Up Migration

-- The tables an ingested batch writes row by row name their server without a foreign key, as
-- ban_syncs does (1732340000001): servers are never deleted, and every writer names a server it has
-- just found (ingestion after its token was verified against the server's row, and the batch's
-- status update of that row in the same transaction). The per-row checks were about a tenth of
-- PostgreSQL's time in a backfill (1,500 checks a batch of 500 kills).
ALTER TABLE kills DROP CONSTRAINT kills_server_id_fkey;
ALTER TABLE server_players DROP CONSTRAINT server_players_server_id_fkey;
ALTER TABLE server_metrics DROP CONSTRAINT server_metrics_server_id_fkey;

-- Down Migration

ALTER TABLE kills ADD CONSTRAINT kills_server_id_fkey FOREIGN KEY (server_id) REFERENCES servers (id);
ALTER TABLE server_players ADD CONSTRAINT server_players_server_id_fkey FOREIGN KEY (server_id) REFERENCES servers (id);
ALTER TABLE server_metrics ADD CONSTRAINT server_metrics_server_id_fkey FOREIGN KEY (server_id) REFERENCES servers (id);
