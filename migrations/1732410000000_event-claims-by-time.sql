-- Up Migration

-- Event ids are claimed by the event's own time. ingest_events kept every id of the last 7 days
-- in one index of random UUIDs: at a fleet's rate (9,100 events/s) that is 5.5 billion entries,
-- each new one written to a random page of an index far larger than memory, and the hourly prune
-- deleted an hour of them in one statement over the whole table. event_claims is keyed by the
-- time the event says it happened (its ts as sent, before a future one is replaced by the arrival
-- time, so a re-sent event finds its claim) and partitioned by that day: new claims land in the
-- newest pages of one day's index, and a day whose claims all passed the retention is dropped
-- whole (src/ingest/event-claims.ts). Claims of other days (a backfill of old logs, a clock far
-- ahead) go to the default partition, pruned by the time they were received. A duplicate is now
-- the same id with the same ts, which is what a retry sends (docs/decisions.md).
--
-- ingest_events stays as it is: web processes of the previous version, still running while a new
-- one migrates, keep claiming there, and its ids (kept 7 days) still count as seen. New names for
-- the functions for the same reason.

CREATE TABLE event_claims (
  sent_at timestamptz NOT NULL,
  server_id uuid NOT NULL,
  event_id uuid NOT NULL,
  received_at timestamptz NOT NULL,
  PRIMARY KEY (sent_at, server_id, event_id)
) PARTITION BY RANGE (sent_at);

-- Claims arrive in the order they were received: a block range index tells cheaply whether any
-- claim of a day arrived after a time, and finds the default partition's expired claims.
CREATE INDEX event_claims_received_at ON event_claims USING brin (received_at) WITH (autosummarize = on);

CREATE TABLE event_claims_other PARTITION OF event_claims DEFAULT;

-- Adds the partition of one UTC day unless it exists; claims of that day already in the default
-- partition move into it. The default partition is locked first, so no claim of that day can
-- reach it between the move and the attach. Answers whether it added the partition.
CREATE FUNCTION event_claims_add_day(d date) RETURNS boolean LANGUAGE plpgsql AS $$
DECLARE
  name text := 'event_claims_' || to_char(d, 'YYYYMMDD');
  day_start timestamptz := d::timestamp AT TIME ZONE 'UTC';
  day_end timestamptz := (d + 1)::timestamp AT TIME ZONE 'UTC';
BEGIN
  IF to_regclass(name) IS NOT NULL THEN RETURN false; END IF;
  LOCK TABLE event_claims_other IN SHARE ROW EXCLUSIVE MODE;
  EXECUTE format('CREATE TABLE %I (LIKE event_claims)', name);
  EXECUTE format('WITH moved AS (DELETE FROM event_claims_other WHERE sent_at >= $1 AND sent_at < $2 RETURNING *) INSERT INTO %I SELECT * FROM moved', name)
    USING day_start, day_end;
  EXECUTE format('ALTER TABLE event_claims ATTACH PARTITION %I FOR VALUES FROM (%L) TO (%L)', name, day_start, day_end);
  RETURN true;
END
$$;

CREATE FUNCTION ingest_apply_batch_claims(
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
  IF EXISTS (SELECT 1 FROM unnest(p_event_ids) AS e(id) WHERE (SELECT true FROM ingest_events l WHERE l.server_id = p_server AND l.event_id = e.id)) THEN
    RAISE unique_violation USING MESSAGE = 'event id claimed by a previous version';
  END IF;

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

CREATE FUNCTION ingest_apply_claimed_batches(
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

  -- Plain inserts, as in ingest_apply_batch_text: a repeat raises unique_violation.
  INSERT INTO event_claims (sent_at, server_id, event_id, received_at)
    SELECT e.sent_at, b_server[e.b], e.id, b_received_at[e.b] FROM unnest(e_batch, e_id, e_sent_at) AS e(b, id, sent_at) WHERE e.b <> ALL (refused);
  IF EXISTS (SELECT 1 FROM unnest(e_batch, e_id) AS e(b, id)
             WHERE e.b <> ALL (refused) AND (SELECT true FROM ingest_events l WHERE l.server_id = b_server[e.b] AND l.event_id = e.id)) THEN
    RAISE unique_violation USING MESSAGE = 'event id claimed by a previous version';
  END IF;

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

  -- As ingest_apply_batch_text's update, a row per batch: a status is fresh when no newer one is
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

-- Down Migration

DROP FUNCTION ingest_apply_claimed_batches(uuid[], timestamptz[], timestamptz[],
  timestamptz[], bool[], text[], text[], bool[], int[], float8[], int8[],
  int[], uuid[], timestamptz[],
  int[], timestamptz[], text[], text[], text[], text[], text[], float8[], bool[], text[],
  int[], text[], text[],
  int[], text[], text[], int[], int[], int[], float8[], float8[], bigint[], bigint[], timestamptz[], timestamptz[], timestamptz[],
  int[], text[], text[], int[], int[], int[], float8[], bigint[], bigint[], timestamptz[],
  int[], timestamptz[], bool[], int[], float8[], int8[],
  text[],
  text[], text[], timestamptz[], timestamptz[], text[], text[]);
DROP FUNCTION ingest_apply_batch_claims(uuid, timestamptz, uuid[], timestamptz[],
  timestamptz[], text[], text[], text[], text[], text[], float8[], bool[], text[],
  text[], text[],
  text[], text[], int[], int[], int[], float8[], float8[], bigint[], bigint[], timestamptz[], timestamptz[], timestamptz[],
  text[], text[], int[], int[], int[], float8[], bigint[], bigint[], timestamptz[],
  timestamptz[], bool[], int[], float8[], int8[],
  timestamptz, jsonb, text[],
  text[], text[], timestamptz[], timestamptz[], text[], text[]);
DROP FUNCTION event_claims_add_day(date);
-- The claims made since go back to ingest_events, the previous version's table (an id claimed
-- twice there, with two times, is kept once).
INSERT INTO ingest_events (server_id, event_id, received_at)
  SELECT server_id, event_id, max(received_at) FROM event_claims GROUP BY server_id, event_id
  ON CONFLICT DO NOTHING;
DROP TABLE event_claims;
