// GET /api/servers/:serverId/files/bans and /files/priority: a game server on another host pulls
// its rendered files with its ingest token (its agent writes them beside the game, DESIGN 15).
// Counted against the ingest rate of the server's token, like its event batches.
import Router from '@koa/router';
import type { Deps } from '../deps.ts';
import type { AppContext, AppState } from '../http/context.ts';
import { ApiError } from '../http/errors.ts';
import { rateLimitHeaders, retryAfterSeconds, takeRateToken } from '../http/rate-limit.ts';
import { chargeControllerLimits } from '../http/controller-limits.ts';
import { bearerToken } from '../http/credentials.ts';
import { verifyIngestToken } from '../ingest/ingest-token.ts';
import { liveServerOwner } from '../servers/server.ts';
import { defaultLineEnding } from './ban-file.ts';
import { renderBanFile, renderPriorityFile } from './render.ts';

async function admit(deps: Deps, ctx: AppContext, serverId: string): Promise<string> {
  if (!(await verifyIngestToken(deps, serverId, bearerToken(ctx.get('authorization'))))) {
    // Only calls made with a valid ingest token are exempt from the per-IP limits: guesses are counted.
    if (deps.config.controllerRateLimit) await chargeControllerLimits(deps, ctx);
    throw new ApiError('UNAUTHORIZED', 'missing or invalid ingest token');
  }
  const decision = await takeRateToken(deps, 'ingest', serverId, deps.config.rates.ingest);
  ctx.set(rateLimitHeaders(decision));
  if (!decision.allowed) {
    const retryAfter = retryAfterSeconds(decision);
    throw new ApiError('RATE_LIMITED', 'ingest rate exceeded', { retryAfter }, { 'Retry-After': String(retryAfter) });
  }
  const accountId = await liveServerOwner(deps, serverId);
  if (!accountId) throw new ApiError('UNAUTHORIZED', 'missing or invalid ingest token');
  return accountId;
}

export function gameFilesRouter(deps: Deps): Router<AppState> {
  const router = new Router<AppState>({ sensitive: true });
  const nowIso = () => new Date(deps.clock.now()).toISOString();
  const send = (ctx: AppContext, content: Buffer) => {
    ctx.type = 'text/plain; charset=utf-8';
    ctx.set('Cache-Control', 'no-store');
    ctx.body = content;
  };

  router.get('/api/servers/:serverId/files/bans', async (ctx) => {
    const serverId = ctx.params.serverId!;
    const accountId = await admit(deps, ctx, serverId);
    send(ctx, (await renderBanFile(deps.db, accountId, nowIso(), defaultLineEnding)).content);
  });

  router.get('/api/servers/:serverId/files/priority', async (ctx) => {
    const serverId = ctx.params.serverId!;
    const accountId = await admit(deps, ctx, serverId);
    send(ctx, (await renderPriorityFile(deps.db, accountId, serverId, nowIso())).content);
  });

  return router;
}
