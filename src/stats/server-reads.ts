// A very short in-process cache of what Data API reads take from Redis for one server (its status
// record, rendered pages). Hot reads then cost no Redis round trip besides the rate limiter; other
// processes see a change within PAGE_CACHE_MS, this process at once (a change drops the entry).
import type { Deps } from '../deps.ts';
import { maxStoredPages } from './stats.store.ts';

/** The cached value of `field`, else what `load` finds (kept unless null). Values are shared: never mutate them. */
export async function readThrough<T extends object | string>(deps: Deps, serverId: string, field: string, load: () => Promise<T | null>): Promise<T | null> {
  let reads = deps.caches.serverReads.get(serverId);
  const hit = reads?.get(field);
  if (hit !== undefined) return hit as T;
  const value = await load();
  if (value !== null) {
    if (!reads) deps.caches.serverReads.set(serverId, (reads = new Map()));
    // Bounded like the Redis page hash: a client walking through offsets must not grow it.
    if (reads.size <= maxStoredPages) reads.set(field, value);
  }
  return value;
}

export const dropServerReads = (deps: Deps, serverId: string) => deps.caches.serverReads.delete(serverId);

/** Forgets one cached read of a server (a value that has expired by its own rule). */
export const forgetServerRead = (deps: Deps, serverId: string, field: string) => deps.caches.serverReads.get(serverId)?.delete(field);
