// SQL for a server's ban list as last synced to its ban file.
import type { Queryable } from '../store/db.ts';
import type { Ban } from '../http/schema-types.ts';

/**
 * Bans in the server's file as last synced (the account's ban-file entries open at that sync), not
 * lifted since; active = permanent or not yet expired at `now` (null lists both). Newest in the
 * file first (by when the ban entered the community's file), then newest ban. The account and the
 * sync time are looked up first, so a page walks the entries' index in its order and stops.
 */
export async function syncedBans(
  db: Queryable,
  serverId: string,
  active: boolean | null,
  nowIso: string,
  limit: number,
  offset: number,
): Promise<Ban[]> {
  const syncedAt = `(SELECT synced_at FROM game_file_syncs WHERE server_id = $1 AND kind = 'bans')`;
  const { rows } = await db.query<Ban>({
    name: 'synced-bans',
    text: `SELECT b.platform_id AS "platformId", b.player_name AS "playerName", b.reason, b.source,
             b.expires_at IS NULL AS permanent, b.banned_at AS "bannedAt", b.expires_at AS "expiresAt"
           FROM ban_file_entries e JOIN bans b ON b.id = e.ban_id AND b.account_id = e.account_id
           WHERE e.account_id = (SELECT account_id FROM servers WHERE id = $1)
             AND e.added_at <= ${syncedAt} AND (e.removed_at IS NULL OR e.removed_at > ${syncedAt})
             AND b.lifted_at IS NULL
             AND ($2::bool IS NULL OR (b.expires_at IS NULL OR b.expires_at > $3::timestamptz) = $2::bool)
           ORDER BY e.added_at DESC, e.banned_at DESC, e.ban_id
           LIMIT $4 OFFSET $5`,
    values: [serverId, active, nowIso, limit, offset],
  });
  return rows;
}
