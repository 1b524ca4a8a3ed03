// GET /api/limits (any session): the key tiers and rate limits as configured, so the dashboard
// shows the operator's numbers rather than the defaults.
import Router from '@koa/router';
import type { Core } from '../core.ts';
import type { AppState } from '../http/context.ts';
import { authenticate } from '../auth/authenticate.ts';
import { limitsOf } from './limits.ts';

export function limitsRouter(deps: Core): Router<AppState> {
  const router = new Router<AppState>({ prefix: '/api/limits', sensitive: true });
  // Read from the config, which is fixed for the process: built once.
  const limits = limitsOf(deps.config);
  router.use(authenticate(deps));
  router.get('/', (ctx) => {
    ctx.body = limits;
  });
  return router;
}
