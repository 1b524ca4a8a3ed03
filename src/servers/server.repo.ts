// SQL for game servers: registration, revocation, ingest tokens and the status record.
import type { ServerCreate } from '../http/schema-types.ts';
import type { Queryable } from '../store/db.ts';

/** The server's row as the Data API and ingestion need it (cached in Redis as JSON). */
export interface ServerRecord {
  id: string;
  accountId: string;
  name: string;
  map: string | null;
  gameVersion: string | null;
  statusOnline: boolean;
  statusAt: string | null;
  lastSeenAt: string | null;
  players: number | null;
  fps: number | null;
  uptimeSeconds: number | null;
  metricsAt: string | null;
  revoked: boolean;
  /** How many batches have changed the server's derived state (servers.derived_version). */
  version: number;
}

export const serverRecordColumns = `id, account_id AS "accountId", name, map, game_version AS "gameVersion",
  online AS "statusOnline", status_at AS "statusAt", last_seen_at AS "lastSeenAt", players, fps,
  uptime_seconds AS "uptimeSeconds", metrics_at AS "metricsAt", revoked_at IS NOT NULL AS revoked,
  derived_version AS version`;

/** A server as the controller registers it; `id` fixes the id (demo data): an existing server of that id is kept. */
export type NewServer = ServerCreate & { id?: string };

export async function insertServer(db: Queryable, accountId: string, server: NewServer, tokenHash: Buffer): Promise<ServerRecord> {
  const { rows } = await db.query<ServerRecord>(
    `INSERT INTO servers (id, account_id, name, ban_file_path, priority_file_path, ingest_token_hash)
     VALUES (coalesce($6::uuid, gen_random_uuid()), $1, $2, $3, $4, $5)
     ON CONFLICT (id) DO UPDATE SET ingest_token_hash = excluded.ingest_token_hash, revoked_at = NULL
     WHERE servers.account_id = excluded.account_id
     RETURNING ${serverRecordColumns}`,
    [accountId, server.name, server.banFilePath ?? null, server.priorityFilePath ?? null, tokenHash, server.id ?? null],
  );
  return rows[0]!;
}

export async function findServerRecord(db: Queryable, serverId: string): Promise<ServerRecord | undefined> {
  const { rows } = await db.query<ServerRecord>({
    name: 'server-record',
    text: `SELECT ${serverRecordColumns} FROM servers WHERE id = $1`,
    values: [serverId],
  });
  return rows[0];
}

/** Non-revoked servers of an account, newest activity first, never-seen ones last (newest created first). */
export async function listServerRecords(db: Queryable, accountId: string): Promise<ServerRecord[]> {
  const { rows } = await db.query<ServerRecord>({
    name: 'server-list',
    text: `SELECT ${serverRecordColumns} FROM servers WHERE account_id = $1 AND revoked_at IS NULL
           ORDER BY last_seen_at DESC NULLS LAST, created_at DESC, id`,
    values: [accountId],
  });
  return rows;
}

export async function listAllServerIds(db: Queryable): Promise<string[]> {
  const { rows } = await db.query<{ id: string }>('SELECT id FROM servers WHERE revoked_at IS NULL ORDER BY id');
  return rows.map((r) => r.id);
}

/** Every live server with its derived-state version, for the reconcile job. */
export async function listServerVersions(db: Queryable): Promise<{ id: string; version: number }[]> {
  const { rows } = await db.query<{ id: string; version: number }>(
    'SELECT id, derived_version AS version FROM servers WHERE revoked_at IS NULL ORDER BY id',
  );
  return rows;
}

/** The ingest-token hashes of these servers; an unknown or revoked server is left out. */
export async function findIngestTokenHashes(db: Queryable, serverIds: string[]): Promise<Map<string, Buffer>> {
  const { rows } = await db.query<{ id: string; hash: Buffer }>({
    name: 'server-ingest-tokens',
    text: 'SELECT id, ingest_token_hash AS hash FROM servers WHERE id = ANY($1::uuid[]) AND revoked_at IS NULL',
    values: [serverIds],
  });
  return new Map(rows.map((r) => [r.id, r.hash]));
}

