// Applies one batch of game-server events: idempotent by event (its id and ts as sent), bad
// events rejected one by one, the batch's rules applied in one database call
// (src/ingest/sql/apply-batch.sql). PostgreSQL is the truth and is committed first; the derived
// Redis state is written after the commit, tagged with the server's version, so Redis never shows
// a batch that was not committed (src/stats/apply-server-state.lua).
import type { IngestResult } from '../http/schema-types.ts';
import { LRUCache } from 'lru-cache';
import type { TrustDeps } from '../trust/lookup.ts';
import type { ServerReadDeps } from '../stats/server-reads.ts';
import { writeServerState } from '../stats/stats.store.ts';
import { dropServerReads } from '../stats/server-reads.ts';
import { onlineWindowMs } from '../stats/totals.ts';
import type { PlayerTotals } from '../stats/totals.ts';
import { parseBatch } from './events.ts';
import type { IngestEvent } from './events.ts';
import { applyBatchInOneCall } from './ingest.repo.ts';
import type { AppliedBatch } from './ingest.repo.ts';
import { batchColumns } from './batch-columns.ts';
import type { BatchColumns } from './batch-columns.ts';
import { checkedLately, settleMerges } from '../identities/resolve.ts';
import { mergeLearntSteam64s } from '../identities/merge.ts';
import { refreshPlayedScores } from '../trust/lookup.ts';
import { requestServerSync } from '../game-files/sync-requests.ts';
import { ingestBatches, ingestEvents, ingestLag } from '../meters.ts';

export type { IngestResult };

/** What a committed batch changed, to be written to Redis after the commit. */
export interface DerivedChange {
  version: number;
  totals: Map<string, PlayerTotals>;
  statusJson: string;
}

/** Runs work when a bound of the caller's allows it. */
export type DbSlot = <T>(work: () => Promise<T>) => Promise<T>;
const directly: DbSlot = (work) => work();

/**
 * How a batch's PostgreSQL phase runs. A web process (src/ingest/ingest.route.ts) bounds it by its
 * ingest gate and sends batches in groups under load (src/ingest/batch-groups.ts); elsewhere (the
 * demo, tests) each runs as it comes.
 */
export interface IngestSlots {
  /** Runs the whole PostgreSQL phase in the server's turn. */
  turn: DbSlot;
  /** Applies a batch in one call (applyBatchInOneCall's contract). */
  apply: (serverId: string, columns: BatchColumns) => Promise<AppliedBatch>;
}

/** Steam64s found, within the last minute, to have no DayZ-ID player of their own left to merge. */
export const ingestCaches = () => ({ mergeChecked: new LRUCache<string, true>({ max: 200_000, ttl: 60_000 }) });

/** What applying a batch uses: the scores its play refreshes, the reads it drops, the merges it checked. */
export type IngestDeps = TrustDeps & ServerReadDeps & { caches: ReturnType<typeof ingestCaches> };

export const eachAsItComes = (deps: IngestDeps): IngestSlots => ({
  turn: directly,
  apply: (serverId, columns) => applyBatchInOneCall(deps.db, serverId, columns),
});

/**
 * Applies a batch. Only its PostgreSQL phase runs in the server's turn: parsing before it and the
 * Redis writes after the commit hold no connection, so they need no turn.
 */
