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
  /**
   * Where the Data API, the trust lookup and the export read (src/store/read-view.ts): the replica's
   * pool when DATABASE_READ_URL is set, else the same pool as db. Writes, and reads that must see the
   * caller's own writes, never use it.
   */
  readDb: Db;
  redis: AppRedis;
  clock: Clock;
  log: Log;
}

// What stops a core's pool being reported once it is closed.
const unmetered = new WeakMap<Db, () => void>();

export function createCore(config: Config, overrides: { clock?: Clock; log?: Log } = {}): Core {
  const db = createDb(config.databaseUrl, config.databaseSchema, config.pgPoolSize);
  const core: Core = {
    config,
    db,
    readDb: config.databaseReadUrl ? createDb(config.databaseReadUrl, config.databaseSchema, config.pgPoolSize) : db,
    redis: createRedis(config),
    clock: overrides.clock ?? systemClock,
    log: overrides.log ?? createLog(config.logLevel),
  };
  // The replica's pool counts in the same figures: a wait for either is a wait for PostgreSQL.
  for (const pool of new Set([core.db, core.readDb])) unmetered.set(pool, meterPool(pool));
  meterRedis(core.redis);
  return core;
}

export async function closeCore(core: Core): Promise<void> {
  for (const pool of new Set([core.db, core.readDb])) unmetered.get(pool)?.();
  core.redis.disconnect();
  await core.db.end();
  if (core.readDb !== core.db) await core.readDb.end();
}
