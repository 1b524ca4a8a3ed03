// SQL of the stored status samples (server_metrics): written by ingestion, read by the dashboard's
// chart a time range at a time, pruned by the worker.
import type { MetricsPage } from '../http/schema-types.ts';
import type { Queryable } from '../store/db.ts';
import type { Column } from '../store/pg-array.ts';
import { isoOfMs } from '../store/iso-time.ts';

export type MetricsSample = MetricsPage['samples'][number];

export interface NewSample {
  atMs: number;
  online: boolean;
  players?: number;
  fps?: number;
  uptimeSeconds?: number;
}

/** Samples as the columns of server_metrics. */
export const sampleColumns = (samples: NewSample[]): Column[] => [
  samples.map((s) => isoOfMs(s.atMs)), samples.map((s) => s.online),
  samples.map((s) => s.players ?? null), samples.map((s) => s.fps ?? null), samples.map((s) => s.uptimeSeconds ?? null),
];

/** Stores a batch's status samples; a sample at an instant the server already has is left out. */
export async function insertMetricsSamples(db: Queryable, serverId: string, samples: NewSample[]): Promise<void> {
  if (samples.length === 0) return;
  await db.query({
    name: 'insert-metrics-samples',
    text: `INSERT INTO server_metrics (server_id, at, online, players, fps, uptime_seconds)
           SELECT $1, * FROM unnest($2::timestamptz[], $3::bool[], $4::int[], $5::float8[], $6::int8[])
           ON CONFLICT (server_id, at) DO NOTHING`,
    values: [serverId, ...sampleColumns(samples)],
  });
}

/** Samples with from < at <= to, oldest first, at most `limit`. */
export async function metricsAfter(db: Queryable, serverId: string, from: string, to: string, limit: number): Promise<MetricsSample[]> {
  const { rows } = await db.query<MetricsSample>({
    name: 'metrics-after',
    text: `SELECT at, online, players, fps, uptime_seconds AS "uptimeSeconds" FROM server_metrics
           WHERE server_id = $1 AND at > $2::timestamptz AND at <= $3::timestamptz ORDER BY at LIMIT $4`,
    values: [serverId, from, to, limit],
  });
  return rows;
}

/** Deletes up to `limit` samples older than `before`; returns how many went. */
export async function deleteMetricsBefore(db: Queryable, before: string, limit: number): Promise<number> {
  const { rowCount } = await db.query(
    `DELETE FROM server_metrics WHERE ctid IN (SELECT ctid FROM server_metrics WHERE at < $1::timestamptz LIMIT $2)`,
    [before, limit],
  );
  return rowCount ?? 0;
}
