-- The network-wide players rows an ingestion call's batches name (src/ingest/sql/apply-batch.sql).
-- Applied after every migrate (src/store/migrate.ts), in the order its list gives: CREATE OR REPLACE,
-- so this file is the function as it is now and its history is git's. A change of its arguments or
-- result needs a DROP FUNCTION of the old one before it (the files run in one transaction, under a lock).

-- Name and first/last seen of each player the accepted events name (the name of the newest), a
-- Steam64's DayZ ID and BattlEye GUID beside it. Rows only widen; a row that already says as much
-- (same name, seen within 10 minutes of these times) is left out before ON CONFLICT, which would
-- lock it: a backfill names the same players batch after batch. Rows are written in id order, so
-- two writers never wait for each other in a circle.
CREATE OR REPLACE FUNCTION ingest_upsert_players(keep bool[], e_ts timestamptz[], e_player text[], e_name text[], e_killer text[], e_killer_name text[],
  s_id text[], s_dayz text[], s_be text[])
RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  -- Looked up by id, whatever the plan: a join of the players with the Steam64s' arrays was a
  -- nested loop over both.
  dayz_ids jsonb := jsonb_object(s_id, s_dayz);
  be_guids jsonb := jsonb_object(s_id, s_be);
BEGIN
  INSERT INTO players AS p (platform_id, name, first_seen_at, last_seen_at, dayz_id, be_guid)
    SELECT n.id, n.name, n.first_seen_at, n.last_seen_at, dayz_ids ->> n.id, be_guids ->> n.id FROM (
      SELECT DISTINCT ON (t.id) t.id, t.name, min(t.ts) OVER w AS first_seen_at, max(t.ts) OVER w AS last_seen_at
      FROM (SELECT e.killer AS id, e.killer_name AS name, e.ts, e.i, 0 AS sub
            FROM unnest(e_killer, e_killer_name, e_ts) WITH ORDINALITY AS e(killer, killer_name, ts, i) WHERE keep[e.i] AND e.killer IS NOT NULL
            UNION ALL
            SELECT e.player, e.name, e.ts, e.i, 1
            FROM unnest(e_player, e_name, e_ts) WITH ORDINALITY AS e(player, name, ts, i) WHERE keep[e.i] AND e.name IS NOT NULL) AS t
      WINDOW w AS (PARTITION BY t.id)
      ORDER BY t.id, t.ts DESC, t.i DESC, t.sub DESC) AS n
    -- A scalar subquery, one primary-key probe a player: a function's generic plan may scan them all otherwise.
    WHERE (SELECT true FROM players q WHERE q.platform_id = n.id AND q.name = n.name
      AND q.first_seen_at <= n.first_seen_at AND q.last_seen_at >= n.last_seen_at - interval '10 minutes') IS NULL
    ORDER BY n.id
    ON CONFLICT (platform_id) DO UPDATE SET
      name = CASE WHEN excluded.last_seen_at >= p.last_seen_at THEN excluded.name ELSE p.name END,
      first_seen_at = least(p.first_seen_at, excluded.first_seen_at),
      last_seen_at = greatest(p.last_seen_at, excluded.last_seen_at)
    WHERE excluded.name IS DISTINCT FROM p.name OR excluded.first_seen_at < p.first_seen_at
      OR excluded.last_seen_at > p.last_seen_at + interval '10 minutes';
END
$$;
