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
import { healthRouter } from './health/health.route.ts';
import { openApiRouter } from './openapi/openapi.route.ts';
import { dataApiRouter } from './data-api/router.ts';
import { dataApiSwitch } from './data-api/access.ts';
import { ingestRouter } from './ingest/ingest.route.ts';
import { setupRouter } from './auth/setup.route.ts';
import { authRouter } from './auth/auth.route.ts';
import { usersRouter } from './users/users.route.ts';
import { accountsRouter } from './accounts/accounts.route.ts';
import { apiKeysRouter } from './accounts/api-keys.route.ts';
import { accountSettingsRouter } from './accounts/settings.route.ts';
import { operatorRouter } from './operator/operator.route.ts';
import { serversRouter } from './servers/servers.route.ts';
import { auditRouter } from './audit/audit.route.ts';
import { tilesRouter } from './maps/tiles.route.ts';
import { isUuid } from './http/uuid.ts';
import { bansRouter } from './bans/bans.route.ts';
import { gameFilesRouter } from './game-files/files.route.ts';
import { queueRouter } from './queue/queue.route.ts';
import { agentCommandsRouter } from './commands/agent.route.ts';
import { commandsRouter } from './commands/commands.route.ts';
import { restartScheduleRouter } from './commands/restart-schedule.route.ts';
import { activeBansRouter } from './bans/active-bans.route.ts';
import { chatActionRouter } from './chat/chat.route.ts';
import { chatUserRolesRouter } from './chat/user-roles.route.ts';
import { chatBotsRouter } from './chat/bots.route.ts';
import { trustPoolRouter } from './trust/pool.route.ts';
import { trustApiRouter } from './trust/router.ts';
import { trustDiscoveryRouter } from './trust/discovery.route.ts';
import { partnerKeysRouter } from './trust/partner-keys.route.ts';
import { storeWebhookRouter } from './store-webhook/webhook.route.ts';
import { serverViewsRouter } from './servers/server-views.route.ts';
import { limitsRouter } from './limits/limits.route.ts';
import { dashboard } from './dashboard/serve.ts';

// Every router is built with `sensitive: true`: @koa/router matches routes case-insensitively by
// default but a router.use() guard (authentication) by its exact prefix, so /API/SERVERS reached
// the handler without the guard; the limits and CSRF exemptions also compare exact paths.
export const routersOf = (deps: Deps) =>
  [
    healthRouter(deps),
    openApiRouter(),
    dataApiRouter(deps),
    ingestRouter(deps),
    // Before the session routers under /api/servers: /commands/next is no :commandId of theirs.
    agentCommandsRouter(deps),
    activeBansRouter(deps),
    setupRouter(deps),
    authRouter(deps),
    usersRouter(deps),
    accountsRouter(deps),
    apiKeysRouter(deps),
    accountSettingsRouter(deps),
    operatorRouter(deps),
    limitsRouter(deps),
    serversRouter(deps),
    serverViewsRouter(deps),
    auditRouter(deps),
    tilesRouter(deps),
    chatActionRouter(deps),
    chatUserRolesRouter(deps),
    chatBotsRouter(deps),
    bansRouter(deps),
    gameFilesRouter(deps),
    queueRouter(deps),
    commandsRouter(deps),
    restartScheduleRouter(deps),
    trustPoolRouter(deps),
    trustApiRouter(deps),
    trustDiscoveryRouter(deps),
    partnerKeysRouter(deps),
    storeWebhookRouter(deps),
  ].map(normaliseIdParams);

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
