// Puts the client's address and scheme on ctx.state, once, for limits, cookies and audit.
import type { Middleware } from 'koa';
import type { AppState } from './context.ts';
import { clientAddress, isHttps } from './client.ts';
import type { ProxyTrust } from './client.ts';

export function clientInfo(trust: ProxyTrust): Middleware<AppState> {
  return async (ctx, next) => {
    ctx.state.clientIp = clientAddress(ctx.req, trust);
    ctx.state.https = isHttps(ctx.req, trust);
    await next();
  };
}
