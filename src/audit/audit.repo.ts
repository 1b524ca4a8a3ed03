// SQL for the audit log.
import type { AuditEntry } from '../http/schema-types.ts';
import type { AuditQuery } from '../http/schema-types.ts';
import type { Queryable } from '../store/db.ts';

export interface AuditRecord {
  accountId: string | null;
  at: string;
  actorType: 'user' | 'system' | 'chat';
  actorId: string | null;
  actorName: string | null;
  action: string;
  targetType: string | null;
  targetId: string | null;
  ip: string | null;
  details: Record<string, unknown>;
}

export type { AuditEntry };

export async function insertAudit(db: Queryable, r: AuditRecord): Promise<void> {
  await db.query(
    `INSERT INTO audit_log (account_id, at, actor_type, actor_id, actor_name, action, target_type, target_id, ip, details)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
    [r.accountId, r.at, r.actorType, r.actorId, r.actorName, r.action, r.targetType, r.targetId, r.ip, JSON.stringify(r.details)],
  );
}

const entryColumns = `id::text, at, json_build_object('type', actor_type, 'id', actor_id, 'name', actor_name) AS actor, action,
  json_build_object('type', target_type, 'id', target_id) AS target, ip, details`;

/** The account's entries about these targets (one type), newest first. */
export async function auditOfTargets(
  db: Queryable,
  accountId: string,
  targetType: string,
  targetIds: string[],
  limit: number,
): Promise<AuditEntry[]> {
  const { rows } = await db.query<AuditEntry>(
    `SELECT ${entryColumns} FROM audit_log WHERE account_id = $1 AND target_type = $2 AND target_id = ANY($3::text[])
     ORDER BY audit_log.id DESC LIMIT $4`,
    [accountId, targetType, targetIds, limit],
  );
  return rows;
}

/** The account's entries about queue entries of a player under any of these ids (removed entries too), newest first. */
export async function auditOfQueuedPlayer(db: Queryable, accountId: string, platformIds: string[], limit: number): Promise<AuditEntry[]> {
  const { rows } = await db.query<AuditEntry>(
    `SELECT ${entryColumns} FROM audit_log WHERE account_id = $1 AND target_type = 'queue-entry' AND details ->> 'platformId' = ANY($2::text[])
     ORDER BY audit_log.id DESC LIMIT $3`,
    [accountId, platformIds, limit],
  );
  return rows;
}

export type AuditFilter = Pick<AuditQuery, 'actor' | 'action'>;

/** Newest first, keyset-paged by id (entries with an id below `beforeId`). The ORDER BY names
 * audit_log.id: a bare `id` would mean the text output column and sort '99' after '100'. */
export async function auditPage(
  db: Queryable,
  accountId: string,
  beforeId: string | null,
  limit: number,
  filter: AuditFilter = {},
): Promise<AuditEntry[]> {
  const { rows } = await db.query<AuditEntry>(
    `SELECT id::text, at, json_build_object('type', actor_type, 'id', actor_id, 'name', actor_name) AS actor, action,
            json_build_object('type', target_type, 'id', target_id) AS target, ip, details
     FROM audit_log WHERE account_id = $1 AND ($2::int8 IS NULL OR id < $2::int8)
       AND ($4::text IS NULL OR lower(actor_name) = lower($4) OR actor_id = $4)
       AND ($5::text IS NULL OR action = $5 OR left(action, length($5) + 1) = $5 || '.')
     ORDER BY audit_log.id DESC LIMIT $3`,
    [accountId, beforeId, limit, filter.actor ?? null, filter.action ?? null],
  );
  return rows;
}
