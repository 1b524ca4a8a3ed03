// Raw credentials (API keys, ingest tokens): random, prefixed, and stored only as a SHA-256 hash.
// A fast hash is right here: the values carry 192 bits of randomness, so nothing can be guessed.
import { hash, randomBytes, timingSafeEqual } from 'node:crypto';

export const newSecret = (prefix: string) => `${prefix}${randomBytes(24).toString('base64url')}`;

export const secretHash = (raw: string): Buffer => hash('sha256', raw, 'buffer');

/** The same hash as base64 text, for in-process cache keys: computed on every Data API request. */
export const secretHashText = (raw: string): string => hash('sha256', raw, 'base64');

export function sameHash(a: Buffer, b: Buffer): boolean {
  return a.length === b.length && timingSafeEqual(a, b);
}
