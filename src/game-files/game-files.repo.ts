// SQL of game-file syncs: the rows a file renders (bans in force, priority entries in force, both in
// keyset pages), the record of what the account's ban file holds over time, and what the last sync
// of a file did.
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

// The pages' keyset positions are written as index bounds that hold with no position too (the
// first page): PostgreSQL plans a named query once for any parameters after five runs, and a
// condition "no position, or after it" bounded nothing then, so every page of a file scanned the
// account's entries from the first (a priority file of 24,000 entries among 100,000: 130-180 ms
// instead of 70-85).

/** A page of the account's bans in force at `nowIso`, oldest first, after the keyset position. */
export async function bansInForcePage(
  db: Queryable,
  accountId: string,
  nowIso: string,
  after: { bannedAt: string; id: string } | null,
  limit: number,
): Promise<BanLine[]> {
  const { rows } = await db.query<BanLine>({
    name: 'bans-in-force-page',
    text: `SELECT banned_at AS "bannedAt", id, platform_id AS "platformId", dayz_id AS "dayzId" FROM bans
           WHERE account_id = $1 AND lifted_at IS NULL AND (expires_at IS NULL OR expires_at > $2::timestamptz)
             AND (banned_at, id) > (COALESCE($3::timestamptz, '-infinity'), COALESCE($4::uuid, '00000000-0000-0000-0000-000000000000'))
           ORDER BY banned_at, id LIMIT $5`,
    values: [accountId, nowIso, after?.bannedAt ?? null, after?.id ?? null, limit],
  });
  return rows;
}

export interface PriorityLine {
  platformId: string;
}

/** A page of the distinct players queued on the server at `nowIso`, in id order, after `afterId`. */
export async function priorityPage(
  db: Queryable,
  accountId: string,
  serverId: string,
  nowIso: string,
  afterId: string | null,
  limit: number,
): Promise<PriorityLine[]> {
  const { rows } = await db.query<PriorityLine>({
    name: 'priority-page',
    text: `SELECT DISTINCT platform_id AS "platformId" FROM priority_queue
           WHERE account_id = $1 AND (server_ids IS NULL OR $2::uuid = ANY(server_ids))
             AND (expires_at IS NULL OR expires_at > $3::timestamptz) AND platform_id > COALESCE($4::text, '')
           ORDER BY platform_id LIMIT $5`,
    values: [accountId, serverId, nowIso, afterId, limit],
  });
  return rows;
}

const inForce = 'b.account_id = $1 AND b.lifted_at IS NULL AND (b.expires_at IS NULL OR b.expires_at > $2::timestamptz)';

/**
 * Brings the account's ban-file record to the bans in force at `nowIso`, the file each of its
 * servers is written: entries of bans that left it are closed, bans new to it (or back in force)
 * get an open entry. The closing runs first and probes bans by primary key, so the entries opened
 * next are never checked (a first sync checks none). An overlapping sync of the account fails on
 * the one-open-entry index and is tried again (src/game-files/sync.ts).
 */
export async function recordBanFile(db: Queryable, accountId: string, nowIso: string): Promise<void> {
  await db.query(
    `UPDATE ban_file_entries e SET removed_at = $2
     WHERE e.account_id = $1 AND e.removed_at IS NULL AND NOT EXISTS (SELECT 1 FROM bans b WHERE b.id = e.ban_id AND ${inForce})`,
    [accountId, nowIso],
  );
  // A ban that left and came back within one clock reading reopens the entry it had.
  await db.query(
    `INSERT INTO ban_file_entries (account_id, ban_id, added_at, banned_at)
     SELECT $1, b.id, $2, b.banned_at FROM bans b
     WHERE ${inForce} AND NOT EXISTS (SELECT 1 FROM ban_file_entries e WHERE e.ban_id = b.id AND e.removed_at IS NULL)
     ORDER BY b.id
     ON CONFLICT (account_id, ban_id, added_at) DO UPDATE SET removed_at = NULL`,
    [accountId, nowIso],
  );
}

/** Entry `e` was open at time `at` (its ban was in the files written then). */
const openAt = (e: string, at: string) => `${e}.added_at <= ${at} AND (${e}.removed_at IS NULL OR ${e}.removed_at > ${at})`;

/**
 * What a server's ban file gains and loses when the account's file, as recordBanFile left it, is
 * written over the one of its sync at `sinceIso` (null: its first sync; every ban is added).
 */
export async function banFileChanges(
  db: Queryable,
  accountId: string,
  sinceIso: string | null,
): Promise<{ added: number; removed: number }> {
  const {
    rows: [changes],
  } = await db.query<{ added: number; removed: number }>(
    `SELECT
       (SELECT count(*) FROM ban_file_entries e WHERE e.account_id = $1 AND e.removed_at IS NULL
          AND ($2::timestamptz IS NULL OR (e.added_at > $2 AND NOT EXISTS
            (SELECT 1 FROM ban_file_entries o WHERE o.account_id = $1 AND o.ban_id = e.ban_id AND ${openAt('o', '$2')})))) AS added,
       (SELECT count(*) FROM ban_file_entries e WHERE e.account_id = $1 AND $2::timestamptz IS NOT NULL AND ${openAt('e', '$2')}
          AND e.removed_at IS NOT NULL AND NOT EXISTS (SELECT 1 FROM ban_file_entries o WHERE o.ban_id = e.ban_id AND o.removed_at IS NULL)) AS removed`,
    [accountId, sinceIso],
  );
  return changes!;
}

export interface LastSync {
  path: string | null;
  sha256: string;
  syncedAt: string;
}

export async function lastSync(db: Queryable, serverId: string, kind: FileKind): Promise<LastSync | undefined> {
  const { rows } = await db.query<LastSync>(
    'SELECT path, sha256, synced_at AS "syncedAt" FROM game_file_syncs WHERE server_id = $1 AND kind = $2',
    [serverId, kind],
  );
  return rows[0];
}

export async function saveSync(
  db: Queryable,
  serverId: string,
  kind: FileKind,
  path: string | null,
  sha256: string,
  entries: number,
  atIso: string,
): Promise<void> {
  await db.query(
    `INSERT INTO game_file_syncs (server_id, kind, path, sha256, entries, synced_at) VALUES ($1, $2, $3, $4, $5, $6)
     ON CONFLICT (server_id, kind) DO UPDATE SET path = excluded.path, sha256 = excluded.sha256, entries = excluded.entries, synced_at = excluded.synced_at`,
    [serverId, kind, path, sha256, entries, atIso],
  );
}

/**
 * Servers whose ban file, as last synced, holds a ban that expired since (by `nowIso`). (A lifted
 * ban leaves the files through the sync its lifting asked for.)
 */
export async function serversWithExpiredBans(db: Queryable, nowIso: string): Promise<string[]> {
  const { rows } = await db.query<{ serverId: string }>(
    `SELECT DISTINCT g.server_id AS "serverId" FROM game_file_syncs g JOIN servers v ON v.id = g.server_id AND v.revoked_at IS NULL
       JOIN bans b ON b.account_id = v.account_id AND b.expires_at > g.synced_at AND b.expires_at <= $1::timestamptz
         AND b.expires_at IS NOT NULL AND b.lifted_at IS NULL
     WHERE g.kind = 'bans'
       AND EXISTS (SELECT 1 FROM ban_file_entries e WHERE e.account_id = v.account_id AND e.ban_id = b.id AND ${openAt('e', 'g.synced_at')})`,
    [nowIso],
  );
  return rows.map((r) => r.serverId);
}
