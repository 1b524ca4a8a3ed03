// Redis helpers for tests: wipe every key of one environment's prefix (a "Redis flush" that
// leaves the other test files' keys alone).
import type { Deps } from '../../src/deps.ts';

/** Deletes every key under the environment's REDIS_PREFIX; returns how many were deleted. */
export async function deleteAllKeys(deps: Deps): Promise<number> {
  // SCAN patterns are not prefixed by ioredis; DEL arguments are, so strip the prefix first.
  const prefix = deps.config.redisPrefix;
  if (!prefix) throw new Error('refusing to delete keys without a REDIS_PREFIX');
  let cursor = '0';
  let deleted = 0;
  do {
    const [next, keys] = await deps.redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
    cursor = next;
    if (keys.length > 0) deleted += await deps.redis.del(...keys.map((k) => k.slice(prefix.length)));
  } while (cursor !== '0');
  return deleted;
}
