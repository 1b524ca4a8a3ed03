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

/** The worker's routine write of a game file: a community whose files sync often has thousands. */
export const routineSync = 'files.sync';

/** A target id as a uuid, or null for an id of another form (a cast of it would fail the whole page). */
const uuidOf = (column: string) =>
  `CASE WHEN ${column} ~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' THEN ${column}::uuid END`;
const targetUuid = uuidOf('l.target_id');

/**
 * The target's name as the service knows it now: a server's, user's, key's, bot's or community's
 * name; for a ban, queue entry, pool entry or player, the player's (the name given with it, else the
 * one last seen on the community's servers). Records of the entry's own account only, except the
 * network's (communities, partner keys, pool entries) that only the operator's log names.
 */
const targetName = `CASE l.target_type
  WHEN 'server' THEN (SELECT s.name FROM servers s WHERE s.id = ${targetUuid} AND s.account_id = l.account_id)
  WHEN 'user' THEN (SELECT u.username FROM users u WHERE u.id = ${targetUuid} AND u.account_id = l.account_id)
  WHEN 'apikey' THEN (SELECT k.name FROM api_keys k WHERE k.id = ${targetUuid} AND k.account_id = l.account_id)
  WHEN 'chat-bot' THEN (SELECT b.name FROM chat_bots b WHERE b.id = ${targetUuid} AND b.account_id = l.account_id)
  WHEN 'account' THEN (SELECT a.name FROM accounts a WHERE a.id = ${targetUuid})
  WHEN 'partner-key' THEN (SELECT p.name FROM partner_keys p WHERE p.id = ${targetUuid})
  WHEN 'ban' THEN (SELECT coalesce(b.player_name, seen_player_name(b.account_id, b.platform_id))
                   FROM bans b WHERE b.id = ${targetUuid} AND b.account_id = l.account_id)
  WHEN 'queue-entry' THEN coalesce(
    (SELECT q.player_name FROM priority_queue q WHERE q.id = ${targetUuid} AND q.account_id = l.account_id),
    seen_player_name(l.account_id, l.details->>'platformId'))
  WHEN 'trust-entry' THEN (SELECT coalesce((SELECT b.player_name FROM bans b WHERE b.id = e.ban_id), seen_player_name(e.account_id, e.platform_id))
                           FROM trust_entries e WHERE e.id = ${targetUuid})
  WHEN 'player' THEN seen_player_name(l.account_id, l.target_id)
END`;

/** An entry as the answers show it, its target named (audit_log as l). */
const entryColumns = `l.id::text, l.at, json_build_object('type', l.actor_type, 'id', l.actor_id, 'name', l.actor_name) AS actor, l.action,
  json_build_object('type', l.target_type, 'id', l.target_id, 'name', ${targetName}) AS target, l.ip, l.details`;

/** The account's entries about these targets (one type), newest first. */
export async function auditOfTargets(
  db: Queryable,
  accountId: string,
  targetType: string,
  targetIds: string[],
  limit: number,
): Promise<AuditEntry[]> {
  const { rows } = await db.query<AuditEntry>(
    `SELECT ${entryColumns} FROM audit_log l WHERE l.account_id = $1 AND l.target_type = $2 AND l.target_id = ANY($3::text[])
     ORDER BY l.id DESC LIMIT $4`,
    [accountId, targetType, targetIds, limit],
  );
  return rows;
}

/** The account's entries about queue entries of a player under any of these ids (removed entries too), newest first. */
export async function auditOfQueuedPlayer(db: Queryable, accountId: string, platformIds: string[], limit: number): Promise<AuditEntry[]> {
  const { rows } = await db.query<AuditEntry>(
    `SELECT ${entryColumns} FROM audit_log l WHERE l.account_id = $1 AND l.target_type = 'queue-entry' AND l.details ->> 'platformId' = ANY($2::text[])
     ORDER BY l.id DESC LIMIT $3`,
    [accountId, platformIds, limit],
  );
  return rows;
}

export type AuditFilter = Pick<AuditQuery, 'actor' | 'action' | 'fileSyncs'>;

/**
 * Newest first, keyset-paged by id (entries with an id below `beforeId`), each target with its name.
 * The routine file syncs are left out unless asked for, or unless the action filter names them.
 * The ORDER BY names l.id: a bare `id` would mean the text output column and sort '99' after '100'.
 */
export async function auditPage(
  db: Queryable,
  accountId: string,
  beforeId: string | null,
  limit: number,
  filter: AuditFilter = {},
): Promise<AuditEntry[]> {
  const syncsAsked = filter.fileSyncs === true || filter.action === 'files' || filter.action === routineSync;
  const { rows } = await db.query<AuditEntry>(
    `SELECT ${entryColumns}
     FROM audit_log l WHERE l.account_id = $1 AND ($2::int8 IS NULL OR l.id < $2::int8)
       AND ($4::text IS NULL OR lower(l.actor_name) = lower($4) OR l.actor_id = $4)
       AND ($5::text IS NULL OR l.action = $5 OR left(l.action, length($5) + 1) = $5 || '.')
       ${syncsAsked ? '' : `AND l.action <> '${routineSync}'`}
     ORDER BY l.id DESC LIMIT $3`,
    [accountId, beforeId, limit, filter.actor ?? null, filter.action ?? null],
  );
  return rows;
}
