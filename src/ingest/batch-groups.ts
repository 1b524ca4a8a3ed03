// Sends a web process's batches to PostgreSQL, under load several servers' batches in one call: a
// transport only, each batch applied as it would be alone (ingest_apply_events,
// src/ingest/sql/apply-batch.sql, takes one batch or several). A fleet's batch is small (~20
// events), so its round trip, commit and each statement's fixed cost outweighed its rows. Batches
// that become ready while the process's calls are under way wait, and the next call takes them
// (one a server, none of a server with a call under way); an idle process sends a batch at once,
// alone, and a batch whose server has a call under way goes alone beside it (a backfill's claims
// and kills go in side by side, its totals take turns under the server's lock).
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { IngestDeps } from './ingest.ts';
import { applyBatches, applyBatchInOneCall } from './ingest.repo.ts';
import type { AppliedBatch, ServerBatch } from './ingest.repo.ts';
import type { BatchColumns } from './batch-columns.ts';
import type { DbSlot } from './ingest.ts';

interface Waiting extends ServerBatch {
  resolve: (applied: AppliedBatch) => void;
  reject: (err: unknown) => void;
}

/** Calls under way at once: one being built and sent while PostgreSQL runs the other. */
const callsAtOnce = 2;
/** Batches a call carries at most (its arrays grow with them; beyond this a call gains little). */
const batchesPerCall = 64;

export class BatchGroups {
  private waiting: Waiting[] = [];
  private calls = 0;
  /** Calls under way per server. */
  private readonly inCall = new Map<string, number>();

  /** `connection` bounds the connections the calls hold (src/ingest/ingest-gate.ts). */
  constructor(
    private readonly deps: IngestDeps,
    private readonly connection: DbSlot,
  ) {}

  apply(serverId: string, columns: BatchColumns): Promise<AppliedBatch> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ serverId, columns, resolve, reject });
      this.next();
    });
  }

  private next(): void {
    while (this.calls < callsAtOnce && this.waiting.length > 0) {
      this.calls += 1;
      let group: Waiting[] = [];
      let applied: AppliedBatch[] | undefined;
      // The group is taken once the connection is held: batches that come while it waits for one go too.
      void this.connection(async () => {
        group = this.takeGroup();
        for (const w of group) this.inCall.set(w.serverId, (this.inCall.get(w.serverId) ?? 0) + 1);
        if (group.length > 0) applied = await this.call(group);
      }).finally(async () => {
        // The call's slot and connection are free before its batches go on: the next call need not wait for them.
        this.calls -= 1;
        this.next();
        if (applied) await goOnInTurns(group, applied);
        for (const w of group) {
          const left = this.inCall.get(w.serverId)! - 1;
          if (left === 0) this.inCall.delete(w.serverId);
          else this.inCall.set(w.serverId, left);
        }
        this.next();
      });
    }
  }

  /** The oldest waiting batch of each server without a call under way, up to a call's worth; else the oldest batch, alone. */
  private takeGroup(): Waiting[] {
    const group: Waiting[] = [];
    const rest: Waiting[] = [];
    for (const w of this.waiting) {
      const fits = group.length < batchesPerCall && !this.inCall.has(w.serverId) && !group.some((g) => g.serverId === w.serverId);
      (fits ? group : rest).push(w);
    }
    if (group.length === 0 && rest.length > 0) group.push(rest.shift()!);
    this.waiting = rest;
    return group;
  }

  /** The group's results, or undefined when each batch of it is settled already. Never rejects. */
  private async call(group: Waiting[]): Promise<AppliedBatch[] | undefined> {
    const alone = (w: Waiting) => applyBatchInOneCall(this.deps.db, w.serverId, w.columns).then(w.resolve, w.reject);
    if (group.length === 1) {
      await alone(group[0]!);
      return undefined;
    }
    // A call that fails stored nothing: each batch goes on its own, so only one at fault fails.
    return applyBatches(this.deps.db, group).catch(async () => {
      for (const w of group) await alone(w);
      return undefined;
    });
  }
}

/**
 * Each batch goes on (its Redis writes, its answer) in a turn of the event loop of its own:
 * settled at once, they ran back to back and held the requests waiting behind them.
 */
async function goOnInTurns(group: Waiting[], applied: AppliedBatch[]): Promise<void> {
  for (const [i, w] of group.entries()) {
    if (i > 0) await nextTurn();
    w.resolve(applied[i]!);
  }
}
