// Redis helpers for tests: every key of one environment's prefix, and wiping them (a "Redis flush"
// that leaves the other test files' keys alone). On a Redis Cluster the keys are spread over the
// masters: each is scanned, and the deletions go one slot at a time (a DEL names one slot).
import { Cluster } from 'ioredis';
import type { Redis } from 'ioredis';
import { calculateSlot } from './slots.ts';
import type { AppRedis } from '../../src/store/redis.ts';

interface WithRedis {
  redis: AppRedis;
  config: { redisPrefix: string };
}

/** The servers that hold keys: the client's one server, or every master of the cluster. */
function holders(redis: AppRedis): (Redis | Cluster)[] {
  return redis instanceof Cluster ? redis.nodes('master') : [redis];
}

/** Every key of the environment's prefix, without the prefix (as the service's commands name them), sorted. */
export async function prefixedKeys(deps: WithRedis): Promise<string[]> {
  // SCAN patterns are not prefixed by ioredis, and the keys it returns carry the prefix.
  const prefix = deps.config.redisPrefix;
  const found = new Set<string>();
  for (const holder of holders(deps.redis)) {
    let cursor = '0';
    do {
      const [next, keys] = await holder.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
      cursor = next;
      for (const key of keys) found.add(key.slice(prefix.length));
    } while (cursor !== '0');
  }
  return [...found].sort();
}

/** Deletes every key under the environment's REDIS_PREFIX; returns how many were deleted. */
export async function deleteAllKeys(deps: WithRedis): Promise<number> {
  const prefix = deps.config.redisPrefix;
  if (!prefix) throw new Error('refusing to delete keys without a REDIS_PREFIX');
  // One group on one Redis; a group a slot on a cluster.
  const cluster = deps.redis instanceof Cluster;
  const bySlot = new Map<number, string[]>();
  for (const key of await prefixedKeys(deps)) {
    const slot = cluster ? calculateSlot(prefix + key) : 0;
    const group = bySlot.get(slot);
    if (group) group.push(key);
    else bySlot.set(slot, [key]);
  }
  let deleted = 0;
  for (const keys of bySlot.values()) {
    for (let i = 0; i < keys.length; i += 500) deleted += await deps.redis.del(...keys.slice(i, i + 500));
  }
  return deleted;
}
