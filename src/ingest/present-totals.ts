// The present players' rows this web process wrote last through the one-call path, with their
// tags (the xmin of each row: the id of the call's transaction), so the server's next batch needs no
// read of them before its call. A row written since by anything else (another process, the
// transactional path, a merge) has another xmin: the call refuses, the entries go, and the call is
// made again with the rows read.
// A fleet of 2,500 servers with 60 players online each keeps 150,000 rows here, rewritten at every
// batch: each is held in place in an LruSlab (src/store/lru-slab.ts), its numbers in a typed array,
// so a write allocates nothing that lives.
import type { Deps } from '../deps.ts';
import { loadTotalsAsRead } from '../stats/stats.repo.ts';
import { LruSlab } from '../store/lru-slab.ts';
import { totalsOfTuple, totalsTuple } from '../stats/totals.ts';
import type { PlayerTotals, TotalsTuple } from '../stats/totals.ts';
import type { DbSlot } from './ingest.ts';

export interface TaggedTotals {
  totals: PlayerTotals;
  tag: string;
}

// Joined, not a template literal: V8 builds a join as one flat string, a template literal this
// long as a tree of its parts, and a held key is kept as it was made.
const keyOf = (serverId: string, platformId: string) => [serverId, platformId].join('/');
// A row's texts: the name (the tuple's first field) and the tag; its numbers: the tuple's others.
const nameText = 0;
const tagText = 1;
const numbers = 10;

/** (server, player) -> row as last written. */
export class PresentTotals {
  readonly #rows = new LruSlab({ numbers, texts: 2, max: 200_000, ttlMs: 60_000 });

  /** A copy of the row: the caller may apply events to it. */
  get(serverId: string, platformId: string): TaggedTotals | undefined {
    const rows = this.#rows;
    const slot = rows.find(keyOf(serverId, platformId));
    if (slot === undefined) return undefined;
    const tuple: unknown[] = [rows.text(slot, nameText)];
    for (let i = 0; i < numbers; i++) tuple.push(rows.number(slot, i));
    return { totals: totalsOfTuple(tuple as TotalsTuple), tag: rows.text(slot, tagText)! };
  }

  set(serverId: string, platformId: string, { totals, tag }: TaggedTotals): void {
    const rows = this.#rows;
    const slot = rows.hold(keyOf(serverId, platformId));
    const [name, ...counts] = totalsTuple(totals);
    rows.setText(slot, nameText, name);
    rows.setText(slot, tagText, tag);
    for (let i = 0; i < numbers; i++) rows.setNumber(slot, i, counts[i]!);
  }

  has(serverId: string, platformId: string): boolean {
    return this.#rows.has(keyOf(serverId, platformId));
  }

  delete(serverId: string, platformId: string): void {
    this.#rows.delete(keyOf(serverId, platformId));
  }
}

/**
 * The players' stored rows with their tags: from memory where this process wrote them last (when
 * `useMemory`), else read holding a `connection`. `fromMemory` tells whether any came from memory.
 */
export async function presentTotalsAsRead(deps: Deps, serverId: string, platformIds: Iterable<string>, useMemory: boolean, connection: DbSlot): Promise<{ rows: Map<string, TaggedTotals>; fromMemory: boolean }> {
  const rows = new Map<string, TaggedTotals>();
  const unknown: string[] = [];
  for (const id of platformIds) {
    const known = useMemory ? deps.caches.presentTotals.get(serverId, id) : undefined;
    if (known) rows.set(id, known);
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
  const held = deps.caches.presentTotals;
  for (const [id, totals] of saved) held.set(serverId, id, { totals, tag });
  for (const [id, totals] of added) if (held.has(serverId, id)) held.set(serverId, id, { totals, tag });
}

export function forgetPresentTotals(deps: Deps, serverId: string, platformIds: Iterable<string>): void {
  for (const id of platformIds) deps.caches.presentTotals.delete(serverId, id);
}
