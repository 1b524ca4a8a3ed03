-- One batch of a server's events applied whole, in one call (src/ingest/ingest.ts): the one way
-- ingestion writes.
-- Applied after every migrate (src/store/migrate.ts), in the order its list gives: CREATE OR REPLACE,
-- so this file is the function as it is now and its history is git's. A change of its arguments or
-- result needs a DROP FUNCTION of the old one before it (the files run in one transaction, under a lock).

-- The functions of the three ways ingestion wrote before.
DROP FUNCTION IF EXISTS ingest_apply_batch_claims;
DROP FUNCTION IF EXISTS ingest_apply_claimed_batches;
-- Its first form, which took the Steam64s checked lately as a list (apply-batches.sql calls this one).
DROP FUNCTION IF EXISTS ingest_apply_events(uuid, timestamptz, interval, text[], text[], text[], text[], text[], uuid[], timestamptz[],
  timestamptz[], text[], text[], text[], text[], text[], text[], float8[], bool[], text[], int8[], int8[], bool[], text[], text[], int[], float8[], int8[]);

-- The events come as they were sent, one element of each e_ array an event (a field it does not
-- have is null; e_player is a kill's victim and the shooter of shots). Locks are taken in one order
-- (the identities' lock, event claims and kills in key order, players rows in id order, the
-- server's lock last), so batches and merges never wait for each other in a circle; claims and
-- kills go in before the server's lock, so a server's batches insert them side by side.
CREATE OR REPLACE FUNCTION ingest_apply_events(
  p_server uuid, p_received_at timestamptz, p_online_window interval, p_alias_ids text[],
  s_id text[], s_dayz text[], s_be text[], s_look_up bool[],
  e_id uuid[], e_sent timestamptz[], e_ts timestamptz[], e_type text[],
  e_player text[], e_name text[], e_killer text[], e_killer_name text[],
  e_weapon text[], e_distance float8[], e_headshot bool[], e_hit_zone text[], e_fired int8[], e_hits int8[],
  e_online bool[], e_map text[], e_game_version text[], e_players int[], e_fps float8[], e_uptime int8[])
RETURNS TABLE (out_accepted int, out_started bool, out_totals text, out_server servers, out_checked text[], out_orphans text[], out_orphans_of text[])
LANGUAGE plpgsql AS $$
DECLARE
  aliases text[] := '{}';
  steam64s text[] := '{}';
  keep bool[];
  dayz_ids jsonb;
  be_guids jsonb;
  k record;
  status record;
BEGIN
  out_accepted := 0;
  out_started := false;
  out_checked := '{}';
  out_orphans := '{}';
  out_orphans_of := '{}';

  IF cardinality(p_alias_ids) > 0 THEN
    -- Shared, to the commit, with merges taking it exclusively (lockIdentitiesExclusive,
    -- src/identities/identity.repo.ts): a DayZ ID is never written to after its merge.
    PERFORM pg_advisory_xact_lock_shared(hashtextextended('player-identities', 0));
    -- A DayZ ID of a known Steam64 or a linked console id is the Steam64; a Steam64 named in this
    -- very batch resolves its DayZ ID too, before its row exists.
    SELECT coalesce(array_agg(r.alias), '{}'), coalesce(array_agg(r.steam64), '{}') INTO aliases, steam64s FROM (
      SELECT DISTINCT ON (a.alias) a.alias, a.steam64 FROM (
        SELECT p.dayz_id AS alias, p.platform_id AS steam64, 1 AS rank FROM unnest(p_alias_ids) AS w(id) JOIN players p ON p.dayz_id = w.id
        UNION ALL
        SELECT l.alias_id, l.platform_id, 2 FROM unnest(p_alias_ids) AS w(id) JOIN player_aliases l ON l.alias_id = w.id
        UNION ALL
        SELECT s.dayz, s.id, 3 FROM unnest(s_id, s_dayz) AS s(id, dayz) WHERE s.dayz = ANY (p_alias_ids)
      ) AS a ORDER BY a.alias, a.rank DESC) AS r;
    IF cardinality(aliases) > 0 THEN
      e_player := array(SELECT coalesce(r.steam64, x.id) FROM unnest(e_player) WITH ORDINALITY AS x(id, o)
        LEFT JOIN unnest(aliases, steam64s) AS r(alias, steam64) ON r.alias = x.id ORDER BY x.o);
      e_killer := array(SELECT coalesce(r.steam64, x.id) FROM unnest(e_killer) WITH ORDINALITY AS x(id, o)
        LEFT JOIN unnest(aliases, steam64s) AS r(alias, steam64) ON r.alias = x.id ORDER BY x.o);
    END IF;
  END IF;

  -- The first occurrence of a new id counts; a repeat, within the batch or of an earlier one, is a duplicate.
  WITH firsts AS (
    SELECT DISTINCT ON (e.id) e.id, e.sent, e.i FROM unnest(e_id, e_sent) WITH ORDINALITY AS e(id, sent, i) ORDER BY e.id, e.i
  ), claimed AS (
    INSERT INTO event_claims (sent_at, server_id, event_id, received_at)
      SELECT f.sent, p_server, f.id, p_received_at FROM firsts f ORDER BY f.sent, f.id
      ON CONFLICT DO NOTHING RETURNING event_id
  )
  SELECT array_agg(c.event_id IS NOT NULL ORDER BY g.i), count(c.event_id) INTO keep, out_accepted
    FROM generate_series(1, cardinality(e_id)) AS g(i) LEFT JOIN (firsts f JOIN claimed c ON c.event_id = f.id) ON f.i = g.i;
  IF out_accepted = 0 THEN
    RETURN NEXT;
    RETURN;
  END IF;

  SELECT array_agg((extract(epoch FROM e.ts) * 1000000)::int8 ORDER BY e.ts, e.i) AS us, array_agg(e.killer ORDER BY e.ts, e.i) AS killer,
      array_agg(e.killer_name ORDER BY e.ts, e.i) AS killer_name, array_agg(e.victim ORDER BY e.ts, e.i) AS victim,
      array_agg(e.victim_name ORDER BY e.ts, e.i) AS victim_name, array_agg(e.weapon ORDER BY e.ts, e.i) AS weapon,
      array_agg(e.distance ORDER BY e.ts, e.i) AS distance, array_agg(e.headshot ORDER BY e.ts, e.i) AS headshot,
      array_agg(e.hit_zone ORDER BY e.ts, e.i) AS hit_zone
    INTO k
    FROM unnest(e_type, e_ts, e_killer, e_killer_name, e_player, e_name, e_weapon, e_distance, e_headshot, e_hit_zone)
      WITH ORDINALITY AS e(type, ts, killer, killer_name, victim, victim_name, weapon, distance, headshot, hit_zone, i)
    WHERE e.type = 'kill' AND keep[e.i];
  IF k.us IS NOT NULL THEN
    PERFORM ingest_insert_kills(p_server, k.us, k.killer, k.killer_name, k.victim, k.victim_name, k.weapon, k.distance, k.headshot, k.hit_zone);
  END IF;

  -- Looked up by id, whatever the plan: a join of the players with the Steam64s' arrays was a nested
  -- loop over both.
  dayz_ids := jsonb_object(s_id, s_dayz);
  be_guids := jsonb_object(s_id, s_be);
  -- Network-wide identities: name and first/last seen, a Steam64's DayZ ID and BattlEye GUID beside
  -- it. Rows only widen; a row that already says as much (same name, seen within 10 minutes of these
  -- times) is left out before ON CONFLICT, which would lock it: a backfill names the same players
  -- batch after batch.
  INSERT INTO players AS p (platform_id, name, first_seen_at, last_seen_at, dayz_id, be_guid)
    SELECT n.id, n.name, n.first_seen_at, n.last_seen_at, dayz_ids ->> n.id, be_guids ->> n.id FROM (
      SELECT t.id, (array_agg(t.name ORDER BY t.ts DESC, t.i DESC, t.sub DESC))[1] AS name, min(t.ts) AS first_seen_at, max(t.ts) AS last_seen_at
      FROM (SELECT e.killer AS id, e.killer_name AS name, e.ts, e.i, 0 AS sub
            FROM unnest(e_killer, e_killer_name, e_ts) WITH ORDINALITY AS e(killer, killer_name, ts, i) WHERE keep[e.i] AND e.killer IS NOT NULL
            UNION ALL
            SELECT e.player, e.name, e.ts, e.i, 1
            FROM unnest(e_player, e_name, e_ts) WITH ORDINALITY AS e(player, name, ts, i) WHERE keep[e.i] AND e.name IS NOT NULL) AS t
      GROUP BY t.id) AS n
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

  -- Serialises the server's writers (ingestion, rebuild, merges: lockServer, src/ingest/ingest.repo.ts).
  PERFORM pg_advisory_xact_lock(hashtextextended(p_server::text, 0));

  out_totals := ingest_apply_totals(p_server, p_online_window, keep, e_type, e_ts, e_player, e_name, e_killer, e_killer_name,
    e_distance, e_headshot, e_fired, e_hits);

  -- Every status is a sample of the dashboard's chart; a sample at an instant already stored is left out.
  INSERT INTO server_metrics (server_id, at, online, players, fps, uptime_seconds)
    SELECT p_server, s.ts, s.online, s.players, s.fps, s.uptime
    FROM unnest(e_type, e_ts, e_online, e_players, e_fps, e_uptime) WITH ORDINALITY AS s(type, ts, online, players, fps, uptime, i)
    WHERE s.type = 'server.status' AND keep[s.i] ORDER BY s.ts, s.i
    ON CONFLICT (server_id, at) DO NOTHING;

  -- The statuses one by one in time order, as if each had come alone: one changes the server only
  -- when no newer one is stored, and a field it does not carry keeps what an earlier one set.
  FOR status IN
    SELECT s.ts, s.online, s.map, s.game_version, s.players, s.fps, s.uptime,
      s.players IS NOT NULL OR s.fps IS NOT NULL OR s.uptime IS NOT NULL AS metrics
    FROM unnest(e_type, e_ts, e_online, e_map, e_game_version, e_players, e_fps, e_uptime)
      WITH ORDINALITY AS s(type, ts, online, map, game_version, players, fps, uptime, i)
    WHERE s.type = 'server.status' AND keep[s.i] ORDER BY s.ts, s.i
  LOOP
    UPDATE servers SET
        online = status.online, map = coalesce(status.map, map), game_version = coalesce(status.game_version, game_version),
        players = CASE WHEN status.metrics THEN status.players ELSE players END,
        fps = CASE WHEN status.metrics THEN status.fps ELSE fps END,
        uptime_seconds = CASE WHEN status.metrics THEN status.uptime ELSE uptime_seconds END,
        metrics_at = CASE WHEN status.metrics THEN status.ts ELSE metrics_at END,
        status_at = status.ts
      WHERE id = p_server AND (status_at IS NULL OR status_at <= status.ts);
  END LOOP;

  -- The batch counts once in the server's derived-state version: Redis is written with it after the commit.
  UPDATE servers SET
      last_seen_at = greatest(last_seen_at, (SELECT max(e.ts) FROM unnest(e_ts) WITH ORDINALITY AS e(ts, i) WHERE keep[e.i])),
      derived_version = derived_version + 1
    WHERE id = p_server
    RETURNING servers.* INTO out_server;

  out_started := EXISTS (SELECT 1 FROM unnest(e_type) WITH ORDINALITY AS e(type, i) WHERE e.type = 'server.started' AND keep[e.i]);

  -- The DayZ IDs, still players of their own, of the Steam64s the batch's accepted events name:
  -- merges due. A Steam64 the caller checked lately (not s_look_up) is not looked up again.
  WITH named AS (
    SELECT x.id FROM unnest(e_player, e_killer) WITH ORDINALITY AS e(player, killer, i), LATERAL (VALUES (e.player), (e.killer)) AS x(id)
    WHERE keep[e.i] AND x.id IS NOT NULL
  ), candidates AS (
    SELECT s.id, s.dayz FROM unnest(s_id, s_dayz, s_look_up) AS s(id, dayz, look_up) WHERE s.look_up AND s.id IN (SELECT id FROM named)
    UNION
    SELECT p.platform_id, p.dayz_id FROM unnest(steam64s) AS r(id), LATERAL (SELECT q.platform_id, q.dayz_id FROM players q WHERE q.platform_id = r.id) AS p
    WHERE p.platform_id IN (SELECT id FROM named)
  )
  SELECT coalesce(array_agg(c.id), '{}'), coalesce(array_agg(c.dayz) FILTER (WHERE o.id IS NOT NULL), '{}'),
      coalesce(array_agg(c.id) FILTER (WHERE o.id IS NOT NULL), '{}')
    INTO out_checked, out_orphans, out_orphans_of
    FROM candidates c LEFT JOIN LATERAL (SELECT q.platform_id AS id FROM players q WHERE q.platform_id = c.dayz) AS o ON true;
  RETURN NEXT;
END
$$;
