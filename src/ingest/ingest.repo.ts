// SQL of an ingested batch: the per-server lock, and the one call that applies a batch whole
// (ingest_apply_events, src/ingest/sql/apply-batch.sql), alone or in a group of servers' batches.
import type { Queryable } from '../store/db.ts';
import type { ServerRecord } from '../servers/server.repo.ts';
import { serverRecordColumns } from '../servers/server.repo.ts';
import type { PlayerTotals, TotalsTuple } from '../stats/totals.ts';
import { totalsOfTuple } from '../stats/totals.ts';
import { pgArray } from '../store/pg-array.ts';
import type { BatchColumns } from './batch-columns.ts';

/** Serialises writers of one server (ingestion, rebuild, merges) until the transaction ends. */
export async function lockServer(db: Queryable, serverId: string): Promise<void> {
  await db.query({ name: 'lock-server', text: 'SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', values: [serverId] });
}

/** What the call applied; `server` and `totals` are undefined when every event was a duplicate. */
export interface AppliedBatch {
  accepted: number;
  started: boolean;
  /** The totals, as now stored, of every player the accepted events touched. */
  totals: Map<string, PlayerTotals> | undefined;
  server: ServerRecord | undefined;
  /** Steam64s looked up for merges due. */
  checked: string[];
  /** Merges due: DayZ IDs still players of their own, beside their Steam64s. */
  orphans: { dayzId: string; steam64: string }[];
}

/**
 * PostgreSQL rolled the call back and it changed nothing: it was chosen to end a deadlock (40P01),
 * or a claim reached the default partition while its day's partition was being added
 * (check_violation 23514, src/ingest/event-claims.ts). Made again, it goes through.
 */
const madeAgain = new Set(['40P01', '23514']);
const attempts = 5;

/** The call's totals: a row per player, its platform id then its totals (timestamps as epoch ms). */
const totalsOf = (json: string) => new Map((JSON.parse(json) as [string, ...TotalsTuple][]).map(([id, ...totals]) => [id, totalsOfTuple(totals)] as const));

type Row = Omit<ServerRecord, 'id'> & { id: string | null; batch: number; accepted: number; started: boolean; totals: string | null; checked: string[]; orphans: string[]; orphansOf: string[] };

const outColumns = `f.out_accepted AS accepted, f.out_started AS started, f.out_totals AS totals, f.out_checked AS checked,
  f.out_orphans AS orphans, f.out_orphans_of AS "orphansOf", ${serverRecordColumns}`;

const appliedOf = ({ batch: _batch, accepted, started, totals, checked, orphans, orphansOf, ...server }: Row): AppliedBatch => ({
  accepted, started, checked, totals: totals === null ? undefined : totalsOf(totals),
  server: server.id === null ? undefined : (server as ServerRecord),
  orphans: orphans.map((dayzId, i) => ({ dayzId, steam64: orphansOf[i]! })),
});

const placeholders = (values: unknown[]) => values.map((_, i) => `$${i + 1}`).join(', ');

/** Runs a call, made again (at most `attempts` times in all) while PostgreSQL rolled it back for a reason of the moment. */
async function madeAgainWhenRolledBack<T>(call: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await call();
    } catch (err) {
      if (attempt >= attempts || !madeAgain.has((err as { code?: string }).code ?? '')) throw err;
    }
  }
}

export function applyBatchInOneCall(db: Queryable, serverId: string, columns: BatchColumns): Promise<AppliedBatch> {
  const values = [serverId, columns.receivedAt, `${columns.onlineWindowMs} milliseconds`, ...columns.arrays.map(pgArray)];
  return madeAgainWhenRolledBack(async () => {
    const { rows } = await db.query<Row>({
      name: 'ingest-apply-events',
      text: `SELECT ${outColumns} FROM ingest_apply_events(${placeholders(values)}) AS f, LATERAL (SELECT (f.out_server).*) AS s`,
      values,
    });
    return appliedOf(rows[0]!);
  });
}

/** A server's batch, as a group call takes it. */
export interface ServerBatch {
  serverId: string;
  columns: BatchColumns;
}

/** Where each batch's part of a column ends (1-based, inclusive), the batches' parts one after the other. */
const ends = (group: ServerBatch[], column: number) => {
  let end = 0;
  return group.map((b) => (end += b.columns.arrays[column]!.length));
};

/**
 * Applies the batches of several servers (one a server) in one call and one transaction
 * (ingest_apply_event_batches, src/ingest/sql/apply-batches.sql), each as applyBatchInOneCall
 * would; answers in the group's order. Throws when the call stored nothing.
 */
export function applyBatchesInOneCall(db: Queryable, group: ServerBatch[]): Promise<AppliedBatch[]> {
  const values = [
    pgArray(group.map((b) => b.serverId)), pgArray(group.map((b) => b.columns.receivedAt)),
    pgArray(ends(group, 0)), pgArray(ends(group, 1)), pgArray(ends(group, 5)), `${group[0]!.columns.onlineWindowMs} milliseconds`,
    ...group[0]!.columns.arrays.map((_, j) => pgArray(group.flatMap((b) => b.columns.arrays[j]!))),
  ];
  return madeAgainWhenRolledBack(async () => {
    const { rows } = await db.query<Row>({
      name: 'ingest-apply-event-batches',
      text: `SELECT f.out_batch AS batch, ${outColumns} FROM ingest_apply_event_batches(${placeholders(values)}) AS f, LATERAL (SELECT (f.out_server).*) AS s`,
      values,
    });
    const applied: AppliedBatch[] = [];
    for (const row of rows) applied[row.batch - 1] = appliedOf(row);
    return applied;
  });
}
