// The small core every capability builds on: the configuration, the two stores, the clock and the
// log. Built once from the Config; nothing connects at import time. What a capability keeps of its
// own (caches, waits, switches) it builds itself and the service composes (src/deps.ts).
import type { Config } from './config.ts';
import { systemClock } from './clock.ts';
import type { Clock } from './clock.ts';
import { createLog } from './log.ts';
import type { Log } from './log.ts';
import { createDb } from './store/db.ts';
import type { Db } from './store/db.ts';
import { createRedis } from './store/redis.ts';
import { meterPool, meterRedis } from './meters.ts';
import type { AppRedis } from './store/redis.ts';

export interface Core {
  config: Config;
  db: Db;
  redis: AppRedis;
  clock: Clock;
  log: Log;
}

// What stops a core's pool being reported once it is closed.
const unmetered = new WeakMap<Db, () => void>();

export function createCore(config: Config, overrides: { clock?: Clock; log?: Log } = {}): Core {
  const core: Core = {
    config,
    db: createDb(config.databaseUrl, config.databaseSchema, config.pgPoolSize),
    redis: createRedis(config.redisUrl, config.redisPrefix),
    clock: overrides.clock ?? systemClock,
    log: overrides.log ?? createLog(config.logLevel),
  };
  unmetered.set(core.db, meterPool(core.db));
  meterRedis(core.redis);
  return core;
}

export async function closeCore(core: Core): Promise<void> {
  unmetered.get(core.db)?.();
  core.redis.disconnect();
  await core.db.end();
}
