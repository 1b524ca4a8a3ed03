// Rebuilds Redis-derived state (player totals, leaderboards, online windows, status records)
// from PostgreSQL. Each server is rebuilt under its ingest lock, so no batch lands half-way.
import type { Deps } from '../deps.ts';
import { inTransaction } from '../store/db.ts';
import { derivedMarkerKey } from '../store/keys.ts';
import { lockServer } from '../ingest/ingest.repo.ts';
import { findServerRecord, listAllServerIds } from '../servers/server.repo.ts';
import { totalsPage } from '../stats/stats.repo.ts';
import { clearServerState, writeServerState } from '../stats/stats.store.ts';
import { onlineWindowMs } from '../stats/totals.ts';
import { dropServerReads } from '../stats/server-reads.ts';

const chunk = 2000;

export async function rebuildServer(deps: Deps, serverId: string): Promise<number> {
  return inTransaction(deps.db, async (tx) => {
    await lockServer(tx, serverId);
    const staleBefore = deps.clock.now() - onlineWindowMs;
    await clearServerState(deps.redis, serverId);
    let players = 0;
    for (let after = ''; ; ) {
      const page = await totalsPage(tx, serverId, after, chunk);
      if (page.length === 0) break;
      await writeServerState(deps.redis, serverId, new Map(page), new Map(), staleBefore);
      players += page.length;
      after = page.at(-1)![0];
    }
    const record = await findServerRecord(tx, serverId);
    await writeServerState(deps.redis, serverId, new Map(), new Map(), staleBefore, JSON.stringify(record));
    dropServerReads(deps, serverId);
    return players;
  });
}

export async function rebuildDerivedState(deps: Deps): Promise<{ servers: number; players: number }> {
  const serverIds = await listAllServerIds(deps.db);
  let players = 0;
  for (const serverId of serverIds) players += await rebuildServer(deps, serverId);
  await deps.redis.set(derivedMarkerKey, new Date(deps.clock.now()).toISOString());
  return { servers: serverIds.length, players };
}

/** True when Redis has lost the derived state (flushed or restarted empty). */
export async function derivedStateMissing(deps: Deps): Promise<boolean> {
  return (await deps.redis.exists(derivedMarkerKey)) === 0;
}
