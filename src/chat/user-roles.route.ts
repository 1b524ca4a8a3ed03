// /api/chat/user-roles (users.manage): which role each chat user of the account acts with when the
// bot's call is signed; a chat user without a mapping has the built-in chat-bot role.
import Router from '@koa/router';
import type { Core } from '../core.ts';
import type { AppContext, AppState } from '../http/context.ts';
import { badRequest, notFound } from '../http/errors.ts';
import { bodyOf, jsonBody } from '../http/body.ts';
import { auditAction } from '../audit/audit.ts';
import { authenticate, principalOf, requirePermission } from '../auth/authenticate.ts';
import { chatRoleMappings, setChatRole } from './roles-file.ts';
import type { ChatUserRole, ChatUserRoles } from '../http/schema-types.ts';

const roleBody = bodyOf('chat-user-role-set.json');
/** A Discord user id (snowflake). */
const chatUserIdPattern = /^[0-9]{17,20}$/;

const chatUserIdOf = (ctx: AppContext) => {
  const id = ctx.params.chatUserId!;
  if (!chatUserIdPattern.test(id)) throw badRequest('chatUserId must be a chat user id (17 to 20 digits)');
  return id;
};

export function chatUserRolesRouter(deps: Core): Router<AppState> {
  const router = new Router<AppState>({ prefix: '/api/chat/user-roles', sensitive: true });
  router.use(authenticate(deps), requirePermission('users.manage'));

  router.get('/', async (ctx) => {
    const mappings = await chatRoleMappings(deps, principalOf(ctx).accountId);
    ctx.body = {
      mappings: Object.entries(mappings)
        .sort(([a], [b]) => (a < b ? -1 : 1))
        .map(([chatUserId, role]) => ({ chatUserId, role })),
    } satisfies ChatUserRoles;
  });

  router.put('/:chatUserId', jsonBody, async (ctx) => {
    const chatUserId = chatUserIdOf(ctx);
    const { role } = roleBody(ctx);
    const before = await setChatRole(deps, principalOf(ctx).accountId, chatUserId, role);
    await auditAction(deps, ctx, {
      action: 'chat.user-role.set',
      target: { type: 'chat-user', id: chatUserId },
      details: { role, before: before ?? null },
    });
    ctx.body = { chatUserId, role } satisfies ChatUserRole;
  });

  router.delete('/:chatUserId', async (ctx) => {
    const chatUserId = chatUserIdOf(ctx);
    const before = await setChatRole(deps, principalOf(ctx).accountId, chatUserId, null);
    if (before === undefined) throw notFound('chat user role mapping');
    await auditAction(deps, ctx, { action: 'chat.user-role.remove', target: { type: 'chat-user', id: chatUserId }, details: { before } });
    ctx.status = 204;
  });

  return router;
}
