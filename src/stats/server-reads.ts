// A very short in-process cache of what Data API reads take from Redis for one server (its status
// record, rendered pages). Hot reads then cost no Redis round trip besides the rate limiter; other
// processes see a change within PAGE_CACHE_MS, this process at once (a change drops the entry).
import { LRUCache } from 'lru-cache';
import type { Config } from '../config.ts';
import type { CacheDrops } from '../store/invalidation.ts';
import { maxStoredPages } from './stats.store.ts';

type Read = object | string;

/** What this process holds of one server's reads: the values, and the loads under way, one a field. */
export class ServerReads {
  readonly values = new Map<string, Read>();
  readonly loading = new Map<string, Promise<Read | null>>();
}

/** serverId -> what this process read of that server, kept PAGE_CACHE_MS; a change of the server drops it ('server'). */
export function serverReadCaches(config: Pick<Config, 'pageCacheMs'>, drops: CacheDrops) {
  const serverReads = new LRUCache<string, ServerReads>({ max: 10_000, ttl: config.pageCacheMs });
  drops.on('server', (ids) => ids.forEach((id) => serverReads.delete(id)));
  return { serverReads };
}

/** What these functions use of the service's dependencies. */
export type ServerReadDeps = { caches: ReturnType<typeof serverReadCaches> };

/**
 * The cached value of `field`, else what `load` finds (kept unless null). Reads that miss while a
 * load of the field is under way wait for it instead of loading again (a page cache expiring under
 * a thousand reads a second sent each of them to Redis). A load that a drop of the server overtook
 * keeps nothing: reads after the drop load anew. Values are shared: never mutate them.
 */
export function readThrough<T extends Read>(
  deps: ServerReadDeps,
  serverId: string,
  field: string,
  load: () => Promise<T | null>,
): Promise<T | null> {
  let reads = deps.caches.serverReads.get(serverId);
  const hit = reads?.values.get(field);
  if (hit !== undefined) return Promise.resolve(hit as T);
  if (!reads) deps.caches.serverReads.set(serverId, (reads = new ServerReads()));
  const underWay = reads.loading.get(field);
  if (underWay) return underWay as Promise<T | null>;
  const entry = reads;
  const loaded = load()
    .then((value) => {
      // Bounded like the Redis page hash: a client walking through offsets must not grow it.
      if (value !== null && entry.values.size <= maxStoredPages) entry.values.set(field, value);
      return value;
    })
    .finally(() => entry.loading.delete(field));
  entry.loading.set(field, loaded);
  return loaded;
}

export const dropServerReads = (deps: ServerReadDeps, serverId: string) => deps.caches.serverReads.delete(serverId);

/** Forgets one cached read of a server (a value that has expired by its own rule). */
export const forgetServerRead = (deps: ServerReadDeps, serverId: string, field: string) =>
  deps.caches.serverReads.get(serverId)?.values.delete(field);
