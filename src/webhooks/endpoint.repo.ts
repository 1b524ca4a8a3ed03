// SQL of a community's webhook endpoints: create, read, change, delete, rotate the secret's
// generation, and the delivery state of the event at the head of each endpoint's queue.
import type { Queryable } from '../store/db.ts';
import type { WebhookEvent } from './events.ts';

export type EndpointFormat = 'discord' | 'standard';

export interface Endpoint {
  id: string;
  accountId: string;
  url: string;
  format: EndpointFormat;
  events: WebhookEvent[];
  serverIds: string[] | null;
  /** The Discord role a watched player's join mentions. */
  mentionRoleId: string | null;
  secretGeneration: number;
  previousSecretValidUntil: string | null;
  pausedAt: string | null;
  pausedReason: string | null;
  /** hand: its community paused it; failures: the worker, after 24 hours of failed deliveries. */
  pausedBy: 'hand' | 'failures' | null;
  retryAt: string | null;
  failingSince: string | null;
  failedAttempts: number;
  createdAt: string;
  updatedAt: string;
}

const columns = `id, account_id AS "accountId", url, format, events, server_ids AS "serverIds", mention_role_id AS "mentionRoleId",
  secret_generation AS "secretGeneration",
  previous_secret_valid_until AS "previousSecretValidUntil", paused_at AS "pausedAt", paused_reason AS "pausedReason", paused_by AS "pausedBy",
  retry_at AS "retryAt", failing_since AS "failingSince", failed_attempts AS "failedAttempts", created_at AS "createdAt",
  updated_at AS "updatedAt"`;

export interface NewEndpoint {
  url: string;
  format: EndpointFormat;
  events: WebhookEvent[];
  serverIds: string[] | null;
  mentionRoleId: string | null;
}

export async function insertEndpoint(db: Queryable, accountId: string, e: NewEndpoint, atIso: string): Promise<Endpoint> {
  const { rows } = await db.query<Endpoint>(
    `INSERT INTO webhook_endpoints (account_id, url, format, events, server_ids, mention_role_id, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $7, $6, $6) RETURNING ${columns}`,
    [accountId, e.url, e.format, e.events, e.serverIds, atIso, e.mentionRoleId],
  );
  return rows[0]!;
}

export async function listEndpoints(db: Queryable, accountId: string): Promise<Endpoint[]> {
  const { rows } = await db.query<Endpoint>(`SELECT ${columns} FROM webhook_endpoints WHERE account_id = $1 ORDER BY created_at, id`, [
    accountId,
  ]);
  return rows;
}

/** The account's endpoint (another account's is none); `lock` holds it to the transaction's end. */
export async function findEndpoint(db: Queryable, accountId: string, id: string, lock = false): Promise<Endpoint | undefined> {
  const { rows } = await db.query<Endpoint>(
    `SELECT ${columns} FROM webhook_endpoints WHERE id = $1 AND account_id = $2${lock ? ' FOR NO KEY UPDATE' : ''}`,
    [id, accountId],
  );
  return rows[0];
}

/** An endpoint by id alone, for the worker. */
export async function endpointById(db: Queryable, id: string): Promise<Endpoint | undefined> {
  const { rows } = await db.query<Endpoint>(`SELECT ${columns} FROM webhook_endpoints WHERE id = $1`, [id]);
  return rows[0];
}

export interface EndpointChange {
  url?: string;
  events?: WebhookEvent[];
  /** null: every server. */
  serverIds?: string[] | null;
  /** null: no one. */
  mentionRoleId?: string | null;
  /** true pauses (by hand), false resumes: a resumed endpoint tries its waiting events afresh. */
  paused?: boolean;
}

export async function updateEndpoint(
  db: Queryable,
  accountId: string,
  id: string,
  change: EndpointChange,
  atIso: string,
): Promise<Endpoint | undefined> {
  const { rows } = await db.query<Endpoint>(
    `UPDATE webhook_endpoints SET
       url = coalesce($3, url),
       events = coalesce($4, events),
       server_ids = CASE WHEN $5 THEN $6::uuid[] ELSE server_ids END,
       paused_at = CASE WHEN $7::bool IS NULL THEN paused_at WHEN $7 THEN coalesce(paused_at, $8) ELSE NULL END,
       paused_reason = CASE WHEN $7::bool IS NULL THEN paused_reason WHEN $7 THEN coalesce(paused_reason, 'paused by hand') ELSE NULL END,
       paused_by = CASE WHEN $7::bool IS NULL THEN paused_by WHEN $7 THEN coalesce(paused_by, 'hand') ELSE NULL END,
       retry_at = CASE WHEN $7 = false THEN NULL ELSE retry_at END,
       failing_since = CASE WHEN $7 = false THEN NULL ELSE failing_since END,
       failed_attempts = CASE WHEN $7 = false THEN 0 ELSE failed_attempts END,
       mention_role_id = CASE WHEN $9 THEN $10 ELSE mention_role_id END,
       updated_at = $8
     WHERE id = $1 AND account_id = $2 RETURNING ${columns}`,
    [
      id,
      accountId,
      change.url ?? null,
      change.events ?? null,
      'serverIds' in change,
      change.serverIds ?? null,
      change.paused ?? null,
      atIso,
      'mentionRoleId' in change,
      change.mentionRoleId ?? null,
    ],
  );
  return rows[0];
}

export async function deleteEndpoint(db: Queryable, accountId: string, id: string): Promise<boolean> {
  const { rowCount } = await db.query('DELETE FROM webhook_endpoints WHERE id = $1 AND account_id = $2', [id, accountId]);
  return (rowCount ?? 0) > 0;
}

/** A new secret generation; the one before keeps signing until `previousValidUntil`. */
export async function rotateEndpointSecret(
  db: Queryable,
  accountId: string,
  id: string,
  atIso: string,
  previousValidUntil: string,
): Promise<Endpoint | undefined> {
  const { rows } = await db.query<Endpoint>(
    `UPDATE webhook_endpoints SET secret_generation = secret_generation + 1, previous_secret_valid_until = $4, updated_at = $3
     WHERE id = $1 AND account_id = $2 AND format = 'standard' RETURNING ${columns}`,
    [id, accountId, atIso, previousValidUntil],
  );
  return rows[0];
}
