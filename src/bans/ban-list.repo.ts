// SQL for a server's ban list as last synced to its ban file.
import type { Queryable } from '../store/db.ts';

export interface DataApiBan {
  platformId: string;
  playerName: string | null;
  reason: string | null;
  source: 'manual' | 'import' | 'cloud' | null;
  permanent: boolean;
  bannedAt: string | null;
  expiresAt: string | null;
}

/**
 * Bans synced to the server, not lifted; active = permanent or not yet expired at `now`
 * (null lists both). Newest sync first, then newest ban.
 */
export async function syncedBans(db: Queryable, serverId: string, active: boolean | null, nowIso: string, limit: number, offset: number): Promise<DataApiBan[]> {
  const { rows } = await db.query<DataApiBan>({
    name: 'synced-bans',
    text: `SELECT b.platform_id AS "platformId", b.player_name AS "playerName", b.reason, b.source,
             b.expires_at IS NULL AS permanent, b.banned_at AS "bannedAt", b.expires_at AS "expiresAt"
           FROM ban_syncs s JOIN servers v ON v.id = s.server_id
             JOIN bans b ON b.id = s.ban_id AND b.account_id = v.account_id
           WHERE s.server_id = $1 AND b.lifted_at IS NULL
             AND ($2::bool IS NULL OR (b.expires_at IS NULL OR b.expires_at > $3::timestamptz) = $2::bool)
           ORDER BY s.synced_at DESC, b.banned_at DESC, b.id
           LIMIT $4 OFFSET $5`,
    values: [serverId, active, nowIso, limit, offset],
  });
  return rows;
}
