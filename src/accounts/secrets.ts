// Raw credentials (API keys, ingest tokens): random, prefixed, and stored only as a SHA-256 hash.
// A fast hash is right here: the values carry 192 bits of randomness, so nothing can be guessed.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

export const newSecret = (prefix: string) => `${prefix}${randomBytes(24).toString('base64url')}`;

export const secretHash = (raw: string): Buffer => createHash('sha256').update(raw).digest();

export function sameHash(a: Buffer, b: Buffer): boolean {
  return a.length === b.length && timingSafeEqual(a, b);
}
