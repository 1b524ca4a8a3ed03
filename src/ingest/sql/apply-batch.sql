-- Batches of servers' events applied whole, in one call (src/ingest/ingest.repo.ts): the one way
-- ingestion writes, for one batch or for several servers' batches at once.
-- Applied after every migrate (src/store/migrate.ts), in the order its list gives: CREATE OR REPLACE,
-- so this file is the function as it is now and its history is git's. A change of its arguments or
-- result needs a DROP FUNCTION of the old one before it (the files run in one transaction, under a lock).

-- The functions of the three ways ingestion wrote before, and of this branch's first forms.
DROP FUNCTION IF EXISTS ingest_apply_batch_claims;
DROP FUNCTION IF EXISTS ingest_apply_claimed_batches;
DROP FUNCTION IF EXISTS ingest_apply_event_batches;
DROP FUNCTION IF EXISTS ingest_apply_events(uuid, timestamptz, interval, text[], text[], text[], text[], text[], uuid[], timestamptz[],
  timestamptz[], text[], text[], text[], text[], text[], text[], float8[], bool[], text[], int8[], int8[], bool[], text[], text[], int[], float8[], int8[]);
DROP FUNCTION IF EXISTS ingest_apply_events(uuid, timestamptz, interval, text[], text[], text[], text[], bool[], uuid[], timestamptz[],
  timestamptz[], text[], text[], text[], text[], text[], text[], float8[], bool[], text[], int8[], int8[], bool[], text[], text[], int[], float8[], int8[]);

-- A batch a server at most (b_ arrays); the events come as they were sent, one element of each e_
-- array an event, e_batch its batch (a field it does not have is null; e_player is a kill's victim
-- and the shooter of shots). The Steam64s the events name (s_ arrays) with their DayZ ID and
-- BattlEye GUID, and whether to look them up for merges due. Locks are taken in one order (the
-- identities' lock, event claims and kills in key order, players rows in id order, the servers'
-- locks last, in key order), so calls and merges never wait for each other in a circle; claims
-- and kills go in before the servers' locks, so a server's batches insert them side by side.
-- Answers a row a batch, in the batches' order.
CREATE OR REPLACE FUNCTION ingest_apply_events(
  b_server uuid[], b_received_at timestamptz[], p_online_window interval, p_alias_ids text[],
  s_id text[], s_dayz text[], s_be text[], s_look_up bool[],
  e_batch int[], e_id uuid[], e_sent timestamptz[], e_ts timestamptz[], e_type text[],
  e_player text[], e_name text[], e_killer text[], e_killer_name text[],
  e_weapon text[], e_distance float8[], e_headshot bool[], e_hit_zone text[], e_fired int8[], e_hits int8[],
  e_online bool[], e_map text[], e_game_version text[], e_players int[], e_fps float8[], e_uptime int8[])
RETURNS TABLE (out_batch int, out_accepted int, out_started bool, out_totals text, out_server servers, out_checked text[], out_orphans text[], out_orphans_of text[])
LANGUAGE plpgsql AS $$
DECLARE
  steam64s text[] := '{}';
  keep bool[];
  kills record;
  status record;
  totals_of int[];
  totals text[];
  updated_of int[];
  updated servers[];
  status_subscribed uuid[] := '{}';
  watch_subscribed uuid[] := '{}';
  was_online bool;
