// SQL of an ingested batch: the per-server lock, and the one call that applies a batch whole
// (ingest_apply_events, src/ingest/sql/apply-batch.sql), alone or in a group of servers' batches.
import type { Queryable } from '../store/db.ts';
import type { ServerRecord } from '../servers/server.repo.ts';
import { serverRecordColumns } from '../servers/server.repo.ts';
import type { PlayerTotals, TotalsTuple } from '../stats/totals.ts';
import { totalsOfTuple } from '../stats/totals.ts';
import { pgArray } from '../store/pg-array.ts';
import type { Column } from '../store/pg-array.ts';
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
const totalsOf = (json: string) =>
  new Map((JSON.parse(json) as [string, ...TotalsTuple][]).map(([id, ...totals]) => [id, totalsOfTuple(totals)] as const));

type Row = Omit<ServerRecord, 'id'> & {
  id: string | null;
  batch: number;
  accepted: number;
  started: boolean;
  totals: string | null;
  checked: string[];
  orphans: string[];
  orphansOf: string[];
};

const appliedOf = ({ batch: _batch, accepted, started, totals, checked, orphans, orphansOf, ...server }: Row): AppliedBatch => ({
  accepted,
  started,
  checked,
  totals: totals === null ? undefined : totalsOf(totals),
  server: server.id === null ? undefined : (server as ServerRecord),
  orphans: orphans.map((dayzId, i) => ({ dayzId, steam64: orphansOf[i]! })),
});

/** A server's batch, as a call takes it. */
export interface ServerBatch {
  serverId: string;
  columns: BatchColumns;
}

/** The Steam64s of several batches, each once: looked up for merges when any batch asks. */
function steam64Columns(group: ServerBatch[]): Column[] {
  const rows = new Map<string, [string, string, string, boolean]>();
  for (const {
    columns: {
      steam64s: [ids, dayz, be, lookUp],
    },
  } of group) {
    ids.forEach((id, i) => {
      const known = rows.get(id);
      if (known) known[3] ||= lookUp[i]!;
      else rows.set(id, [id, dayz[i]!, be[i]!, lookUp[i]!]);
    });
  }
  const all = [...rows.values()];
  return [0, 1, 2, 3].map((j) => all.map((row) => row[j]!));
}

/** The values of a call, in ingest_apply_events's order: its batches' arrays one after the other. */
function callValues(group: ServerBatch[]): unknown[] {
  const events = group.map((b) => b.columns.events);
  return [
    pgArray(group.map((b) => b.serverId)),
    pgArray(group.map((b) => b.columns.receivedAt)),
    `${group[0]!.columns.onlineWindowMs} milliseconds`,
    pgArray([...new Set(group.flatMap((b) => b.columns.aliasIds))]),
    ...steam64Columns(group).map(pgArray),
    pgArray(events.flatMap((columns, b) => columns[0]!.map(() => b + 1))),
    ...events[0]!.map((_, j) => pgArray(events.flatMap((columns) => columns[j]!))),
  ];
}

/**
 * Applies batches, of different servers, in one call and one transaction (ingest_apply_events,
 * src/ingest/sql/apply-batch.sql), each as it would be alone; answers in the group's order.
 * A call PostgreSQL rolled back for a reason of the moment is made again.
 */
export async function applyBatches(db: Queryable, group: ServerBatch[]): Promise<AppliedBatch[]> {
  const values = callValues(group);
  for (let attempt = 1; ; attempt++) {
    try {
      const { rows } = await db.query<Row>({
        name: 'ingest-apply-events',
        text: `SELECT f.out_batch AS batch, f.out_accepted AS accepted, f.out_started AS started, f.out_totals AS totals, f.out_checked AS checked,
                 f.out_orphans AS orphans, f.out_orphans_of AS "orphansOf", ${serverRecordColumns}
               FROM ingest_apply_events(${values.map((_, i) => `$${i + 1}`).join(', ')}) AS f, LATERAL (SELECT (f.out_server).*) AS s`,
        values,
      });
      return rows.map(appliedOf);
    } catch (err) {
      if (attempt >= attempts || !madeAgain.has((err as { code?: string }).code ?? '')) throw err;
    }
  }
}

/** Applies one batch in one call. */
export const applyBatchInOneCall = async (db: Queryable, serverId: string, columns: BatchColumns): Promise<AppliedBatch> =>
  (await applyBatches(db, [{ serverId, columns }]))[0]!;
