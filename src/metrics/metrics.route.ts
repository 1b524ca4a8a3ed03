// GET /metrics: Prometheus text for a scraper holding METRICS_TOKEN. Without the token configured
// the route answers 404 (metrics are off); a wrong or missing bearer is 401.
import { createHash, timingSafeEqual } from 'node:crypto';
import Router from '@koa/router';
import type { Core } from '../core.ts';
import type { AppState } from '../http/context.ts';
import { ApiError } from '../http/errors.ts';
import { contentType, metricsText } from './metrics.ts';

// Both sides hashed first: equal lengths for timingSafeEqual, and the token's length is not timed either.
const digest = (text: string) => createHash('sha256').update(text).digest();

export function metricsRouter(deps: Core): Router<AppState> {
  const router = new Router<AppState>({ sensitive: true });
  const token = deps.config.metricsToken;
  const expected = token === undefined ? undefined : digest(`Bearer ${token}`);
  router.get('/metrics', async (ctx) => {
    if (!expected) throw new ApiError('NOT_FOUND', 'metrics are off: the service has no METRICS_TOKEN configured');
    if (!timingSafeEqual(digest(ctx.get('authorization')), expected)) {
      ctx.set('WWW-Authenticate', 'Bearer');
      throw new ApiError('UNAUTHORIZED', 'GET /metrics needs Authorization: Bearer <METRICS_TOKEN>');
    }
    ctx.set('Cache-Control', 'no-store');
    ctx.type = contentType;
    ctx.body = await metricsText(deps);
  });
  return router;
}
