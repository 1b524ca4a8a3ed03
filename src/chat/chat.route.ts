// POST /api/chat/action: a community's chat bot acts for one of its chat users (caller.ts says who
// calls and in which account). A signed call acts with the role the account's roles file maps to
// that chat user; an unsigned one with the built-in chat-bot role only (its chat user is unproven).
// Actions about one server need its serverId, which must be a server of the call's account; bans,
// queue, trust.lookup and link act account-wide (or network-wide) without one.
import Router from '@koa/router';
import type { BanDeps } from '../bans/bans.ts';
import type { ServerOwnerDeps } from '../servers/server.ts';
import type { AppState } from '../http/context.ts';
import { ApiError, badRequest } from '../http/errors.ts';
import { bodyOf, jsonBody } from '../http/body.ts';
import { describeErrors, validatorFor } from '../http/schemas.ts';
import { auditAction } from '../audit/audit.ts';
import { chatActions } from './actions.ts';
import type { ChatAction } from './actions.ts';
import { actAs, callerOf } from './caller.ts';
import { chatRoleOf } from './roles-file.ts';
import type { ChatRole } from './roles-file.ts';
import type { ChatActionResult } from '../http/schema-types.ts';

const actionBody = bodyOf('chat-action.json');

export function chatActionRouter(deps: ServerOwnerDeps & BanDeps): Router<AppState> {
  const router = new Router<AppState>({ prefix: '/api/chat', sensitive: true });
  router.post('/action', jsonBody, async (ctx) => {
    const body = actionBody(ctx);
    const caller = await callerOf(deps, ctx, body);
    const action = chatActions[body.action];
    if (!action) throw badRequest(`action must be one of: ${Object.keys(chatActions).join(', ')}`);
    if (action.scope === 'server' && !body.serverId) throw badRequest('serverId is required for this action');
    if (action.scope === 'account' && !caller.accountId)
      throw badRequest("this action acts in a community: sign the call with your community's bot (X-Chat-Bot) or name one of its servers");
    if (action.signedOnly && !caller.signed)
      throw new ApiError('FORBIDDEN', `${body.action} needs a signed call: it acts on the chat user's own identity`);
    const accountId = caller.accountId ?? '';
    const role: ChatRole = caller.signed && accountId ? await chatRoleOf(deps, accountId, body.chatUserId) : 'chat-bot';
    actAs(ctx, accountId, body.chatUserId, caller.signed, role);
    if (!ctx.state.principal!.permissions.has(action.permission)) {
      if (accountId)
        await auditAction(deps, ctx, {
          action: 'chat.denied',
          target: { type: 'chat-action', id: body.action },
          details: { role, permission: action.permission },
        });
      throw new ApiError('FORBIDDEN', `the role ${role} lacks the permission ${action.permission} for ${body.action}`);
    }
    const params = checkedParams(action, body.params);
    const result = await action.run(
      { deps, ctx, accountId, serverId: caller.serverId ?? '', chatUserId: body.chatUserId, signed: caller.signed },
      params,
    );
    // Every call that ran is in the account's log, under the chat user or "Chat Bot (unverified)".
    if (accountId)
      await auditAction(deps, ctx, {
        action: 'chat.action',
        target: { type: 'chat-action', id: body.action },
        details: { role, signed: caller.signed, ...(caller.botId ? { botId: caller.botId } : {}) },
      });
    ctx.body = { ok: true, action: body.action, result } satisfies ChatActionResult;
  });
  return router;
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
