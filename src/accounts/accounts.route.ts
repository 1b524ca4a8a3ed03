// /api/accounts (accounts.manage): the operator lists the communities and adds one with its owner.
import Router from '@koa/router';
import type { Core } from '../core.ts';
import type { AppState } from '../http/context.ts';
import { bodyOf, jsonBody } from '../http/body.ts';
import { auditAction } from '../audit/audit.ts';
import { authenticate, requirePermission } from '../auth/authenticate.ts';
import { createCommunity } from './community.ts';
import { listAccounts } from './account.repo.ts';
import type { AccountCreated, AccountList } from '../http/schema-types.ts';

const accountBody = bodyOf('account-create.json');

export function accountsRouter(deps: Core): Router<AppState> {
  const router = new Router<AppState>({ prefix: '/api/accounts', sensitive: true });
  router.use(authenticate(deps), requirePermission('accounts.manage'));
  router.get('/', async (ctx) => {
    ctx.body = { accounts: await listAccounts(deps.db) } satisfies AccountList;
  });
  router.post('/', jsonBody, async (ctx) => {
    const created = (await createCommunity(deps, accountBody(ctx)))!;
    const details = { accountName: created.account.name, owner: created.owner.username };
    await auditAction(deps, ctx, { action: 'account.create', target: { type: 'account', id: created.account.id }, details });
    await auditAction(deps, ctx, {
      accountId: created.account.id,
      action: 'account.create',
      target: { type: 'account', id: created.account.id },
      details,
    });
    ctx.status = 201;
    ctx.body = created satisfies AccountCreated;
  });
  return router;
}
