// What GET /metrics answers: the figures of every process that serves this machine's web port
// and of the worker processes that left theirs in Redis, combined (summed), then the figures read
// from the stores at scrape time by the process that answers (taken once, not summed).
import cluster from 'node:cluster';
import client from 'prom-client';
import type { Core } from '../core.ts';
import { registry } from '../meters.ts';
import { clusterFigures } from './cluster.ts';
import type { Figures } from './cluster.ts';
import { pendingCommandCount } from './metrics.repo.ts';
import { workerFigures } from './worker-figures.ts';

export const contentType = client.Registry.PROMETHEUS_CONTENT_TYPE;

// Read once per scrape from PostgreSQL: the same figure for every process, so it is not summed.
const scraped = new client.Registry();
const pendingCommands = new client.Gauge({
  name: 'agent_commands_pending',
  help: 'Commands made for game servers that their agents have not taken yet',
  registers: [scraped],
});

/** The Prometheus text of every process's figures combined, and the scrape-time ones. */
export async function metricsText(deps: Pick<Core, 'db' | 'redis' | 'clock'>): Promise<string> {
  const [web, workers, pending] = await Promise.all([
    cluster.isWorker ? clusterFigures() : registry.getMetricsAsJSON().then((own) => [own as Figures]),
    workerFigures(deps),
    pendingCommandCount(deps.db),
  ]);
  const figures = [...web, ...workers];
  pendingCommands.set(pending);
  const combined = figures.length === 1 ? registry : client.AggregatorRegistry.aggregate(figures);
  return `${await combined.metrics()}\n${await scraped.metrics()}`;
}