BEGIN
  IF (SELECT count(DISTINCT s) FROM unnest(b_server) AS s) < cardinality(b_server) THEN
    RAISE EXCEPTION 'a call carries one batch a server at most';
  END IF;

  IF cardinality(p_alias_ids) > 0 THEN
    -- Shared, to the commit, with merges taking it exclusively (lockIdentitiesExclusive,
    -- src/identities/identity.repo.ts): a DayZ ID is never written to after its merge.
    PERFORM pg_advisory_xact_lock_shared(hashtextextended('player-identities', 0));
    SELECT ingest_resolved_ids(p_alias_ids, s_id, s_dayz, e_player), ingest_resolved_ids(p_alias_ids, s_id, s_dayz, e_killer)
      INTO e_player, e_killer;
    steam64s := array(SELECT DISTINCT r.steam64 FROM ingest_aliases(p_alias_ids, s_id, s_dayz) AS r);
  END IF;

  -- The first occurrence of a new id counts; a repeat, within the batch or of an earlier one, is a duplicate.
  WITH firsts AS (
    SELECT DISTINCT ON (e.b, e.id) e.b, e.id, e.sent, e.i FROM unnest(e_batch, e_id, e_sent) WITH ORDINALITY AS e(b, id, sent, i) ORDER BY e.b, e.id, e.i
  ), claimed AS (
    INSERT INTO event_claims (sent_at, server_id, event_id, received_at)
      SELECT f.sent, b_server[f.b], f.id, b_received_at[f.b] FROM firsts f ORDER BY f.sent, b_server[f.b], f.id
      ON CONFLICT DO NOTHING RETURNING sent_at, server_id, event_id
  )
  SELECT array_agg(c.event_id IS NOT NULL ORDER BY g.i) INTO keep
    FROM generate_series(1, cardinality(e_id)) AS g(i)
    LEFT JOIN (firsts f JOIN claimed c ON c.event_id = f.id AND c.server_id = b_server[f.b] AND c.sent_at = f.sent) ON f.i = g.i;

  IF true = ANY (keep) THEN
    -- Sorted once: each aggregate with an ORDER BY of its own sorted the kills again.
    SELECT array_agg(b_server[e.b]) AS server, array_agg((extract(epoch FROM e.ts) * 1000000)::int8) AS us,
        array_agg(e.killer) AS killer, array_agg(e.killer_name) AS killer_name, array_agg(e.victim) AS victim, array_agg(e.victim_name) AS victim_name,
        array_agg(e.weapon) AS weapon, array_agg(e.distance) AS distance, array_agg(e.headshot) AS headshot, array_agg(e.hit_zone) AS hit_zone
      INTO kills
      FROM (SELECT * FROM unnest(e_batch, e_type, e_ts, e_killer, e_killer_name, e_player, e_name, e_weapon, e_distance, e_headshot, e_hit_zone)
              WITH ORDINALITY AS e(b, type, ts, killer, killer_name, victim, victim_name, weapon, distance, headshot, hit_zone, i)
            WHERE e.type = 'kill' AND keep[e.i] ORDER BY e.b, e.ts, e.i) AS e;
    IF kills.us IS NOT NULL THEN
      PERFORM ingest_insert_kills(kills.server, kills.us, kills.killer, kills.killer_name, kills.victim, kills.victim_name, kills.weapon,
        kills.distance, kills.headshot, kills.hit_zone);
    END IF;

    PERFORM ingest_upsert_players(keep, e_ts, e_player, e_name, e_killer, e_killer_name, s_id, s_dayz, s_be);

    -- Serialises each server's writers (ingestion, rebuild, merges: lockServer, src/ingest/ingest.repo.ts).
    PERFORM pg_advisory_xact_lock(l.k) FROM (SELECT DISTINCT hashtextextended(s::text, 0) AS k FROM unnest(b_server) AS s ORDER BY 1) AS l;

    -- Kills for the endpoints subscribed to them (src/webhooks/sql/outbox.sql), under the servers'
    -- locks so that a server's batches queue them in the order they commit; before the totals, whose
    -- stored streaks each kill's streak continues.
    IF kills.us IS NOT NULL THEN
      PERFORM webhook_enqueue_kills(b_server, keep, e_batch, e_type, e_ts, e_player, e_name, e_killer, e_killer_name, e_weapon,
        e_distance, e_headshot, e_hit_zone);
    END IF;

    -- The servers where a join may be a watched player's: most calls find none, and the totals
    -- then read nothing more for it.
    IF 'player.connect' = ANY (e_type) OR 'player.heartbeat' = ANY (e_type) THEN
      watch_subscribed := webhook_watch_servers(b_server);
    END IF;

    SELECT coalesce(array_agg(t.out_batch), '{}'), coalesce(array_agg(t.out_totals), '{}') INTO totals_of, totals
      FROM ingest_apply_totals(b_server, b_received_at, p_online_window, watch_subscribed, keep, e_batch, e_type, e_ts, e_player, e_name,
        e_killer, e_killer_name, e_distance, e_headshot, e_fired, e_hits) AS t;

    -- Every status is a sample of the dashboard's chart; a sample at an instant already stored is left out.
    INSERT INTO server_metrics (server_id, at, online, players, fps, uptime_seconds)
      SELECT b_server[s.b], s.ts, s.online, s.players, s.fps, s.uptime
      FROM unnest(e_batch, e_type, e_ts, e_online, e_players, e_fps, e_uptime) WITH ORDINALITY AS s(b, type, ts, online, players, fps, uptime, i)
      WHERE s.type = 'server.status' AND keep[s.i] ORDER BY b_server[s.b], s.ts, s.i
      ON CONFLICT (server_id, at) DO NOTHING;

    -- The statuses one by one in time order, as if each had come alone: one changes its server only
    -- when no newer one is stored, and a field it does not carry keeps what an earlier one set. A
    -- server with an endpoint subscribed to its going on or off line has its state read first.
    IF 'server.status' = ANY (e_type) THEN
      status_subscribed := webhook_subscribed_servers(b_server, ARRAY['server.online', 'server.offline']);
    END IF;
    FOR status IN
      SELECT b_server[s.b] AS server, s.ts, s.online, s.map, s.game_version, s.players, s.fps, s.uptime,
        s.players IS NOT NULL OR s.fps IS NOT NULL OR s.uptime IS NOT NULL AS metrics
      FROM unnest(e_batch, e_type, e_ts, e_online, e_map, e_game_version, e_players, e_fps, e_uptime)
        WITH ORDINALITY AS s(b, type, ts, online, map, game_version, players, fps, uptime, i)
      WHERE s.type = 'server.status' AND keep[s.i] ORDER BY s.b, s.ts, s.i
    LOOP
      was_online := NULL;
      IF status.server = ANY (status_subscribed) THEN
        SELECT online INTO was_online FROM servers WHERE id = status.server;
      END IF;
      UPDATE servers SET
          online = status.online, map = coalesce(status.map, map), game_version = coalesce(status.game_version, game_version),
          players = CASE WHEN status.metrics THEN status.players ELSE players END,
          fps = CASE WHEN status.metrics THEN status.fps ELSE fps END,
          uptime_seconds = CASE WHEN status.metrics THEN status.uptime ELSE uptime_seconds END,
          metrics_at = CASE WHEN status.metrics THEN status.ts ELSE metrics_at END,
          status_at = status.ts
        WHERE id = status.server AND (status_at IS NULL OR status_at <= status.ts);
      IF FOUND AND was_online IS DISTINCT FROM status.online AND status.server = ANY (status_subscribed) THEN
        PERFORM webhook_enqueue_server_status(status.server, status.online, status.ts);
      END IF;
    END LOOP;

    -- A batch counts once in its server's derived-state version: Redis is written with it after the commit.
    WITH newest AS (
      SELECT e.b, max(e.ts) AS ts FROM unnest(e_batch, e_ts) WITH ORDINALITY AS e(b, ts, i) WHERE keep[e.i] GROUP BY e.b
    ), bumped AS (
      UPDATE servers AS s SET last_seen_at = greatest(s.last_seen_at, n.ts), derived_version = s.derived_version + 1
        FROM newest n WHERE s.id = b_server[n.b]
        RETURNING n.b, s
    )
    SELECT coalesce(array_agg(u.b), '{}'), coalesce(array_agg(u.s), '{}') INTO updated_of, updated FROM bumped u;
  END IF;

  RETURN QUERY
  WITH kept AS (
    SELECT e.b, count(*)::int AS accepted, bool_or(e.type = 'server.started') AS started
    FROM unnest(e_batch, e_type) WITH ORDINALITY AS e(b, type, i) WHERE keep[e.i] GROUP BY e.b
  ), merges AS (
    SELECT m.b, array_agg(m.steam64) AS checked, array_agg(m.dayz) FILTER (WHERE m.orphan) AS orphans,
      array_agg(m.steam64) FILTER (WHERE m.orphan) AS orphans_of
    -- Most calls have none to look up (their Steam64s were checked lately): then nothing is read.
    FROM ingest_merges_due(keep, e_batch, e_player, e_killer, s_id, s_dayz, s_look_up, steam64s) AS m
    WHERE true = ANY (s_look_up) OR cardinality(steam64s) > 0
    GROUP BY m.b
  )
  SELECT b.b::int, coalesce(a.accepted, 0), coalesce(a.started, false),
      CASE WHEN u.s IS NULL THEN NULL ELSE coalesce(t.totals, '[]') END, u.s,
      coalesce(m.checked, '{}'), coalesce(m.orphans, '{}'), coalesce(m.orphans_of, '{}')
    FROM generate_subscripts(b_server, 1) AS b(b)
    LEFT JOIN kept a ON a.b = b.b
    -- Not unnest(updated_of, updated): a composite element would come as its columns.
    LEFT JOIN LATERAL (SELECT updated[array_position(updated_of, b.b)] AS s) AS u ON true
    LEFT JOIN unnest(totals_of, totals) AS t(b, totals) ON t.b = b.b
    LEFT JOIN merges m ON m.b = b.b
    ORDER BY b.b;
END
$$;
