// The worker's game-file work, run every second under one job lock (so two runs never write the
// same file at once, on one worker or across replicas): the syncs the web process asked for, and
// every 60 s the expiry of bans and queue entries. One job rather than three: jobs sharing a lock and firing in the same second
// would starve each other.
import type { Deps } from '../deps.ts';
import { drainSyncRequests } from './sync-job.ts';
import { expireGameFileEntries } from './expiry-job.ts';

export const expiryIntervalMs = 60_000;

export function fileJobs(): (deps: Deps) => Promise<Record<string, unknown> | undefined> {
  let lastExpiryMs = Number.NEGATIVE_INFINITY;
  return async (deps) => {
    const syncs = await drainSyncRequests(deps);
    let expiry;
    if (deps.clock.now() - lastExpiryMs >= expiryIntervalMs) {
      expiry = await expireGameFileEntries(deps);
      // Set only after it succeeded: a failed expiry runs again at the next second.
      lastExpiryMs = deps.clock.now();
    }
    if (!syncs && !expiry) return undefined;
    return { ...(syncs ? { synced: syncs.synced.length, failed: syncs.failed } : {}), ...(expiry ? { expiry } : {}) };
  };
}
