-- One server's common batch in one call (src/ingest/one-call.ts).
-- Applied after every migrate (src/store/migrate.ts), in the order its list gives: CREATE OR REPLACE,
-- so this file is the function as it is now and its history is git's. A change of its arguments or
-- result needs a migration that drops the old one first.

CREATE OR REPLACE FUNCTION ingest_apply_batch_claims(
  p_server uuid, p_received_at timestamptz, p_event_ids uuid[], p_event_sent_at timestamptz[],
  k_ts timestamptz[], k_killer text[], k_killer_name text[], k_victim text[], k_victim_name text[], k_weapon text[],
  k_distance float8[], k_headshot bool[], k_hit_zone text[],
  e_id text[], e_tag text[],
  s_id text[], s_name text[], s_kills int[], s_deaths int[], s_headshots int[], s_distance float8[], s_play float8[],
  s_fired bigint[], s_hit bigint[], s_online timestamptz[], s_presence timestamptz[], s_name_at timestamptz[],
  a_id text[], a_name text[], a_kills int[], a_deaths int[], a_headshots int[], a_distance float8[], a_fired bigint[], a_hit bigint[],
  a_name_at timestamptz[],
  m_at timestamptz[], m_online bool[], m_players int[], m_fps float8[], m_uptime int8[],
  p_newest_at timestamptz, p_status jsonb, p_dayz_ids text[],
  pl_id text[], pl_name text[], pl_first timestamptz[], pl_last timestamptz[], pl_dayz text[], pl_be text[])
RETURNS TABLE (out_added text, out_orphans text[], out_server servers, out_players text)
LANGUAGE plpgsql AS $$
DECLARE
  status_ts timestamptz := (p_status->>'at')::timestamptz;
  has_metrics boolean := p_status ? 'players' OR p_status ? 'fps' OR p_status ? 'uptimeSeconds';
