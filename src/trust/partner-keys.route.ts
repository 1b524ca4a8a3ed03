// /api/trust/partner-keys (partners.manage): the export feed's keys; the raw key is shown once.
import Router from '@koa/router';
import type { Core } from '../core.ts';
import type { AppState } from '../http/context.ts';
import { notFound } from '../http/errors.ts';
import { bodyOf, jsonBody } from '../http/body.ts';
import { isUuid } from '../http/uuid.ts';
import { auditAction } from '../audit/audit.ts';
import { authenticate, requirePermission } from '../auth/authenticate.ts';
import { newSecret, secretHash } from '../accounts/secrets.ts';
import { insertPartnerKey, listPartnerKeys, revokePartnerKey } from './partner-key.repo.ts';
import type { PartnerKeyCreated, PartnerKeyList } from '../http/schema-types.ts';

export const partnerKeyPrefix = 'svcp_';
const createBody = bodyOf('partner-key-create.json');

export function partnerKeysRouter(deps: Core): Router<AppState> {
  const router = new Router<AppState>({ prefix: '/api/trust/partner-keys', sensitive: true });
  router.use(authenticate(deps), requirePermission('partners.manage'));
  const now = () => new Date(deps.clock.now()).toISOString();

  router.get('/', async (ctx) => {
    ctx.body = { keys: await listPartnerKeys(deps.db) } satisfies PartnerKeyList;
  });

  router.post('/', jsonBody, async (ctx) => {
    const { name, tier = 'basic' } = createBody(ctx);
    const key = newSecret(partnerKeyPrefix);
    const record = await insertPartnerKey(deps.db, name, tier, secretHash(key), now());
    await auditAction(deps, ctx, { action: 'partner-key.create', target: { type: 'partner-key', id: record.id }, details: { name, tier } });
    ctx.status = 201;
    ctx.body = { id: record.id, name: record.name, tier: record.tier, createdAt: record.createdAt, key } satisfies PartnerKeyCreated;
  });

  router.delete('/:id', async (ctx) => {
    const id = ctx.params.id!;
    if (!isUuid(id) || !(await revokePartnerKey(deps.db, id, now()))) throw notFound('partner key');
    await auditAction(deps, ctx, { action: 'partner-key.revoke', target: { type: 'partner-key', id } });
    ctx.status = 204;
  });
  return router;
}
