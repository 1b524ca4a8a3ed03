// Worker job: performs the syncs the web process asked for (file_sync_requests). A request is
// deleted once its file synced; one that failed stays and is retried at the next run.
import type { Deps } from '../deps.ts';
import { deleteRequest, pendingRequests } from './sync-requests.repo.ts';
import { syncGameFiles } from './sync.ts';
import type { SyncOutcome } from './sync.ts';

const batch = 500;

export async function drainSyncRequests(deps: Deps): Promise<{ synced: SyncOutcome[]; failed: number } | undefined> {
  const requests = await pendingRequests(deps.db, batch);
  if (requests.length === 0) return undefined;
  const { synced, failed } = await syncGameFiles(deps, requests);
  const failedKeys = new Set(failed.map((f) => `${f.serverId}:${f.kind}`));
  for (const request of requests) if (!failedKeys.has(`${request.serverId}:${request.kind}`)) await deleteRequest(deps.db, request);
  return { synced, failed: failed.length };
}
