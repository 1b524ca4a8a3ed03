// The online-players page: rendered once per change of the server and kept, like leaderboard pages,
// in the server's page cache (which every ingested batch drops). The list also changes with time
// alone (a player leaves the 90 s window without any event), so the page carries the moment its
// longest-idle player drops out, and is rendered anew from then on.
import type { OnlinePlayers } from '../http/schema-types.ts';
import { cachedPage, onlinePlayers, pageGeneration, storePage } from '../stats/stats.store.ts';
import type { ServerDeps } from '../servers/server.ts';
import { forgetServerRead, readThrough } from '../stats/server-reads.ts';
import { onlineWindowMs } from '../stats/totals.ts';
import { refuseWhileRebuilding } from './rebuilding.ts';

const field = 'online';
const pageTtlMs = 60_000;

/**
 * Stored as "<valid until ms>|<json>"; kept in process with the JSON as bytes, as a page of 200
 * players is about 11 kB that each answer would otherwise encode again.
 */
const parse = (stored: string) => {
  const bar = stored.indexOf('|');
  return { validUntilMs: Number(stored.slice(0, bar)), body: Buffer.from(stored.slice(bar + 1)) };
};

/** The page as JSON bytes, ready to send. */
export async function onlinePage(deps: ServerDeps, serverId: string): Promise<Buffer> {
  const now = deps.clock.now();
  const page = await readThrough(deps, serverId, field, async () => {
    const stored = await cachedPage(deps.redis, serverId, field);
    return stored === null ? null : parse(stored);
  });
  if (page) {
    if (now < page.validUntilMs) return page.body;
    forgetServerRead(deps, serverId, field);
  }
  const generation = await pageGeneration(deps.redis, serverId);
  const list = await onlinePlayers(deps.redis, serverId, now - onlineWindowMs);
  if (!list) await refuseWhileRebuilding(deps, serverId);
  const players = list?.players ?? [];
  const body = JSON.stringify({ players, count: players.length } satisfies OnlinePlayers);
  // "now - window <= oldest" holds for every listed player, so the page is exact until oldest + window.
  const validUntilMs = list?.oldestMs != null ? list.oldestMs + onlineWindowMs : now + pageTtlMs;
  if (list) await storePage(deps.redis, serverId, generation, field, `${validUntilMs}|${body}`, pageTtlMs);
  return Buffer.from(body);
}
