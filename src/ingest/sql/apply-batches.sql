-- Several servers' common batches in one call (src/ingest/one-call-groups.ts).
-- Applied after every migrate (src/store/migrate.ts), in the order its list gives: CREATE OR REPLACE,
-- so this file is the function as it is now and its history is git's. A change of its arguments or
-- result needs a migration that drops the old one first.

CREATE OR REPLACE FUNCTION ingest_apply_claimed_batches(
  b_server uuid[], b_received_at timestamptz[], b_newest_at timestamptz[],
  st_at timestamptz[], st_online bool[], st_map text[], st_game_version text[], st_metrics bool[],
  st_players int[], st_fps float8[], st_uptime int8[],
  e_batch int[], e_id uuid[], e_sent_at timestamptz[],
  k_batch int[], k_ts timestamptz[], k_killer text[], k_killer_name text[], k_victim text[], k_victim_name text[], k_weapon text[],
  k_distance float8[], k_headshot bool[], k_hit_zone text[],
  x_batch int[], x_id text[], x_tag text[],
  s_batch int[], s_id text[], s_name text[], s_kills int[], s_deaths int[], s_headshots int[], s_distance float8[], s_play float8[],
  s_fired bigint[], s_hit bigint[], s_online timestamptz[], s_presence timestamptz[], s_name_at timestamptz[],
  a_batch int[], a_id text[], a_name text[], a_kills int[], a_deaths int[], a_headshots int[], a_distance float8[], a_fired bigint[], a_hit bigint[],
  a_name_at timestamptz[],
  m_batch int[], m_at timestamptz[], m_online bool[], m_players int[], m_fps float8[], m_uptime int8[],
  p_dayz_ids text[],
  pl_id text[], pl_name text[], pl_first timestamptz[], pl_last timestamptz[], pl_dayz text[], pl_be text[])
RETURNS TABLE (out_batch int, out_added text, out_server servers, out_orphans text[], out_players text)
LANGUAGE plpgsql AS $$
DECLARE
  players_json text;
  orphans text[];
  refused int[];
  added_rows text[];
