// /api/users: the account's controller users (users.manage).
import Router from '@koa/router';
import type { Core } from '../core.ts';
import type { AppState } from '../http/context.ts';
import { ApiError, notFound } from '../http/errors.ts';
import { bodyOf, jsonBody } from '../http/body.ts';
import { isUuid } from '../http/uuid.ts';
import { auditAction } from '../audit/audit.ts';
import { authenticate, principalOf, requirePermission } from '../auth/authenticate.ts';
import { listUsers } from './user.repo.ts';
import { changeUser, createUser, removeUser } from './users.ts';
import type { User, UserList } from '../http/schema-types.ts';

const createBody = bodyOf('user-create.json');
const updateBody = bodyOf('user-update.json');

export function usersRouter(deps: Core): Router<AppState> {
  const router = new Router<AppState>({ prefix: '/api/users', sensitive: true });
  router.use(authenticate(deps), requirePermission('users.manage'));

  router.get('/', async (ctx) => {
    ctx.body = { users: await listUsers(deps.db, principalOf(ctx).accountId) } satisfies UserList;
  });

  router.post('/', jsonBody, async (ctx) => {
    const body = createBody(ctx);
    const user = await createUser(deps, principalOf(ctx).accountId, body.username, body.password, body.role);
    await auditAction(deps, ctx, {
      action: 'user.create',
      target: { type: 'user', id: user.id },
      details: { username: user.username, role: user.role },
    });
    ctx.status = 201;
    ctx.body = user satisfies User;
  });

  router.patch('/:id', jsonBody, async (ctx) => {
    const body = updateBody(ctx);
    const userId = ctx.params.id!;
    if (!isUuid(userId)) throw notFound('user');
    const user = await changeUser(deps, principalOf(ctx).accountId, userId, body);
    await auditAction(deps, ctx, {
      action: 'user.update',
      target: { type: 'user', id: user.id },
      details: { changed: Object.keys(body), ...(body.role ? { role: body.role } : {}) },
    });
    ctx.body = user satisfies User;
  });

  router.delete('/:id', async (ctx) => {
    const userId = ctx.params.id!;
    if (!isUuid(userId)) throw notFound('user');
    if (userId === principalOf(ctx).userId) throw new ApiError('CONFLICT', 'you cannot remove yourself');
    await removeUser(deps, principalOf(ctx).accountId, userId);
    await auditAction(deps, ctx, { action: 'user.delete', target: { type: 'user', id: userId } });
    ctx.status = 204;
  });

  return router;
}
