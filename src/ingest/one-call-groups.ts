// Applies a web process's common batches in group calls: batches of different servers that are
// ready while the process's calls are under way wait and go together in the next one
// (src/ingest/one-call-group.repo.ts), so under load a call, its transaction and each of its
// statements carry many batches, and when the process is idle a batch goes at once, alone. A
// server's batches never share a call, and a batch that read rows never goes while another of its
// server is in a call: it would find the rows that one writes not as it read them. A batch that
// read none (a backfill's kills) goes beside it: its inserts run while the other holds the
// server's lock (the two take PostgreSQL's locks in one order; a deadlock sends it down the
// transactional path).
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Deps } from '../deps.ts';
import { applyBatchInOneCall } from './ingest.repo.ts';
import type { AppliedBatch, OneCallBatch } from './ingest.repo.ts';
import { applyBatchesInOneCall, needsOwnCall } from './one-call-group.repo.ts';
import type { DbSlot } from './ingest.ts';

type Applied = AppliedBatch | undefined;

interface Waiting {
  serverId: string;
  batch: OneCallBatch;
  resolve: (applied: Applied) => void;
  reject: (err: unknown) => void;
}

/** Calls under way at once: one being built and sent while PostgreSQL runs the other. */
const callsAtOnce = 2;
/** Batches a call carries at most (its arrays grow with them; beyond this a call gains little). */
const batchesPerCall = 64;

export class OneCallGroups {
  private waiting: Waiting[] = [];
  private calls = 0;
  /** Calls under way per server. */
  private readonly inCall = new Map<string, number>();

  /** `connection` bounds the connections the calls hold (src/ingest/ingest-gate.ts). */
  constructor(private readonly deps: Deps, private readonly connection: DbSlot) {}

  /** As applyBatchInOneCall: the batch applied, or undefined when its rows changed since read or it needs the transactional path. */
  apply(serverId: string, batch: OneCallBatch): Promise<Applied> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ serverId, batch, resolve, reject });
      this.next();
    });
  }

  private next(): void {
    while (this.calls < callsAtOnce && this.waiting.some((w) => this.mayGo(w))) {
      this.calls += 1;
      let group: Waiting[] = [];
      let applied: Applied[] | undefined;
      // The group is taken once the connection is held: batches that come while it waits for one go too.
      void this.connection(async () => {
        group = this.takeGroup();
        for (const w of group) this.inCall.set(w.serverId, (this.inCall.get(w.serverId) ?? 0) + 1);
        if (group.length > 0) applied = await this.call(group);
      }).finally(async () => {
        // The call's slot and connection are free before its batches go on: the next call need not
        // wait for them. Their servers stay in the call until each has gone on.
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

  /** The oldest waiting batch of each server that has none in a call, up to a call's worth. */
  private takeGroup(): Waiting[] {
    const group: Waiting[] = [];
    const servers = new Set<string>();
    const rest: Waiting[] = [];
    for (const w of this.waiting) {
      const fits = group.length < batchesPerCall && !servers.has(w.serverId) && this.mayGo(w);
      if (fits) servers.add(w.serverId);
      (fits ? group : rest).push(w);
    }
    this.waiting = rest;
    return group;
  }

  /**
   * A batch that read no rows (no present players: a backfill's kills only add to counters) may go
   * while its server has a call under way: what it adds does not depend on that call's writes.
   */
  private mayGo(w: Waiting): boolean {
    return !this.inCall.has(w.serverId) || w.batch.expected.ids.length === 0;
  }

  /** The group call's results, to be settled by the caller; or undefined when every batch of the group is settled. Never rejects. */
  private async call(group: Waiting[]): Promise<Applied[] | undefined> {
    const alone = (w: Waiting) => applyBatchInOneCall(this.deps.db, w.serverId, w.batch, this.deps.caches.playersStored).then(w.resolve, w.reject);
    if (group.length === 1) {
      await alone(group[0]!);
      return undefined;
    }
    return applyBatchesInOneCall(this.deps.db, group, this.deps.caches.playersStored).catch(async (err: unknown) => {
      // The call stored nothing. A repeated event id or a taken kill timestamp is one batch's
      // (a deadlock, the call's): each batch goes on its own, and only that one needs more.
      if (!needsOwnCall(err)) for (const w of group) w.reject(err);
      else for (const w of group) await alone(w);
      return undefined;
    });
  }
}

/**
 * Each batch goes on (its Redis writes, its answer) in a turn of the event loop of its own:
 * settled at once, they ran back to back and held the requests waiting behind them (in a fleet on
 * a slow machine, for up to 30 ms).
 */
async function goOnInTurns(group: Waiting[], applied: Applied[]): Promise<void> {
  for (const [i, w] of group.entries()) {
    if (i > 0) await nextTurn();
    w.resolve(applied[i]);
  }
}
