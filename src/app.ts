// Builds the Koa application from its dependencies; it never listens (src/main.ts does).
import Koa from 'koa';
import type { Deps } from './deps.ts';
import type { AppState } from './http/context.ts';
import { errorMiddleware } from './http/error-middleware.ts';
import { requestLog } from './http/request-log.ts';
import { healthRouter } from './health/health.route.ts';
import { openApiRouter } from './openapi/openapi.route.ts';
import { dataApiRouter } from './data-api/router.ts';
import { ingestRouter } from './ingest/ingest.route.ts';

export function createApp(deps: Deps): Koa<AppState> {
  const app = new Koa<AppState>();
  app.use(requestLog(deps.log));
  app.use(errorMiddleware(deps.log));
  for (const router of [healthRouter(deps), openApiRouter(), dataApiRouter(deps), ingestRouter(deps)]) {
    app.use(router.routes());
    app.use(router.allowedMethods());
  }
  return app;
}
