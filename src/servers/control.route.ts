// POST /api/servers/:id/start and /restart (servers.control): the worker syncs the server's ban and
// priority files, then runs its restart command. The web process only records the request (it
// never writes files or runs commands) and waits up to RESTART_WAIT_MS for the outcome: 200 with it,
// else 202 with the pending command, readable at GET /api/servers/:id/commands/:commandId.
import Router from '@koa/router';
import type { Deps } from '../deps.ts';
import type { AppContext, AppState } from '../http/context.ts';
import { notFound } from '../http/errors.ts';
import { isUuid } from '../http/uuid.ts';
import { authenticate, principalOf, requirePermission } from '../auth/authenticate.ts';
import { requireAnyPermission } from '../bans/bans.route.ts';
import { findManagedServer } from './server.repo.ts';
import { findCommand } from './command.repo.ts';
import { commandFinished, commandView, requestServerCommand } from './control.ts';

const idOf = (ctx: AppContext, name: string, what: string) => {
  const id = ctx.params[name]!;
  if (!isUuid(id)) throw notFound(what);
  return id;
};

export function serverControlRouter(deps: Deps): Router<AppState> {
  const router = new Router<AppState>({ prefix: '/api/servers', sensitive: true });
  router.use(authenticate(deps));

  for (const action of ['start', 'restart'] as const) {
    router.post(`/:id/${action}`, requirePermission('servers.control'), async (ctx) => {
      const server = await findManagedServer(deps.db, principalOf(ctx).accountId, idOf(ctx, 'id', 'server'));
      if (!server) throw notFound('server');
      const command = await requestServerCommand(deps, ctx, server.id, action);
      ctx.status = commandFinished(command) ? 200 : 202;
      ctx.body = commandView(command);
    });
  }

  router.get('/:id/commands/:commandId', requireAnyPermission('servers.control', 'servers.read'), async (ctx) => {
    const command = await findCommand(deps.db, principalOf(ctx).accountId, idOf(ctx, 'id', 'server'), idOf(ctx, 'commandId', 'command'));
    if (!command) throw notFound('command');
    ctx.body = commandView(command);
  });

  return router;
}
