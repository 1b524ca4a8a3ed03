// /api/account/api-keys (apikeys.manage): Data API keys of the account; the raw key is shown once.
import Router from '@koa/router';
import type { AppState } from '../http/context.ts';
import { ApiError, notFound } from '../http/errors.ts';
import { bodyOf, jsonBody } from '../http/body.ts';
import { isUuid } from '../http/uuid.ts';
import { auditAction } from '../audit/audit.ts';
import { authenticate, principalOf, requirePermission } from '../auth/authenticate.ts';
import { listApiKeys } from './api-key.repo.ts';
import { mintApiKey, revokeApiKey } from './api-key.ts';
import type { ApiKeyDeps } from './api-key.ts';
import type { ApiKey, ApiKeyCreated, ApiKeyList } from '../http/schema-types.ts';

const createBody = bodyOf('api-key-create.json');
const keyView = ({ id, name, tier, createdAt, revokedAt }: ApiKey): ApiKey => ({ id, name, tier, createdAt, revokedAt });

export function apiKeysRouter(deps: ApiKeyDeps): Router<AppState> {
  const router = new Router<AppState>({ prefix: '/api/account/api-keys', sensitive: true });
  router.use(authenticate(deps), requirePermission('apikeys.manage'));

  router.get('/', async (ctx) => {
    ctx.body = { keys: (await listApiKeys(deps.db, principalOf(ctx).accountId)).map(keyView) } satisfies ApiKeyList;
  });

  router.post('/', jsonBody, async (ctx) => {
    const { name, tier = 'standard' } = createBody(ctx);
    const principal = principalOf(ctx);
    if (tier === 'partner' && !principal.permissions.has('partners.manage')) {
      throw new ApiError('FORBIDDEN', 'only the network operator issues partner-tier keys (partners.manage)');
    }
    const { record, key } = await mintApiKey(deps, principal.accountId, name, tier);
    await auditAction(deps, ctx, { action: 'apikey.create', target: { type: 'apikey', id: record.id }, details: { name, tier } });
    ctx.status = 201;
    ctx.body = { id: record.id, name: record.name, tier: record.tier, key, createdAt: record.createdAt } satisfies ApiKeyCreated;
  });

  router.delete('/:id', async (ctx) => {
    const keyId = ctx.params.id!;
    if (!isUuid(keyId) || !(await revokeApiKey(deps, principalOf(ctx).accountId, keyId))) throw notFound('API key');
    await auditAction(deps, ctx, { action: 'apikey.revoke', target: { type: 'apikey', id: keyId } });
    ctx.status = 204;
  });

  return router;
}
