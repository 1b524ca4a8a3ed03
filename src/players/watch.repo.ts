// SQL of the players an account watches.
import type { Queryable } from '../store/db.ts';

export interface WatchRow {
  watchedById: string | null;
  watchedByName: string | null;
  watchedAt: string;
}

const columns = `watched_by_id AS "watchedById", watched_by_name AS "watchedByName", watched_at AS "watchedAt"`;

export async function watchOf(db: Queryable, accountId: string, platformId: string): Promise<WatchRow | undefined> {
  const { rows } = await db.query<WatchRow>(`SELECT ${columns} FROM player_watches WHERE account_id = $1 AND platform_id = $2`, [
    accountId,
    platformId,
  ]);
  return rows[0];
}

/** Sets the flag; undefined when it was set already (then it keeps who set it and when). */
export async function insertWatch(
  db: Queryable,
  accountId: string,
  platformId: string,
  by: { id: string | null; name: string | null },
  atIso: string,
): Promise<WatchRow | undefined> {
  const { rows } = await db.query<WatchRow>(
    `INSERT INTO player_watches (account_id, platform_id, watched_by_id, watched_by_name, watched_at) VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (account_id, platform_id) DO NOTHING RETURNING ${columns}`,
    [accountId, platformId, by.id, by.name, atIso],
  );
  return rows[0];
}

/** Clears the flag; false when it was not set. */
export async function deleteWatch(db: Queryable, accountId: string, platformId: string): Promise<boolean> {
  const { rowCount } = await db.query('DELETE FROM player_watches WHERE account_id = $1 AND platform_id = $2', [accountId, platformId]);
  return (rowCount ?? 0) > 0;
}

/** Of these players, the ones the account watches. */
export async function watchedAmong(db: Queryable, accountId: string, platformIds: string[]): Promise<Set<string>> {
  if (platformIds.length === 0) return new Set();
  const { rows } = await db.query<{ id: string }>(
    'SELECT platform_id AS id FROM player_watches WHERE account_id = $1 AND platform_id = ANY($2::text[])',
    [accountId, platformIds],
  );
  return new Set(rows.map((r) => r.id));
}
