// SQL of agent commands: created by admins, bans and schedules; handed to the agent's long poll,
// answered by it, expired when untaken or unanswered in time (rules in command.ts).
import type { Queryable } from '../store/db.ts';
import { rehandAfterMs, restartGraceMs, takeWithinMs } from './command.ts';
import type { CommandRecord, NewCommand } from './command.ts';

const columns = `id, seq::text AS seq, server_id AS "serverId", account_id AS "accountId", kind, params, status,
  json_build_object('type', requested_by_type, 'id', requested_by_id, 'name', requested_by_name) AS "requestedBy",
  created_at AS "createdAt", expires_at AS "expiresAt", sent_at AS "sentAt", finished_at AS "finishedAt", detail`;

/**
 * Past this time an open command is no longer handed: for a restart once taken, a minute after it
 * was due (an agent restarted mid-countdown resumes it, never fires it late); else its expiry.
 */
const handDeadline = (graceMs: string) => `CASE WHEN kind = 'restart' AND sent_at IS NOT NULL
  THEN sent_at + make_interval(secs => (params->>'delaySeconds')::int) + ${graceMs} * interval '1 millisecond' ELSE expires_at END`;
/** Open and, if handed, unanswered for the re-hand time. */
const waiting = (now: string, rehandMs: string) =>
  `status IN ('pending', 'sent') AND (status = 'pending' OR handed_at <= ${now}::timestamptz - ${rehandMs} * interval '1 millisecond')`;

export async function insertCommands(db: Queryable, commands: NewCommand[], nowIso: string): Promise<CommandRecord[]> {
  if (commands.length === 0) return [];
  const { rows } = await db.query<CommandRecord>(
    `INSERT INTO server_commands (server_id, account_id, kind, params, requested_by_type, requested_by_id, requested_by_name, created_at, expires_at, scheduled_for)
     SELECT s, a, k, p, bt, bi, bn, $8, $8::timestamptz + $9 * interval '1 millisecond', f
     FROM unnest($1::uuid[], $2::uuid[], $3::text[], $4::jsonb[], $5::text[], $6::text[], $7::text[], $10::timestamptz[]) AS c(s, a, k, p, bt, bi, bn, f)
     ON CONFLICT (server_id, scheduled_for) WHERE scheduled_for IS NOT NULL DO NOTHING
     RETURNING ${columns}`,
    [
      commands.map((c) => c.serverId),
      commands.map((c) => c.accountId),
      commands.map((c) => c.kind),
      commands.map((c) => JSON.stringify(c.params)),
      commands.map((c) => c.requestedBy.type),
      commands.map((c) => c.requestedBy.id),
      commands.map((c) => c.requestedBy.name),
      nowIso,
      takeWithinMs,
      commands.map((c) => c.scheduledFor ?? null),
    ],
  );
  return rows;
}

export async function findCommand(db: Queryable, serverId: string, commandId: string): Promise<CommandRecord | undefined> {
  const { rows } = await db.query<CommandRecord>(`SELECT ${columns} FROM server_commands WHERE id = $1 AND server_id = $2`, [
    commandId,
    serverId,
  ]);
  return rows[0];
}

/** A server's commands, newest first (by the column: the text `seq` it answers would sort '10' before '9'), those made before the command of sequence number `beforeSeq` when given. */
export async function commandsPage(db: Queryable, serverId: string, beforeSeq: string | null, limit: number): Promise<CommandRecord[]> {
  const { rows } = await db.query<CommandRecord>(
    `SELECT ${columns} FROM server_commands WHERE server_id = $1 AND ($2::int8 IS NULL OR seq < $2::int8) ORDER BY server_commands.seq DESC LIMIT $3`,
    [serverId, beforeSeq, limit],
  );
  return rows;
}

/**
 * Hands the server's waiting commands to the agent asking, oldest first: pending ones, and sent ones
 * unanswered for the re-hand time (the agent that took them was restarted). Rows another poll is
 * handing at this moment are skipped, so a command goes to one agent at a time.
 */
export async function handCommands(db: Queryable, serverId: string, nowIso: string, limit: number): Promise<CommandRecord[]> {
  const { rows } = await db.query<CommandRecord>({
    name: 'hand-commands',
    text: `UPDATE server_commands SET status = 'sent', sent_at = coalesce(sent_at, $2), handed_at = $2, hands = hands + 1
           WHERE id IN (SELECT id FROM server_commands WHERE server_id = $1 AND ${waiting('$2', '$4')} AND ${handDeadline('$3')} > $2
                        ORDER BY seq LIMIT $5 FOR UPDATE SKIP LOCKED)
           RETURNING ${columns}`,
    values: [serverId, nowIso, restartGraceMs, rehandAfterMs, limit],
  });
  return rows.sort((a, b) => Number(a.seq) - Number(b.seq));
}

/** Expires the open commands past their hand deadline; returns them. */
export async function expireCommands(db: Queryable, nowIso: string): Promise<CommandRecord[]> {
  const { rows } = await db.query<CommandRecord>(
    `UPDATE server_commands SET status = 'expired', finished_at = $1,
       detail = CASE WHEN status = 'pending' THEN 'no agent took it within 10 minutes' ELSE 'the agent did not answer in time' END
     WHERE id IN (SELECT id FROM server_commands WHERE ${waiting('$1', '$3')} AND ${handDeadline('$2')} <= $1 FOR UPDATE SKIP LOCKED)
     RETURNING ${columns}`,
    [nowIso, restartGraceMs, rehandAfterMs],
  );
  return rows;
}

/**
 * Records the agent's answer to a command it was handed. A late answer to one that expired after it
 * was handed is taken too: it says what happened on the game host. Undefined when not answerable.
 */
export async function finishCommand(
  db: Queryable,
  serverId: string,
  commandId: string,
  status: 'done' | 'failed',
  detail: string | null,
  nowIso: string,
): Promise<CommandRecord | undefined> {
  const { rows } = await db.query<CommandRecord>(
    `UPDATE server_commands SET status = $3, detail = $4, finished_at = $5
     WHERE id = $1 AND server_id = $2 AND sent_at IS NOT NULL AND status IN ('sent', 'expired')
     RETURNING ${columns}`,
    [commandId, serverId, status, detail, nowIso],
  );
  return rows[0];
}
