// What a server's agent calls with its ingest token to carry out commands on its game host: the
// long poll that hands it its commands (200 with them, oldest first, or 204 when none came within
// `wait` seconds), and the result of each (done or failed, with what happened).
import Router from '@koa/router';
import type { IngestTokenDeps } from '../ingest/ingest-token.ts';
import type { AgentWaitsHeld } from './agent-waits.ts';
import type { AppState } from '../http/context.ts';
import { ApiError, notFound } from '../http/errors.ts';
import { bodyOf, jsonBody } from '../http/body.ts';
import { queryParser } from '../http/schemas.ts';
import { isUuid } from '../http/uuid.ts';
import { admitServerAgent } from '../ingest/ingest-admission.ts';
import { liveServerOwner } from '../servers/server.ts';
import { commandView } from './command.ts';
import { recordResult, takeCommands } from './commands.ts';
import type { ServerOwnerDeps } from '../servers/server.ts';
import type { AgentCommands, ServerCommand } from '../http/schema-types.ts';

const waitQuery = queryParser('query-command-wait.json');
const resultBody = bodyOf('command-result.json');

export function agentCommandsRouter(deps: ServerOwnerDeps & AgentWaitsHeld & IngestTokenDeps): Router<AppState> {
  const router = new Router<AppState>({ sensitive: true });

  router.get('/api/servers/:serverId/commands/next', async (ctx) => {
    const serverId = ctx.params.serverId!;
    await admitServerAgent(deps, ctx, serverId);
    const { wait } = waitQuery(ctx.query);
    // The agent hanging up ends the wait: no command is handed to a connection that is gone.
    const hungUp = new AbortController();
    ctx.res.once('close', () => hungUp.abort());
    const commands = await takeCommands(deps, serverId, wait * 1000, hungUp.signal);
    ctx.set('Cache-Control', 'no-store');
    if (commands.length === 0) {
      ctx.status = 204;
      return;
    }
    ctx.body = { commands: commands.map((c) => commandView(c, deps.clock.now())) } satisfies AgentCommands;
  });

  router.post(
    '/api/servers/:serverId/commands/:commandId/result',
    async (ctx, next) => {
      await admitServerAgent(deps, ctx, ctx.params.serverId!);
      await next();
    },
    jsonBody,
    async (ctx) => {
      const serverId = ctx.params.serverId!;
      // Admitted above (the owner is cached there): the body is read only for an admitted agent.
      const accountId = await liveServerOwner(deps, serverId);
      if (!accountId) throw new ApiError('UNAUTHORIZED', 'missing or invalid ingest token');
      const body = resultBody(ctx);
      const commandId = ctx.params.commandId!;
      const outcome = isUuid(commandId)
        ? await recordResult(deps, accountId, serverId, commandId, body.status, body.detail ?? null)
        : undefined;
      if (!outcome) throw notFound('command');
      if ('conflict' in outcome) throw new ApiError('CONFLICT', outcome.conflict);
      ctx.body = commandView(outcome.record, deps.clock.now()) satisfies ServerCommand;
    },
  );

  return router;
}