BEGIN
  -- Plain inserts: an event id seen before, or a kill timestamp taken, raises unique_violation
  -- (23505), which sends the batch down the transactional path. ON CONFLICT with a count of the
  -- rows cost half as much again for a backfill's 500 events.
  INSERT INTO event_claims (sent_at, server_id, event_id, received_at)
    SELECT unnest(p_event_sent_at), p_server, unnest(p_event_ids), p_received_at;

  INSERT INTO kills (server_id, ts, killer_platform_id, killer_name, victim_platform_id, victim_name, weapon, distance, is_headshot, hit_zone)
    SELECT p_server, * FROM unnest(k_ts, k_killer, k_killer_name, k_victim, k_victim_name, k_weapon, k_distance, k_headshot, k_hit_zone);

  -- The batch's players, as src/ingest/ingest.repo.ts upsertPlayers does (rows only widen; a row
  -- that already says as much is left out before ON CONFLICT would lock it).
  INSERT INTO players AS p (platform_id, name, first_seen_at, last_seen_at, dayz_id, be_guid)
    SELECT s.* FROM unnest(pl_id, pl_name, pl_first, pl_last, pl_dayz, pl_be) AS s(platform_id, name, first_seen_at, last_seen_at, dayz_id, be_guid)
    WHERE NOT EXISTS (SELECT 1 FROM players q WHERE q.platform_id = s.platform_id AND q.name = s.name
      AND q.first_seen_at <= s.first_seen_at AND q.last_seen_at >= s.last_seen_at - interval '10 minutes')
    ON CONFLICT (platform_id) DO UPDATE SET
      name = CASE WHEN excluded.last_seen_at >= p.last_seen_at THEN excluded.name ELSE p.name END,
      first_seen_at = least(p.first_seen_at, excluded.first_seen_at),
      last_seen_at = greatest(p.last_seen_at, excluded.last_seen_at)
    WHERE excluded.name IS DISTINCT FROM p.name OR excluded.first_seen_at < p.first_seen_at
      OR excluded.last_seen_at > p.last_seen_at + interval '10 minutes';

  -- What the players' rows hold now, for the caller's cache of stored players.
  out_players := (SELECT '[' || coalesce(string_agg(concat('["', q.platform_id, '",', coalesce(to_json(q.name)::text, 'null'), ',',
      round(date_part('epoch', q.first_seen_at) * 1000), ',', round(date_part('epoch', q.last_seen_at) * 1000), ']'), ','), '') || ']'
    FROM unnest(pl_id) AS s(id), LATERAL (SELECT * FROM players p WHERE p.platform_id = s.id) AS q);

  PERFORM pg_advisory_xact_lock(hashtextextended(p_server::text, 0));

  -- Scalar subqueries, one primary-key probe per id: a function's generic plan may join otherwise.
  -- A row's tag is its xmin: every write of a row gives it a new one.
  IF EXISTS (SELECT 1 FROM unnest(e_id, e_tag) AS e(id, tag)
             WHERE (SELECT sp.xmin::text FROM server_players sp WHERE sp.server_id = p_server AND sp.platform_id = e.id) IS DISTINCT FROM e.tag) THEN
    RAISE EXCEPTION 'totals changed since read' USING ERRCODE = 'IB001';
  END IF;

  -- Present players: their totals as the caller computed them from the rows checked above.
  INSERT INTO server_players AS sp (server_id, platform_id, name, kills, deaths, headshots, kill_distance_sum,
      play_seconds, shots_fired, shots_hit, online_at, presence_at, name_at)
    SELECT p_server, * FROM unnest(s_id, s_name, s_kills, s_deaths, s_headshots, s_distance, s_play, s_fired, s_hit, s_online, s_presence, s_name_at)
    ON CONFLICT (server_id, platform_id) DO UPDATE SET
      name = coalesce(excluded.name, sp.name), kills = excluded.kills, deaths = excluded.deaths,
      headshots = excluded.headshots, kill_distance_sum = excluded.kill_distance_sum,
      play_seconds = excluded.play_seconds, shots_fired = excluded.shots_fired,
      shots_hit = excluded.shots_hit, online_at = excluded.online_at,
      presence_at = excluded.presence_at, name_at = excluded.name_at;

  -- The others: counters added, as src/stats/stats.repo.ts addTotals does.
  WITH added AS (
    INSERT INTO server_players AS sp (server_id, platform_id, name, kills, deaths, headshots, kill_distance_sum, shots_fired, shots_hit, name_at)
      SELECT p_server, * FROM unnest(a_id, a_name, a_kills, a_deaths, a_headshots, a_distance, a_fired, a_hit, a_name_at)
      ON CONFLICT (server_id, platform_id) DO UPDATE SET
        kills = sp.kills + excluded.kills, deaths = sp.deaths + excluded.deaths, headshots = sp.headshots + excluded.headshots,
        kill_distance_sum = sp.kill_distance_sum + excluded.kill_distance_sum,
        shots_fired = sp.shots_fired + excluded.shots_fired, shots_hit = sp.shots_hit + excluded.shots_hit,
        name = CASE WHEN excluded.name IS NOT NULL AND (sp.name_at IS NULL OR excluded.name_at >= sp.name_at) THEN excluded.name ELSE sp.name END,
        name_at = CASE WHEN excluded.name IS NOT NULL AND (sp.name_at IS NULL OR excluded.name_at >= sp.name_at) THEN excluded.name_at ELSE sp.name_at END
      RETURNING sp.*
  )
  SELECT '[' || coalesce(string_agg(concat('["', platform_id, '",', coalesce(to_json(name)::text, 'null'), ',', kills, ',', deaths, ',',
      headshots, ',', kill_distance_sum, ',', play_seconds, ',', shots_fired, ',', shots_hit, ',', epoch_ms_json(online_at), ',', epoch_ms_json(presence_at), ',',
      epoch_ms_json(name_at), ']'), ','), '') || ']'
    INTO out_added FROM added;

  INSERT INTO server_metrics (server_id, at, online, players, fps, uptime_seconds)
    SELECT p_server, * FROM unnest(m_at, m_online, m_players, m_fps, m_uptime)
    ON CONFLICT (server_id, at) DO NOTHING;

  -- As src/ingest/ingest.repo.ts updateServerStatus with the batch's one status (or none): fresh
  -- when no newer status is stored (f reads the row as it was, as SET expressions do).
  UPDATE servers SET
      last_seen_at = greatest(last_seen_at, p_newest_at),
      online = CASE WHEN f.fresh THEN (p_status->>'online')::bool ELSE online END,
      map = CASE WHEN f.fresh AND p_status->>'map' IS NOT NULL THEN p_status->>'map' ELSE map END,
      game_version = CASE WHEN f.fresh AND p_status->>'gameVersion' IS NOT NULL THEN p_status->>'gameVersion' ELSE game_version END,
      players = CASE WHEN f.fresh AND has_metrics THEN (p_status->>'players')::int ELSE players END,
      fps = CASE WHEN f.fresh AND has_metrics THEN (p_status->>'fps')::float8 ELSE fps END,
      uptime_seconds = CASE WHEN f.fresh AND has_metrics THEN (p_status->>'uptimeSeconds')::int8 ELSE uptime_seconds END,
      metrics_at = CASE WHEN f.fresh AND has_metrics THEN status_ts ELSE metrics_at END,
      status_at = CASE WHEN f.fresh THEN status_ts ELSE status_at END,
      derived_version = derived_version + 1
    FROM (SELECT status_ts IS NOT NULL AND (s.status_at IS NULL OR s.status_at <= status_ts) AS fresh FROM servers s WHERE s.id = p_server) AS f
    WHERE id = p_server
    RETURNING servers.* INTO out_server;

  out_orphans := array(SELECT d.id FROM unnest(p_dayz_ids) AS d(id) WHERE (SELECT true FROM players p WHERE p.platform_id = d.id));
  RETURN NEXT;
END
$$;
