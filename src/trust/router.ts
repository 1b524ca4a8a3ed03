// The trust API under /api/v1/trust: the partner export (partner key) and the lookup (per-IP limit, no key).
import Router from '@koa/router';
import type { TrustDeps } from './lookup.ts';
import type { AppState } from '../http/context.ts';
import { trustLookupRouter } from './lookup.route.ts';
import { addExportRoute } from './export.route.ts';

export function trustApiRouter(deps: TrustDeps): Router<AppState> {
  const router = new Router<AppState>({ prefix: '/api/v1/trust', sensitive: true });
  addExportRoute(deps, router);
  return trustLookupRouter(deps, router);
}
