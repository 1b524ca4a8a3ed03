// The chat bot's call signature: X-Chat-Timestamp (unix seconds) and X-Chat-Signature
// ("sha256=" + hex HMAC-SHA256(secret, "<timestamp>.<action>.<chatUserId>")), valid 300 s either
// way of the service's clock, compared in constant time with each secret the bot may sign with.
// The reference client signs with the same function. Replays are refused elsewhere
// (replay.store.ts): this only says whether it verifies.
import { createHmac, timingSafeEqual } from 'node:crypto';

export const chatWindowSeconds = 300;

export type SignatureCheck = { kind: 'unsigned' } | { kind: 'valid'; signature: string } | { kind: 'rejected'; reason: string };

export function chatSignature(secret: string, timestamp: string, action: string, chatUserId: string): string {
  return `sha256=${createHmac('sha256', secret).update(`${timestamp}.${action}.${chatUserId}`).digest('hex')}`;
}

const signaturePattern = /^sha256=[0-9a-f]{64}$/;

/** `secrets`: what the bot may sign with (its current secret, and the one before during a rotation). */
export function checkChatSignature(
  secrets: string[],
  headers: { timestamp: string; signature: string },
  action: string,
  chatUserId: string,
  nowMs: number,
): SignatureCheck {
  const { timestamp, signature } = headers;
  if (!timestamp && !signature) return { kind: 'unsigned' };
  if (!timestamp || !signature) return { kind: 'rejected', reason: 'both X-Chat-Timestamp and X-Chat-Signature are needed' };
  if (!/^[0-9]{1,12}$/.test(timestamp)) return { kind: 'rejected', reason: 'X-Chat-Timestamp is not unix seconds' };
  const skewSeconds = Number(timestamp) - Math.floor(nowMs / 1000);
  if (skewSeconds < -chatWindowSeconds) return { kind: 'rejected', reason: `the timestamp is more than ${chatWindowSeconds} s old` };
  if (skewSeconds > chatWindowSeconds) return { kind: 'rejected', reason: `the timestamp is more than ${chatWindowSeconds} s ahead` };
  if (secrets.length === 0) return { kind: 'rejected', reason: 'no chat signing secret is configured on this service' };
  const given = signature.toLowerCase();
  if (!signaturePattern.test(given)) return { kind: 'rejected', reason: 'X-Chat-Signature is not sha256=<64 hex digits>' };
  // Every secret is compared, so the time taken does not tell which one matched.
  const matches = secrets.map((secret) =>
    timingSafeEqual(Buffer.from(chatSignature(secret, timestamp, action, chatUserId)), Buffer.from(given)),
  );
  return matches.includes(true) ? { kind: 'valid', signature: given } : { kind: 'rejected', reason: 'the signature does not match' };
}
