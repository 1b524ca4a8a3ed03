// SQL for the killfeed: newest first, strictly before a cursor.
import type { Kill } from '../http/schema-types.ts';
import type { Queryable } from '../store/db.ts';

export type { Kill };

export async function killsBefore(db: Queryable, serverId: string, before: string, limit: number): Promise<Kill[]> {
  const { rows } = await db.query<Kill>({
    name: 'kills-before',
    text: `SELECT ts, killer_platform_id AS "killerPlatformId", killer_name AS "killerName",
             victim_platform_id AS "victimPlatformId", victim_name AS "victimName", weapon, distance,
             is_headshot AS "isHeadshot", hit_zone AS "hitZone"
           FROM kills WHERE server_id = $1 AND ts < $2::timestamptz ORDER BY ts DESC LIMIT $3`,
    values: [serverId, before, limit],
  });
  return rows;
}

/** Whether the server has a kill at or after `at` (a game host's clock may run a little ahead). */
export async function hasKillSince(db: Queryable, serverId: string, at: string): Promise<boolean> {
  const { rowCount } = await db.query({
    name: 'kill-since',
    text: 'SELECT 1 FROM kills WHERE server_id = $1 AND ts >= $2::timestamptz LIMIT 1',
    values: [serverId, at],
  });
  return rowCount === 1;
}
