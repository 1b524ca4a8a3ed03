// Worker job: performs the syncs the web process asked for (file_sync_requests). Each server is
// synced under its own Redis lock, so several workers share the work and never sync one server's
// files at once; a server another worker holds is left to it. A request is deleted once its file
// synced; one that failed stays, waits (sync-requests.repo.ts) and is tried again, and its first
// failure in a row is audited, so a refused path shows in the account's audit log, not only in the
// worker's log.
import { randomUUID } from 'node:crypto';
import type { Core } from '../core.ts';
import { insertAudit } from '../audit/audit.repo.ts';
import { jobLockKey } from '../store/keys.ts';
import { deleteRequest, dueRequestsOf, markFailed, pendingRequests } from './sync-requests.repo.ts';
import type { SyncRequest } from './sync-requests.repo.ts';
import { syncGameFiles } from './sync.ts';
import type { Failure, SyncOutcome } from './sync.ts';

const batch = 500;
/** How long a server's lock lasts: past any sync's time limits, so it frees a server whose worker died. */
const lockMs = (deps: Core) => 3 * deps.config.gameFileSyncTimeoutMs + 30_000;

const lockKey = (serverId: string) => jobLockKey(`game-files:${serverId}`);

/** Takes the free locks of these servers; returns the token of each taken. */
async function lockServers(deps: Core, serverIds: string[]): Promise<Map<string, string>> {
  const taken = new Map<string, string>();
  await Promise.all(
    serverIds.map(async (serverId) => {
      const token = randomUUID();
      if ((await deps.redis.set(lockKey(serverId), token, 'PX', lockMs(deps), 'NX')) === 'OK') taken.set(serverId, token);
    }),
  );
  return taken;
}

async function auditFirstFailure(deps: Core, request: SyncRequest, f: Failure, nowIso: string): Promise<void> {
  await insertAudit(deps.db, {
    accountId: f.accountId,
    at: nowIso,
    actorType: 'system',
    actorId: null,
    actorName: 'worker',
    action: 'files.sync-failed',
    targetType: 'server',
    targetId: request.serverId,
    ip: null,
    details: { file: request.kind, path: f.path, error: f.error, refused: f.refused, timedOut: f.timedOut },
  });
}

export async function drainSyncRequests(deps: Core): Promise<{ synced: SyncOutcome[]; failed: number } | undefined> {
  const nowIso = new Date(deps.clock.now()).toISOString();
  const pending = await pendingRequests(deps.db, nowIso, batch);
  if (pending.length === 0) return undefined;
  const locks = await lockServers(deps, [...new Set(pending.map((r) => r.serverId))]);
  const timedOut = new Set<string>();
  try {
    // Read again under the locks: another worker may have served some meanwhile.
    const requests = locks.size === 0 ? [] : await dueRequestsOf(deps.db, [...locks.keys()], nowIso);
    const { synced, failed } = await syncGameFiles(deps, requests);
    const failures = new Map(failed.map((f) => [`${f.serverId}:${f.kind}`, f]));
    for (const request of requests) {
      const f = failures.get(`${request.serverId}:${request.kind}`);
      if (!f) await deleteRequest(deps.db, request);
      else if (f.timedOut) timedOut.add(f.serverId);
      // A sync that met another of the same file is tried at the next run, as before it waited.
      if (!f || f.overlapped) continue;
      if ((await markFailed(deps.db, request, f.error, nowIso)) === 1) await auditFirstFailure(deps, request, f, nowIso);
    }
    return { synced, failed: failed.length };
  } finally {
    // A server whose read or write outlasted its time limit keeps its lock until the lock runs
    // out: that work may still be running, and no second sync of its file starts beside it.
    await Promise.all(
      [...locks]
        .filter(([serverId]) => !timedOut.has(serverId))
        .map(([serverId, token]) => deps.redis.releaseLock(lockKey(serverId), token)),
    );
  }
}
