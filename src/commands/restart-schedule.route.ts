// /api/servers/:id/restart-schedule: a server's scheduled restarts (read with servers.read; set
// and removed with servers.control). The worker queues each restart from its warning time on.
import Router from '@koa/router';
import type { ServerOwnerDeps } from '../servers/server.ts';
import type { AppState } from '../http/context.ts';
import { notFound } from '../http/errors.ts';
import { bodyOf, jsonBody } from '../http/body.ts';
import { authenticate, requireAnyPermission, requirePermission } from '../auth/authenticate.ts';
import { accountServerId } from '../servers/server-param.ts';
import { findSchedule } from './restart-schedule.repo.ts';
import { removeRestartSchedule, scheduleView, setRestartSchedule } from './restart-schedules.ts';
import type { RestartSchedule } from '../http/schema-types.ts';

const scheduleBody = bodyOf('restart-schedule-set.json');

export function restartScheduleRouter(deps: ServerOwnerDeps): Router<AppState> {
  const router = new Router<AppState>({ prefix: '/api/servers', sensitive: true });
  router.use(authenticate(deps));
  const control = requirePermission('servers.control');

  router.get('/:id/restart-schedule', requireAnyPermission('servers.read', 'servers.control'), async (ctx) => {
    const schedule = await findSchedule(deps.db, await accountServerId(deps, ctx));
    if (!schedule) throw notFound('restart schedule');
    ctx.body = scheduleView(schedule) satisfies RestartSchedule;
  });

  router.put('/:id/restart-schedule', control, jsonBody, async (ctx) => {
    const body = scheduleBody(ctx);
    const serverId = await accountServerId(deps, ctx);
    ctx.body = scheduleView(
      await setRestartSchedule(deps, ctx, serverId, { ...body, message: body.message ?? null }),
    ) satisfies RestartSchedule;
  });

  router.delete('/:id/restart-schedule', control, async (ctx) => {
    if (!(await removeRestartSchedule(deps, ctx, await accountServerId(deps, ctx)))) throw notFound('restart schedule');
    ctx.status = 204;
  });

  return router;
}
