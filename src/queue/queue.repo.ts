// SQL of the priority queue (VIP) entries: one per player and scope of an account.
import type { Checked } from '../http/schemas.ts';
import type { Queryable } from '../store/db.ts';

export interface QueueEntry {
  id: string;
  accountId: string;
  platformId: string;
  playerName: string | null;
  comment: string | null;
  serverIds: string[] | null;
  expiresAt: string | null;
  source: 'manual' | 'store' | 'import';
  createdById: string | null;
  createdByName: string | null;
  createdAt: string;
  updatedAt: string | null;
}

const columns = `id, account_id AS "accountId", platform_id AS "platformId", player_name AS "playerName", comment,
  server_ids::text[] AS "serverIds", expires_at AS "expiresAt", source, created_by_id AS "createdById",
  created_by_name AS "createdByName", created_at AS "createdAt", updated_at AS "updatedAt"`;

/** 'all', or the sorted server ids: the scope half of "one entry per player and scope". */
export const scopeKeyOf = (serverIds: string[] | null) => (serverIds === null ? 'all' : [...serverIds].sort().join(','));

export interface NewQueueEntry {
  platformId: string;
  /** On a repeat for the same player and scope: the expiry moves this many days past max(its old expiry, now). */
  extendDays?: number;
  playerName?: string | null;
  comment?: string | null;
  serverIds: string[] | null;
  expiresAt: string | null;
  source: QueueEntry['source'];
  createdBy: { id: string | null; name: string | null };
}

/**
 * Adds an entry, or, when the player already has one of that scope, extends it: a later (or no)
 * expiry wins, and a name or comment given replaces the old one. Returns the entry and whether it was new.
 */
export async function upsertQueueEntry(
  db: Queryable,
  accountId: string,
  entry: NewQueueEntry,
  atIso: string,
): Promise<{ entry: QueueEntry; created: boolean }> {
  const { rows } = await db.query<QueueEntry & { created: boolean }>(
    `INSERT INTO priority_queue AS q (account_id, platform_id, player_name, comment, server_ids, scope_key, expires_at, source, created_by_id, created_by_name, created_at)
     VALUES ($1, $2, $3, $4, $5::uuid[], $6, $7, $8, $9, $10, $11)
     ON CONFLICT (account_id, platform_id, scope_key) DO UPDATE SET
       expires_at = CASE WHEN q.expires_at IS NULL OR excluded.expires_at IS NULL THEN NULL
         WHEN $12::int IS NOT NULL THEN greatest(q.expires_at, excluded.created_at) + make_interval(days => $12::int)
         ELSE greatest(q.expires_at, excluded.expires_at) END,
       player_name = coalesce(excluded.player_name, q.player_name),
       comment = coalesce(excluded.comment, q.comment),
       updated_at = excluded.created_at
     RETURNING ${columns}, (xmax = 0) AS created`,
    [
      accountId,
      entry.platformId,
      entry.playerName ?? null,
      entry.comment ?? null,
      entry.serverIds,
      scopeKeyOf(entry.serverIds),
      entry.expiresAt,
      entry.source,
      entry.createdBy.id,
      entry.createdBy.name,
      atIso,
      entry.extendDays ?? null,
    ],
  );
  const { created, ...row } = rows[0]!;
  return { entry: row, created };
}

export async function findQueueEntry(db: Queryable, accountId: string, entryId: string): Promise<QueueEntry | undefined> {
  const { rows } = await db.query<QueueEntry>(`SELECT ${columns} FROM priority_queue WHERE id = $1 AND account_id = $2`, [
    entryId,
    accountId,
  ]);
  return rows[0];
}

export type QueueSearch = Checked<'query-queue.json'>;

/** A page of the account's entries, newest first, each with the name its player was last seen with on the account's servers. */
export async function listQueueEntries(
  db: Queryable,
  accountId: string,
  search: QueueSearch,
): Promise<{ entries: (QueueEntry & { seenName: string | null })[]; total: number }> {
  const { rows } = await db.query<QueueEntry & { seenName: string | null; total: number }>(
    `SELECT ${columns}, seen_player_name(account_id, platform_id) AS "seenName", count(*) OVER () AS total FROM priority_queue
     WHERE account_id = $1 AND ($2::text IS NULL OR platform_id = $2)
       AND ($3::uuid IS NULL OR server_ids IS NULL OR $3::uuid = ANY(server_ids))
     ORDER BY created_at DESC, id LIMIT $4 OFFSET $5`,
    [accountId, search.platformId ?? null, search.serverId ?? null, search.limit, search.offset],
  );
  return { entries: rows.map(({ total: _, ...e }) => e), total: rows[0]?.total ?? 0 };
}

export interface QueueChange {
  playerName?: string | null;
  comment?: string | null;
  expiresAt?: string | null;
}

