// The worker's game-file jobs. Every second, the syncs the web process asked for: each server under
// a lock of its own (sync-job.ts), not one lock for the whole run, so a run still waiting on one
// server's slow file never holds up the next run's other servers, and several workers share the
// work. Every minute, under its job lock, the expiry of bans and queue entries (expiry-job.ts).
import type { Core } from '../core.ts';
import { drainSyncRequests } from './sync-job.ts';
import { expireGameFileEntries } from './expiry-job.ts';

export async function syncRequestedFiles(deps: Core): Promise<Record<string, unknown> | undefined> {
  const syncs = await drainSyncRequests(deps);
  if (!syncs || syncs.synced.length + syncs.failed === 0) return undefined;
  return { synced: syncs.synced.length, failed: syncs.failed };
}

export async function expireFileEntries(deps: Core): Promise<Record<string, unknown> | undefined> {
  const expiry = await expireGameFileEntries(deps);
  return expiry ? { expiry } : undefined;
}
