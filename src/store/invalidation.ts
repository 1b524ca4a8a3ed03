// In-process caches that every web process keeps (resolved API keys, a server's owner, token
// hash and reads, players' trust scores) are dropped in all processes at once when their record
// changes: the change drops the entry here and publishes it on one Redis channel that every
// process follows. A process that misses a message (its subscriber was reconnecting) still drops
// the entry within AUTH_CACHE_MS.
import { randomUUID } from 'node:crypto';
import type { Deps } from '../deps.ts';

export type CacheEntry = { cache: 'apiKey'; key: string } | { cache: 'server'; key: string } | { cache: 'trustScores'; keys: string[] };

const channel = 'cache:invalidate';
export const invalidationChannel = (deps: Pick<Deps, 'config'>) => `${deps.config.redisPrefix}${channel}`;

/**
 * Who published a message: the caches it was dropped from already, which skip their own echo (a
 * batch's message names up to a thousand players). Keyed by the caches, not the process: tests run
 * several services in one process.
 */
const origins = new WeakMap<Deps['caches'], string>();
function originOf(deps: Deps): string {
  let origin = origins.get(deps.caches);
  if (origin === undefined) origins.set(deps.caches, (origin = randomUUID()));
  return origin;
}

export function dropLocally(deps: Deps, entry: CacheEntry): void {
  if (entry.cache === 'trustScores') {
    deps.caches.trustScores.drop(entry.keys);
    return;
  }
  if (entry.cache === 'apiKey') {
    deps.caches.apiKeys.delete(entry.key);
    return;
  }
  deps.caches.serverOwners.delete(entry.key);
  deps.caches.ingestTokens.drop(entry.key);
  deps.caches.serverReads.delete(entry.key);
}

/**
 * Drops the entry in this process and tells the others. Failure policy: the change itself is
 * stored; if Redis cannot take the message, the other processes drop the entry when it expires.
 */
export async function invalidate(deps: Deps, entry: CacheEntry): Promise<void> {
  dropLocally(deps, entry);
  await deps.redis.publish(invalidationChannel(deps), JSON.stringify({ ...entry, from: originOf(deps) })).catch((err: unknown) => {
    deps.log.warn({ err, cache: entry.cache }, 'cache invalidation not published; other processes drop it within AUTH_CACHE_MS');
  });
}

/** Applies an invalidation message from another process (its own were applied when published). */
export function onInvalidation(deps: Deps, message: string): void {
  const entry = JSON.parse(message) as CacheEntry & { from?: unknown };
  if (entry.from === originOf(deps)) return;
  const valid = entry.cache === 'trustScores'
    ? Array.isArray(entry.keys) && entry.keys.every((key) => typeof key === 'string')
    : (entry.cache === 'apiKey' || entry.cache === 'server') && typeof entry.key === 'string';
  if (valid) dropLocally(deps, entry);
}
