// SQL of the stored status samples (server_metrics): written by ingestion, read by the dashboard's
// chart a time range at a time, pruned by the worker.
import type { MetricsPage } from '../http/schema-types.ts';
import type { Queryable } from '../store/db.ts';

export type MetricsSample = MetricsPage['samples'][number];

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
