// POST /api/chat/action: a chat-platform bot acts for one of its users. The signature proves the
// chat user (signature.ts, replays refused across processes); a signed call acts with the role the
// account's roles file maps to that user, an unsigned one with the built-in chat-bot role only (its
// chat user is unproven), unless the operator refuses unsigned calls altogether.
import Router from '@koa/router';
import type { Deps } from '../deps.ts';
import type { AppContext, AppState } from '../http/context.ts';
import { ApiError, badRequest, notFound } from '../http/errors.ts';
import { bodyOf, jsonBody } from '../http/body.ts';
import { describeErrors, validatorFor } from '../http/schemas.ts';
import { isUuid } from '../http/uuid.ts';
import { auditAction } from '../audit/audit.ts';
import { permissionsOf } from '../auth/permissions.ts';
import { liveServerOwner } from '../servers/server.ts';
import { chatActions } from './actions.ts';
import type { ChatAction } from './actions.ts';
import { claimChatSignature } from './replay.store.ts';
import { chatRoleOf } from './roles-file.ts';
import type { ChatRole } from './roles-file.ts';
import { checkChatSignature } from './signature.ts';

interface ChatBody {
  action: string;
  chatUserId: string;
  serverId?: string;
  params?: Record<string, unknown>;
}

const actionBody = bodyOf<ChatBody>('chat-action.json');
export const unverifiedActor = 'Chat Bot (unverified)';

export function chatActionRouter(deps: Deps): Router<AppState> {
  const router = new Router<AppState>({ prefix: '/api/chat', sensitive: true });
  router.post('/action', jsonBody, async (ctx) => {
    const body = actionBody(ctx);
    const accountId = body.serverId && isUuid(body.serverId) ? await liveServerOwner(deps, body.serverId.toLowerCase()) : undefined;
    const signed = await verifiedCall(deps, ctx, body, accountId);
    const action = chatActions[body.action];
    if (!action) throw badRequest(`action must be one of: ${Object.keys(chatActions).join(', ')}`);
    if (action.needsServer && !body.serverId) throw badRequest('serverId is required for this action');
    if (action.needsServer && !accountId) throw notFound('server');
    if (action.signedOnly && !signed) throw new ApiError('FORBIDDEN', `${body.action} needs a signed call: it acts on the chat user's own identity`);
    const role: ChatRole = signed && accountId ? await chatRoleOf(deps, accountId, body.chatUserId) : 'chat-bot';
    actAs(ctx, accountId ?? '', body.chatUserId, signed, role);
    if (!ctx.state.principal!.permissions.has(action.permission)) {
      if (accountId) await auditAction(deps, ctx, { action: 'chat.denied', target: { type: 'chat-action', id: body.action }, details: { role, permission: action.permission } });
      throw new ApiError('FORBIDDEN', `the role ${role} lacks the permission ${action.permission} for ${body.action}`);
    }
    const params = checkedParams(action, body.params);
    const result = await action.run({ deps, ctx, accountId: accountId ?? '', serverId: body.serverId?.toLowerCase() ?? '', chatUserId: body.chatUserId, signed }, params);
    // Every call that ran is in the account's log, under the chat user or "Chat Bot (unverified)".
    if (accountId) await auditAction(deps, ctx, { action: 'chat.action', target: { type: 'chat-action', id: body.action }, details: { role, signed } });
    ctx.body = { ok: true, action: body.action, result };
  });
  return router;
}

/** Whether the call is signed and verifies; refuses (403, chat.sig-rejected) what does not. */
async function verifiedCall(deps: Deps, ctx: AppContext, body: ChatBody, accountId: string | undefined): Promise<boolean> {
  const check = checkChatSignature(deps.config.chat.signingSecret, { timestamp: ctx.get('x-chat-timestamp'), signature: ctx.get('x-chat-signature') },
    body.action, body.chatUserId, deps.clock.now());
  let refusal: string | undefined;
  if (check.kind === 'rejected') refusal = check.reason;
  else if (check.kind === 'unsigned' && deps.config.chat.requireSignature) refusal = 'this service accepts signed chat calls only';
  else if (check.kind === 'valid' && !(await claimChatSignature(deps.redis, check.signature))) refusal = 'this signature was used before (a replay)';
  if (refusal === undefined) return check.kind === 'valid';
  await auditAction(deps, ctx, {
    accountId, actor: { id: body.chatUserId, name: `chat user ${body.chatUserId}` }, actorType: 'chat',
    action: 'chat.sig-rejected', target: { type: 'chat-action', id: body.action.slice(0, 64) }, details: { reason: refusal },
  });
  throw new ApiError('FORBIDDEN', `chat call refused: ${refusal}`);
}

/** The call's principal: the chat user with their role, so the capabilities' own code and audit entries apply. */
function actAs(ctx: AppContext, accountId: string, chatUserId: string, signed: boolean, role: ChatRole): void {
  ctx.state.principal = {
    via: 'chat', sessionId: '', userId: `chat:${chatUserId}`, accountId, role, isOperator: false,
    username: signed ? `chat user ${chatUserId}` : unverifiedActor, permissions: permissionsOf(role, false),
  };
}

function checkedParams(action: ChatAction, params: Record<string, unknown> | undefined): Record<string, unknown> {
  const given = params ?? {};
  if (!action.params) {
    if (Object.keys(given).length > 0) throw badRequest('params: this action takes none');
    return given;
  }
  const validate = validatorFor(action.params);
  if (!validate(given)) {
    const problem = describeErrors(validate.errors);
    throw badRequest(problem.startsWith('value ') ? `params ${problem.slice('value '.length)}` : `params.${problem}`);
  }
  return given;
}
