// Worker job: runs the start/restart commands admins asked for, oldest first. Each syncs the
// server's ban and priority files, then runs the server's restart command (if one is configured)
// with a timeout; the outcome (exit code, output tail) goes to the command's record and the audit
// log. A command a killed worker left running is marked failed, never retried by itself: running a
// restart twice is worse than reporting that it may not have run.
import type { Deps } from '../deps.ts';
import { insertAudit } from '../audit/audit.repo.ts';
import { syncGameFiles } from '../game-files/sync.ts';
import { claimCommand, failAbandonedCommands, finishCommand, restartCommandOf } from './command.repo.ts';
import { runShellCommand } from './run-command.ts';

const iso = (ms: number) => new Date(ms).toISOString();

export async function runServerCommands(deps: Deps): Promise<{ ran: number } | undefined> {
  const nowMs = deps.clock.now();
  await failAbandonedCommands(deps.db, iso(nowMs - deps.config.restartTimeoutMs - 60_000), iso(nowMs));
  let ran = 0;
  for (;;) {
    const command = await claimCommand(deps.db, iso(deps.clock.now()));
    if (!command) return ran > 0 ? { ran } : undefined;
    ran += 1;
    const sync = await syncGameFiles(deps, [{ serverId: command.serverId, kind: 'bans' }, { serverId: command.serverId, kind: 'priority' }]);
    const shell = await restartCommandOf(deps.db, command.serverId);
    // A file that could not be written does not stop a restart an admin needs; the audit entry says so.
    const outcome = shell ? await runShellCommand(shell, deps.config.restartTimeoutMs) : undefined;
    const failed = !!outcome && (outcome.timedOut || outcome.exitCode !== 0);
    const error = outcome?.timedOut ? `timed out after ${deps.config.restartTimeoutMs} ms` : failed ? `exit code ${outcome?.exitCode ?? outcome?.signal}` : null;
    const atIso = iso(deps.clock.now());
    await finishCommand(deps.db, command.id, { status: failed ? 'failed' : 'done', exitCode: outcome?.exitCode ?? null, outputTail: outcome?.outputTail ?? null, error, atIso });
    await insertAudit(deps.db, {
      accountId: command.accountId, at: atIso, actorType: 'user', actorId: command.requestedById, actorName: command.requestedByName,
      action: `server.${command.action}`, targetType: 'server', targetId: command.serverId, ip: null,
      details: {
        commandId: command.id, ran: !!outcome, exitCode: outcome?.exitCode ?? null, signal: outcome?.signal ?? null, timedOut: outcome?.timedOut ?? false,
        durationMs: outcome?.durationMs ?? 0, outputTail: outcome?.outputTail ?? null, filesSynced: sync.synced.length, filesFailed: sync.failed.map((f) => f.kind),
      },
    });
  }
}
