// SQL of the sync requests: the web process records which servers' files are due a sync, the
// worker (one at a time, under its job lock) reads them and deletes each once served, by its seq:
// a request renewed meanwhile has a new seq and stays.
import type { Queryable } from '../store/db.ts';

export type FileKind = 'bans' | 'priority';

/** Asks for a sync of the given file of every live server of the account. */
export async function insertAccountRequests(db: Queryable, accountId: string, kinds: FileKind[], atIso: string): Promise<void> {
  await db.query(
    `INSERT INTO file_sync_requests (server_id, kind, requested_at)
     SELECT s.id, k.kind, $3 FROM servers s CROSS JOIN unnest($2::text[]) AS k(kind)
     WHERE s.account_id = $1 AND s.revoked_at IS NULL
     ON CONFLICT (server_id, kind) DO UPDATE SET seq = nextval('file_sync_request_seq')`,
    [accountId, kinds, atIso],
  );
}

/** Asks for a sync of these servers' files. */
export async function insertServerRequests(db: Queryable, serverIds: string[], kinds: FileKind[], atIso: string): Promise<void> {
  await db.query(
    `INSERT INTO file_sync_requests (server_id, kind, requested_at)
     SELECT s.id, k.kind, $3 FROM servers s CROSS JOIN unnest($2::text[]) AS k(kind)
     WHERE s.id = ANY($1::uuid[]) AND s.revoked_at IS NULL
     ON CONFLICT (server_id, kind) DO UPDATE SET seq = nextval('file_sync_request_seq')`,
    [serverIds, kinds, atIso],
  );
}

export interface SyncRequest {
  serverId: string;
  kind: FileKind;
  requestedAt: string;
  seq: number;
}

/** Pending requests, oldest first. */
export async function pendingRequests(db: Queryable, limit: number): Promise<SyncRequest[]> {
  const { rows } = await db.query<SyncRequest>(
    `SELECT server_id AS "serverId", kind, requested_at AS "requestedAt", seq FROM file_sync_requests
     ORDER BY requested_at, seq LIMIT $1`,
    [limit],
  );
  return rows;
}

/** Deletes a request that was served, unless it was renewed meanwhile (a newer seq). */
export async function deleteRequest(db: Queryable, request: SyncRequest): Promise<void> {
  await db.query('DELETE FROM file_sync_requests WHERE server_id = $1 AND kind = $2 AND seq = $3', [request.serverId, request.kind, request.seq]);
}

/** Asks for a sync of both files of every live server of the accounts that ban or queue one of these players. */
export async function insertPlayerRequests(db: Queryable, platformIds: string[], atIso: string): Promise<void> {
  await db.query(
    `INSERT INTO file_sync_requests (server_id, kind, requested_at)
     SELECT s.id, k.kind, $2 FROM servers s CROSS JOIN unnest(ARRAY['bans', 'priority']) AS k(kind)
     WHERE s.revoked_at IS NULL AND s.account_id IN (
       SELECT account_id FROM bans WHERE platform_id = ANY($1::text[]) AND lifted_at IS NULL
       UNION SELECT account_id FROM priority_queue WHERE platform_id = ANY($1::text[]))
     ON CONFLICT (server_id, kind) DO UPDATE SET seq = nextval('file_sync_request_seq')`,
    [platformIds, atIso],
  );
}
