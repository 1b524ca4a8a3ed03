// A chat bot's secret: `svcb_` and the base64url HMAC-SHA256, under the configured bot key, of the
// bot's id and the secret's generation. Derived again to check a call, so no secret is stored; a
// rotation is a new generation. Pure.
import { createHmac } from 'node:crypto';
import type { ChatBot } from './bots.repo.ts';

export const botSecretPrefix = 'svcb_';
/** After a rotation the secret before stays valid this long (the bot's owner deploys the new one). */
export const rotationOverlapMs = 24 * 3600_000;

export const botSecret = (botKey: Buffer, botId: string, generation: number) =>
  `${botSecretPrefix}${createHmac('sha256', botKey).update(`chat-bot:${botId}:${generation}`).digest('base64url')}`;

/** The secrets a call of the bot may be signed with at `nowMs`: the current one, and the one before during the overlap. */
export function validSecrets(botKey: Buffer, bot: ChatBot, nowMs: number): string[] {
  const secrets = [botSecret(botKey, bot.id, bot.generation)];
  if (bot.generation > 1 && bot.previousValidUntil !== null && Date.parse(bot.previousValidUntil) > nowMs)
    secrets.push(botSecret(botKey, bot.id, bot.generation - 1));
  return secrets;
}
