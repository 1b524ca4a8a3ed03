// Signatures already used, kept in Redis for twice the signature window (a timestamp may be up to
// 300 s ahead or behind), so a replay is refused by every web process.
import type { AppRedis } from '../store/redis.ts';
import { chatSignatureKey } from '../store/keys.ts';
import { chatWindowSeconds } from './signature.ts';

/** True the first time a signature is seen within the window, false for a replay. */
export async function claimChatSignature(redis: AppRedis, signature: string): Promise<boolean> {
  return (await redis.set(chatSignatureKey(signature), '1', 'PX', 2 * chatWindowSeconds * 1000, 'NX')) === 'OK';
}