BEGIN
  -- The players of all batches (the caller merged a player named by several into one row).
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

  players_json := (SELECT '[' || coalesce(string_agg(concat('["', q.platform_id, '",', coalesce(to_json(q.name)::text, 'null'), ',',
      round(date_part('epoch', q.first_seen_at) * 1000), ',', round(date_part('epoch', q.last_seen_at) * 1000), ']'), ','), '') || ']'
    FROM unnest(pl_id) AS s(id), LATERAL (SELECT * FROM players p WHERE p.platform_id = s.id) AS q);

  -- The servers' locks in one order, so two calls never wait for each other in a cycle.
  PERFORM pg_advisory_xact_lock(l.k) FROM (SELECT DISTINCT hashtextextended(s::text, 0) AS k FROM unnest(b_server) AS s ORDER BY 1) AS l;

  -- The batches whose present players' rows are not as read (a row's tag is its xmin).
  refused := array(SELECT DISTINCT x.b FROM unnest(x_batch, x_id, x_tag) AS x(b, id, tag)
    WHERE (SELECT sp.xmin::text FROM server_players sp WHERE sp.server_id = b_server[x.b] AND sp.platform_id = x.id) IS DISTINCT FROM x.tag);

  -- Plain inserts, as in ingest_apply_batch_claims: a repeat raises unique_violation.
  INSERT INTO event_claims (sent_at, server_id, event_id, received_at)
    SELECT e.sent_at, b_server[e.b], e.id, b_received_at[e.b] FROM unnest(e_batch, e_id, e_sent_at) AS e(b, id, sent_at) WHERE e.b <> ALL (refused);

  INSERT INTO kills (server_id, ts, killer_platform_id, killer_name, victim_platform_id, victim_name, weapon, distance, is_headshot, hit_zone)
    SELECT b_server[k.b], k.ts, k.killer, k.killer_name, k.victim, k.victim_name, k.weapon, k.distance, k.headshot, k.hit_zone
    FROM unnest(k_batch, k_ts, k_killer, k_killer_name, k_victim, k_victim_name, k_weapon, k_distance, k_headshot, k_hit_zone)
      AS k(b, ts, killer, killer_name, victim, victim_name, weapon, distance, headshot, hit_zone)
    WHERE k.b <> ALL (refused);

  INSERT INTO server_players AS sp (server_id, platform_id, name, kills, deaths, headshots, kill_distance_sum,
      play_seconds, shots_fired, shots_hit, online_at, presence_at, name_at)
    SELECT b_server[s.b], s.id, s.name, s.kills, s.deaths, s.headshots, s.distance, s.play, s.fired, s.hit, s.online, s.presence, s.name_at
    FROM unnest(s_batch, s_id, s_name, s_kills, s_deaths, s_headshots, s_distance, s_play, s_fired, s_hit, s_online, s_presence, s_name_at)
      AS s(b, id, name, kills, deaths, headshots, distance, play, fired, hit, online, presence, name_at)
    WHERE s.b <> ALL (refused)
    ON CONFLICT (server_id, platform_id) DO UPDATE SET
      name = coalesce(excluded.name, sp.name), kills = excluded.kills, deaths = excluded.deaths,
      headshots = excluded.headshots, kill_distance_sum = excluded.kill_distance_sum,
      play_seconds = excluded.play_seconds, shots_fired = excluded.shots_fired,
      shots_hit = excluded.shots_hit, online_at = excluded.online_at,
      presence_at = excluded.presence_at, name_at = excluded.name_at;

  WITH added AS (
    INSERT INTO server_players AS sp (server_id, platform_id, name, kills, deaths, headshots, kill_distance_sum, shots_fired, shots_hit, name_at)
      SELECT b_server[a.b], a.id, a.name, a.kills, a.deaths, a.headshots, a.distance, a.fired, a.hit, a.name_at
      FROM unnest(a_batch, a_id, a_name, a_kills, a_deaths, a_headshots, a_distance, a_fired, a_hit, a_name_at)
        AS a(b, id, name, kills, deaths, headshots, distance, fired, hit, name_at)
      WHERE a.b <> ALL (refused)
      ON CONFLICT (server_id, platform_id) DO UPDATE SET
        kills = sp.kills + excluded.kills, deaths = sp.deaths + excluded.deaths, headshots = sp.headshots + excluded.headshots,
        kill_distance_sum = sp.kill_distance_sum + excluded.kill_distance_sum,
        shots_fired = sp.shots_fired + excluded.shots_fired, shots_hit = sp.shots_hit + excluded.shots_hit,
        name = CASE WHEN excluded.name IS NOT NULL AND (sp.name_at IS NULL OR excluded.name_at >= sp.name_at) THEN excluded.name ELSE sp.name END,
        name_at = CASE WHEN excluded.name IS NOT NULL AND (sp.name_at IS NULL OR excluded.name_at >= sp.name_at) THEN excluded.name_at ELSE sp.name_at END
      RETURNING sp.*
  ), per_server AS (
    SELECT server_id, '[' || string_agg(concat('["', platform_id, '",', coalesce(to_json(name)::text, 'null'), ',', kills, ',', deaths, ',',
        headshots, ',', kill_distance_sum, ',', play_seconds, ',', shots_fired, ',', shots_hit, ',', epoch_ms_json(online_at), ',',
        epoch_ms_json(presence_at), ',', epoch_ms_json(name_at), ']'), ',') || ']' AS rows
    FROM added GROUP BY server_id
  )
  SELECT array_agg(coalesce(a.rows, '[]') ORDER BY b.i) INTO added_rows
    FROM unnest(b_server) WITH ORDINALITY AS b(server, i) LEFT JOIN per_server a ON a.server_id = b.server;

  INSERT INTO server_metrics (server_id, at, online, players, fps, uptime_seconds)
    SELECT b_server[m.b], m.at, m.online, m.players, m.fps, m.uptime
    FROM unnest(m_batch, m_at, m_online, m_players, m_fps, m_uptime) AS m(b, at, online, players, fps, uptime)
    WHERE m.b <> ALL (refused)
    ON CONFLICT (server_id, at) DO NOTHING;

  orphans := array(SELECT d.id FROM unnest(p_dayz_ids) AS d(id) WHERE (SELECT true FROM players p WHERE p.platform_id = d.id));

  -- As ingest_apply_batch_claims's update, a row per batch: a status is fresh when no newer one is
  -- stored (u.fresh reads the row as it was). The players and orphans of the call go with batch 1.
  RETURN QUERY
  WITH updated AS (
    UPDATE servers AS s SET
        last_seen_at = greatest(s.last_seen_at, u.newest),
        online = CASE WHEN u.fresh THEN u.online ELSE s.online END,
        map = CASE WHEN u.fresh AND u.map IS NOT NULL THEN u.map ELSE s.map END,
        game_version = CASE WHEN u.fresh AND u.game_version IS NOT NULL THEN u.game_version ELSE s.game_version END,
        players = CASE WHEN u.fresh AND u.metrics THEN u.players ELSE s.players END,
        fps = CASE WHEN u.fresh AND u.metrics THEN u.fps ELSE s.fps END,
        uptime_seconds = CASE WHEN u.fresh AND u.metrics THEN u.uptime ELSE s.uptime_seconds END,
        metrics_at = CASE WHEN u.fresh AND u.metrics THEN u.at ELSE s.metrics_at END,
        status_at = CASE WHEN u.fresh THEN u.at ELSE s.status_at END,
        derived_version = s.derived_version + 1
      FROM (SELECT b.*, b.at IS NOT NULL AND (o.status_at IS NULL OR o.status_at <= b.at) AS fresh
            FROM unnest(b_server, b_newest_at, st_at, st_online, st_map, st_game_version, st_metrics, st_players, st_fps, st_uptime)
              WITH ORDINALITY AS b(server, newest, at, online, map, game_version, metrics, players, fps, uptime, i)
            JOIN servers o ON o.id = b.server
            WHERE b.i <> ALL (refused)) AS u
      WHERE s.id = u.server
      RETURNING u.i, s
  )
  SELECT b.i::int, CASE WHEN up.i IS NULL THEN NULL ELSE added_rows[b.i] END, up.s,
      CASE WHEN b.i = 1 THEN orphans END, CASE WHEN b.i = 1 THEN players_json END
    FROM generate_subscripts(b_server, 1) AS b(i) LEFT JOIN updated up ON up.i = b.i
    ORDER BY b.i;
END
$$;
