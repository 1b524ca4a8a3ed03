// An open-loop reader: GETs one URL at an even pace (every 1/rate s, whether the last answer came
// or not), each latency counted from the moment its request was due, so a stalled service is
// charged for the reads it held back (coordinated omission, as wrk2 counts it). It runs in a
// process of its own: the fleet's batches, made and sent by the bench's main thread, do not delay
// it (a worker thread would do, but tsx does not load TypeScript in workers on Node 20).
//
// autocannon's overallRate was not this: each connection sends its share of a second back to back
// at the top of the second, and its correction for omission takes the interval as ceil(1 / rate)
// = 1 ms, so an answer of 41 ms is recorded 41 times (41, 40, ..., 1) and a few slow answers fill
// the p99 (990 answers of 2.7 ms and 10 of 41.3 read as a p99 of 39 ms).
import { execFile } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import process from 'node:process';
import { fileURLToPath } from 'node:url';
import { KeepAliveClient, requestBytes } from './keep-alive-client.ts';
import { Latencies, percentile } from './latencies.ts';

export interface PacedReadOptions {
  url: string;
  headers: Record<string, string>;
  perSecond: number;
  warmupSeconds: number;
  seconds: number;
  /** When the first read is due (Date.now() time; default at once): a reader started early costs the measured window nothing. */
  startAtMs?: number;
}

export interface PacedReadOutcome {
  /** Reads due in the measured window, and those answered 2xx. */
  due: number;
  ok: number;
  failed: number;
  /** Why reads failed (status code or error) and how many, when any did. */
  failures: Record<string, number>;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
}

const self = fileURLToPath(import.meta.url);

/** Reads o.url at o.perSecond from a child process; resolves when every due read is answered. */
export function pacedReads(o: PacedReadOptions): Promise<PacedReadOutcome> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, ['--import', 'tsx', self, JSON.stringify(o)], (err, stdout) => {
      if (err) reject(err);
      else resolve(JSON.parse(stdout) as PacedReadOutcome);
    });
  });
}

async function read(o: PacedReadOptions): Promise<PacedReadOutcome> {
  // Its own kept-alive connections (bench/keep-alive-client.ts): a read the service never answers
  // fails after 30 s instead of holding the bench forever.
  const client = new KeepAliveClient(new URL(o.url).origin, { idleMs: 4000, timeoutMs: 30_000, maxConnections: 256 });
  const request = requestBytes('GET', new URL(o.url), o.headers);
  const intervalMs = 1000 / o.perSecond;
  const total = Math.round((o.warmupSeconds + o.seconds) * o.perSecond);
  const firstMeasured = Math.round(o.warmupSeconds * o.perSecond);
  const latencies = new Latencies();
  await new Promise((resolve) => setTimeout(resolve, Math.max(0, (o.startAtMs ?? 0) - Date.now())));
  let failed = 0;
  const failures: Record<string, number> = {};
  let answered = 0;
  let allAnswered: () => void;
  const finished = new Promise<void>((resolve) => (allAnswered = resolve));
  const start = performance.now();
  const get = (i: number) => {
    const dueAt = start + i * intervalMs;
    const done = (failure?: string) => {
      if (i >= firstMeasured) {
        if (failure === undefined) latencies.add(performance.now() - dueAt);
        else {
          failed += 1;
          failures[failure] = (failures[failure] ?? 0) + 1;
        }
      }
      if (++answered === total) allAnswered();
    };
    client.request(request).then(
      ({ status }) => done(status >= 200 && status < 300 ? undefined : String(status)),
      (err: Error) => done(err.message),
    );
  };
  let sent = 0;
  const tick = () => {
    const due = Math.min(total, Math.floor((performance.now() - start) / intervalMs) + 1);
    while (sent < due) get(sent++);
    if (sent < total) setTimeout(tick, Math.max(0, start + sent * intervalMs - performance.now()));
  };
  tick();
  await finished;
  client.close();
  const sorted = latencies.sorted();
  return {
    due: total - firstMeasured,
    ok: latencies.count,
    failed,
    failures,
    p50Ms: percentile(sorted, 50),
    p99Ms: percentile(sorted, 99),
    maxMs: percentile(sorted, 100),
  };
}

if (process.argv[1] === self) process.stdout.write(JSON.stringify(await read(JSON.parse(process.argv[2]!) as PacedReadOptions)));
