// The stored status samples as the dashboard's chart reads them (a time range, a page at a time),
// and their retention: the worker prunes samples older than 30 days.
import type { Core } from '../core.ts';
import type { MetricsPage } from '../http/schema-types.ts';
import type { Checked } from '../http/schemas.ts';
import { badRequest } from '../http/errors.ts';
import { deleteMetricsBefore, metricsAfter } from './metrics.repo.ts';

export const metricsRetentionMs = 30 * 24 * 3600_000;
/** The range a request without `from` covers: the chart's last 24 hours. */
export const defaultRangeMs = 24 * 3600_000;
/** Rows one prune statement deletes: short statements, so ingestion never waits long behind one. */
const pruneBatch = 10_000;

export type MetricsQuery = Checked<'query-server-metrics.json'>;

export type { MetricsPage };

/** Samples with from < at <= to (default: the 24 hours up to now), oldest first. */
export async function metricsPage(deps: Core, serverId: string, query: MetricsQuery): Promise<MetricsPage> {
  const to = query.to ?? new Date(deps.clock.now()).toISOString();
  const from = query.from ?? new Date(Date.parse(to) - defaultRangeMs).toISOString();
  if (Date.parse(from) >= Date.parse(to)) throw badRequest('query parameter from must be before to');
  const rows = await metricsAfter(deps.db, serverId, from, to, query.limit + 1).catch((err: unknown) => {
    // A date-time the schema admits but PostgreSQL cannot read (year 0000) is the client's parameter.
    if (/^22/.test(String((err as { code?: unknown }).code))) throw badRequest('query parameter from or to is out of range');
    throw err;
  });
  const samples = rows.slice(0, query.limit);
  return { from, to, samples, nextCursor: rows.length > query.limit ? samples.at(-1)!.at : null };
}

/** Worker job: deletes samples past their retention, in short statements; returns how many went. */
export async function pruneMetricsSamples(deps: Core): Promise<number> {
  const before = new Date(deps.clock.now() - metricsRetentionMs).toISOString();
  let deleted = 0;
  for (;;) {
    const n = await deleteMetricsBefore(deps.db, before, pruneBatch);
    deleted += n;
    if (n < pruneBatch) return deleted;
  }
}
