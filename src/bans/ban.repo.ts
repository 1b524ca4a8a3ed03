// SQL for bans and their per-server sync records.
import type { Queryable } from '../store/db.ts';

export interface NewBan {
  id?: string;
  platformId: string;
  playerName?: string | null;
  reason?: string | null;
  source: 'manual' | 'import' | 'cloud';
  bannedAt?: string;
  expiresAt?: string | null;
}

/** Inserts a ban (a ban with a known id is kept as it is); returns its id. */
export async function insertBan(db: Queryable, accountId: string, ban: NewBan): Promise<string> {
  const { rows } = await db.query<{ id: string }>(
    `INSERT INTO bans (id, account_id, platform_id, player_name, reason, source, banned_at, expires_at)
     VALUES (coalesce($1::uuid, gen_random_uuid()), $2, $3, $4, $5, $6, coalesce($7::timestamptz, now()), $8)
     ON CONFLICT (id) DO UPDATE SET id = excluded.id RETURNING id`,
    [ban.id ?? null, accountId, ban.platformId, ban.playerName ?? null, ban.reason ?? null, ban.source, ban.bannedAt ?? null, ban.expiresAt ?? null],
  );
  return rows[0]!.id;
}

/** Records that a ban was written to a server's ban file at syncedAt. */
export async function recordBanSync(db: Queryable, serverId: string, banId: string, syncedAt: string): Promise<void> {
  await db.query(
    `INSERT INTO ban_syncs (server_id, ban_id, synced_at) VALUES ($1, $2, $3)
     ON CONFLICT (server_id, ban_id) DO UPDATE SET synced_at = excluded.synced_at`,
    [serverId, banId, syncedAt],
  );
}

export async function liftBan(db: Queryable, accountId: string, banId: string, liftedAt: string): Promise<boolean> {
  const { rowCount } = await db.query('UPDATE bans SET lifted_at = $3 WHERE id = $1 AND account_id = $2 AND lifted_at IS NULL', [banId, accountId, liftedAt]);
  return rowCount === 1;
}
