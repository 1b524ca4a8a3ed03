// Builds the Koa application from its dependencies; it never listens (src/main.ts does).
// All middleware order lives here: the request's state, its id and log, the error body, the
// controller's per-IP limits, the Data API switch, the routers, then the dashboard's pages.
import Koa from 'koa';
import type { Middleware } from 'koa';
import type Router from '@koa/router';
import type { Deps } from './deps.ts';
import type { AppState } from './http/context.ts';
import { errorMiddleware } from './http/error-middleware.ts';
import { requestLog } from './http/request-log.ts';
import { requestState } from './http/request-state.ts';
import { proxyTrust } from './http/client.ts';
import { controllerLimits } from './http/controller-limits.ts';
import { capabilities } from './capabilities.ts';
import { dataApiSwitch } from './data-api/access.ts';
import { isUuid } from './http/uuid.ts';
import { dashboard } from './dashboard/serve.ts';

// Each capability's routers, in the order of src/capabilities.ts. Every router is built with
// `sensitive: true`: @koa/router matches routes case-insensitively by default but a router.use()
// guard (authentication) by its exact prefix, so /API/SERVERS reached the handler without the
// guard; the limits and CSRF exemptions also compare exact paths.
export const routersOf = (deps: Deps): Router<AppState>[] => capabilities.flatMap((c) => c.routers?.(deps) ?? []).map(normaliseIdParams);

/**
 * Every path parameter that is a UUID reaches its route lower-cased, once, here: a route compares
 * ids as stored (an upper-cased id of your own user is still yourself), whatever the client sent.
 */
function normaliseIdParams(router: Router<AppState>): Router<AppState> {
  const names = new Set(router.stack.flatMap((layer) => layer.paramNames.map((p) => String(p.name))));
  for (const name of names) {
    router.param(name, (value, ctx, next) => {
      if (isUuid(value)) ctx.params[name] = value.toLowerCase();
      return next();
    });
  }
  return router;
}

export function createApp(deps: Deps): Koa<AppState> {
  const app = new Koa<AppState>();
  // Errors that escape a response after it was sent (a client that hung up mid-file): logged, not printed.
  app.on('error', (err: { code?: string }) => {
    const hungUp = err.code === 'ERR_STREAM_PREMATURE_CLOSE' || err.code === 'ECONNRESET' || err.code === 'EPIPE';
    deps.log[hungUp ? 'debug' : 'error']({ err }, 'response stream error');
  });
  app.use(requestState(proxyTrust(deps.config.trustedProxies)));
  app.use(requestLog(deps.log));
  app.use(errorMiddleware(deps.log));
  app.use(controllerLimits(deps));
  app.use(dataApiSwitch(deps));
  app.use(mountByPrefix(routersOf(deps)));
  // Last: a request no route answered may be a page of the dashboard (never an /api path).
  app.use(dashboard());
  return app;
}

/** The fixed start of a router's paths: its prefix, or what its routes share before a parameter. */
function staticPrefix(router: Router<AppState>): string {
  if (router.opts.prefix) return router.opts.prefix;
  const paths = router.stack.map((layer) => String(layer.path).split(/[:*{]/)[0]!);
  return paths.reduce((a, b) => {
    let i = 0;
    while (i < a.length && a[i] === b[i]) i++;
    return a.slice(0, i);
  });
}

/**
 * Runs only the routers whose paths can match the request, found by their static prefix: a
 * request pays for one or two routers' matching instead of every router's.
 */
function mountByPrefix(routers: Router<AppState>[]): Middleware<AppState> {
  const mounted = routers.map((router) => {
    const routes = router.routes() as unknown as Middleware<AppState>;
    const allowed = router.allowedMethods() as unknown as Middleware<AppState>;
    return { prefix: staticPrefix(router), run: ((ctx, next) => routes(ctx, () => allowed(ctx, next))) as Middleware<AppState> };
  });
  return (ctx, next) => {
    const path = ctx.path;
    const runFrom = (i: number): Promise<void> => {
      for (; i < mounted.length; i++) {
        const m = mounted[i]!;
        if (path.startsWith(m.prefix)) return m.run(ctx, () => runFrom(i + 1));
      }
      return next();
    };
    return runFrom(0);
  };
}
