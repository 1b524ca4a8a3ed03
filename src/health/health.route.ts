// GET /api/health: PostgreSQL and Redis reported separately; 200 only when both answer.
import Router from '@koa/router';
import type { Core } from '../core.ts';
import type { AppState } from '../http/context.ts';
import type { Health } from '../http/schema-types.ts';

const probeTimeoutMs = 1000;

async function answers(probe: () => Promise<unknown>): Promise<'up' | 'down'> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('timeout')), probeTimeoutMs);
  });
  try {
    await Promise.race([probe(), timeout]);
    return 'up';
  } catch {
    return 'down'; // the answer itself reports it
  } finally {
    clearTimeout(timer);
  }
}

export function healthRouter(deps: Core): Router<AppState> {
  const router = new Router<AppState>({ sensitive: true });
  router.get('/api/health', async (ctx) => {
    const [postgres, redis] = await Promise.all([answers(() => deps.db.query('SELECT 1')), answers(() => deps.redis.ping())]);
    const ok = postgres === 'up' && redis === 'up';
    ctx.status = ok ? 200 : 503;
    ctx.body = { status: ok ? 'ok' : 'degraded', postgres, redis } satisfies Health;
  });
  return router;
}
