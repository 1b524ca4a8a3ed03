// Puts the client's address and scheme on ctx.state for limits, cookies and audit; each is worked
// out on first use, so requests that never ask (the Data API) pay nothing.
import type { Middleware } from 'koa';
import type { AppState } from './context.ts';
import { clientAddress, isHttps } from './client.ts';
import type { ProxyTrust } from './client.ts';

export function clientInfo(trust: ProxyTrust): Middleware<AppState> {
  return async (ctx, next) => {
    let clientIp: string | undefined;
    let https: boolean | undefined;
    Object.defineProperties(ctx.state, {
      clientIp: { get: () => (clientIp ??= clientAddress(ctx.req, trust)), enumerable: true },
      https: { get: () => (https ??= isHttps(ctx.req, trust)), enumerable: true },
    });
    await next();
  };
}
