-- Up Migration

-- A player's rows across servers (the trust score's play evidence, a merge's servers) were found by
-- scanning server_players: 30 ms a cold trust lookup at 100,000 rows. platform_id never changes in
-- an update, so the totals' updates stay HOT.
CREATE INDEX server_players_platform_idx ON server_players (platform_id);

-- Down Migration

DROP INDEX server_players_platform_idx;
