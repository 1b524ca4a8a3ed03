// GET /.well-known/service-trust.json, public; built once per process.
import Router from '@koa/router';
import type { Core } from '../core.ts';
import type { AppState } from '../http/context.ts';
import { discoveryDocument, discoveryPath } from './discovery.ts';

export function trustDiscoveryRouter(deps: Core): Router<AppState> {
  const router = new Router<AppState>({ sensitive: true });
  let rendered: Promise<string> | undefined;
  router.get(discoveryPath, async (ctx) => {
    rendered ??= discoveryDocument(deps.config).then((doc) => JSON.stringify(doc));
    ctx.type = 'application/json';
    ctx.set('Cache-Control', 'public, max-age=300');
    ctx.body = await rendered;
  });
  return router;
}
