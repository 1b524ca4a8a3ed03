// GET /api/servers/:serverId/bans/active: the bans in force on the server, for its agent (ingest
// token), with an ETag: `If-None-Match` with the current tag answers 304.
import Router from '@koa/router';
import type { IngestTokenDeps } from '../ingest/ingest-token.ts';
import type { ServerOwnerDeps } from '../servers/server.ts';
import type { AppState } from '../http/context.ts';
import { admitServerAgent } from '../ingest/ingest-admission.ts';
import { activeBansOf } from './active-bans.ts';

export function activeBansRouter(deps: ServerOwnerDeps & IngestTokenDeps): Router<AppState> {
  const router = new Router<AppState>({ sensitive: true });

  router.get('/api/servers/:serverId/bans/active', async (ctx) => {
    const accountId = await admitServerAgent(deps, ctx, ctx.params.serverId!);
    const { body, etag } = await activeBansOf(deps.db, accountId, new Date(deps.clock.now()).toISOString());
    ctx.set('ETag', etag);
    ctx.set('Cache-Control', 'no-cache');
    const held = ctx
      .get('if-none-match')
      .split(',')
      .map((tag) => tag.trim().replace(/^W\//, ''));
    if (held.includes(etag) || held.includes('*')) {
      ctx.status = 304;
      return;
    }
    ctx.type = 'application/json';
    ctx.body = body;
  });

  return router;
}
