// /api/operator (accounts.manage): the spec's Data API switch, at runtime, and the rebuild of
// Redis-derived state from PostgreSQL (what `npm run cli -- rebuild` does).
import type { Core } from '../core.ts';
import Router from '@koa/router';
import type { ServerReadDeps } from '../stats/server-reads.ts';
import type { AppState } from '../http/context.ts';
import { bodyOf, jsonBody } from '../http/body.ts';
import { auditAction } from '../audit/audit.ts';
import { authenticate, requirePermission } from '../auth/authenticate.ts';
import { setDataApiEnabled } from './data-api-switch.ts';
import { rebuildDerivedState } from '../derived/rebuild.ts';
import type { DataApiRuntime } from './data-api-switch.ts';
import type { DataApiSwitch, RebuildResult } from '../http/schema-types.ts';

const switchBody = bodyOf('data-api-switch.json');

export function operatorRouter(deps: Core & DataApiRuntime & ServerReadDeps): Router<AppState> {
  const router = new Router<AppState>({ prefix: '/api/operator', sensitive: true });
  router.use(authenticate(deps), requirePermission('accounts.manage'));
  router.get('/data-api', (ctx) => {
    ctx.body = { enabled: deps.runtime.dataApiEnabled } satisfies DataApiSwitch;
  });
  router.put('/data-api', jsonBody, async (ctx) => {
    const { enabled } = switchBody(ctx);
    await setDataApiEnabled(deps, enabled);
    await auditAction(deps, ctx, { action: 'operator.data-api.set', target: { type: 'setting', id: 'data-api' }, details: { enabled } });
    ctx.body = { enabled } satisfies DataApiSwitch;
  });
  router.post('/rebuild', async (ctx) => {
    const result = await rebuildDerivedState(deps);
    await auditAction(deps, ctx, { action: 'operator.rebuild', target: { type: 'setting', id: 'derived-state' }, details: result });
    ctx.body = result satisfies RebuildResult;
  });
  return router;
}
