// Commands for a server's agent, as admins give them (session; servers.control): restart (with a
// delay and a message), a message to every player, a kick. Each answers 202 with the command,
// which the agent carries out on the game host; its history is read with servers.read.
import Router from '@koa/router';
import type { ServerOwnerDeps } from '../servers/server.ts';
import type { AgentWaitsHeld } from './agent-waits.ts';
import type { AppContext, AppState } from '../http/context.ts';
import { notFound } from '../http/errors.ts';
import { bodyOf, jsonBody } from '../http/body.ts';
import { queryParser } from '../http/schemas.ts';
import { isUuid } from '../http/uuid.ts';
import { authenticate, requireAnyPermission, requirePermission } from '../auth/authenticate.ts';
import { canonicalPlatformId } from '../bans/bans.ts';
import { accountServerId } from '../servers/server-param.ts';
import { commandsPage, findCommand } from './command.repo.ts';
import { commandView } from './command.ts';
import type { CommandKind, CommandParams, CommandRecord } from './command.ts';
import { requestCommand } from './commands.ts';
import type { ServerCommand, ServerCommandList } from '../http/schema-types.ts';

const restartBody = bodyOf('server-restart.json');
const messageBody = bodyOf('server-message.json');
const kickBody = bodyOf('server-kick.json');
const pageQuery = queryParser('query-commands.json');

export function commandsRouter(deps: AgentWaitsHeld & ServerOwnerDeps): Router<AppState> {
  const router = new Router<AppState>({ prefix: '/api/servers', sensitive: true });
  router.use(authenticate(deps));
  const control = requirePermission('servers.control');
  const read = requireAnyPermission('servers.read', 'servers.control');
  const answer = (ctx: AppContext, status: number, command: CommandRecord) => {
    ctx.status = status;
    ctx.body = commandView(command, deps.clock.now()) satisfies ServerCommand;
  };
  const request = async (ctx: AppContext, kind: CommandKind, params: CommandParams) =>
    answer(ctx, 202, await requestCommand(deps, ctx, await accountServerId(deps, ctx), kind, params));

  router.post('/:id/restart', control, jsonBody, async (ctx) => {
    const body = restartBody(ctx);
    await request(ctx, 'restart', { delaySeconds: body.delaySeconds, message: body.message ?? null });
  });

  router.post('/:id/messages', control, jsonBody, async (ctx) => {
    await request(ctx, 'message', { text: messageBody(ctx).text });
  });

  router.post('/:id/kick', control, jsonBody, async (ctx) => {
    const body = kickBody(ctx);
    await request(ctx, 'kick', { platformId: await canonicalPlatformId(deps.db, body.platformId), reason: body.reason ?? null });
  });

  router.get('/:id/commands', read, async (ctx) => {
    const query = pageQuery(ctx.query);
    const serverId = await accountServerId(deps, ctx);
    const page = await commandsPage(deps.db, serverId, query.before ?? null, query.limit + 1);
    const more = page.length > query.limit;
    const shown = page.slice(0, query.limit);
    const last = shown.at(-1);
    ctx.body = {
      commands: shown.map((c) => commandView(c, deps.clock.now())),
      nextCursor: more && last ? last.seq : null,
    } satisfies ServerCommandList;
  });

  router.get('/:id/commands/:commandId', read, async (ctx) => {
    const serverId = await accountServerId(deps, ctx);
    const commandId = ctx.params.commandId!;
    const command = isUuid(commandId) ? await findCommand(deps.db, serverId, commandId) : undefined;
    if (!command) throw notFound('command');
    answer(ctx, 200, command);
  });

  return router;
}
