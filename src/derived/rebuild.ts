// Rebuilds Redis-derived state (player totals, leaderboards, online windows, status records) from
// PostgreSQL. Each server is rebuilt under its ingest lock, so no batch commits half-way through;
// the rebuild tags what it writes with the version it read, so a batch write still in flight from
// before is a no-op when it lands.
import type { Core } from '../core.ts';
import { inTransaction } from '../store/db.ts';
import { lockServer } from '../ingest/ingest.repo.ts';
import { findServerRecord, listAllServerIds } from '../servers/server.repo.ts';
import { totalsPage } from '../stats/stats.repo.ts';
import { beginServerRebuild, writeServerState } from '../stats/stats.store.ts';
import { onlineWindowMs } from '../stats/totals.ts';
import type { PlayerTotals } from '../stats/totals.ts';
import { dropServerReads } from '../stats/server-reads.ts';
import type { ServerReadDeps } from '../stats/server-reads.ts';

const chunk = 2000;

/**
 * Another rebuild of the server took over, or Redis lost the state while this one ran: its pages
 * would leave a partial state behind, so it stops; the server stays marked as missing or
 * rebuilding, and the newer rebuild (or the reconcile job) completes it.
 */
export class RebuildSuperseded extends Error {
  constructor(serverId: string) {
    super(`the rebuild of server ${serverId} was superseded`);
    this.name = 'RebuildSuperseded';
  }
}

export async function rebuildServer(deps: Core & ServerReadDeps, serverId: string): Promise<number> {
  return inTransaction(deps.db, async (tx) => {
    await lockServer(tx, serverId);
    const record = await findServerRecord(tx, serverId);
    if (!record) return 0;
    const staleBefore = deps.clock.now() - onlineWindowMs;
    const token = await beginServerRebuild(deps.redis, serverId);
    const write = async (mode: 'rebuild' | 'rebuilt', totals: Map<string, PlayerTotals>, status = '') => {
      if (!(await writeServerState(deps.redis, serverId, record.version, mode, totals, staleBefore, status, token))) {
        throw new RebuildSuperseded(serverId);
      }
    };
    let players = 0;
    for (let after = ''; ;) {
      const page = await totalsPage(tx, serverId, after, chunk);
      if (page.length === 0) break;
      await write('rebuild', new Map(page));
      players += page.length;
      after = page.at(-1)![0];
    }
    await write('rebuilt', new Map(), JSON.stringify(record));
    dropServerReads(deps, serverId);
    return players;
  });
}

export async function rebuildDerivedState(deps: Core & ServerReadDeps): Promise<{ servers: number; players: number }> {
  const serverIds = await listAllServerIds(deps.db);
  let players = 0;
  for (const serverId of serverIds) {
    // A rebuild of the same server started elsewhere meanwhile completes it instead.
    players += await rebuildServer(deps, serverId).catch((err: unknown) => {
      if (err instanceof RebuildSuperseded) return 0;
      throw err;
    });
  }
  return { servers: serverIds.length, players };
}
