-- A batch's changes to its server's player totals (server_players), the rules of how events count.
-- Applied after every migrate (src/store/migrate.ts), in the order its list gives: CREATE OR REPLACE,
-- so this file is the function as it is now and its history is git's. A change of its arguments or
-- result needs a DROP FUNCTION of the old one before it (the files run in one transaction, under a lock).

-- Run under the servers' locks, so the stored rows it reads stay as read until it writes them. The
-- events are the batches' accepted ones (`keep`), each of its batch (`e_batch`, one a server), in
-- time order (ts, then their place in the batch):
--   a kill: the victim's death; the killer's kill, distance and headshot unless it was a suicide;
--   a death (no player killer): the player's death, never anyone's kill;
--   shots: the shooter's shots fired and hit;
--   presence (connect, heartbeat, disconnect): play time runs from the player's last presence while
--     connected, a gap longer than the online window is not play; a presence older than the newest
--     stored one arrives too late and changes nothing; a disconnect ends the online window;
--   a name follows the newest event naming the player; an older one does not rename;
--   sessions (player_sessions): a presence that continues none (online, after a disconnect or a
--     gap longer than the online window) starts one; a disconnect that continues one ends it, and
--     a presence after a gap ends it at the last presence before the gap. Only these are written:
--     a heartbeat within a session writes nothing;
--   the ten newest kills and deaths by a player's hand (recent_kills_at, recent_deaths_at), by the
--     events' times, newest first, for the profile to read the kills by their key;
--   streak: the kills since the player's last death on the server (a kill's victim, or a death of
--     any cause), in the order the events are applied: the batch's kills after its last death of
--     the player, added to the stored streak when the batch has none;
--   a session started (a join) of a player the server's account watches, on a server of
--     p_watch_servers (those with an endpoint subscribed to player.watched.joined and a watched
--     player, src/webhooks/sql/outbox.sql), raises player.watched.joined, unless the join is over
--     10 minutes old when its batch arrives (an old log read again is no news).
-- Answers, a row a batch with accepted events, the rows as written: a JSON array of [platformId,
-- name, kills, deaths, headshots, killDistanceSum, playSeconds, shotsFired, shotsHit, onlineAt,
-- presenceAt, nameAt] (epoch ms).
DROP FUNCTION IF EXISTS ingest_apply_totals(uuid, interval, bool[], text[], timestamptz[], text[], text[], text[], text[], float8[], bool[], int8[], int8[]);
DROP FUNCTION IF EXISTS ingest_apply_totals(uuid[], interval, bool[], int[], text[], timestamptz[], text[], text[], text[], text[], float8[], bool[],
  int8[], int8[]);
CREATE OR REPLACE FUNCTION ingest_apply_totals(
  b_server uuid[], b_received_at timestamptz[], p_online_window interval, p_watch_servers uuid[], keep bool[], e_batch int[], e_type text[],
  e_ts timestamptz[], e_player text[], e_name text[], e_killer text[], e_killer_name text[], e_distance float8[], e_headshot bool[],
  e_fired int8[], e_hits int8[])
