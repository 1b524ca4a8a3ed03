// What a player merge (src/identities/merge.ts) moves of the profile's records from the old id to
// the Steam64, in the merge's transaction: names seen, sessions and the newest kills per server,
// and every account's notes and watch flags. Call after the Steam64's totals rows are saved and
// before the old id's rows are deleted.
import type { Queryable } from '../store/db.ts';

export async function moveProfileRecords(db: Queryable, fromId: string, intoId: string, serverIds: string[]): Promise<void> {
  // The newest ten of both, newest first; the kills themselves move to the Steam64 with their times.
  await db.query(
    `UPDATE server_players t SET
       recent_kills_at = ARRAY(SELECT x FROM unnest(t.recent_kills_at || f.recent_kills_at) AS x ORDER BY x DESC LIMIT 10),
       recent_deaths_at = ARRAY(SELECT x FROM unnest(t.recent_deaths_at || f.recent_deaths_at) AS x ORDER BY x DESC LIMIT 10)
     FROM server_players f
     WHERE f.server_id = ANY($3::uuid[]) AND f.platform_id = $1 AND t.server_id = f.server_id AND t.platform_id = $2`,
    [fromId, intoId, serverIds],
  );
  await db.query(
    `INSERT INTO player_names AS n (server_id, platform_id, name, first_seen_at, last_seen_at)
       SELECT server_id, $2, name, first_seen_at, last_seen_at FROM player_names WHERE server_id = ANY($3::uuid[]) AND platform_id = $1
     ON CONFLICT (server_id, platform_id, name) DO UPDATE SET
       first_seen_at = least(n.first_seen_at, excluded.first_seen_at), last_seen_at = greatest(n.last_seen_at, excluded.last_seen_at)`,
    [fromId, intoId, serverIds],
  );
  await db.query('DELETE FROM player_names WHERE server_id = ANY($2::uuid[]) AND platform_id = $1', [fromId, serverIds]);
  await db.query(
    `INSERT INTO player_sessions (server_id, platform_id, started_at, ended_at)
       SELECT server_id, $2, started_at, ended_at FROM player_sessions WHERE server_id = ANY($3::uuid[]) AND platform_id = $1
     ON CONFLICT (server_id, platform_id, started_at) DO NOTHING`,
    [fromId, intoId, serverIds],
  );
  await db.query('DELETE FROM player_sessions WHERE server_id = ANY($2::uuid[]) AND platform_id = $1', [fromId, serverIds]);
  await db.query('UPDATE player_notes SET platform_id = $2 WHERE platform_id = $1', [fromId, intoId]);
  // A flag on both ids: the Steam64's stays as it is.
  await db.query(
    `INSERT INTO player_watches (account_id, platform_id, watched_by_id, watched_by_name, watched_at)
       SELECT account_id, $2, watched_by_id, watched_by_name, watched_at FROM player_watches WHERE platform_id = $1
     ON CONFLICT (account_id, platform_id) DO NOTHING`,
    [fromId, intoId],
  );
  await db.query('DELETE FROM player_watches WHERE platform_id = $1', [fromId]);
}
