// GET /api/v1/trust/{identifier}: the public trust lookup, limited per IP (IPv6 per /64), with the
// RateLimit headers; the body and the proof header come rendered from the score cache.
// GET /api/v1/trust/{identifier}/entries: the pool entries behind it (public player page), under
// the same per-IP limit.
import Router from '@koa/router';
import type { AppContext, AppState } from '../http/context.ts';
import { ApiError } from '../http/errors.ts';
import { rateLimitIdentity } from '../http/client.ts';
import { rateLimitHeaders, takeRateToken } from '../http/rate-limit.ts';
import { trustLookup } from './lookup.ts';
import { publicEntries } from './public-entries.ts';
import type { TrustDeps } from './lookup.ts';
import type { TrustPublicEntries } from '../http/schema-types.ts';

export const retryAfterSeconds = 60;
export const proofHeader = 'x-service-trust-proof';

export function trustLookupRouter(
  deps: TrustDeps,
  router = new Router<AppState>({ prefix: '/api/v1/trust', sensitive: true }),
): Router<AppState> {
  const limited = async (ctx: AppContext) => {
    const decision = await takeRateToken(deps, 'trust-lookup', rateLimitIdentity(ctx.state.clientIp), deps.config.rates.trustLookup);
    ctx.set(rateLimitHeaders(decision));
    if (!decision.allowed) {
      throw new ApiError(
        'RATE_LIMITED',
        'trust lookups per minute exceeded for this address',
        { retryAfter: retryAfterSeconds },
        { 'Retry-After': String(retryAfterSeconds) },
      );
    }
  };
  router.get('/:identifier', async (ctx) => {
    await limited(ctx);
    const score = await trustLookup(deps, ctx.params.identifier!);
    if (score.proof) ctx.set(proofHeader, score.proof);
    ctx.type = 'application/json';
    ctx.body = score.body;
  });
  router.get('/:identifier/entries', async (ctx) => {
    await limited(ctx);
    ctx.body = (await publicEntries(deps, ctx.params.identifier!)) satisfies TrustPublicEntries;
  });
  return router;
}
