// Convergence of Redis-derived state with PostgreSQL. Every batch bumps its server's version in
// PostgreSQL and writes Redis after commit with that version; a write that never arrived (Redis
// down, a timeout, a crash between commit and write, Redis restarted empty) leaves the server's
// applied version behind. This job compares the two for every server: a server whose state is gone
// is rebuilt at once, one that lags is rebuilt once it has lagged for longer than the grace period
// (a write can be in flight for up to Redis' command timeout).
import type { Core } from '../core.ts';
import type { ServerReadDeps } from '../stats/server-reads.ts';
import { listServerVersions } from '../servers/server.repo.ts';
import { appliedVersion } from '../stats/stats.store.ts';
import { laggingServersKey } from '../store/keys.ts';
import { rebuildServer } from './rebuild.ts';

/** How long a server may lag before it is rebuilt; longer than the Redis command timeout (2 s). */
export const lagGraceMs = 5_000;
/** How often the worker runs the job (docs/operations.md: derived state converges within interval + grace + rebuild time). */
export const reconcileIntervalMs = 5_000;

export interface ReconcileResult {
  checked: number;
  rebuilt: string[];
}

export async function reconcileDerivedState(deps: Core & ServerReadDeps): Promise<ReconcileResult> {
  const now = deps.clock.now();
  const servers = await listServerVersions(deps.db);
  const applied = await Promise.all(servers.map((s) => appliedVersion(deps.redis, s.id)));
  const lagging = await deps.redis.hgetall(laggingServersKey);
  const rebuilt: string[] = [];
  for (const [i, { id, version }] of servers.entries()) {
    const w = applied[i]!;
    const [sinceVersion = 0, sinceMs = now] = lagging[id]?.split(':').map(Number) ?? [];
    if (w !== null && w === version) {
      if (lagging[id] !== undefined) await deps.redis.hdel(laggingServersKey, id);
      continue;
    }
    // Gone; ahead of PostgreSQL (restored from a backup, a failover that lost commits: later
    // batches would reuse those versions and be skipped); or lagging for longer than the grace.
    const due =
      (w === null && version > 0) || (w !== null && w > version) || (w !== null && w < sinceVersion && now - sinceMs >= lagGraceMs);
    if (due) {
      // One server failing to rebuild must not hold up the others: it is tried again next run.
      const done = await rebuildServer(deps, id).then(
        () => true,
        (err: unknown) => {
          deps.log.warn({ err, serverId: id }, 'rebuild failed; tried again at the next run');
          return false;
        },
      );
      if (!done) continue;
      await deps.redis.hdel(laggingServersKey, id);
      rebuilt.push(id);
    } else if (w !== null && w >= sinceVersion) {
      // Lagging now, or again after catching up with what it lagged behind before: the clock starts.
      await deps.redis.hset(laggingServersKey, id, `${version}:${now}`);
    }
  }
  return { checked: servers.length, rebuilt };
}
