// Everything a request or job needs, built once from the Config and passed down explicitly.
// Nothing connects at import time.
import { LRUCache } from 'lru-cache';
import type { Config } from './config.ts';
import { systemClock } from './clock.ts';
import type { Clock } from './clock.ts';
import { createLog } from './log.ts';
import type { Log } from './log.ts';
import { createDb } from './store/db.ts';
import type { Db } from './store/db.ts';
import { createRedis } from './store/redis.ts';
import type { AppRedis } from './store/redis.ts';
import type { ApiKeyIdentity } from './accounts/api-key.ts';
import { IngestTokenHashes, refreshIngestTokenHashes } from './ingest/ingest-token-hashes.ts';
import { dataApiSwitchChannel, loadDataApiSwitch, onDataApiSwitch } from './operator/data-api-switch.ts';
import { invalidationChannel, onInvalidation } from './store/invalidation.ts';
import { followChannels } from './store/subscriber.ts';
import { LocalScores } from './trust/local-scores.ts';
import type { ServerReads } from './stats/server-reads.ts';
import { RateLeases } from './http/rate-leases.ts';
import { AgentWaits, agentWakeChannel, onAgentWake } from './commands/agent-waits.ts';

export interface Deps {
  config: Config;
  db: Db;
  redis: AppRedis;
  clock: Clock;
  log: Log;
  /** Short-lived in-process caches of hot lookups (AUTH_CACHE_MS). */
  caches: {
    apiKeys: LRUCache<string, ApiKeyIdentity>;
    /** serverId -> owning account id, '' for unknown or revoked. */
    serverOwners: LRUCache<string, string>;
    /** serverId -> SHA-256 of its ingest token (empty when unknown or revoked), refreshed together. */
    ingestTokens: IngestTokenHashes;
    /**
     * serverId -> what the Data API read of that server from Redis (its parsed status record,
     * rendered pages), kept PAGE_CACHE_MS; a change to the server in this process drops its entry.
     */
    serverReads: LRUCache<string, ServerReads>;
    /** Steam64s found, within the last minute, to have no DayZ-ID player of their own left to merge. */
    mergeChecked: LRUCache<string, true>;
    /** Players' rendered trust scores read from Redis (AUTH_CACHE_MS). */
    trustScores: LocalScores;
    /** The Data API keys' rate-limit tokens this process holds (src/http/rate-leases.ts). */
    rateLeases: RateLeases;
  };
  /** The agents' long polls waiting in this process (src/commands/agent-waits.ts). */
  agentWaits: AgentWaits;
  /** Settings an operator can change while the service runs. */
  runtime: { dataApiEnabled: boolean };
  /** What connectDeps started and closeDeps stops. */
  closers: (() => void)[];
}

export function createDeps(config: Config, overrides: { clock?: Clock; log?: Log } = {}): Deps {
  const clock = overrides.clock ?? systemClock;
  const cache = <V extends object | string>() => new LRUCache<string, V>({ max: 50_000, ttl: config.authCacheMs });
  return {
    config,
    db: createDb(config.databaseUrl, config.databaseSchema, config.pgPoolSize),
    redis: createRedis(config.redisUrl, config.redisPrefix),
    clock,
    log: overrides.log ?? createLog(config.logLevel),
    caches: {
      apiKeys: cache(), serverOwners: cache(), ingestTokens: new IngestTokenHashes(clock, config.authCacheMs),
      serverReads: new LRUCache({ max: 10_000, ttl: config.pageCacheMs }),
      mergeChecked: new LRUCache({ max: 200_000, ttl: 60_000 }),
      trustScores: new LocalScores(config.authCacheMs),
      rateLeases: new RateLeases(),
    },
    agentWaits: new AgentWaits(),
    runtime: { dataApiEnabled: config.dataApiEnabled },
    closers: [],
  };
}

export async function connectDeps(deps: Deps): Promise<void> {
  await deps.redis.connect();
  deps.closers.push(await followChannels(deps, {
    [dataApiSwitchChannel(deps)]: (value) => onDataApiSwitch(deps, value),
    [invalidationChannel(deps)]: (message) => onInvalidation(deps, message),
    [agentWakeChannel(deps)]: (message) => onAgentWake(deps, message),
  }));
  await loadDataApiSwitch(deps);
  deps.closers.push(refreshIngestTokenHashes(deps.caches.ingestTokens, deps.db, (err) => deps.log.warn({ err }, 'ingest token hashes not refreshed; they expire instead')));
}

export async function closeDeps(deps: Deps): Promise<void> {
  for (const close of deps.closers.splice(0)) close();
  deps.redis.disconnect();
  await deps.db.end();
}
