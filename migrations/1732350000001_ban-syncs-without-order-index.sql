-- Up Migration

-- The Data API's ban list orders a server's bans by sync time, then by ban time; a first sync gives
-- every ban of the file the same sync time, so that index left PostgreSQL the whole group to sort
-- anyway (30 ms for 50,000 bans with it or without), while each of those 50,000 rows paid for an
-- entry in it. The primary key (server_id, ban_id) finds a server's rows.
DROP INDEX ban_syncs_order_idx;

-- Down Migration

CREATE INDEX ban_syncs_order_idx ON ban_syncs (server_id, synced_at DESC);
