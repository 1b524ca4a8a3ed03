// Leaderboard pages: rendered once from Redis (one script call), then served from the server's
// page cache until the next change to that server drops it. While the server's Redis state is
// missing or being rebuilt, the answer is a 503, never an empty or partial page.
import type { LeaderboardPage } from '../http/schema-types.ts';
import type { LeaderboardSort } from '../stats/ranking.ts';
import type { ServerDeps } from '../servers/server.ts';
import { leaderboardEntry } from '../stats/ranking.ts';
import { cachedPage, leaderboardSlice, storePage } from '../stats/stats.store.ts';
import { readThrough } from '../stats/server-reads.ts';
import { refuseWhileRebuilding } from './rebuilding.ts';

const pageTtlMs = 60_000;

/** The page as JSON text, ready to send. */
export async function leaderboardPage(
  deps: ServerDeps,
  serverId: string,
  sort: LeaderboardSort,
  offset: number,
  limit: number,
): Promise<string> {
  const field = `lb:${sort}:${offset}:${limit}`;
  const cached = await readThrough(deps, serverId, field, () => cachedPage(deps.redis, serverId, field));
  if (cached) return cached;
  const slice = await leaderboardSlice(deps.redis, serverId, sort, offset, limit);
  if (!slice.present) await refuseWhileRebuilding(deps, serverId);
  const page = JSON.stringify({
    total: slice.total,
    sort,
    players: slice.players.map(([platformId, totals], i) => leaderboardEntry(offset + i + 1, platformId, totals)),
  } satisfies LeaderboardPage);
  await storePage(deps.redis, serverId, slice.generation, field, page, pageTtlMs);
  return page;
}
