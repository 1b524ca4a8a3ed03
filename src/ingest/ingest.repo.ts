// SQL of an ingested batch: the per-server lock, and the one call that applies a batch whole
// (ingest_apply_events, src/ingest/sql/apply-batch.sql).
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

type Row = Omit<ServerRecord, 'id'> & { id: string | null; accepted: number; started: boolean; totals: string | null; checked: string[]; orphans: string[]; orphansOf: string[] };

export async function applyBatchInOneCall(db: Queryable, serverId: string, columns: BatchColumns): Promise<AppliedBatch> {
  const values = [serverId, columns.receivedAt, `${columns.onlineWindowMs} milliseconds`, ...columns.arrays.map(pgArray)];
  for (let attempt = 1; ; attempt++) {
    try {
      const { rows } = await db.query<Row>({
        name: 'ingest-apply-events',
        text: `SELECT f.out_accepted AS accepted, f.out_started AS started, f.out_totals AS totals, f.out_checked AS checked,
                 f.out_orphans AS orphans, f.out_orphans_of AS "orphansOf", ${serverRecordColumns}
               FROM ingest_apply_events(${values.map((_, i) => `$${i + 1}`).join(', ')}) AS f, LATERAL (SELECT (f.out_server).*) AS s`,
        values,
      });
      const { accepted, started, totals, checked, orphans, orphansOf, ...server } = rows[0]!;
      return {
        accepted, started, checked, totals: totals === null ? undefined : totalsOf(totals),
        server: server.id === null ? undefined : (server as ServerRecord),
        orphans: orphans.map((dayzId, i) => ({ dayzId, steam64: orphansOf[i]! })),
      };
    } catch (err) {
      if (attempt >= attempts || !madeAgain.has((err as { code?: string }).code ?? '')) throw err;
    }
  }
}