export async function revokeServerRow(db: Queryable, accountId: string, serverId: string): Promise<boolean> {
  const { rowCount } = await db.query('UPDATE servers SET revoked_at = coalesce(revoked_at, now()) WHERE id = $1 AND account_id = $2', [
    serverId,
    accountId,
  ]);
  return rowCount === 1;
}

export async function replaceIngestTokenHash(db: Queryable, accountId: string, serverId: string, tokenHash: Buffer): Promise<boolean> {
  const { rowCount } = await db.query(
    'UPDATE servers SET ingest_token_hash = $3 WHERE id = $1 AND account_id = $2 AND revoked_at IS NULL',
    [serverId, accountId, tokenHash],
  );
  return rowCount === 1;
}

/** A server as its admins manage it (the controller view). */
export interface ManagedServer {
  id: string;
  name: string;
  banFilePath: string | null;
  priorityFilePath: string | null;
  createdAt: string;
  statusOnline: boolean;
  statusAt: string | null;
  lastSeenAt: string | null;
  map: string | null;
  /** The newest metrics sample (players, fps) and its time. */
  players: number | null;
  fps: number | null;
  metricsAt: string | null;
}

const managedColumns = `id, name, ban_file_path AS "banFilePath", priority_file_path AS "priorityFilePath",
  created_at AS "createdAt", online AS "statusOnline", status_at AS "statusAt",
  last_seen_at AS "lastSeenAt", map, players, fps, metrics_at AS "metricsAt"`;

export async function listManagedServers(db: Queryable, accountId: string): Promise<ManagedServer[]> {
  const { rows } = await db.query<ManagedServer>(
    `SELECT ${managedColumns} FROM servers WHERE account_id = $1 AND revoked_at IS NULL ORDER BY created_at DESC, id`,
    [accountId],
  );
  return rows;
}

export async function findManagedServer(db: Queryable, accountId: string, serverId: string): Promise<ManagedServer | undefined> {
  const { rows } = await db.query<ManagedServer>(
    `SELECT ${managedColumns} FROM servers WHERE id = $1 AND account_id = $2 AND revoked_at IS NULL`,
    [serverId, accountId],
  );
  return rows[0];
}

export type ServerChange = Partial<Pick<ManagedServer, 'name' | 'banFilePath' | 'priorityFilePath'>>;

/** Changes the given fields (a field given as null is cleared). */
export async function updateManagedServer(
  db: Queryable,
  accountId: string,
  serverId: string,
  change: ServerChange,
): Promise<ManagedServer | undefined> {
  const { rows } = await db.query<ManagedServer>(
    `UPDATE servers SET
       name = CASE WHEN $3 THEN $4 ELSE name END,
       ban_file_path = CASE WHEN $5 THEN $6 ELSE ban_file_path END,
       priority_file_path = CASE WHEN $7 THEN $8 ELSE priority_file_path END
     WHERE id = $1 AND account_id = $2 AND revoked_at IS NULL RETURNING ${managedColumns}`,
    [
      serverId,
      accountId,
      'name' in change,
      change.name ?? null,
      'banFilePath' in change,
      change.banFilePath ?? null,
      'priorityFilePath' in change,
      change.priorityFilePath ?? null,
    ],
  );
  return rows[0];
}

/**
 * The file paths of live servers of every account (two servers never write one file), ban and
 * priority files alike, one entry per server and file; but those of `exceptServerId`.
 */
export async function liveServerFilePaths(db: Queryable, exceptServerId: string | null = null): Promise<string[]> {
  const { rows } = await db.query<{ path: string }>(
    `SELECT p.path FROM servers s CROSS JOIN LATERAL (VALUES (s.ban_file_path), (s.priority_file_path)) AS p(path)
     WHERE s.revoked_at IS NULL AND p.path IS NOT NULL AND s.id IS DISTINCT FROM $1::uuid`,
    [exceptServerId],
  );
  return rows.map((r) => r.path);
}

/** Ids of the account's live (not revoked) servers. */
export async function liveServerIdsOf(db: Queryable, accountId: string): Promise<string[]> {
  const { rows } = await db.query<{ id: string }>('SELECT id FROM servers WHERE account_id = $1 AND revoked_at IS NULL ORDER BY id', [
    accountId,
  ]);
  return rows.map((r) => r.id);
}
