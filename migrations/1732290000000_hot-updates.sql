-- Up Migration

-- Player rows are rewritten by every batch that names them: room on each page lets PostgreSQL
-- update them in place (HOT), without touching the primary-key index.
ALTER TABLE server_players SET (fillfactor = 70);
ALTER TABLE players SET (fillfactor = 70);

-- Down Migration

ALTER TABLE server_players RESET (fillfactor);
ALTER TABLE players RESET (fillfactor);
