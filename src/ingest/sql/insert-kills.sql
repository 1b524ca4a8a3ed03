-- Stores kills, each at a timestamp unique for its server to the microsecond.
-- Applied after every migrate (src/store/migrate.ts), in the order its list gives: CREATE OR REPLACE,
-- so this file is the function as it is now and its history is git's. A change of its arguments or
-- result needs a DROP FUNCTION of the old one before it (the files run in one transaction, under a lock).

-- The kills come in time order per server, each with the microsecond it asks for (its
-- millisecond's first). Each round gives the kills still to store slots in that order, each the
-- later of what it asks and its server's slot before it plus one, so the slots of a call never
-- collide with each other; a slot another kill holds is asked again after the newest kill of its
-- millisecond, or, when that millisecond is full (a thousand kills at one ms), of the second from
-- it. So a batch costs the same however many kills share its timestamps already; a further round
-- is needed only when another batch of the server takes the same slots at the same moment.
DROP FUNCTION IF EXISTS ingest_insert_kills(uuid, int8[], text[], text[], text[], text[], text[], float8[], bool[], text[]);
CREATE OR REPLACE FUNCTION ingest_insert_kills(
  k_server uuid[], k_us int8[], k_killer text[], k_killer_name text[], k_victim text[], k_victim_name text[],
  k_weapon text[], k_distance float8[], k_headshot bool[], k_hit_zone text[])
RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  asked int8[] := k_us;
  slot int8[];
  pending bool[] := array_fill(true, ARRAY[cardinality(k_us)]);
  left_over int := cardinality(k_us);
  stored_server uuid[];
  stored_us int8[];
BEGIN
  LOOP
    WITH placed AS (
      SELECT x.o, x.r + max(x.asked - x.r) OVER (PARTITION BY x.server ORDER BY x.r) AS slot
      FROM (SELECT y.o, y.server, y.asked, row_number() OVER (PARTITION BY y.server ORDER BY y.asked, y.o) AS r
            FROM unnest(k_server, asked, pending) WITH ORDINALITY AS y(server, asked, pending, o) WHERE y.pending) AS x
    ), slots AS (
      SELECT array_agg(coalesce(p.slot, x.slot) ORDER BY x.o) AS slot
      FROM unnest(coalesce(slot, k_us)) WITH ORDINALITY AS x(slot, o) LEFT JOIN placed p ON p.o = x.o
    ), inserted AS (
      INSERT INTO kills (server_id, ts, killer_platform_id, killer_name, victim_platform_id, victim_name, weapon, distance, is_headshot, hit_zone)
        SELECT k.server, 'epoch'::timestamptz + k.slot * interval '1 microsecond', k.killer, k.killer_name, k.victim, k.victim_name,
          k.weapon, k.distance, k.headshot, k.hit_zone
        FROM unnest(k_server, (SELECT s.slot FROM slots s), pending, k_killer, k_killer_name, k_victim, k_victim_name, k_weapon, k_distance, k_headshot, k_hit_zone)
          AS k(server, slot, pending, killer, killer_name, victim, victim_name, weapon, distance, headshot, hit_zone)
        WHERE k.pending ORDER BY k.server, k.slot
        ON CONFLICT (server_id, ts) DO NOTHING
        RETURNING server_id, (extract(epoch FROM ts) * 1000000)::int8 AS us
    )
    SELECT (SELECT s.slot FROM slots s), coalesce(array_agg(i.server_id), '{}'), coalesce(array_agg(i.us), '{}')
      INTO slot, stored_server, stored_us FROM inserted i;
    EXIT WHEN cardinality(stored_us) = left_over;
    left_over := left_over - cardinality(stored_us);

    -- The slots still taken, each asked again; two index probes each, whatever the number of kills stored.
    pending := array(
      SELECT x.pending AND s.us IS NULL FROM unnest(k_server, slot, pending) WITH ORDINALITY AS x(server, slot, pending, o)
      LEFT JOIN unnest(stored_server, stored_us) AS s(server, us) ON s.server = x.server AND s.us = x.slot ORDER BY x.o);
    asked := array(
      SELECT CASE WHEN NOT x.pending THEN x.asked ELSE greatest(
          CASE WHEN a.in_ms IS NOT NULL AND a.in_ms < x.slot - x.slot % 1000 + 999 THEN a.in_ms ELSE coalesce(a.in_second, x.slot) END, x.slot) + 1 END
      FROM unnest(k_server, asked, slot, pending) WITH ORDINALITY AS x(server, asked, slot, pending, o)
      LEFT JOIN LATERAL (
        SELECT (SELECT (extract(epoch FROM max(ts)) * 1000000)::int8 FROM kills
                 WHERE server_id = x.server AND ts >= b.ms AND ts < b.ms + interval '1 millisecond') AS in_ms,
               (SELECT (extract(epoch FROM max(ts)) * 1000000)::int8 FROM kills
                 WHERE server_id = x.server AND ts >= b.at AND ts < b.at + interval '1 second') AS in_second
        FROM (SELECT 'epoch'::timestamptz + x.slot * interval '1 microsecond' AS at,
                     'epoch'::timestamptz + (x.slot - x.slot % 1000) * interval '1 microsecond' AS ms) AS b
        WHERE x.pending) AS a ON true
      ORDER BY x.o);
  END LOOP;
END
$$;
