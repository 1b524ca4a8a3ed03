// Load generation. Reads: autocannon's programmatic API, a warm-up, then the measured run, with
// each 2xx answer's latency kept exactly (autocannon's own histogram keeps whole milliseconds, and
// a p99 of 3 ms read as 3 may be 3.9: the ratio of two such figures is off by up to a third).
// Ingestion: a few concurrent loops posting a fresh batch of kill events (unique ids) each time.
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import process from 'node:process';
import autocannon from 'autocannon';
import { cpuSnapshot, cpuSpent } from './cpu-usage.ts';
import type { Part } from './cpu-usage.ts';
import type { Result } from 'autocannon';
import { platformId } from './fixture.ts';
import { Latencies, percentile } from './latencies.ts';
import { post } from './post.ts';

export interface LoadOptions {
  url: string;
  connections: number;
  warmupSeconds: number;
  seconds: number;
  headers?: Record<string, string>;
  /** Paths to take in turn (each request the next), for traffic spread over many keys; default the url's own. */
  paths?: string[];
  /** The service's process: the CPU of the measured run is read (the service, PostgreSQL, Redis). */
  cpuPid?: number;
}

export interface Measurement {
  reqPerSec: number;
  p50Ms: number;
  p99Ms: number;
  completed: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  seconds: number;
  statusCodes: string;
  /** CPU seconds of the measured run, when asked for. */
  cpu?: Record<Part, number>;
}

const summarise = (r: Result, latencies: Float64Array): Measurement => ({
  reqPerSec: r.requests.average,
  p50Ms: percentile(latencies, 50),
  p99Ms: percentile(latencies, 99),
  completed: r['2xx'],
  non2xx: r.non2xx,
  errors: r.errors,
  timeouts: r.timeouts,
  seconds: r.duration,
  statusCodes: Object.entries(r.statusCodeStats)
    .map(([code, { count }]) => `${code}: ${count}`)
    .join(', '),
});

/** Warms the target up, then measures it; only the second run is reported. */
export async function measure(o: LoadOptions): Promise<Measurement> {
  let next = 0;
  const paths = o.paths;
  const requests = paths
    ? [{ setupRequest: (req: Record<string, unknown>) => ({ ...req, path: paths[next++ % paths.length] }) }]
    : undefined;
  const run = (duration: number) =>
    autocannon({
      url: o.url,
      connections: o.connections,
      duration,
      headers: o.headers ?? {},
      ...(requests ? { requests } : {}),
    });
  if (o.warmupSeconds > 0) await run(o.warmupSeconds);
  const before = o.cpuPid === undefined ? undefined : cpuSnapshot(o.cpuPid);
  const measured = run(o.seconds);
  const latencies = new Latencies();
  measured.on('response', (_client: unknown, status: number, _bytes: number, ms: number) => {
    if (status >= 200 && status < 300) latencies.add(ms);
  });
  const summary = summarise(await measured, latencies.sorted());
  return before ? { ...summary, cpu: cpuSpent(before, cpuSnapshot(o.cpuPid)) } : summary;
}

export interface IngestOptions {
  url: string;
  token: string;
  /** Batches in flight at once (each on its own keep-alive connection). */
  concurrency: number;
  batchSize: number;
  warmupSeconds: number;
  seconds: number;
}

export interface IngestOutcome {
  eventsPerSec: number;
  batchesPerSec: number;
  p50Ms: number;
  p99Ms: number;
  /** Batches answered within the measured window, and what they reported. */
  batches: number;
  accepted: number;
  duplicates: number;
  rejected: number;
  failed: number;
  /** Events accepted over the whole run (warm-up and the batches still in flight at the end included). */
  acceptedInAll: number;
  seconds: number;
}

/**
 * Posts batches of kill events with unique ids from `concurrency` loops. Batches answered during
 * the warm-up are not counted; when the measured window ends, no new batch starts and the ones
 * in flight are awaited (so PostgreSQL can be checked against acceptedInAll afterwards).
 */
export async function ingestLoad(o: IngestOptions): Promise<IngestOutcome> {
  const pool = Array.from({ length: 100 }, (_, i) => ({ platformId: platformId(900_001 + i), name: `ingest player ${i + 1}` }));
  const weapons = ['M4A1', 'AKM', 'SVD', 'Mosin 91/30', 'MP5-K'];
  // Game time starts two hours back and advances 1 ms per event, so timestamps stay in the past
  // (never clamped to the arrival time) and do not collide.
  let tsMs = Date.now() - 2 * 3600_000;
  let n = 0;
  const killEvent = () => {
    n += 1;
    const killer = pool[n % pool.length]!;
    const victim = pool[(n * 7 + 3) % pool.length]!;
    const isHeadshot = n % 5 === 0;
    return {
      id: randomUUID(),
      type: 'kill',
      ts: tsMs++,
      killer,
      victim: victim === killer ? pool[(n + 1) % pool.length]! : victim,
      weapon: weapons[n % weapons.length]!,
      distance: (n * 13) % 400,
      isHeadshot,
      hitZone: isHeadshot ? 'head' : 'torso',
    };
  };
  const headers = { 'content-type': 'application/json', authorization: `Bearer ${o.token}` };

  const startMs = performance.now();
  const windowStart = startMs + o.warmupSeconds * 1000;
  const windowEnd = windowStart + o.seconds * 1000;
  const latencies: number[] = [];
  const counted = { accepted: 0, duplicates: 0, rejected: 0, failed: 0 };
  let acceptedInAll = 0;
  let firstFailure: string | undefined;

  const loop = async () => {
    while (performance.now() < windowEnd) {
      const body = JSON.stringify({ events: Array.from({ length: o.batchSize }, killEvent) });
      const sent = performance.now();
      let result: { accepted: number; duplicates: number; rejected: unknown[] } | undefined;
      try {
        const res = await post(o.url, headers, body);
        if (res.status === 200) result = JSON.parse(res.text) as typeof result;
        else firstFailure ??= `${res.status} ${res.text.slice(0, 200)}`;
      } catch (err) {
        firstFailure ??= String(err);
      }
      const done = performance.now();
      if (result) acceptedInAll += result.accepted;
      if (done < windowStart || done >= windowEnd) continue;
      latencies.push(done - sent);
      if (!result) counted.failed += 1;
      else {
        counted.accepted += result.accepted;
        counted.duplicates += result.duplicates;
        counted.rejected += result.rejected.length;
      }
    }
  };
  await Promise.all(Array.from({ length: o.concurrency }, loop));
  if (firstFailure) process.stdout.write(`  ingest: first failed batch: ${firstFailure}\n`);

  latencies.sort((a, b) => a - b);
  return {
    eventsPerSec: counted.accepted / o.seconds,
    batchesPerSec: latencies.length / o.seconds,
    p50Ms: percentile(latencies, 50),
    p99Ms: percentile(latencies, 99),
    batches: latencies.length,
    ...counted,
    acceptedInAll,
    seconds: o.seconds,
  };
}
