// GET /api/servers/:serverId/files/bans and /files/priority: a game server on another host pulls
// its rendered files with its ingest token (its agent writes them beside the game, docs/agent.md).
// Counted against the ingest rate of the server's token, like its event batches.
import Router from '@koa/router';
import type { IngestTokenDeps } from '../ingest/ingest-token.ts';
import type { ServerOwnerDeps } from '../servers/server.ts';
import type { AppContext, AppState } from '../http/context.ts';
import { admitServerAgent } from '../ingest/ingest-admission.ts';
import { defaultLineEnding } from './ban-file.ts';
import { renderBanFile, renderPriorityFile } from './render.ts';

export function gameFilesRouter(deps: ServerOwnerDeps & IngestTokenDeps): Router<AppState> {
  const router = new Router<AppState>({ sensitive: true });
  const nowIso = () => new Date(deps.clock.now()).toISOString();
  const send = (ctx: AppContext, content: Buffer) => {
    ctx.type = 'text/plain; charset=utf-8';
    ctx.set('Cache-Control', 'no-store');
    ctx.body = content;
  };

  router.get('/api/servers/:serverId/files/bans', async (ctx) => {
    const serverId = ctx.params.serverId!;
    const accountId = await admitServerAgent(deps, ctx, serverId);
    send(ctx, (await renderBanFile(deps.db, accountId, nowIso(), defaultLineEnding)).content);
  });

  router.get('/api/servers/:serverId/files/priority', async (ctx) => {
    const serverId = ctx.params.serverId!;
    const accountId = await admitServerAgent(deps, ctx, serverId);
    send(ctx, (await renderPriorityFile(deps.db, accountId, serverId, nowIso())).content);
  });

  return router;
}