export async function updateQueueEntry(
  db: Queryable,
  accountId: string,
  entryId: string,
  change: QueueChange,
  atIso: string,
): Promise<QueueEntry | undefined> {
  const { rows } = await db.query<QueueEntry>(
    `UPDATE priority_queue SET
       player_name = CASE WHEN $3 THEN $4 ELSE player_name END,
       comment = CASE WHEN $5 THEN $6 ELSE comment END,
       expires_at = CASE WHEN $7 THEN $8::timestamptz ELSE expires_at END,
       updated_at = $9
     WHERE id = $1 AND account_id = $2 RETURNING ${columns}`,
    [
      entryId,
      accountId,
      'playerName' in change,
      change.playerName ?? null,
      'comment' in change,
      change.comment ?? null,
      'expiresAt' in change,
      change.expiresAt ?? null,
      atIso,
    ],
  );
  return rows[0];
}

export async function deleteQueueEntry(db: Queryable, accountId: string, entryId: string): Promise<QueueEntry | undefined> {
  const { rows } = await db.query<QueueEntry>(`DELETE FROM priority_queue WHERE id = $1 AND account_id = $2 RETURNING ${columns}`, [
    entryId,
    accountId,
  ]);
  return rows[0];
}

/** The player's entry of that scope, locked for the caller's transaction. */
export async function lockEntryOfScope(
  db: Queryable,
  accountId: string,
  platformId: string,
  serverIds: string[] | null,
): Promise<QueueEntry | undefined> {
  const { rows } = await db.query<QueueEntry>(
    `SELECT ${columns} FROM priority_queue WHERE account_id = $1 AND platform_id = $2 AND scope_key = $3 FOR UPDATE`,
    [accountId, platformId, scopeKeyOf(serverIds)],
  );
  return rows[0];
}

export async function lockQueueEntry(db: Queryable, entryId: string): Promise<QueueEntry | undefined> {
  const { rows } = await db.query<QueueEntry>(`SELECT ${columns} FROM priority_queue WHERE id = $1 FOR UPDATE`, [entryId]);
  return rows[0];
}

/** Deletes entries that expired by `nowIso` (at most `limit`); returns them. */
export async function deleteExpiredEntries(db: Queryable, nowIso: string, limit: number): Promise<QueueEntry[]> {
  const { rows } = await db.query<QueueEntry>(
    `DELETE FROM priority_queue WHERE id IN (
       SELECT id FROM priority_queue WHERE expires_at <= $1::timestamptz AND expires_at IS NOT NULL ORDER BY expires_at LIMIT $2 FOR UPDATE SKIP LOCKED)
     RETURNING ${columns}`,
    [nowIso, limit],
  );
  return rows;
}

/** Entries of the player in the account (any scope). */
export async function entriesOfPlayer(db: Queryable, accountId: string, platformId: string): Promise<QueueEntry[]> {
  const { rows } = await db.query<QueueEntry>(
    `SELECT ${columns} FROM priority_queue WHERE account_id = $1 AND platform_id = $2 ORDER BY created_at`,
    [accountId, platformId],
  );
  return rows;
}

/** Whether the player has an entry in force at `nowIso` that covers the server. */
export async function queuedOnServer(
  db: Queryable,
  accountId: string,
  serverId: string,
  platformId: string,
  nowIso: string,
): Promise<boolean> {
  const { rowCount } = await db.query(
    `SELECT 1 FROM priority_queue WHERE account_id = $1 AND platform_id = $3 AND (server_ids IS NULL OR $2::uuid = ANY(server_ids))
       AND (expires_at IS NULL OR expires_at > $4::timestamptz) LIMIT 1`,
    [accountId, serverId, platformId, nowIso],
  );
  return (rowCount ?? 0) > 0;
}

/**
 * A merge of `fromId` into `intoId` moves the player's queue entries: where the Steam64
 * already has an entry of the same scope, that entry keeps the later (or no) expiry and the other goes.
 */
export async function moveQueueEntries(db: Queryable, fromId: string, intoId: string): Promise<void> {
  await db.query(
    `UPDATE priority_queue t SET expires_at = CASE WHEN t.expires_at IS NULL OR f.expires_at IS NULL THEN NULL ELSE greatest(t.expires_at, f.expires_at) END
     FROM priority_queue f WHERE f.platform_id = $1 AND t.platform_id = $2 AND t.account_id = f.account_id AND t.scope_key = f.scope_key`,
    [fromId, intoId],
  );
  await db.query(
    `DELETE FROM priority_queue f USING priority_queue t
     WHERE f.platform_id = $1 AND t.platform_id = $2 AND t.account_id = f.account_id AND t.scope_key = f.scope_key`,
    [fromId, intoId],
  );
  await db.query('UPDATE priority_queue SET platform_id = $2 WHERE platform_id = $1', [fromId, intoId]);
}
