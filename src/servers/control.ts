// Start and restart requests: the web process records the command (and its audit entry) for the
// worker, which syncs the server's files and then runs the configured command, and waits up to
// RESTART_WAIT_MS for the outcome. Used by the controller route and the chat bot alike.
import { setTimeout as delay } from 'node:timers/promises';
import type { Deps } from '../deps.ts';
import type { AppContext } from '../http/context.ts';
import { principalOf } from '../auth/authenticate.ts';
import { auditAction } from '../audit/audit.ts';
import { inTransaction } from '../store/db.ts';
import { findCommand, insertCommand } from './command.repo.ts';
import type { ServerCommand } from './command.repo.ts';

export async function requestServerCommand(deps: Deps, ctx: AppContext, serverId: string, action: 'start' | 'restart'): Promise<ServerCommand> {
  const p = principalOf(ctx);
  const command = await inTransaction(deps.db, async (tx) => {
    const created = await insertCommand(tx, { serverId, accountId: p.accountId, action, by: { id: p.userId, name: p.username }, atIso: new Date(deps.clock.now()).toISOString() });
    await auditAction(deps, ctx, { action: `server.${action}.request`, target: { type: 'server', id: serverId }, details: { commandId: created.id } }, tx);
    return created;
  });
  // Polled on the real clock: the worker runs it meanwhile (in this process with the "all" role).
  let latest = command;
  for (let waited = 0; waited < deps.config.restartWaitMs && (latest.status === 'pending' || latest.status === 'running'); waited += 100) {
    await delay(100);
    latest = (await findCommand(deps.db, p.accountId, serverId, command.id)) ?? latest;
  }
  return latest;
}

export const commandFinished = (c: ServerCommand) => c.status === 'done' || c.status === 'failed';

export const commandView = (c: ServerCommand) => ({
  id: c.id, serverId: c.serverId, action: c.action, status: c.status, requestedAt: c.requestedAt, startedAt: c.startedAt,
  finishedAt: c.finishedAt, exitCode: c.exitCode, outputTail: c.outputTail, error: c.error,
});