RETURNS TABLE (out_batch int, out_totals text) LANGUAGE plpgsql AS $$
BEGIN
  RETURN QUERY
  WITH e AS (
    SELECT * FROM unnest(e_batch, e_type, e_ts, e_player, e_name, e_killer, e_killer_name, e_distance, e_headshot, e_fired, e_hits)
      WITH ORDINALITY AS e(b, type, ts, player, name, killer, killer_name, distance, headshot, fired, hits, i)
    WHERE keep[e.i]
  ), touch AS (
    -- Every player an event touches; `online` is null for an event that is no presence.
    SELECT e.b, e.player AS id, e.name, e.ts, e.i, 1 AS sub, 0 AS kills, (e.type IN ('kill', 'death'))::int AS deaths, 0 AS headshots,
      (e.type = 'kill') AS killed, 0::float8 AS distance, coalesce(e.fired, 0) AS fired, coalesce(e.hits, 0) AS hits,
      CASE e.type WHEN 'player.disconnect' THEN false WHEN 'player.connect' THEN true WHEN 'player.heartbeat' THEN true END AS online
    FROM e WHERE e.player IS NOT NULL
    UNION ALL
    SELECT e.b, e.killer, e.killer_name, e.ts, e.i, 0, 1, 0, e.headshot::int, false, e.distance, 0, 0, NULL
    FROM e WHERE e.type = 'kill' AND e.killer <> e.player
  ), presence AS (
    -- The stored row by a primary-key probe a presence event: a join with the rows read, planned
    -- for the few rows a function's generic plan expects, was a nested loop over both.
    SELECT t.b, t.id, t.name, t.ts, t.online, s.online_at AS stored_online, row_number() OVER w AS k, lag(t.ts) OVER w AS prev_ts, lag(t.online) OVER w AS prev_online
    FROM touch t LEFT JOIN LATERAL (SELECT sp.online_at, sp.presence_at FROM server_players sp
                                    WHERE sp.server_id = b_server[t.b] AND sp.platform_id = t.id) AS s ON true
    WHERE t.online IS NOT NULL AND (s.presence_at IS NULL OR t.ts >= s.presence_at)
    WINDOW w AS (PARTITION BY t.b, t.id ORDER BY t.ts, t.i)
  ), spans AS (
    -- `since`: the presence a play span runs from (the stored one for the first, else the previous while connected).
    SELECT p.*, CASE WHEN p.k = 1 THEN p.stored_online WHEN p.prev_online THEN p.prev_ts END AS since FROM presence p
  ), played AS (
    SELECT x.b, x.id, sum(CASE WHEN x.since IS NOT NULL AND x.ts - x.since <= p_online_window THEN extract(epoch FROM x.ts - x.since) ELSE 0 END)::float8 AS play,
      (array_agg(CASE WHEN x.online THEN x.ts END ORDER BY x.k DESC))[1] AS online_at, max(x.ts) AS presence_at
    FROM spans x
    GROUP BY x.b, x.id
  ), marks AS (
    -- Sessions: g numbers a player's sessions begun in the batch (0: the one stored as running).
    SELECT y.*, sum(y.starts::int) OVER (PARTITION BY y.b, y.id ORDER BY y.k) AS g
    FROM (SELECT x.b, x.id, x.name, x.ts, x.k, x.online, x.since, c.continues, x.online AND NOT c.continues AS starts
          FROM spans x CROSS JOIN LATERAL (SELECT x.since IS NOT NULL AND x.ts - x.since <= p_online_window AS continues) AS c) AS y
  ), session_ends AS (
    -- A disconnect within a session ends it then; any presence after a gap ends the session before
    -- at its last presence (a start: the one before it; a disconnect: the one it would have ended).
    SELECT m.b, m.id, CASE WHEN m.starts THEN m.g - 1 ELSE m.g END AS g, CASE WHEN m.continues THEN m.ts ELSE m.since END AS ended_at
    FROM marks m WHERE (NOT m.online AND m.continues) OR (NOT m.continues AND m.since IS NOT NULL)
  ), sessions_begun AS (
    INSERT INTO player_sessions (server_id, platform_id, started_at, ended_at)
      SELECT b_server[m.b], m.id, m.ts, e.ended_at FROM marks m LEFT JOIN session_ends e ON e.b = m.b AND e.id = m.id AND e.g = m.g
      WHERE m.starts ORDER BY b_server[m.b], m.id, m.ts
      ON CONFLICT (server_id, platform_id, started_at) DO NOTHING
  ), sessions_ended AS (
    -- The session stored as running, found by a backward probe of its player's sessions on the server.
    UPDATE player_sessions AS ps SET ended_at = e.ended_at
      FROM session_ends e CROSS JOIN LATERAL (SELECT q.started_at FROM player_sessions q WHERE q.server_id = b_server[e.b] AND q.platform_id = e.id
                                              ORDER BY q.started_at DESC LIMIT 1) AS last
      WHERE e.g = 0 AND ps.server_id = b_server[e.b] AND ps.platform_id = e.id AND ps.started_at = last.started_at AND ps.ended_at IS NULL
  ), watched_joins AS (
    -- Nothing read unless the server is one of p_watch_servers; then a probe of the watch a join.
    INSERT INTO webhook_outbox (endpoint_id, type, occurred_at, data)
      SELECT w.id, 'player.watched.joined', m.ts,
        jsonb_build_object('serverId', s.id, 'serverName', s.name, 'player', jsonb_build_object('platformId', m.id, 'name', m.name),
          'watchedAt', pw.watched_at, 'watchedBy', jsonb_build_object('id', pw.watched_by_id, 'name', pw.watched_by_name))
      FROM marks m
      JOIN servers s ON s.id = b_server[m.b]
      JOIN player_watches pw ON pw.account_id = s.account_id AND pw.platform_id = m.id
      CROSS JOIN LATERAL webhook_endpoints_for(s.account_id, s.id, 'player.watched.joined') AS w(id)
      WHERE m.starts AND b_server[m.b] = ANY (p_watch_servers) AND m.ts >= b_received_at[m.b] - interval '10 minutes'
      ORDER BY w.id, m.ts, m.id
  ), streaks AS (
    -- Only the touches of kills and deaths: the kills after each player's last death in the batch.
    SELECT x.b, x.id, (sum(x.kills) FILTER (WHERE x.lives = x.all_lives))::int AS streak
    FROM (SELECT t.b, t.id, t.kills, sum(t.deaths) OVER (PARTITION BY t.b, t.id ORDER BY t.ts, t.i, t.sub) AS lives,
            sum(t.deaths) OVER (PARTITION BY t.b, t.id) AS all_lives
          FROM touch t WHERE t.kills = 1 OR t.deaths = 1) AS x
    GROUP BY x.b, x.id
  ), counted AS (
    -- One sort: each player's newest named touch first, the sums over all of its touches, and its
    -- newest kills and deaths in that same order (the touches of a kill are named: newest first).
    SELECT DISTINCT ON (t.b, t.id) t.b, t.id, sum(t.kills) OVER w AS kills, sum(t.deaths) OVER w AS deaths, sum(t.headshots) OVER w AS headshots,
      sum(t.distance) OVER w AS distance, sum(t.fired) OVER w AS fired, sum(t.hits) OVER w AS hits,
      t.name, CASE WHEN t.name IS NOT NULL THEN t.ts END AS name_at,
      (array_agg(t.ts) FILTER (WHERE t.kills = 1) OVER o)[1:10] AS kills_at, (array_agg(t.ts) FILTER (WHERE t.killed) OVER o)[1:10] AS deaths_at
    FROM touch t WINDOW w AS (PARTITION BY t.b, t.id),
      o AS (PARTITION BY t.b, t.id ORDER BY t.name IS NULL, t.ts DESC, t.i DESC, t.sub DESC ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING)
    ORDER BY t.b, t.id, t.name IS NULL, t.ts DESC, t.i DESC, t.sub DESC
  ), rows AS (
    INSERT INTO server_players AS sp (server_id, platform_id, name, kills, deaths, headshots, kill_distance_sum,
        play_seconds, shots_fired, shots_hit, online_at, presence_at, name_at, recent_kills_at, recent_deaths_at, streak)
      SELECT b_server[c.b], c.id, c.name, c.kills, c.deaths, c.headshots, c.distance, coalesce(p.play, 0), c.fired, c.hits,
        p.online_at, p.presence_at, c.name_at, c.kills_at, c.deaths_at, coalesce(k.streak, 0)
      FROM counted c LEFT JOIN played p ON p.b = c.b AND p.id = c.id LEFT JOIN streaks k ON k.b = c.b AND k.id = c.id
      ORDER BY b_server[c.b], c.id
      ON CONFLICT (server_id, platform_id) DO UPDATE SET
        kills = sp.kills + excluded.kills, deaths = sp.deaths + excluded.deaths, headshots = sp.headshots + excluded.headshots,
        kill_distance_sum = sp.kill_distance_sum + excluded.kill_distance_sum, play_seconds = sp.play_seconds + excluded.play_seconds,
        shots_fired = sp.shots_fired + excluded.shots_fired, shots_hit = sp.shots_hit + excluded.shots_hit,
        -- A death in the batch (excluded.deaths) starts the streak again.
        streak = CASE WHEN excluded.deaths > 0 THEN excluded.streak ELSE sp.streak + excluded.streak END,
        online_at = CASE WHEN excluded.presence_at IS NULL THEN sp.online_at ELSE excluded.online_at END,
        presence_at = coalesce(excluded.presence_at, sp.presence_at),
        name = CASE WHEN excluded.name IS NOT NULL AND (sp.name_at IS NULL OR excluded.name_at >= sp.name_at) THEN excluded.name ELSE sp.name END,
        name_at = CASE WHEN excluded.name IS NOT NULL AND (sp.name_at IS NULL OR excluded.name_at >= sp.name_at) THEN excluded.name_at ELSE sp.name_at END,
        -- The batch's come first when they are all newer, the common case; else the ten newest of both, sorted.
        recent_kills_at = CASE WHEN excluded.recent_kills_at IS NULL THEN sp.recent_kills_at
          WHEN sp.recent_kills_at IS NULL OR excluded.recent_kills_at[cardinality(excluded.recent_kills_at)] >= sp.recent_kills_at[1]
            THEN (excluded.recent_kills_at || sp.recent_kills_at)[1:10]
          ELSE ARRAY(SELECT x FROM unnest(excluded.recent_kills_at || sp.recent_kills_at) AS x ORDER BY x DESC LIMIT 10) END,
        recent_deaths_at = CASE WHEN excluded.recent_deaths_at IS NULL THEN sp.recent_deaths_at
          WHEN sp.recent_deaths_at IS NULL OR excluded.recent_deaths_at[cardinality(excluded.recent_deaths_at)] >= sp.recent_deaths_at[1]
            THEN (excluded.recent_deaths_at || sp.recent_deaths_at)[1:10]
          ELSE ARRAY(SELECT x FROM unnest(excluded.recent_deaths_at || sp.recent_deaths_at) AS x ORDER BY x DESC LIMIT 10) END
      RETURNING sp.*
  )
  SELECT b.b::int, '[' || string_agg(concat('["', r.platform_id, '",', coalesce(to_json(r.name)::text, 'null'), ',', r.kills, ',', r.deaths, ',',
      r.headshots, ',', r.kill_distance_sum, ',', r.play_seconds, ',', r.shots_fired, ',', r.shots_hit, ',', epoch_ms_json(r.online_at), ',',
      epoch_ms_json(r.presence_at), ',', epoch_ms_json(r.name_at), ']'), ',') || ']'
    FROM rows r JOIN unnest(b_server) WITH ORDINALITY AS b(server, b) ON b.server = r.server_id
    GROUP BY b.b;
END
$$;
