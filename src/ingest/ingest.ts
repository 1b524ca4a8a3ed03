// Applies one batch of game-server events: idempotent by event (its id and ts as sent), bad
// events rejected one by one, the totals of a server serialised by its lock. PostgreSQL is the
// truth and is committed first; the derived Redis state is written after the commit, tagged with
// the server's version, so Redis never shows a batch that was not committed
// (src/stats/apply-server-state.lua).
import type { IngestResult } from '../http/schema-types.ts';
import type { Deps } from '../deps.ts';
import { inTransaction } from '../store/db.ts';
import type { DbClient } from '../store/db.ts';
import { addTotals, loadTotals, saveTotals } from '../stats/stats.repo.ts';
import { writeServerState } from '../stats/stats.store.ts';
import { dropServerReads } from '../stats/server-reads.ts';
import { batchChanges, onlineWindowMs, presentPlayers } from '../stats/totals.ts';
import type { PlayerTotals } from '../stats/totals.ts';
import { parseBatch } from './events.ts';
import type { IngestEvent } from './events.ts';
import { applyBatchInOneCall, claimEvents, insertKills, lockServer, updateServerStatus, upsertPlayers } from './ingest.repo.ts';
import type { AppliedBatch, OneCallBatch, SeenPlayers } from './ingest.repo.ts';
import { isSteam64 } from '../identities/id-forms.ts';
import { lockIdentitiesShared } from '../identities/identity.repo.ts';
import { aliasIdsOf, mergesDue, resolveBatchIds } from '../identities/resolve.ts';
import { mergeLearntSteam64s } from '../identities/merge.ts';
import { refreshPlayedScores } from '../trust/lookup.ts';
import { requestServerSync } from '../game-files/sync-requests.ts';
import { insertMetricsSamples } from '../servers/metrics.repo.ts';
import { commitInOneCall } from './one-call.ts';
import { forgetPresentTotals } from './present-totals.ts';
import { samplesOf, statusesToApply } from './statuses.ts';

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
 * ingest gate and applies common batches in group calls; elsewhere (the demo, tests) each runs as it comes.
 */
export interface IngestSlots {
  /** Runs the whole PostgreSQL phase in the server's turn. */
  turn: DbSlot;
  /** Runs work that holds a connection. */
  connection: DbSlot;
  /** Applies a common batch in one call (applyBatchInOneCall's contract). */
  applyOneCall: (serverId: string, batch: OneCallBatch) => Promise<AppliedBatch | undefined>;
}

export const eachAsItComes = (deps: Deps): IngestSlots => ({
  turn: directly,
  connection: directly,
  applyOneCall: (serverId, batch) => applyBatchInOneCall(deps.db, serverId, batch, deps.caches.playersStored),
});

/**
 * Applies a batch. Only its PostgreSQL phase runs in the server's turn: parsing before it and the
 * Redis writes after the commit hold no connection, so they need no turn.
 */
