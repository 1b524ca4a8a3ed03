// Gives every request an id (a sane incoming X-Request-Id is kept), logs one line per request and
// times it by its route template (the metrics' request rate and latency).
import { randomUUID } from 'node:crypto';
import type { Middleware } from 'koa';
import type { AppState } from './context.ts';
import type { Log } from '../log.ts';
import { httpRequests } from '../meters.ts';

const saneRequestId = /^[A-Za-z0-9._-]{1,64}$/;

export function requestLog(log: Log): Middleware<AppState> {
  return async (ctx, next) => {
    const incoming = ctx.get('x-request-id');
    const requestId = saneRequestId.test(incoming) ? incoming : randomUUID();
    ctx.state.requestId = requestId;
    ctx.set('X-Request-Id', requestId);
    const started = performance.now();
    try {
      await next();
    } finally {
      const ms = performance.now() - started;
      httpRequests.observe({ route: routeOf(ctx), method: ctx.method, status: ctx.status }, ms / 1000);
      if (log.isLevelEnabled('info')) {
        log.info({ reqId: requestId, method: ctx.method, path: ctx.path, status: ctx.status, ms: Math.round(ms) });
      }
    }
  };
}

/**
 * The template of the route that answered (as the router declares it), so that ids in paths never
 * become labels; a request no route matched is an /api miss or one of the dashboard's pages.
 */
function routeOf(ctx: { _matchedRoute?: string | RegExp; path: string }): string {
  if (ctx._matchedRoute !== undefined) return String(ctx._matchedRoute);
  return ctx.path.startsWith('/api/') ? '(no route)' : '(page)';
}
