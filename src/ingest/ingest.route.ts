// POST /api/servers/:serverId/events: a game server's agent pushes its events with the ingest token.
import Router from '@koa/router';
import { koaBody } from 'koa-body';
import type { Deps } from '../deps.ts';
import type { AppState } from '../http/context.ts';
import { ApiError } from '../http/errors.ts';
import { rateLimitHeaders, takeRateToken } from '../http/rate-limit.ts';
import { chargeControllerLimits } from '../http/controller-limits.ts';
import { bearerToken } from '../http/credentials.ts';
import { verifyIngestToken } from './ingest-token.ts';
import { ingestBatch } from './ingest.ts';

export function ingestRouter(deps: Deps): Router<AppState> {
  const router = new Router<AppState>({ sensitive: true });
  const body = koaBody({ json: true, urlencoded: false, text: false, multipart: false, jsonLimit: deps.config.ingestBodyLimitBytes, jsonStrict: true });

  router.post('/api/servers/:serverId/events', async (ctx, next) => {
    const serverId = ctx.params.serverId!.toLowerCase();
    if (!(await verifyIngestToken(deps, serverId, bearerToken(ctx.get('authorization'))))) {
      // Only calls made with an ingest token are exempt from the per-IP limits: guesses are counted.
      if (deps.config.controllerRateLimit) await chargeControllerLimits(deps, ctx);
      throw new ApiError('UNAUTHORIZED', 'missing or invalid ingest token');
    }
    const decision = await takeRateToken(deps, 'ingest', serverId, deps.config.rates.ingest);
    ctx.set(rateLimitHeaders(decision));
    if (!decision.allowed) {
      const retryAfter = Math.ceil(decision.resetMs / 1000);
      throw new ApiError('RATE_LIMITED', 'ingest rate exceeded', { retryAfter }, { 'Retry-After': String(retryAfter) });
    }
    if (!ctx.is('application/json')) throw new ApiError('UNSUPPORTED_MEDIA_TYPE', 'send the batch as application/json');
    await next();
  }, body, async (ctx) => {
    ctx.body = await ingestBatch(deps, ctx.params.serverId!.toLowerCase(), ctx.request.body);
  });

  return router;
}
