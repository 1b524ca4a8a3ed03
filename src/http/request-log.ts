// Gives every request an id (a sane incoming X-Request-Id is kept) and logs one line per request.
import { randomUUID } from 'node:crypto';
import type { Middleware } from 'koa';
import type { AppState } from './context.ts';
import type { Log } from '../log.ts';

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
      if (log.isLevelEnabled('info')) {
        log.info({ reqId: requestId, method: ctx.method, path: ctx.path, status: ctx.status, ms: Math.round(performance.now() - started) });
      }
    }
  };
}
