// In-process caches that every web process keeps (resolved API keys, a server's owner, token
// hash and reads, players' trust scores) are dropped in all processes at once when their record
// changes: the change drops the entry here and publishes it on one Redis channel that every
// process follows. A process that misses a message (its subscriber was reconnecting) still drops
// the entry within AUTH_CACHE_MS. Each capability registers what it drops under a topic ('server',
// 'apiKey', ...); this module knows no capability.
import { randomUUID } from 'node:crypto';
import type { Core } from '../core.ts';
import { channelOf, publish } from './publish.ts';

/** A change: one key of a topic, or several. */
export type CacheEntry = { cache: string; key: string } | { cache: string; keys: string[] };

type Drop = (keys: string[]) => void;

/** What this process drops by topic. */
export class CacheDrops {
  /**
   * Who publishes from here: its own messages come back and are skipped (a batch's message names
   * up to a thousand players). One per service, not per process: tests run several in one process.
   */
  readonly origin = randomUUID();
  private readonly drops = new Map<string, Drop[]>();

  on(topic: string, drop: Drop): void {
    this.drops.set(topic, [...(this.drops.get(topic) ?? []), drop]);
  }

  drop(topic: string, keys: string[]): void {
    for (const drop of this.drops.get(topic) ?? []) drop(keys);
  }
}

export interface CacheDropsHeld {
  cacheDrops: CacheDrops;
}

const channel = 'cache:invalidate';
export const invalidationChannel = (deps: Pick<Core, 'config'>) => channelOf(deps, channel);

const keysOf = (entry: CacheEntry) => ('keys' in entry ? entry.keys : [entry.key]);

/**
 * Drops the entry in this process and tells the others. Failure policy: the change itself is
 * stored; if Redis cannot take the message, the other processes drop the entry when it expires.
 */
export async function invalidate(deps: Core & CacheDropsHeld, entry: CacheEntry): Promise<void> {
  deps.cacheDrops.drop(entry.cache, keysOf(entry));
  await publish(deps, channel, JSON.stringify({ ...entry, from: deps.cacheDrops.origin })).catch((err: unknown) => {
    deps.log.warn({ err, cache: entry.cache }, 'cache invalidation not published; other processes drop it within AUTH_CACHE_MS');
  });
}

/** Applies an invalidation message from another process (its own were applied when published). */
export function onInvalidation(deps: CacheDropsHeld, message: string): void {
  const entry = JSON.parse(message) as { cache?: unknown; key?: unknown; keys?: unknown; from?: unknown };
  if (entry.from === deps.cacheDrops.origin || typeof entry.cache !== 'string') return;
  const keys = typeof entry.key === 'string' ? [entry.key] : entry.keys;
  if (Array.isArray(keys) && keys.every((key) => typeof key === 'string')) deps.cacheDrops.drop(entry.cache, keys);
}
