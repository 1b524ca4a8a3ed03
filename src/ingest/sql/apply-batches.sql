-- Several servers' batches in one call (src/ingest/batch-groups.ts): a transport only, each batch
-- applied by ingest_apply_events as it would be alone, in one transaction.
-- Applied after every migrate (src/store/migrate.ts), in the order its list gives: CREATE OR REPLACE,
-- so this file is the function as it is now and its history is git's. A change of its arguments or
-- result needs a DROP FUNCTION of the old one before it (the files run in one transaction, under a lock).

-- The batches' arrays come one after the other; b_*_end is where each batch's part of them ends.
-- Batches go in the order of their servers' locks, so two calls never wait for each other's in a
-- circle; a server has one batch a call at most.
CREATE OR REPLACE FUNCTION ingest_apply_event_batches(
  b_server uuid[], b_received_at timestamptz[], b_alias_end int[], b_steam64_end int[], b_event_end int[], p_online_window interval,
  p_alias_ids text[], s_id text[], s_dayz text[], s_be text[], s_look_up bool[],
  e_id uuid[], e_sent timestamptz[], e_ts timestamptz[], e_type text[],
  e_player text[], e_name text[], e_killer text[], e_killer_name text[],
  e_weapon text[], e_distance float8[], e_headshot bool[], e_hit_zone text[], e_fired int8[], e_hits int8[],
  e_online bool[], e_map text[], e_game_version text[], e_players int[], e_fps float8[], e_uptime int8[])
RETURNS TABLE (out_batch int, out_accepted int, out_started bool, out_totals text, out_server servers, out_checked text[], out_orphans text[], out_orphans_of text[])
LANGUAGE plpgsql AS $$
DECLARE
  b int;
  a0 int;
  s0 int;
  e0 int;
BEGIN
  FOR b IN SELECT x.b FROM generate_subscripts(b_server, 1) AS x(b) ORDER BY hashtextextended(b_server[x.b]::text, 0) LOOP
    a0 := coalesce(b_alias_end[b - 1], 0) + 1;
    s0 := coalesce(b_steam64_end[b - 1], 0) + 1;
    e0 := coalesce(b_event_end[b - 1], 0) + 1;
    RETURN QUERY SELECT b, f.* FROM ingest_apply_events(b_server[b], b_received_at[b], p_online_window,
      p_alias_ids[a0:b_alias_end[b]], s_id[s0:b_steam64_end[b]], s_dayz[s0:b_steam64_end[b]], s_be[s0:b_steam64_end[b]], s_look_up[s0:b_steam64_end[b]],
      e_id[e0:b_event_end[b]], e_sent[e0:b_event_end[b]], e_ts[e0:b_event_end[b]], e_type[e0:b_event_end[b]],
      e_player[e0:b_event_end[b]], e_name[e0:b_event_end[b]], e_killer[e0:b_event_end[b]], e_killer_name[e0:b_event_end[b]],
      e_weapon[e0:b_event_end[b]], e_distance[e0:b_event_end[b]], e_headshot[e0:b_event_end[b]], e_hit_zone[e0:b_event_end[b]],
      e_fired[e0:b_event_end[b]], e_hits[e0:b_event_end[b]], e_online[e0:b_event_end[b]], e_map[e0:b_event_end[b]],
      e_game_version[e0:b_event_end[b]], e_players[e0:b_event_end[b]], e_fps[e0:b_event_end[b]], e_uptime[e0:b_event_end[b]]) AS f;
  END LOOP;
END
$$;
