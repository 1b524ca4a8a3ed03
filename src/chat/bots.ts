// A community's chat bots: made and rotated with their secret shown once, deleted, and the
// community's setting that refuses unsigned calls. Each change is audited (never with a secret).
import type { Core } from '../core.ts';
import type { ChatBot as ChatBotAnswer } from '../http/schema-types.ts';
import type { AppContext } from '../http/context.ts';
import { inTransaction } from '../store/db.ts';
import { auditAction } from '../audit/audit.ts';
import { principalOf } from '../auth/authenticate.ts';
import { botSecret, rotationOverlapMs } from './bot-secrets.ts';
import { deleteBot, insertBot, rotateBot, setRequireSignature } from './bots.repo.ts';
import type { ChatBot } from './bots.repo.ts';

const iso = (ms: number) => new Date(ms).toISOString();

export const botView = (b: ChatBot): ChatBotAnswer => ({
  id: b.id,
  name: b.name,
  createdAt: b.createdAt,
  rotatedAt: b.rotatedAt,
  previousSecretValidUntil: b.previousValidUntil,
});

export async function createBot(deps: Core, ctx: AppContext, name: string): Promise<{ bot: ChatBot; secret: string }> {
  return inTransaction(deps.db, async (tx) => {
    const bot = await insertBot(tx, principalOf(ctx).accountId, name, iso(deps.clock.now()));
    await auditAction(deps, ctx, { action: 'chat.bot.create', target: { type: 'chat-bot', id: bot.id }, details: { name } }, tx);
    return { bot, secret: botSecret(deps.config.chat.botKey, bot.id, bot.generation) };
  });
}

/** A new secret; the one before stays valid 24 h. Undefined when the account has no such bot. */
export async function rotateBotSecret(deps: Core, ctx: AppContext, botId: string): Promise<{ bot: ChatBot; secret: string } | undefined> {
  const nowMs = deps.clock.now();
  return inTransaction(deps.db, async (tx) => {
    const bot = await rotateBot(tx, principalOf(ctx).accountId, botId, iso(nowMs), iso(nowMs + rotationOverlapMs));
    if (!bot) return undefined;
    await auditAction(
      deps,
      ctx,
      { action: 'chat.bot.rotate', target: { type: 'chat-bot', id: bot.id }, details: { previousValidUntil: bot.previousValidUntil } },
      tx,
    );
    return { bot, secret: botSecret(deps.config.chat.botKey, bot.id, bot.generation) };
  });
}

export async function removeBot(deps: Core, ctx: AppContext, botId: string): Promise<boolean> {
  return inTransaction(deps.db, async (tx) => {
    const removed = await deleteBot(tx, principalOf(ctx).accountId, botId, iso(deps.clock.now()));
    if (removed) await auditAction(deps, ctx, { action: 'chat.bot.delete', target: { type: 'chat-bot', id: botId } }, tx);
    return removed;
  });
}

export async function setChatSettings(deps: Core, ctx: AppContext, requireSignature: boolean): Promise<void> {
  await inTransaction(deps.db, async (tx) => {
    await setRequireSignature(tx, principalOf(ctx).accountId, requireSignature);
    await auditAction(deps, ctx, { action: 'chat.settings.set', details: { requireSignature } }, tx);
  });
}
