-- The outbox's rules in SQL: which endpoints an event goes to, and the events ingestion raises
-- (kills, a server going on or off line; a watched player's join is raised by the totals,
-- src/ingest/sql/player-totals.sql) written inside its one call (src/ingest/sql/apply-batch.sql),
-- in the transaction of the batch that reports them.
-- Applied after every migrate (src/store/migrate.ts), in the order its list gives: CREATE OR REPLACE,
-- so this file is the functions as they are now and their history is git's. A change of arguments or
-- result needs a DROP FUNCTION of the old one before it.

-- The endpoints an event of the account goes to: subscribed to its type, not paused, and, for an
-- event of a server (p_server not null), naming that server or no server at all. A paused endpoint
-- gets nothing new: what it had waiting stays for its resume.
CREATE OR REPLACE FUNCTION webhook_endpoints_for(p_account uuid, p_server uuid, p_type text)
RETURNS SETOF uuid LANGUAGE sql STABLE AS $$
  SELECT w.id FROM webhook_endpoints w
  WHERE w.account_id = p_account AND p_type = ANY (w.events) AND w.paused_at IS NULL
    AND (p_server IS NULL OR w.server_ids IS NULL OR p_server = ANY (w.server_ids))
  ORDER BY w.id
$$;

-- The servers of a call that have an endpoint subscribed to one of the types. Most calls have
-- none: one probe of each server's row and of the small endpoints table, and ingestion writes
-- nothing more.
CREATE OR REPLACE FUNCTION webhook_subscribed_servers(p_servers uuid[], p_types text[])
RETURNS uuid[] LANGUAGE plpgsql STABLE AS $$
DECLARE
  subscribed uuid[] := '{}';
  server uuid;
BEGIN
  -- A probe a server, by its id as a scalar: about 0.02 ms a call, where one query over the array
  -- (an aggregate, or a generic plan of = ANY) cost 0.1 to 0.3 ms.
  FOREACH server IN ARRAY p_servers LOOP
    IF EXISTS (SELECT 1 FROM servers s JOIN webhook_endpoints w ON w.account_id = s.account_id
               WHERE s.id = server AND w.events && p_types AND w.paused_at IS NULL
                 AND (w.server_ids IS NULL OR server = ANY (w.server_ids))) THEN
      subscribed := subscribed || server;
    END IF;
  END LOOP;
  RETURN subscribed;
END
$$;

-- The servers of a call with an endpoint subscribed to player.watched.joined whose account watches
-- a player: a probe of each server's row, of the small endpoints table and of the account's first
-- watch. Most calls have none, and ingestion reads nothing more for the joins of their players.
CREATE OR REPLACE FUNCTION webhook_watch_servers(p_servers uuid[])
RETURNS uuid[] LANGUAGE plpgsql STABLE AS $$
DECLARE
  subscribed uuid[] := '{}';
  server uuid;
BEGIN
  FOREACH server IN ARRAY p_servers LOOP
    IF EXISTS (SELECT 1 FROM servers s JOIN webhook_endpoints w ON w.account_id = s.account_id
               WHERE s.id = server AND 'player.watched.joined' = ANY (w.events) AND w.paused_at IS NULL
                 AND (w.server_ids IS NULL OR server = ANY (w.server_ids))
                 AND EXISTS (SELECT 1 FROM player_watches pw WHERE pw.account_id = s.account_id)) THEN
      subscribed := subscribed || server;
    END IF;
  END LOOP;
  RETURN subscribed;
END
$$;

