// The present players' rows this web process wrote last through the one-call path, with their
// tags (the xmin of each row: the id of the call's transaction), so the server's next batch needs no
// read of them before its call. A row written since by anything else (another process, the
// transactional path, a merge) has another xmin: the call refuses, the entries go, and the call is
// made again with the rows read.
import { LRUCache } from 'lru-cache';
import type { Deps } from '../deps.ts';
import { loadTotalsAsRead } from '../stats/stats.repo.ts';
import type { PlayerTotals } from '../stats/totals.ts';
import type { DbSlot } from './ingest.ts';

export interface TaggedTotals {
  totals: PlayerTotals;
  tag: string;
}

/** (server, player) -> row as last written. A fleet of 2,500 servers with 60 players online each is 150,000 entries. */
export type PresentTotals = LRUCache<string, TaggedTotals>;
export const createPresentTotals = (): PresentTotals => new LRUCache({ max: 200_000, ttl: 60_000 });

const keyOf = (serverId: string, platformId: string) => `${serverId}/${platformId}`;

/**
 * The players' stored rows with their tags: from memory where this process wrote them last (when
 * `useMemory`), else read holding a `connection`. `fromMemory` tells whether any came from memory.
 */
export async function presentTotalsAsRead(deps: Deps, serverId: string, platformIds: Iterable<string>, useMemory: boolean, connection: DbSlot): Promise<{ rows: Map<string, TaggedTotals>; fromMemory: boolean }> {
  const rows = new Map<string, TaggedTotals>();
  const unknown: string[] = [];
  for (const id of platformIds) {
    const known = useMemory ? deps.caches.presentTotals.get(keyOf(serverId, id)) : undefined;
    // A copy: the batch's events are applied to what this returns.
    if (known) rows.set(id, { totals: { ...known.totals }, tag: known.tag });
    else unknown.push(id);
  }
  const fromMemory = rows.size > 0;
  if (unknown.length > 0) for (const [id, row] of await connection(() => loadTotalsAsRead(deps.db, serverId, unknown))) rows.set(id, row);
  return { rows, fromMemory };
}

/**
 * After a call: the present players' totals it saved, and the rows it added to that are held here
 * (a player present in an earlier batch who only killed in this one), all tagged with its xmin.
 */
export function rememberPresentTotals(deps: Deps, serverId: string, saved: Map<string, PlayerTotals>, added: Map<string, PlayerTotals>, tag: string): void {
  const cache = deps.caches.presentTotals;
  for (const [id, totals] of saved) cache.set(keyOf(serverId, id), { totals, tag });
  for (const [id, totals] of added) {
    const key = keyOf(serverId, id);
    if (cache.has(key)) cache.set(key, { totals, tag });
  }
}

export function forgetPresentTotals(deps: Deps, serverId: string, platformIds: Iterable<string>): void {
  for (const id of platformIds) deps.caches.presentTotals.delete(keyOf(serverId, id));
}
