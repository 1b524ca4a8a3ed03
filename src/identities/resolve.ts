// Resolves a platform id to the id the service keeps a player under: a DayZ ID of a known Steam64,
// or a linked console id, is the Steam64; an unknown one stays a player of its own. Ingestion
// resolves a batch's ids in its one call (src/ingest/sql/apply-batch.sql); this is for the rest,
// and for the merges a batch finds due.
import type { LRUCache } from 'lru-cache';
import type { Queryable } from '../store/db.ts';
import { isSteam64 } from './id-forms.ts';
import { resolveAliases } from './identity.repo.ts';

/**
 * The id under which the service keeps a player: a DayZ ID of a known Steam64 or a linked console id
 * gives the Steam64; anything else is itself. For every route that takes a platform id (bans,
 * queue, trust lookup), so a DayZ ID finds the same player everywhere.
 */
export async function resolvePlatformId(db: Queryable, id: string): Promise<string> {
  if (isSteam64(id)) return id;
  return (await resolveAliases(db, [id])).get(id) ?? id;
}

/**
 * Whether a Steam64 was checked within the last minute for a DayZ-ID player of its own
 * (`checked`): then it is not looked up again. Once a Steam64's row exists a new DayZ-ID player of it cannot
 * appear, except from a batch that raced its first sighting, which the next check after the minute
 * finds.
 */
export const checkedLately =
  (checked: LRUCache<string, true>) =>
  (steam64: string): boolean =>
    checked.has(steam64);

/** After a batch's lookup: the Steam64s without a DayZ-ID player left are checked; a merge found due is not, so it is retried. */
export function settleMerges(lookedUp: string[], due: { dayzId: string; steam64: string }[], checked: LRUCache<string, true>): void {
  const pending = new Set(due.map((m) => m.steam64));
  for (const steam64 of lookedUp) if (!pending.has(steam64)) checked.set(steam64, true);
}