-- A call's kills (in the order ingest_insert_kills takes them: by server, then time), one outbox row
-- a kill and subscribed endpoint, each endpoint's in kill order. No position is kept. Each carries
-- its killer's streak with it: the stored streak (run before the totals take the call in), plus
-- the killer's kills of the call up to this one, from their last death in the call if any (a
-- kill's victim or a death event dies; a suicide is no kill).
DROP FUNCTION IF EXISTS webhook_enqueue_kills(uuid[], uuid[], int8[], text[], text[], text[], text[], text[], float8[], bool[], text[]);
CREATE OR REPLACE FUNCTION webhook_enqueue_kills(
  b_server uuid[], keep bool[], e_batch int[], e_type text[], e_ts timestamptz[], e_player text[], e_name text[],
  e_killer text[], e_killer_name text[], e_weapon text[], e_distance float8[], e_headshot bool[], e_hit_zone text[])
RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  subscribed uuid[] := webhook_subscribed_servers(b_server, ARRAY['kill']);
BEGIN
  IF cardinality(subscribed) = 0 THEN
    RETURN;
  END IF;
  WITH e AS (
    SELECT b_server[x.b] AS server, x.* FROM unnest(e_batch, e_type, e_ts, e_player, e_name, e_killer, e_killer_name, e_weapon, e_distance,
        e_headshot, e_hit_zone) WITH ORDINALITY AS x(b, type, ts, player, name, killer, killer_name, weapon, distance, headshot, hit_zone, i)
    WHERE keep[x.i] AND x.type IN ('kill', 'death') AND b_server[x.b] = ANY (subscribed)
  ), touch AS (
    SELECT e.server, e.killer AS id, e.ts, e.i, 1 AS sub, 1 AS kills, 0 AS deaths FROM e WHERE e.type = 'kill' AND e.killer <> e.player
    UNION ALL
    SELECT e.server, e.player, e.ts, e.i, 0, 0, 1 FROM e WHERE e.player IS NOT NULL
  ), lives AS (
    SELECT t.*, sum(t.deaths) OVER (PARTITION BY t.server, t.id ORDER BY t.ts, t.i, t.sub) AS lives FROM touch t
  ), streaks AS (
    SELECT l.i, CASE WHEN l.lives = 0 THEN coalesce((SELECT sp.streak FROM server_players sp WHERE sp.server_id = l.server AND sp.platform_id = l.id), 0)
        ELSE 0 END + sum(l.kills) OVER (PARTITION BY l.server, l.id, l.lives ORDER BY l.ts, l.i, l.sub) AS streak, l.kills
    FROM lives l
  )
  INSERT INTO webhook_outbox (endpoint_id, type, occurred_at, data)
    SELECT w.id, 'kill', k.ts,
      jsonb_build_object('serverId', s.id, 'serverName', s.name,
        'killer', jsonb_build_object('platformId', k.killer, 'name', k.killer_name),
        'victim', jsonb_build_object('platformId', k.player, 'name', k.name),
        'killerStreak', coalesce(st.streak, 0),
        'weapon', k.weapon, 'distance', k.distance, 'hitZone', k.hit_zone, 'headshot', k.headshot)
    FROM e AS k
    JOIN servers s ON s.id = k.server
    LEFT JOIN streaks st ON st.i = k.i AND st.kills = 1
    CROSS JOIN LATERAL webhook_endpoints_for(s.account_id, s.id, 'kill') AS w(id)
    WHERE k.type = 'kill'
    ORDER BY w.id, k.b, k.ts, k.i;
END
$$;

-- A server gone on line (online) or off line, at the status's time, to the endpoints subscribed.
CREATE OR REPLACE FUNCTION webhook_enqueue_server_status(p_server uuid, p_online bool, p_at timestamptz)
RETURNS void LANGUAGE sql AS $$
  INSERT INTO webhook_outbox (endpoint_id, type, occurred_at, data)
    SELECT w.id, CASE WHEN p_online THEN 'server.online' ELSE 'server.offline' END, p_at,
      jsonb_build_object('serverId', s.id, 'serverName', s.name)
    FROM servers s CROSS JOIN LATERAL webhook_endpoints_for(s.account_id, s.id, CASE WHEN p_online THEN 'server.online' ELSE 'server.offline' END) AS w(id)
    WHERE s.id = p_server
    ORDER BY w.id
$$;
