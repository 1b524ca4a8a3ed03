// Resolves the platform ids of an ingested batch: a DayZ ID of a known Steam64, or a
// linked console id, is stored under the Steam64; an unknown one stays a player of its own.
import type { IngestEvent, Player } from '../ingest/events.ts';
import type { LRUCache } from 'lru-cache';
import type { Queryable } from '../store/db.ts';
import { dayzIdOf, isSteam64 } from './id-forms.ts';
import { existingPlayers, resolveAliases } from './identity.repo.ts';

function playersIn(e: IngestEvent): Player[] {
  if (e.type === 'kill') return [e.killer, e.victim];
  if ('player' in e) return [e.player];
  return [];
}

function idsOf(events: readonly IngestEvent[]): Set<string> {
  const ids = new Set<string>();
  for (const e of events) {
    for (const p of playersIn(e)) ids.add(p.platformId);
    if (e.type === 'shots') ids.add(e.platformId);
  }
  return ids;
}

/** The batch's ids that may stand for a Steam64 (DayZ IDs and console ids); empty for a Steam64-only batch. */
export function aliasIdsOf(events: readonly IngestEvent[]): string[] {
  return [...idsOf(events)].filter((id) => !isSteam64(id));
}

/**
 * The id under which the service keeps a player: a DayZ ID of a known Steam64 or a linked console id
 * gives the Steam64; anything else is itself. For every route that takes a platform id (bans,
 * queue, trust lookup), so a DayZ ID finds the same player everywhere.
 */
export async function resolvePlatformId(db: Queryable, id: string): Promise<string> {
  if (isSteam64(id)) return id;
  return (await resolveAliases(db, [id])).get(id) ?? id;
}

/** Rewrites, in place, every id of the batch that resolves to a Steam64. */
export async function resolveBatchIds(db: Queryable, events: IngestEvent[], aliasIds: string[]): Promise<void> {
  const resolved = await resolveAliases(db, aliasIds);
  // A Steam64 named in this very batch resolves its DayZ ID too, before its row exists.
  for (const id of idsOf(events)) if (isSteam64(id)) resolved.set(dayzIdOf(id), id);
  if (![...aliasIds].some((id) => resolved.has(id))) return;
  for (const e of events) {
    for (const p of playersIn(e)) p.platformId = resolved.get(p.platformId) ?? p.platformId;
    if (e.type === 'shots') e.platformId = resolved.get(e.platformId) ?? e.platformId;
  }
}

/**
 * DayZ IDs, still players of their own, whose Steam64 this batch names: they are due a merge. A
 * Steam64 checked within the last minute (`checked`) is not looked up again: once its row exists a
 * new DayZ-ID player of it cannot appear, except from a batch that raced its first sighting, which
 * the next check after the minute finds. A merge found due is not cached, so it is retried.
 */
export async function mergesDue(db: Queryable, events: readonly IngestEvent[], checked: LRUCache<string, true>): Promise<{ dayzId: string; steam64: string }[]> {
  const candidates = mergeCandidates(events, checked);
  if (candidates.size === 0) return [];
  return settleMerges(candidates, await existingPlayers(db, [...candidates.keys()]), checked);
}

/** The DayZ IDs (with their Steam64) that mergesDue looks up: of the batch's Steam64s not checked lately. */
export function mergeCandidates(events: readonly IngestEvent[], checked: LRUCache<string, true>): Map<string, string> {
  const steam64s = [...idsOf(events)].filter((id) => isSteam64(id) && !checked.has(id));
  return new Map(steam64s.map((id) => [dayzIdOf(id), id]));
}

/** Given which candidates are players of their own (orphans): the merges due; the rest are checked. */
export function settleMerges(candidates: Map<string, string>, orphans: Set<string>, checked: LRUCache<string, true>): { dayzId: string; steam64: string }[] {
  for (const [dayzId, steam64] of candidates) if (!orphans.has(dayzId)) checked.set(steam64, true);
  return [...orphans].map((dayzId) => ({ dayzId, steam64: candidates.get(dayzId)! }));
}
