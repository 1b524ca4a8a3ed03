// The pool entries behind a player's public score, for the public player page: which communities
// reported the player, in which category, and where each entry stands. Names of submitting users,
// free-text reasons and private notes stay with the moderators. Read from the replica when there is one.
import type { Core } from '../core.ts';
import { publicEntriesOf } from './pool.repo.ts';
import type { PublicEntry } from './pool.repo.ts';
import { trustPlayerOf } from './lookup.ts';
import { readView } from '../store/read-view.ts';

export async function publicEntries(deps: Core, identifier: string): Promise<{ platformId: string; entries: PublicEntry[] }> {
  const player = await trustPlayerOf(deps, identifier);
  const at = new Date(deps.clock.now()).toISOString();
  return { platformId: player.platformId, entries: await readView(deps, null, (db) => publicEntriesOf(db, player.platformId, at)) };
}
