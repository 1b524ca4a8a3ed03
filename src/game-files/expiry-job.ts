// Worker job, every 60 s: bans that expired leave the ban files that held them, expired priority-queue
// entries are deleted and leave the priority files of their servers. Only the files concerned are
// re-synced. The deletions and the sync requests they need commit together, so a sync that fails
// (or a worker killed in between) is retried by the request drain, never lost.
import type { Core } from '../core.ts';
import { inTransaction } from '../store/db.ts';
import { insertAudit } from '../audit/audit.repo.ts';
import { deleteExpiredEntries } from '../queue/queue.repo.ts';
import type { QueueEntry } from '../queue/queue.repo.ts';
import { serversWithExpiredBans } from './game-files.repo.ts';
import { insertAccountRequests, insertServerRequests } from './sync-requests.repo.ts';
import { drainSyncRequests } from './sync-job.ts';

const deleteBatch = 5000;

export interface ExpiryResult {
  expiredEntries: number;
  banFiles: number;
  filesSynced: number;
}

async function expireQueueEntries(deps: Core, nowIso: string): Promise<number> {
  let total = 0;
  for (;;) {
    const expired = await inTransaction(deps.db, async (tx) => {
      const entries = await deleteExpiredEntries(tx, nowIso, deleteBatch);
      const byAccount = new Map<string, QueueEntry[]>();
      for (const e of entries) byAccount.set(e.accountId, [...(byAccount.get(e.accountId) ?? []), e]);
      for (const [accountId, list] of byAccount) {
        const scoped = [...new Set(list.flatMap((e) => e.serverIds ?? []))];
        if (list.some((e) => e.serverIds === null)) await insertAccountRequests(tx, accountId, ['priority'], nowIso);
        else await insertServerRequests(tx, scoped, ['priority'], nowIso);
        await insertAudit(tx, {
          accountId,
          at: nowIso,
          actorType: 'system',
          actorId: null,
          actorName: 'worker',
          action: 'queue.expire',
          targetType: 'queue',
          targetId: null,
          ip: null,
          details: { entryIds: list.map((e) => e.id), platformIds: list.map((e) => e.platformId) },
        });
      }
      return entries.length;
    });
    total += expired;
    if (expired < deleteBatch) return total;
  }
}

export async function expireGameFileEntries(deps: Core): Promise<ExpiryResult | undefined> {
  const nowIso = new Date(deps.clock.now()).toISOString();
  const expiredEntries = await expireQueueEntries(deps, nowIso);
  const banServers = await serversWithExpiredBans(deps.db, nowIso);
  if (banServers.length > 0) await insertServerRequests(deps.db, banServers, ['bans'], nowIso);
  if (expiredEntries === 0 && banServers.length === 0) return undefined;
  const drained = await drainSyncRequests(deps);
  return { expiredEntries, banFiles: banServers.length, filesSynced: drained?.synced.length ?? 0 };
}
