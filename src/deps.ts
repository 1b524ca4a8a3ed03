// The service composed: the core (src/core.ts) and what each capability keeps in this process,
// its caches built by the factory its description declares (src/capabilities.ts). Only entry
// points (web, worker, CLI, demo) and tests hold the whole; a capability's functions take the
// part they use.
import type { Config } from './config.ts';
import { closeCore, createCore } from './core.ts';
import type { Core } from './core.ts';
import type { Clock } from './clock.ts';
import type { Log } from './log.ts';
import { CacheDrops, invalidationChannel, onInvalidation } from './store/invalidation.ts';
import type { CacheDropsHeld } from './store/invalidation.ts';
import { followChannels } from './store/subscriber.ts';
import { capabilities } from './capabilities.ts';
import type { CachesOf } from './capability.ts';
import { refreshIngestTokenHashes } from './ingest/ingest-token-hashes.ts';
import { AgentWaits, agentWakeChannel, onAgentWake } from './commands/agent-waits.ts';
import type { AgentWaitsHeld } from './commands/agent-waits.ts';
import { dataApiRuntime, dataApiSwitchChannel, loadDataApiSwitch, onDataApiSwitch } from './operator/data-api-switch.ts';
import type { DataApiRuntime } from './operator/data-api-switch.ts';
import { connectRedis } from './store/redis.ts';

type Caches = CachesOf<typeof capabilities>;

/** Every capability's caches in one object (test/processes/capabilities.test.ts: no name taken twice). */
function capabilityCaches(core: Core, drops: CacheDrops): Caches {
  return Object.assign({}, ...capabilities.map((c) => c.caches?.(core, drops))) as Caches;
}

export type Deps = Core &
  CacheDropsHeld &
  AgentWaitsHeld &
  DataApiRuntime & {
    caches: Caches;
    /** What connectDeps started and closeDeps stops. */
    closers: (() => void)[];
  };

export function createDeps(config: Config, overrides: { clock?: Clock; log?: Log } = {}): Deps {
  const core = createCore(config, overrides);
  const cacheDrops = new CacheDrops();
  return {
    ...core,
    cacheDrops,
    caches: capabilityCaches(core, cacheDrops),
    agentWaits: new AgentWaits(),
    runtime: dataApiRuntime(config),
    closers: [],
  };
}

/** Connects Redis and follows what other processes publish (the Data API switch, cache drops, agent wake-ups). */
export async function connectDeps(deps: Deps): Promise<void> {
  await connectRedis(deps.redis);
  deps.closers.push(
    await followChannels(deps, {
      [dataApiSwitchChannel(deps)]: (value) => onDataApiSwitch(deps, value),
      [invalidationChannel(deps)]: (message) => onInvalidation(deps, message),
      [agentWakeChannel(deps)]: (message) => onAgentWake(deps, message),
    }),
  );
  await loadDataApiSwitch(deps);
  deps.closers.push(
    refreshIngestTokenHashes(deps.caches.ingestTokens, deps.db, (err) =>
      deps.log.warn({ err }, 'ingest token hashes not refreshed; they expire instead'),
    ),
  );
}

export async function closeDeps(deps: Deps): Promise<void> {
  for (const close of deps.closers.splice(0)) close();
  await closeCore(deps);
}
