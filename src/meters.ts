// The process's Prometheus instruments (prom-client), in one registry: what the web routes, the
// ingestion, the worker's jobs, the webhook deliveries and the two stores' clients count and time.
// Each process counts its own; GET /metrics combines the processes' figures (src/metrics/).
// Hot paths pay one observation each: no label is built from a raw path or an id.
import client from 'prom-client';
import type pg from 'pg';
import type { Redis } from 'ioredis';

export const registry = new client.Registry();

const seconds = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

/** Requests by route template (`/api/servers/:serverId/events`, never the raw path), method and status. */
export const httpRequests = new client.Histogram({
  name: 'http_request_duration_seconds',
  help: 'Time from a request arriving to its answer, by route template, method and status',
  labelNames: ['route', 'method', 'status'] as const,
  buckets: seconds,
  registers: [registry],
});

export const ingestBatches = new client.Counter({
  name: 'ingest_batches_total',
  help: 'Event batches stored (committed to PostgreSQL); a batch with no valid event is not counted',
  registers: [registry],
});

export const ingestEvents = new client.Counter({
  name: 'ingest_events_total',
  help: 'Events received in batches, by result: accepted, duplicate (sent before) or rejected (invalid)',
  labelNames: ['result'] as const,
  registers: [registry],
});

export const ingestLag = new client.Histogram({
  name: 'ingest_lag_seconds',
  help: "Per stored batch: from its oldest event's time (as the game server stamped it) to the batch being committed",
  buckets: [0.1, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 900, 3600],
  registers: [registry],
});

export const jobRuns = new client.Histogram({
  name: 'worker_job_duration_seconds',
  help: "The worker's job runs, by job and outcome (done or failed after its retries)",
  labelNames: ['job', 'outcome'] as const,
  buckets: [0.005, 0.025, 0.1, 0.5, 1, 5, 15, 60, 300],
  registers: [registry],
});

export const jobsRunning = new client.Gauge({
  name: 'worker_jobs_running',
  help: 'Job runs in progress',
  registers: [registry],
});

export const webhookDeliveries = new client.Counter({
  name: 'webhook_deliveries_total',
  help: 'Webhook deliveries by outcome: events delivered, and sends that failed (tried again later, with backoff)',
  labelNames: ['outcome'] as const,
  registers: [registry],
});

export const pgAcquire = new client.Histogram({
  name: 'pg_pool_acquire_seconds',
  help: 'Time a query or transaction waited for a PostgreSQL connection from the pool',
  buckets: [0.0005, 0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 3],
  registers: [registry],
});

export const redisCommands = new client.Histogram({
  name: 'redis_command_duration_seconds',
  help: 'Time from a Redis command being written to its reply (scripts included)',
  buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.5, 2],
  registers: [registry],
});

// Read when scraped, from whatever this process holds (nothing is counted on the hot path).
const readings = { pgWaiting: new Set<() => number>(), longPolls: new Set<() => number>() };
const sumOf = (reads: Set<() => number>) => {
  let sum = 0;
  for (const read of reads) sum += read();
  return sum;
};

new client.Gauge({
  name: 'pg_pool_waiting',
  help: 'Queries and transactions waiting for a PostgreSQL connection now',
  registers: [registry],
  collect() {
    this.set(sumOf(readings.pgWaiting));
  },
});

new client.Gauge({
  name: 'agent_long_polls',
  help: "Agents' commands/next long polls waiting now",
  registers: [registry],
  collect() {
    this.set(sumOf(readings.longPolls));
  },
});

/** Counts the agents' long polls waiting in this process (read when scraped); returns what stops it. */
export function meterLongPolls(count: () => number): () => void {
  readings.longPolls.add(count);
  return () => readings.longPolls.delete(count);
}

/**
 * Times how long the pool makes a query or transaction wait for a connection, and reports its
 * queue; returns what stops the report (a closed pool is forgotten).
 */
export function meterPool(pool: pg.Pool): () => void {
  const waiting = () => pool.waitingCount;
  readings.pgWaiting.add(waiting);
  const connect = pool.connect.bind(pool) as (cb?: (err: Error | undefined, ...rest: unknown[]) => void) => Promise<pg.PoolClient>;
  // pool.query takes its connection through pool.connect too, with a callback.
  const timed = (cb?: (err: Error | undefined, ...rest: unknown[]) => void) => {
    const stop = pgAcquire.startTimer();
    if (cb)
      return connect((err, ...rest) => {
        stop();
        cb(err, ...rest);
      });
    return connect().finally(stop);
  };
  pool.connect = timed as typeof pool.connect;
  return () => readings.pgWaiting.delete(waiting);
}

/** Times every command the client writes, from its write to its reply. */
export function meterRedis(redis: Pick<Redis, 'sendCommand'>): void {
  const send = redis.sendCommand.bind(redis) as (...args: unknown[]) => unknown;
  // Every argument is passed on: the Cluster client's sendCommand takes a third, the node a
  // pipeline was bound to, and without it a pipelined command is written to no connection.
  redis.sendCommand = ((command: Parameters<Redis['sendCommand']>[0], ...rest: unknown[]) => {
    const started = performance.now();
    const done = () => redisCommands.observe((performance.now() - started) / 1000);
    command.promise.then(done, done);
    return send(command, ...rest);
  }) as typeof redis.sendCommand;
}
