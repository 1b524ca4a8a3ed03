// Who makes a chat call, and in which community it acts: each community has chat bots of its own.
// A signed call names its bot in X-Chat-Bot and acts in that bot's account (its serverId, if any,
// must be a server of that account: else 404); a signed call naming no bot is the operator's bot
// (CHAT_SIGNING_SECRET) and acts in the operator's account. An unsigned call acts in the account
// of its serverId, else the operator's, as the built-in chat-bot role, unless that account (or the
// operator, for the whole service) refuses unsigned calls. Every refusal is audited in the account
// the call would have acted in.
import type { ChatAction } from '../http/schema-types.ts';
import type { AppContext } from '../http/context.ts';
import { ApiError, notFound } from '../http/errors.ts';
import { isUuid } from '../http/uuid.ts';
import { auditAction } from '../audit/audit.ts';
import { operatorAccountId } from '../accounts/account.repo.ts';
import { permissionsOf } from '../auth/permissions.ts';
import { liveServerOwner } from '../servers/server.ts';
import { validSecrets } from './bot-secrets.ts';
import { findBot, requiresSignature } from './bots.repo.ts';
import { claimChatSignature } from './replay.store.ts';
import type { ChatRole } from './roles-file.ts';
import { checkChatSignature } from './signature.ts';
import type { ServerOwnerDeps } from '../servers/server.ts';

export interface Caller {
  /** The account the call acts in; undefined: none (an unsigned call naming no server, before setup). */
  accountId: string | undefined;
  signed: boolean;
  botId?: string;
  /** The call's server, a live server of its account (lower case). */
  serverId?: string;
}

export const unverifiedActor = 'Chat Bot (unverified)';

/** The call's account and whether it is signed; a 403 (audited) for a call refused, a 404 for a server of another account. */
export async function callerOf(deps: ServerOwnerDeps, ctx: AppContext, body: ChatAction): Promise<Caller> {
  if (body.serverId !== undefined && !isUuid(body.serverId)) throw notFound('server');
  const serverId = body.serverId?.toLowerCase();
  const serverAccount = serverId ? await liveServerOwner(deps, serverId) : undefined;
  const operator = await operatorAccountId(deps.db);
  const refuse = async (accountId: string | undefined, reason: string): Promise<never> => {
    await auditAction(deps, ctx, {
      accountId,
      actor: { id: body.chatUserId, name: `chat user ${body.chatUserId}` },
      actorType: 'chat',
      action: 'chat.sig-rejected',
      target: { type: 'chat-action', id: body.action.slice(0, 64) },
      details: { reason },
    });
    throw new ApiError('FORBIDDEN', `chat call refused: ${reason}`);
  };
  const botHeader = ctx.get('x-chat-bot');
  const bot = botHeader && isUuid(botHeader) ? await findBot(deps.db, botHeader.toLowerCase()) : undefined;
  if (botHeader && !bot) return refuse(serverAccount ?? operator, 'X-Chat-Bot names no chat bot of this service');
  const signer = bot
    ? { accountId: bot.accountId, secrets: validSecrets(deps.config.chat.botKey, bot, deps.clock.now()) }
    : { accountId: operator, secrets: deps.config.chat.signingSecret ? [deps.config.chat.signingSecret] : [] };
  const check = checkChatSignature(
    signer.secrets,
    { timestamp: ctx.get('x-chat-timestamp'), signature: ctx.get('x-chat-signature') },
    body.action,
    body.chatUserId,
    deps.clock.now(),
  );
  if (check.kind === 'unsigned') {
    const accountId = serverAccount ?? operator;
    if (bot) return refuse(bot.accountId, 'a call naming a bot (X-Chat-Bot) must be signed by it');
    if (deps.config.chat.requireSignature) return refuse(accountId, 'this service accepts signed chat calls only');
    if (accountId && (await requiresSignature(deps.db, accountId)))
      return refuse(accountId, 'this community accepts signed chat calls only');
    if (serverId && !serverAccount) throw notFound('server');
    return { accountId, signed: false, serverId: serverAccount ? serverId : undefined };
  }
  if (check.kind === 'rejected') return refuse(signer.accountId, check.reason);
  if (!(await claimChatSignature(deps.redis, check.signature)))
    return refuse(signer.accountId, 'this signature was used before (a replay)');
  if (!signer.accountId) throw notFound('community of the operator (run the setup first)');
  if (serverId && serverAccount !== signer.accountId) throw notFound('server');
  return { accountId: signer.accountId, signed: true, botId: bot?.id, serverId };
}

/** The call's principal: the chat user with their role, so the capabilities' own code and audit entries apply. */
export function actAs(ctx: AppContext, accountId: string, chatUserId: string, signed: boolean, role: ChatRole): void {
  ctx.state.principal = {
    via: 'chat',
    sessionId: '',
    userId: `chat:${chatUserId}`,
    accountId,
    role,
    isOperator: false,
    username: signed ? `chat user ${chatUserId}` : unverifiedActor,
    permissions: permissionsOf(role, false),
  };
}
