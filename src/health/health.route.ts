// GET /api/health: PostgreSQL and Redis reported separately; 200 only when both answer.
// GET /api/health/live: liveness, 200 while the process answers. GET /api/health/ready: readiness,
// 503 while a store, the migrations or a shutdown's drain say not to send requests here.
import Router from '@koa/router';
import type { Core } from '../core.ts';
import type { AppState } from '../http/context.ts';
import type { Health, Liveness, Readiness } from '../http/schema-types.ts';
import { probe, readiness } from './readiness.ts';

export function healthRouter(deps: Core): Router<AppState> {
  const router = new Router<AppState>({ sensitive: true });
  router.get('/api/health', async (ctx) => {
    const [postgres, redis] = await Promise.all([probe(() => deps.db.query('SELECT 1')), probe(() => deps.redis.ping())]);
    const ok = postgres !== undefined && redis !== undefined;
    ctx.status = ok ? 200 : 503;
    ctx.body = { status: ok ? 'ok' : 'degraded', postgres: postgres ? 'up' : 'down', redis: redis ? 'up' : 'down' } satisfies Health;
  });
  router.get('/api/health/live', (ctx) => {
    ctx.body = { status: 'alive' } satisfies Liveness;
  });
  router.get('/api/health/ready', async (ctx) => {
    const body = await readiness(deps);
    ctx.status = body.status === 'ready' ? 200 : 503;
    ctx.body = body satisfies Readiness;
  });
  return router;
}
