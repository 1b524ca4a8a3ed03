// Restart schedules end to end: set by admins (audited), and the worker's job that queues each
// scheduled restart from its warning time on, as the service (`system`), once per shutdown time.
import type { Core } from '../core.ts';
import type { RestartSchedule as RestartScheduleAnswer } from '../http/schema-types.ts';
import type { AppContext } from '../http/context.ts';
import { badRequest } from '../http/errors.ts';
import { inTransaction } from '../store/db.ts';
import { auditAction } from '../audit/audit.ts';
import { insertAudit } from '../audit/audit.repo.ts';
import { principalOf } from '../auth/authenticate.ts';
import { insertCommands } from './command.repo.ts';
import { wakeAgents } from './agent-waits.ts';
import { isTimeZone, nextShutdownAfter, scheduleStep } from './restart-schedule.ts';
import type { RestartSchedule } from './restart-schedule.ts';
import { deleteSchedule, dueSchedules, saveSchedule, setNextAt } from './restart-schedule.repo.ts';
import type { StoredSchedule } from './restart-schedule.repo.ts';
import type { AgentWaitsHeld } from './agent-waits.ts';

const iso = (ms: number) => new Date(ms).toISOString();

export const scheduleView = (s: StoredSchedule): RestartScheduleAnswer => ({
  enabled: s.enabled,
  timeZone: s.timeZone,
  times: [...s.times].sort(),
  warningSeconds: s.warningSeconds,
  message: s.message,
  nextAt: s.nextAt,
  updatedAt: s.updatedAt,
});

export async function setRestartSchedule(
  deps: Core,
  ctx: AppContext,
  serverId: string,
  schedule: RestartSchedule,
): Promise<StoredSchedule> {
  if (!isTimeZone(schedule.timeZone))
    throw badRequest(`body.timeZone "${schedule.timeZone}" is no IANA time zone (e.g. Europe/Berlin, America/New_York, UTC)`);
  const nowMs = deps.clock.now();
  const nextAt = schedule.enabled ? iso(nextShutdownAfter(schedule, nowMs)) : null;
  return inTransaction(deps.db, async (tx) => {
    const saved = await saveSchedule(tx, serverId, principalOf(ctx).accountId, schedule, nextAt, iso(nowMs));
    await auditAction(
      deps,
      ctx,
      { action: 'server.restart-schedule.set', target: { type: 'server', id: serverId }, details: { ...scheduleView(saved) } },
      tx,
    );
    return saved;
  });
}

export async function removeRestartSchedule(deps: Core, ctx: AppContext, serverId: string): Promise<boolean> {
  return inTransaction(deps.db, async (tx) => {
    const removed = await deleteSchedule(tx, serverId);
    if (removed) await auditAction(deps, ctx, { action: 'server.restart-schedule.remove', target: { type: 'server', id: serverId } }, tx);
    return removed;
  });
}

/** Worker job: queues the scheduled restarts whose warning time has come; moves each schedule on. */
export async function queueScheduledRestarts(deps: Core & AgentWaitsHeld): Promise<{ queued: number; skipped: number } | undefined> {
  const nowMs = deps.clock.now();
  const woken: string[] = [];
  let skipped = 0;
  await inTransaction(deps.db, async (tx) => {
    for (const s of await dueSchedules(tx, iso(nowMs), 500)) {
      const nextMs = Date.parse(s.nextAt!);
      const step = scheduleStep(nextMs, s.warningSeconds, nowMs);
      if (step === 'skip') skipped += 1;
      else if (step !== 'wait') {
        const requestedBy = { type: 'system' as const, id: null, name: 'restart schedule' };
        const [created] = await insertCommands(
          tx,
          [
            {
              serverId: s.serverId,
              accountId: s.accountId,
              kind: 'restart',
              params: { delaySeconds: step.queue.delaySeconds, message: s.message },
              requestedBy,
              scheduledFor: s.nextAt!,
            },
          ],
          iso(nowMs),
        );
        if (created) {
          woken.push(s.serverId);
          await insertAudit(tx, {
            accountId: s.accountId,
            at: iso(nowMs),
            actorType: 'system',
            actorId: null,
            actorName: requestedBy.name,
            action: 'server.restart',
            targetType: 'server',
            targetId: s.serverId,
            ip: null,
            details: { commandId: created.id, scheduledFor: s.nextAt, delaySeconds: step.queue.delaySeconds },
          });
        }
      }
      if (step !== 'wait') await setNextAt(tx, s.serverId, iso(nextShutdownAfter(s, Math.max(nowMs, nextMs))));
    }
  });
  await wakeAgents(deps, woken);
  return woken.length + skipped > 0 ? { queued: woken.length, skipped } : undefined;
}
