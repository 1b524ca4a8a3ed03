// First run: GET /api/setup/status, POST /api/setup/admin (only while no user exists).
import Router from '@koa/router';
import type { Core } from '../core.ts';
import type { AppState } from '../http/context.ts';
import { ApiError } from '../http/errors.ts';
import { bodyOf, jsonBody } from '../http/body.ts';
import { auditAction } from '../audit/audit.ts';
import { createCommunity } from '../accounts/community.ts';
import { countUsers } from '../users/user.repo.ts';
import type { AccountCreated, SetupStatus } from '../http/schema-types.ts';

const setupBody = bodyOf('setup-admin.json');

export function setupRouter(deps: Core): Router<AppState> {
  const router = new Router<AppState>({ prefix: '/api/setup', sensitive: true });
  router.get('/status', async (ctx) => {
    ctx.body = { needsSetup: (await countUsers(deps.db)) === 0 } satisfies SetupStatus;
  });
  router.post('/admin', jsonBody, async (ctx) => {
    const body = setupBody(ctx);
    const created = await createCommunity(deps, body, true);
    if (!created) throw new ApiError('CONFLICT', 'setup is done: an administrator exists');
    const { account, owner } = created;
    await auditAction(deps, ctx, {
      accountId: account.id,
      actor: { id: owner.id, name: owner.username },
      action: 'setup.admin',
      target: { type: 'account', id: account.id },
    });
    ctx.status = 201;
    ctx.body = created satisfies AccountCreated;
  });
  return router;
}
