// SQL of game-file syncs: the rows a file renders (bans in force, priority entries in force, both in
// keyset pages), the per-server ban sync records, and what the last sync of a file did.
import type { Queryable } from '../store/db.ts';
import type { FileKind } from './sync-requests.repo.ts';

export interface SyncTarget {
  id: string;
  accountId: string;
  banFilePath: string | null;
  priorityFilePath: string | null;
}

export async function syncTargets(db: Queryable, serverIds: string[]): Promise<SyncTarget[]> {
  const { rows } = await db.query<SyncTarget>(
    `SELECT id, account_id AS "accountId", ban_file_path AS "banFilePath", priority_file_path AS "priorityFilePath"
     FROM servers WHERE id = ANY($1::uuid[]) AND revoked_at IS NULL ORDER BY account_id, id`,
    [serverIds],
  );
  return rows;
}

export interface BanLine {
  bannedAt: string;
  id: string;
  platformId: string;
  dayzId: string | null;
}

/** A page of the account's bans in force at `nowIso`, oldest first, after the keyset position. */
export async function bansInForcePage(db: Queryable, accountId: string, nowIso: string, after: { bannedAt: string; id: string } | null, limit: number): Promise<BanLine[]> {
  const { rows } = await db.query<BanLine>({
    name: 'bans-in-force-page',
    text: `SELECT banned_at AS "bannedAt", id, platform_id AS "platformId", dayz_id AS "dayzId" FROM bans
           WHERE account_id = $1 AND lifted_at IS NULL AND (expires_at IS NULL OR expires_at > $2::timestamptz)
             AND ($3::timestamptz IS NULL OR (banned_at, id) > ($3::timestamptz, $4::uuid))
           ORDER BY banned_at, id LIMIT $5`,
    values: [accountId, nowIso, after?.bannedAt ?? null, after?.id ?? null, limit],
  });
  return rows;
}

export interface PriorityLine {
  platformId: string;
}

/** A page of the distinct players queued on the server at `nowIso`, in id order, after `afterId`. */
export async function priorityPage(db: Queryable, accountId: string, serverId: string, nowIso: string, afterId: string | null, limit: number): Promise<PriorityLine[]> {
  const { rows } = await db.query<PriorityLine>({
    name: 'priority-page',
    text: `SELECT DISTINCT platform_id AS "platformId" FROM priority_queue
           WHERE account_id = $1 AND (server_ids IS NULL OR $2::uuid = ANY(server_ids))
             AND (expires_at IS NULL OR expires_at > $3::timestamptz) AND ($4::text IS NULL OR platform_id > $4)
           ORDER BY platform_id LIMIT $5`,
    values: [accountId, serverId, nowIso, afterId, limit],
  });
  return rows;
}

/**
 * Bans in force now that the server's file did not hold are recorded as written at `atIso`; bans no
 * longer in force (or not the account's) as removed. Rows of bans back in force are revived, the
 * others inserted plainly: an upsert costs half again as much a row, and a first sync writes one row
 * per ban. The removal runs first and probes bans by primary key: a plan joining the other way
 * scanned ban_syncs, which grows with every server synced in the same transaction. Syncs of one
 * server never overlap (the worker's lock); one that did would fail on the primary key and be retried.
 */
export async function recordBanFileSync(db: Queryable, accountId: string, serverId: string, nowIso: string): Promise<{ added: number; removed: number }> {
  const inForce = 'b.account_id = $2 AND b.lifted_at IS NULL AND (b.expires_at IS NULL OR b.expires_at > $3::timestamptz)';
  // First what left the file, so that the rows written next are never checked (a first sync checks none).
  const removed = await db.query(
    `UPDATE ban_syncs s SET removed_at = $3
     WHERE s.server_id = $1 AND s.removed_at IS NULL AND NOT EXISTS (SELECT 1 FROM bans b WHERE b.id = s.ban_id AND ${inForce})`,
    [serverId, accountId, nowIso],
  );
  const revived = await db.query(
    `UPDATE ban_syncs s SET synced_at = $3, removed_at = NULL
     WHERE s.server_id = $1 AND s.removed_at IS NOT NULL AND EXISTS (SELECT 1 FROM bans b WHERE b.id = s.ban_id AND ${inForce})`,
    [serverId, accountId, nowIso],
  );
  const inserted = await db.query(
    `INSERT INTO ban_syncs (server_id, ban_id, synced_at)
     SELECT $1, b.id, $3 FROM bans b
     WHERE ${inForce} AND NOT EXISTS (SELECT 1 FROM ban_syncs s WHERE s.server_id = $1 AND s.ban_id = b.id)
     ORDER BY b.id`,
    [serverId, accountId, nowIso],
  );
  return { added: (revived.rowCount ?? 0) + (inserted.rowCount ?? 0), removed: removed.rowCount ?? 0 };
}

export interface LastSync {
  path: string | null;
  sha256: string;
}

export async function lastSync(db: Queryable, serverId: string, kind: FileKind): Promise<LastSync | undefined> {
  const { rows } = await db.query<LastSync>('SELECT path, sha256 FROM game_file_syncs WHERE server_id = $1 AND kind = $2', [serverId, kind]);
  return rows[0];
}

export async function saveSync(db: Queryable, serverId: string, kind: FileKind, path: string | null, sha256: string, entries: number, atIso: string): Promise<void> {
  await db.query(
    `INSERT INTO game_file_syncs (server_id, kind, path, sha256, entries, synced_at) VALUES ($1, $2, $3, $4, $5, $6)
     ON CONFLICT (server_id, kind) DO UPDATE SET path = excluded.path, sha256 = excluded.sha256, entries = excluded.entries, synced_at = excluded.synced_at`,
    [serverId, kind, path, sha256, entries, atIso],
  );
}

/**
 * Servers whose ban file still holds a ban that expired by `nowIso`. (A lifted ban leaves the files
 * through the sync its lifting asked for.)
 */
export async function serversWithExpiredBans(db: Queryable, nowIso: string): Promise<string[]> {
  const { rows } = await db.query<{ serverId: string }>(
    `SELECT DISTINCT s.server_id AS "serverId" FROM bans b JOIN ban_syncs s ON s.ban_id = b.id AND s.removed_at IS NULL
     WHERE b.expires_at <= $1::timestamptz AND b.expires_at IS NOT NULL AND b.lifted_at IS NULL`,
    [nowIso],
  );
  return rows.map((r) => r.serverId);
}
