// GET /api/v1/openapi.json, unauthenticated.
import Router from '@koa/router';
import type { AppState } from '../http/context.ts';
import { buildOpenApiDocument } from './document.ts';

export function openApiRouter(): Router<AppState> {
  const router = new Router<AppState>({ sensitive: true });
  const document = JSON.stringify(buildOpenApiDocument());
  router.get('/api/v1/openapi.json', (ctx) => {
    ctx.type = 'application/json';
    ctx.body = document;
  });
  return router;
}