export async function ingestBatch(
  deps: IngestDeps,
  serverId: string,
  body: unknown,
  slots: IngestSlots = eachAsItComes(deps),
): Promise<IngestResult> {
  const arrivalMs = deps.clock.now();
  const { events, rejected } = parseBatch(body, arrivalMs);
  ingestEvents.inc({ result: 'rejected' }, rejected.length);
  if (events.length === 0) return { accepted: 0, duplicates: 0, rejected };
  const { result, merges, change } = await slots.turn(() => commitBatch(deps, serverId, events, arrivalMs, slots.apply));
  meterBatch(events, result, deps.clock.now());
  // The derived state, and the players' cached trust scores computed a minute ago or more (their
  // play changed; a fresher score keeps serving: src/trust/lookup.ts), side by side: each write is
  // tagged or idempotent, and neither throws.
  if (change) await Promise.all([writeDerived(deps, serverId, change, arrivalMs), refreshPlayedScores(deps, change.totals.keys())]);
  if (result.started) await requestFilesAfterStart(deps, serverId, arrivalMs);
  // A Steam64 learnt here whose DayZ ID was a player of its own: merged after the commit, in a
  // transaction of its own (it locks other servers too). Until it succeeds, every batch naming
  // the Steam64 finds the DayZ ID again, so a merge lost to a crash is made later.
  if (merges.length > 0) await mergeLearntSteam64s(deps, merges);
  return { accepted: result.accepted, duplicates: result.duplicates, rejected };
}

/** A stored batch in the metrics: its events by result, and how late its oldest event was stored. */
function meterBatch(events: IngestEvent[], result: CommittedBatch['result'], storedMs: number): void {
  ingestBatches.inc();
  ingestEvents.inc({ result: 'accepted' }, result.accepted);
  ingestEvents.inc({ result: 'duplicate' }, result.duplicates);
  let oldest = Infinity;
  for (const event of events) if (event.tsMs < oldest) oldest = event.tsMs;
  ingestLag.observe(Math.max(0, storedMs - oldest) / 1000);
}

/** What the PostgreSQL phase of a batch committed. */
export interface CommittedBatch {
  result: { accepted: number; duplicates: number; started: boolean };
  merges: { dayzId: string; steam64: string }[];
  change: DerivedChange | undefined;
}

/** The batch's PostgreSQL phase: one call. */
export async function commitBatch(
  deps: IngestDeps,
  serverId: string,
  events: IngestEvent[],
  arrivalMs: number,
  apply = eachAsItComes(deps).apply,
): Promise<CommittedBatch> {
  const applied = await apply(serverId, batchColumns(events, arrivalMs, onlineWindowMs, checkedLately(deps.caches.mergeChecked)));
  settleMerges(applied.checked, applied.orphans, deps.caches.mergeChecked);
  const change =
    applied.server && applied.totals
      ? { version: applied.server.version, totals: applied.totals, statusJson: JSON.stringify(applied.server) }
      : undefined;
  return {
    result: { accepted: applied.accepted, duplicates: events.length - applied.accepted, started: applied.started },
    merges: applied.orphans,
    change,
  };
}

/**
 * Writes a committed batch's changes to Redis. Failure policy: the batch is stored in PostgreSQL,
 * so it is acknowledged whatever happens here; a write that fails or stalls leaves the server's
 * applied version behind, and the worker's reconcile job rebuilds it (src/derived/reconcile.ts).
 */
async function writeDerived(deps: IngestDeps, serverId: string, change: DerivedChange, arrivalMs: number): Promise<void> {
  try {
    await writeServerState(deps.redis, serverId, change.version, 'batch', change.totals, arrivalMs - onlineWindowMs, change.statusJson);
  } catch (err) {
    deps.log.warn({ err, serverId, version: change.version }, 'derived state not written; the reconcile job repairs it');
  } finally {
    dropServerReads(deps, serverId);
  }
}

/**
 * A server that started (re)reads its ban and priority files: both are synced (docs/game-files.md). Asked
 * after the batch committed; failure policy: the batch stays acknowledged and the failure is
 * logged (the next start, ban change or the 60 s expiry sync the files again).
 */
async function requestFilesAfterStart(deps: IngestDeps, serverId: string, arrivalMs: number): Promise<void> {
  try {
    await requestServerSync(deps.db, [serverId], 'both', new Date(arrivalMs).toISOString());
  } catch (err) {
    deps.log.error({ err, serverId }, 'file sync after server.started not requested');
  }
}
