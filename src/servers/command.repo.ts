// SQL of server start/restart commands: requested by the web process, run by the worker.
import type { Queryable } from '../store/db.ts';

export interface ServerCommand {
  id: string;
  serverId: string;
  accountId: string;
  action: 'start' | 'restart';
  status: 'pending' | 'running' | 'done' | 'failed';
  requestedAt: string;
  startedAt: string | null;
  finishedAt: string | null;
  exitCode: number | null;
  outputTail: string | null;
  error: string | null;
}

const columns = `id, server_id AS "serverId", account_id AS "accountId", action, status, requested_at AS "requestedAt",
  started_at AS "startedAt", finished_at AS "finishedAt", exit_code AS "exitCode", output_tail AS "outputTail", error`;

export async function insertCommand(db: Queryable, c: { serverId: string; accountId: string; action: ServerCommand['action']; by: { id: string | null; name: string | null }; atIso: string }): Promise<ServerCommand> {
  const { rows } = await db.query<ServerCommand>(
    `INSERT INTO server_commands (server_id, account_id, action, requested_by_id, requested_by_name, requested_at) VALUES ($1, $2, $3, $4, $5, $6) RETURNING ${columns}`,
    [c.serverId, c.accountId, c.action, c.by.id, c.by.name, c.atIso],
  );
  return rows[0]!;
}

export async function findCommand(db: Queryable, accountId: string, serverId: string, commandId: string): Promise<ServerCommand | undefined> {
  const { rows } = await db.query<ServerCommand>(`SELECT ${columns} FROM server_commands WHERE id = $1 AND account_id = $2 AND server_id = $3`, [commandId, accountId, serverId]);
  return rows[0];
}

/** Claims the oldest pending command (running from now on); undefined when none waits. */
export async function claimCommand(db: Queryable, atIso: string): Promise<(ServerCommand & { requestedByName: string | null; requestedById: string | null }) | undefined> {
  const { rows } = await db.query<ServerCommand & { requestedByName: string | null; requestedById: string | null }>(
    `UPDATE server_commands SET status = 'running', started_at = $1 WHERE id = (
       SELECT id FROM server_commands WHERE status = 'pending' ORDER BY requested_at, id LIMIT 1 FOR UPDATE SKIP LOCKED)
     RETURNING ${columns}, requested_by_id AS "requestedById", requested_by_name AS "requestedByName"`,
    [atIso],
  );
  return rows[0];
}

export async function finishCommand(db: Queryable, id: string, outcome: { status: 'done' | 'failed'; exitCode: number | null; outputTail: string | null; error: string | null; atIso: string }): Promise<void> {
  await db.query(
    'UPDATE server_commands SET status = $2, exit_code = $3, output_tail = $4, error = $5, finished_at = $6 WHERE id = $1',
    [id, outcome.status, outcome.exitCode, outcome.outputTail, outcome.error, outcome.atIso],
  );
}

/** Commands a killed worker left running longer than `staleBeforeIso`: failed, so they do not hang. */
export async function failAbandonedCommands(db: Queryable, staleBeforeIso: string, atIso: string): Promise<number> {
  const { rowCount } = await db.query(
    "UPDATE server_commands SET status = 'failed', error = 'the worker stopped while running it', finished_at = $2 WHERE status = 'running' AND started_at < $1",
    [staleBeforeIso, atIso],
  );
  return rowCount ?? 0;
}

export async function restartCommandOf(db: Queryable, serverId: string): Promise<string | null> {
  const { rows } = await db.query<{ command: string | null }>('SELECT restart_command AS command FROM servers WHERE id = $1', [serverId]);
  return rows[0]?.command ?? null;
}
