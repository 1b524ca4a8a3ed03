// Applies one batch of game-server events: idempotent by event id, bad events rejected one by
// one, all writes of a server serialised by its lock. PostgreSQL is written first; the derived
// Redis state is written under the same lock, before commit, so a rebuild never races it.
import type { Deps } from '../deps.ts';
import { inTransaction } from '../store/db.ts';
import type { DbClient } from '../store/db.ts';
import { loadTotals, saveTotals } from '../stats/stats.repo.ts';
import { writeServerState } from '../stats/stats.store.ts';
import { rankingMemberOf } from '../stats/ranking.ts';
import { dropServerReads } from '../stats/server-reads.ts';
import { applyEvents, onlineWindowMs } from '../stats/totals.ts';
import type { PlayerTotals } from '../stats/totals.ts';
import { parseBatch } from './events.ts';
import type { IngestEvent, Rejection } from './events.ts';
import { claimEventIds, insertKills, lockServer, updateServerStatus, upsertPlayers } from './ingest.repo.ts';

export interface IngestResult {
  accepted: number;
  duplicates: number;
  rejected: Rejection[];
}

export async function ingestBatch(deps: Deps, serverId: string, body: unknown): Promise<IngestResult> {
  const arrivalMs = deps.clock.now();
  const { events, rejected } = parseBatch(body, arrivalMs);
  if (events.length === 0) return { accepted: 0, duplicates: 0, rejected };
  return inTransaction(deps.db, async (tx) => {
    // Claims and kills are kept unique by their constraints, so batches of one server run them
    // side by side; the lock is taken only for the totals, whose read-modify-write needs it.
    const fresh = await claimEventIds(tx, serverId, [...new Set(events.map((e) => e.id))], arrivalMs);
    // The first occurrence of a new id counts; a repeat within the batch is a duplicate too.
    const accepted = events.filter((e) => fresh.delete(e.id));
    const duplicates = events.length - accepted.length;
    if (accepted.length > 0) {
      accepted.sort((a, b) => a.tsMs - b.tsMs || a.index - b.index);
      await applyAccepted(deps, tx, serverId, accepted, arrivalMs);
    }
    return { accepted: accepted.length, duplicates, rejected };
  });
}

async function applyAccepted(deps: Deps, tx: DbClient, serverId: string, events: IngestEvent[], arrivalMs: number): Promise<void> {
  const named = playersOf(events);
  await insertKills(tx, serverId, events.filter((e) => e.type === 'kill'));
  await upsertPlayers(tx, named);
  await lockServer(tx, serverId);
  const platformIds = new Set(named.keys());
  for (const e of events) if (e.type === 'shots') platformIds.add(e.platformId);
  const totals = await loadTotals(tx, serverId, [...platformIds]);
  const ranked = new Map([...totals].map(([id, t]) => [id, rankingMemberOf(id, t)]));
  const changed = applyEvents(totals, events);
  const changedTotals = new Map<string, PlayerTotals>([...changed].map((id) => [id, totals.get(id)!]));
  await saveTotals(tx, serverId, changedTotals);
  const statuses = statusesToApply(events);
  let record = await updateServerStatus(tx, serverId, events.at(-1)!.tsMs, statuses[0]);
  for (const status of statuses.slice(1)) record = await updateServerStatus(tx, serverId, events.at(-1)!.tsMs, status);
  await writeServerState(deps.redis, serverId, changedTotals, ranked, arrivalMs - onlineWindowMs, JSON.stringify(record));
  dropServerReads(deps, serverId);
}

/**
 * The batch's statuses to apply one by one in time order, as if each had come alone, so that a field
 * only an earlier status carried (map, gameVersion, metrics) is not lost to a newer one without it.
 * A status whose every field a later status of the batch overwrites would change nothing: left out.
 */
function statusesToApply(events: IngestEvent[]): Extract<IngestEvent, { type: 'server.status' }>[] {
  const statuses = events.filter((e) => e.type === 'server.status');
  const needed: typeof statuses = [];
  const later = new Set<string>();
  for (let i = statuses.length - 1; i >= 0; i--) {
    const s = statuses[i]!;
    const fields = [s.map !== undefined && 'map', s.gameVersion !== undefined && 'gameVersion',
      (s.players !== undefined || s.fps !== undefined || s.uptimeSeconds !== undefined) && 'metrics'].filter((f) => f !== false);
    if (needed.length === 0 || fields.some((f) => !later.has(f))) needed.unshift(s);
    for (const f of fields) later.add(f);
  }
  return needed;
}

/** Named players of a batch with the time span they were seen in (events are in time order). */
function playersOf(events: IngestEvent[]): Map<string, { name: string; firstMs: number; lastMs: number }> {
  const seen = new Map<string, { name: string; firstMs: number; lastMs: number }>();
  const see = (platformId: string, name: string, ms: number) => {
    const s = seen.get(platformId);
    if (s) Object.assign(s, { name, lastMs: ms });
    else seen.set(platformId, { name, firstMs: ms, lastMs: ms });
  };
  for (const e of events) {
    if (e.type === 'kill') {
      see(e.killer.platformId, e.killer.name, e.tsMs);
      see(e.victim.platformId, e.victim.name, e.tsMs);
    } else if ('player' in e) see(e.player.platformId, e.player.name, e.tsMs);
  }
  return seen;
}
