// SQL of the sync requests: the web process records which servers' files are due a sync, the
// worker (each server under its own lock) reads them and deletes each once served, by its seq: a
// request renewed meanwhile has a new seq and stays. A request whose file failed waits before its
// next try (1 s, doubling up to 60 s); a renewal (a new change) makes it due at once.
import type { Queryable } from '../store/db.ts';

export type FileKind = 'bans' | 'priority';

/** Asks for a sync of the given file of every live server of the account. */
export async function insertAccountRequests(db: Queryable, accountId: string, kinds: FileKind[], atIso: string): Promise<void> {
  await db.query(
    `INSERT INTO file_sync_requests (server_id, kind, requested_at)
     SELECT s.id, k.kind, $3 FROM servers s CROSS JOIN unnest($2::text[]) AS k(kind)
     WHERE s.account_id = $1 AND s.revoked_at IS NULL
     ON CONFLICT (server_id, kind) DO UPDATE SET seq = nextval('file_sync_request_seq'), retry_at = NULL`,
    [accountId, kinds, atIso],
  );
}

/** Asks for a sync of these servers' files. */
export async function insertServerRequests(db: Queryable, serverIds: string[], kinds: FileKind[], atIso: string): Promise<void> {
  await db.query(
    `INSERT INTO file_sync_requests (server_id, kind, requested_at)
     SELECT s.id, k.kind, $3 FROM servers s CROSS JOIN unnest($2::text[]) AS k(kind)
     WHERE s.id = ANY($1::uuid[]) AND s.revoked_at IS NULL
     ON CONFLICT (server_id, kind) DO UPDATE SET seq = nextval('file_sync_request_seq'), retry_at = NULL`,
    [serverIds, kinds, atIso],
  );
}

export interface SyncRequest {
  serverId: string;
  kind: FileKind;
  requestedAt: string;
  seq: number;
}

const due = '(retry_at IS NULL OR retry_at <= $1::timestamptz)';
const requestColumns = 'server_id AS "serverId", kind, requested_at AS "requestedAt", seq';

/** Requests due at `nowIso`, oldest first. */
export async function pendingRequests(db: Queryable, nowIso: string, limit: number): Promise<SyncRequest[]> {
  const { rows } = await db.query<SyncRequest>(
    `SELECT ${requestColumns} FROM file_sync_requests WHERE ${due} ORDER BY requested_at, seq LIMIT $2`,
    [nowIso, limit],
  );
  return rows;
}

/** The requests of these servers due at `nowIso` (read again once their locks are held). */
export async function dueRequestsOf(db: Queryable, serverIds: string[], nowIso: string): Promise<SyncRequest[]> {
  const { rows } = await db.query<SyncRequest>(
    `SELECT ${requestColumns} FROM file_sync_requests WHERE server_id = ANY($2::uuid[]) AND ${due} ORDER BY requested_at, seq`,
    [nowIso, serverIds],
  );
  return rows;
}

/**
 * A request whose file failed waits before its next try, unless it was renewed meanwhile (then it
 * is due at once). Returns how many times in a row it failed now (1: the first), or undefined
 * when it was renewed.
 */
export async function markFailed(db: Queryable, request: SyncRequest, error: string, nowIso: string): Promise<number | undefined> {
  const { rows } = await db.query<{ failures: number }>(
    `UPDATE file_sync_requests SET failures = failures + 1, last_error = $4,
       retry_at = $5::timestamptz + least(60, power(2, failures)) * interval '1 second'
     WHERE server_id = $1 AND kind = $2 AND seq = $3 RETURNING failures`,
    [request.serverId, request.kind, request.seq, error.slice(0, 1000), nowIso],
  );
  return rows[0]?.failures;
}

/** Deletes a request that was served, unless it was renewed meanwhile (a newer seq). */
export async function deleteRequest(db: Queryable, request: SyncRequest): Promise<void> {
  await db.query('DELETE FROM file_sync_requests WHERE server_id = $1 AND kind = $2 AND seq = $3', [
    request.serverId,
    request.kind,
    request.seq,
  ]);
}

/** Asks for a sync of both files of every live server of the accounts that ban or queue one of these players. */
export async function insertPlayerRequests(db: Queryable, platformIds: string[], atIso: string): Promise<void> {
  await db.query(
    `INSERT INTO file_sync_requests (server_id, kind, requested_at)
     SELECT s.id, k.kind, $2 FROM servers s CROSS JOIN unnest(ARRAY['bans', 'priority']) AS k(kind)
     WHERE s.revoked_at IS NULL AND s.account_id IN (
       SELECT account_id FROM bans WHERE platform_id = ANY($1::text[]) AND lifted_at IS NULL
       UNION SELECT account_id FROM priority_queue WHERE platform_id = ANY($1::text[]))
     ON CONFLICT (server_id, kind) DO UPDATE SET seq = nextval('file_sync_request_seq'), retry_at = NULL`,
    [platformIds, atIso],
  );
}