export async function ingestBatch(deps: Deps, serverId: string, body: unknown, slots: IngestSlots = eachAsItComes(deps)): Promise<IngestResult> {
  const arrivalMs = deps.clock.now();
  const { events, rejected } = parseBatch(body, arrivalMs);
  if (events.length === 0) return { accepted: 0, duplicates: 0, rejected };
  const { result, merges, change } = await slots.turn(() => commitBatch(deps, serverId, events, arrivalMs, slots));
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

/** What the PostgreSQL phase of a batch committed. */
export interface CommittedBatch {
  result: { accepted: number; duplicates: number; started: boolean };
  merges: { dayzId: string; steam64: string }[];
  change: DerivedChange | undefined;
}

/**
 * The batch's PostgreSQL phase: its players, then its events in one call when it is a common batch
 * (src/ingest/one-call.ts), else in one transaction claiming its ids and applying the new events.
 */
async function commitBatch(deps: Deps, serverId: string, events: IngestEvent[], arrivalMs: number, slots: IngestSlots): Promise<CommittedBatch> {
  // Steam64 players are stored before the batch's transaction, in a statement of their own: their
  // rows are then never held for a whole batch, which made concurrent batches naming the same
  // players (a backfill) wait for each other's commit. Other ids are only known after resolving.
  // (A common batch stores them in its one call, before the server's lock as here.)
  const steam64s = steam64PlayersOf(events);
  const inOneCall = await commitInOneCall(deps, serverId, events, arrivalMs, steam64s, slots);
  if (inOneCall) return inOneCall;
  const committed = await slots.connection(async () => {
    await upsertPlayers(deps.db, steam64s, deps.caches.playersStored);
    return commitInTransaction(deps, serverId, events, arrivalMs, steam64s);
  });
  // Rows it wrote that the one-call path holds in memory: read again by the server's next batch.
  if (committed.change) forgetPresentTotals(deps, serverId, committed.change.totals.keys());
  return committed;
}

/** Any batch, in one transaction: claims its ids, resolves aliases, applies what is new. */
export function commitInTransaction(deps: Deps, serverId: string, events: IngestEvent[], arrivalMs: number, steam64s: SeenPlayers): Promise<CommittedBatch> {
  return inTransaction(deps.db, async (tx) => {
    const aliasIds = aliasIdsOf(events);
    if (aliasIds.length > 0) {
      // Held to the commit: no merge runs while this batch resolves ids and writes under them, so
      // a DayZ ID is never written to after its merge. Batches of Steam64s only need no such lock.
      await lockIdentitiesShared(tx);
      await resolveBatchIds(tx, events, aliasIds);
    }
    // Claims and kills are kept unique by their constraints, so batches of one server run them
    // side by side; the lock is taken only for the totals, whose read-modify-write needs it.
    const firstOfEachId = new Map<string, IngestEvent>();
    for (const e of events) if (!firstOfEachId.has(e.id)) firstOfEachId.set(e.id, e);
    const fresh = await claimEvents(tx, serverId, [...firstOfEachId.values()], arrivalMs);
    // The first occurrence of a new id counts; a repeat within the batch is a duplicate too.
    const accepted = events.filter((e) => fresh.delete(e.id));
    let change: DerivedChange | undefined;
    if (accepted.length > 0) {
      accepted.sort((a, b) => a.tsMs - b.tsMs || a.index - b.index);
      change = await applyAccepted(tx, serverId, accepted, steam64s);
    }
    const merges = accepted.length > 0 ? await mergesDue(tx, accepted, deps.caches.mergeChecked) : [];
    const started = accepted.some((e) => e.type === 'server.started');
    return { result: { accepted: accepted.length, duplicates: events.length - accepted.length, started }, merges, change };
  });
}

async function applyAccepted(tx: DbClient, serverId: string, events: IngestEvent[], stored: SeenPlayers): Promise<DerivedChange> {
  const named = playersOf(events);
  await insertKills(tx, serverId, events.filter((e) => e.type === 'kill'));
  await upsertPlayers(tx, new Map([...named].filter(([id]) => !stored.has(id))));
  await lockServer(tx, serverId);
  const present = presentPlayers(events);
  const { absolute, deltas } = batchChanges(await loadTotals(tx, serverId, [...present]), events, present);
  await saveTotals(tx, serverId, absolute);
  const changedTotals = new Map([...absolute, ...(await addTotals(tx, serverId, deltas))]);
  await insertMetricsSamples(tx, serverId, samplesOf(events));
  const [first, ...later] = statusesToApply(events);
  let record = await updateServerStatus(tx, serverId, events.at(-1)!.tsMs, first, true);
  for (const status of later) record = await updateServerStatus(tx, serverId, events.at(-1)!.tsMs, status, false);
  return { version: record.version, totals: changedTotals, statusJson: JSON.stringify(record) };
}

/**
 * Writes a committed batch's changes to Redis. Failure policy: the batch is stored in PostgreSQL,
 * so it is acknowledged whatever happens here; a write that fails or stalls leaves the server's
 * applied version behind, and the worker's reconcile job rebuilds it (src/derived/reconcile.ts).
 */
async function writeDerived(deps: Deps, serverId: string, change: DerivedChange, arrivalMs: number): Promise<void> {
  try {
    await writeServerState(deps.redis, serverId, change.version, 'batch', change.totals, arrivalMs - onlineWindowMs, change.statusJson);
  } catch (err) {
    deps.log.warn({ err, serverId, version: change.version }, 'derived state not written; the reconcile job repairs it');
  } finally {
    dropServerReads(deps, serverId);
  }
}

/** The batch's named players whose id is a Steam64 as sent (they need no resolving). */
export function steam64PlayersOf(events: IngestEvent[]): SeenPlayers {
  return new Map([...playersOf([...events].sort((a, b) => a.tsMs - b.tsMs))].filter(([id]) => isSteam64(id)));
}

/** Named players of a batch with the time span they were seen in (events are in time order). */
function playersOf(events: IngestEvent[]): SeenPlayers {
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

/**
 * A server that started (re)reads its ban and priority files: both are synced (docs/game-files.md). Asked
 * after the batch committed; failure policy: the batch stays acknowledged and the failure is
 * logged (the next start, ban change or the 60 s expiry sync the files again).
 */
async function requestFilesAfterStart(deps: Deps, serverId: string, arrivalMs: number): Promise<void> {
  try {
    await requestServerSync(deps.db, [serverId], 'both', new Date(arrivalMs).toISOString());
  } catch (err) {
    deps.log.error({ err, serverId }, 'file sync after server.started not requested');
  }
}
