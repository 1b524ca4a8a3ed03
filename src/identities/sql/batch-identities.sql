-- The identities of ingested batches (src/ingest/sql/apply-batch.sql): their ids resolved to the
-- Steam64 a player is kept under, and the merges their Steam64s make due.
-- Applied after every migrate (src/store/migrate.ts), in the order its list gives: CREATE OR REPLACE,
-- so this file is the function as it is now and its history is git's. A change of its arguments or
-- result needs a DROP FUNCTION of the old one before it (the files run in one transaction, under a lock).

-- A DayZ ID of a known Steam64 or a linked console id is the Steam64; a Steam64 the batches name
-- (s_id, with its DayZ ID) resolves its DayZ ID too, before its row exists. Run under the
-- identities' lock, shared.
CREATE OR REPLACE FUNCTION ingest_aliases(p_alias_ids text[], s_id text[], s_dayz text[])
RETURNS TABLE (alias text, steam64 text) LANGUAGE sql STABLE AS $$
  SELECT DISTINCT ON (a.alias) a.alias, a.steam64 FROM (
    SELECT p.dayz_id AS alias, p.platform_id AS steam64, 1 AS rank FROM unnest(p_alias_ids) AS w(id) JOIN players p ON p.dayz_id = w.id
    UNION ALL
    SELECT l.alias_id, l.platform_id, 2 FROM unnest(p_alias_ids) AS w(id) JOIN player_aliases l ON l.alias_id = w.id
    UNION ALL
    SELECT s.dayz, s.id, 3 FROM unnest(s_id, s_dayz) AS s(id, dayz) WHERE s.dayz = ANY (p_alias_ids)
  ) AS a ORDER BY a.alias, a.rank DESC
$$;

-- The ids, each resolved.
CREATE OR REPLACE FUNCTION ingest_resolved_ids(p_alias_ids text[], s_id text[], s_dayz text[], ids text[])
RETURNS text[] LANGUAGE sql STABLE AS $$
  SELECT array(SELECT coalesce(r.steam64, x.id) FROM unnest(ids) WITH ORDINALITY AS x(id, o)
    LEFT JOIN ingest_aliases(p_alias_ids, s_id, s_dayz) AS r ON r.alias = x.id ORDER BY x.o)
$$;

-- Of the Steam64s each batch's accepted events name, those to look up (s_look_up: not checked
-- lately; `resolved`: resolved from another id), each with its DayZ ID and whether that is still a
-- player of its own: a merge due.
CREATE OR REPLACE FUNCTION ingest_merges_due(keep bool[], e_batch int[], e_player text[], e_killer text[],
  s_id text[], s_dayz text[], s_look_up bool[], resolved text[])
RETURNS TABLE (b int, steam64 text, dayz text, orphan bool) LANGUAGE sql STABLE AS $$
  WITH named AS (
    SELECT DISTINCT e.b, x.id FROM unnest(e_batch, e_player, e_killer) WITH ORDINALITY AS e(b, player, killer, i),
      LATERAL (VALUES (e.player), (e.killer)) AS x(id)
    WHERE keep[e.i] AND x.id IS NOT NULL
  ), candidates AS (
    SELECT s.id, s.dayz FROM unnest(s_id, s_dayz, s_look_up) AS s(id, dayz, look_up) WHERE s.look_up
    UNION
    SELECT p.platform_id, p.dayz_id FROM unnest(resolved) AS r(id), LATERAL (SELECT q.platform_id, q.dayz_id FROM players q WHERE q.platform_id = r.id) AS p
  )
  SELECT n.b, c.id, c.dayz, o.id IS NOT NULL
  FROM candidates c JOIN named n ON n.id = c.id
    LEFT JOIN LATERAL (SELECT q.platform_id AS id FROM players q WHERE q.platform_id = c.dayz) AS o ON true
$$;
