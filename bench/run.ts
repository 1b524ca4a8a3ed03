// `npm run bench`: the Data API, the controller's rate limiter and ingestion against real
// PostgreSQL and Redis with a large fixture, next to a bare Koa hello-world measured in the same run.
//
//   1. fixture: database gameservice_bench, schema "bench" (generated once, then reused), Redis
//      keys under "bench:" deleted and rebuilt from PostgreSQL by rebuildDerivedState; an API key,
//      an ingest token and a session of the bench community's owner made for this run; the
//      PostgreSQL settings that move ingestion's figures, and the event-id index kept so far
//   2. limiter accuracy (bench/limiter-accuracy.ts): bursts across a window boundary sent to the
//      limiter function itself, timed by a ManualClock; admitted in the worst 60 s vs the limit
//   3. in child processes: the service (`src/main.ts --role web`), bench/hello.ts, and two more
//      instances of the service with the controller's per-IP limiter on and off; rate limits
//      raised so the limiters count every request but never refuse one
//   4. autocannon, 50 connections: warm-up, then the measured run, per target; Koa first and
//      again last, the ratios are against the median of its runs. Then the authenticated
//      controller read GET /api/servers against the limiter-off and limiter-on instances, in
//      shorter runs in the order off, on | on, off | on, off | off, on (warm-up before each
//      instance's first run only); the limiter's cost is the median of these four adjacent pairs'
//      with/without ratios: a drift of the machine's speed, an advantage of the first or second
//      run of a pair, or one disturbed run moves it little
//   5. ingestion: batches of 500 kill events to a second server
//   6. the scenarios of bench/scenarios/ (each with Koa runs next to its own)
//   7. a markdown table for bench/README.md, PASS/FAIL per target
//
// Environment: BENCH_SECONDS (10), BENCH_LIMITER_SECONDS (6, each of the 8 limiter runs),
// BENCH_WARMUP_SECONDS (2), BENCH_CONNECTIONS (50),
// BENCH_INGEST_CONCURRENCY (4 batches in flight), BENCH_ROUNDS (1; with more, the medians of
// the rounds of the read targets are reported), BENCH_ONLY (names of scenarios to run alone, e.g.
// BENCH_ONLY=online; the base targets are skipped; `reads`: the read routes and Koa alone),
// BENCH_AGENT_LINES (500000, the agent scenario's log), BENCH_CPU_PROF (a folder: each child's V8
// CPU profile), BENCH_NODE_FLAGS (Node and V8 flags for each child, e.g. --trace-gc),
// BENCH_DATABASE_URL, REDIS_URL.
// The exit code is 0 whether the targets pass or not (it is a measurement); 1 when the bench
// itself could not run.
import os from 'node:os';
import process from 'node:process';
import { loadConfig } from '../src/config.ts';
import { closeDeps, connectDeps, createDeps } from '../src/deps.ts';
import type { Deps } from '../src/deps.ts';
import { credentials, fixtureSize, ids, prepareDatabase, prepareRedis } from './fixture.ts';
import type { Credentials } from './fixture.ts';
import { accuracyLimit, measureAccuracy, offset, overAdmission } from './limiter-accuracy.ts';
import type { AccuracyOutcome } from './limiter-accuracy.ts';
import { tenths } from './latencies.ts';
import { ingestLoad, measure } from './load.ts';
import type { IngestOutcome, Measurement } from './load.ts';
import { killChildrenNow, startChild, startService, stopChildren } from './processes.ts';
import { scenarios } from './scenarios/index.ts';
import { serviceEnv, unlimited } from './service-env.ts';
import type { BenchContext, ScenarioRow } from './scenarios/scenario.ts';
import type { Child } from './processes.ts';

function envInt(name: string, def: number, min: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return def;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min) throw new Error(`${name}=${raw}: expected an integer >= ${min}`);
  return value;
}

const settings = {
  seconds: envInt('BENCH_SECONDS', 10, 1),
  limiterSeconds: envInt('BENCH_LIMITER_SECONDS', 6, 1),
  warmupSeconds: envInt('BENCH_WARMUP_SECONDS', 2, 0),
  connections: envInt('BENCH_CONNECTIONS', 50, 1),
  ingestConcurrency: envInt('BENCH_INGEST_CONCURRENCY', 4, 1),
  rounds: envInt('BENCH_ROUNDS', 1, 1),
  batchSize: 500,
  only: (process.env.BENCH_ONLY ?? '')
    .split(',')
    .map((n) => n.trim())
    .filter(Boolean),
};

const targets = {
  status: 0.35,
  leaderboard: 0.25,
  killfeed: 0.15,
  p99Ms: 25,
  p99FactorOfKoa: 2.5,
  ingestEventsPerSec: 20_000,
  controllerLimiter: 0.8,
};

const say = (line: string) => process.stdout.write(`${line}\n`);
const fmt = (n: number, digits = 0) => n.toLocaleString('en', { minimumFractionDigits: digits, maximumFractionDigits: digits });
const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

interface ReadTarget {
  key: 'koa' | 'status' | 'leaderboard' | 'killfeed' | 'limiterOff' | 'limiterOn';
  label: string;
  url: string;
  headers: Record<string, string>;
  /** Checks one answer before the load starts, so a broken route is never "measured". */
  check: (body: unknown, res: Response) => string | undefined;
}

function readTargets(hello: Child, service: Child, creds: Credentials): ReadTarget[] {
  const auth = { authorization: `Bearer ${creds.apiKey}` };
  const base = `${service.url}/api/v1/data/servers/${ids.readServer}`;
  const limiterOn = (res: Response) =>
    res.headers.get('ratelimit-limit') === unlimited
      ? undefined
      : `RateLimit-Limit is ${res.headers.get('ratelimit-limit')}, expected ${unlimited}`;
  return [
    {
      key: 'koa',
      label: 'Koa hello-world (baseline)',
      url: `${hello.url}/`,
      headers: {},
      check: (body) => ((body as { hello?: string }).hello === 'world' ? undefined : 'unexpected body'),
    },
    {
      key: 'status',
      label: 'GET /api/v1/data/servers/:id',
      url: base,
      headers: auth,
      check: (body, res) => ((body as { id?: string }).id === ids.readServer ? limiterOn(res) : 'not the read server'),
    },
    {
      key: 'leaderboard',
      label: 'GET /api/v1/data/servers/:id/leaderboard?limit=25',
      url: `${base}/leaderboard?limit=25`,
      headers: auth,
      check: (body, res) => {
        const page = body as { total?: number; players?: unknown[] };
        return page.total === fixtureSize.players && page.players?.length === 25
          ? limiterOn(res)
          : `total ${page.total}, ${page.players?.length} players`;
      },
    },
    {
      key: 'killfeed',
      label: 'GET /api/v1/data/servers/:id/kills?limit=50',
      url: `${base}/kills?limit=50`,
      headers: auth,
      check: (body, res) => {
        const page = body as { kills?: unknown[]; nextCursor?: string | null };
        return page.kills?.length === 50 && page.nextCursor ? limiterOn(res) : `${page.kills?.length} kills, nextCursor ${page.nextCursor}`;
      },
    },
  ];
}

/** GET /api/servers with the owner's session: its check reads PostgreSQL, and so does the list. */
function controllerTargets(limiterOff: Child, limiterOn: Child, creds: Credentials): [ReadTarget, ReadTarget] {
  const target = (key: 'limiterOff' | 'limiterOn', child: Child, expectedLimit: string | null): ReadTarget => ({
    key,
    label: `GET /api/servers (session), controller limiter ${key === 'limiterOn' ? 'on' : 'off'}`,
    url: `${child.url}/api/servers`,
    headers: { authorization: `Bearer ${creds.sessionToken}` },
    check: (body, res) => {
      const servers = (body as { servers?: { id: string }[] }).servers ?? [];
      if (servers.length !== 2 || !servers.some((s) => s.id === ids.readServer))
        return `${servers.length} servers, expected the 2 bench servers`;
      const limit = res.headers.get('ratelimit-limit');
      return limit === expectedLimit ? undefined : `RateLimit-Limit is ${limit}, expected ${expectedLimit}`;
    },
  });
  return [target('limiterOff', limiterOff, null), target('limiterOn', limiterOn, unlimited)];
}

async function checkTarget(t: ReadTarget): Promise<void> {
  const res = await fetch(t.url, { headers: t.headers });
  const text = await res.text();
  const problem = res.status !== 200 ? `status ${res.status}` : t.check(JSON.parse(text) as unknown, res);
  if (problem) throw new Error(`${t.label}: ${problem}: ${text.slice(0, 300)}`);
}

const describe = (m: Measurement) =>
  `${fmt(m.reqPerSec)} req/s, p50 ${m.p50Ms} ms, p99 ${m.p99Ms} ms (${fmt(m.completed)} ok in ${m.seconds} s` +
  `${m.non2xx || m.errors || m.timeouts ? `; non-2xx ${m.non2xx} [${m.statusCodes}], errors ${m.errors}, timeouts ${m.timeouts}` : ''})`;

function describeAccuracy(a: AccuracyOutcome): string {
  const sends =
    a.admitted.length <= 12
      ? a.admitted.map((x) => `${x.n} at ${offset(x.atMs)}`).join(', ')
      : `${a.admitted[0]!.n} at ${offset(a.admitted[0]!.atMs)}, then ${fmt(a.admitted.slice(1).reduce((sum, x) => sum + x.n, 0))} ` +
        `of the ${fmt(a.admitted.length - 1)} single requests`;
  return (
    `limiter accuracy, ${a.schedule.name} (${a.schedule.detail}): admitted ${sends}; worst 60 s ` +
    `${fmt(a.worst.admitted)} (sent at ${offset(a.worst.fromMs)} to ${offset(a.worst.toMs)}), a fixed window ${fmt(a.fixedWorst.admitted)}`
  );
}

async function measureIngest(deps: Deps, service: Child, creds: Credentials): Promise<IngestOutcome & { stored: number }> {
  const m = await ingestLoad({
    url: `${service.url}/api/servers/${ids.ingestServer}/events`,
    token: creds.ingestToken,
    concurrency: settings.ingestConcurrency,
    batchSize: settings.batchSize,
    warmupSeconds: settings.warmupSeconds,
    seconds: settings.seconds,
  });
  say(
    `  ingest: ${fmt(m.eventsPerSec)} events/s, ${fmt(m.batchesPerSec, 1)} batches/s, p50 ${m.p50Ms} ms, p99 ${m.p99Ms} ms ` +
      `(${fmt(m.accepted)} events accepted in ${m.seconds} s; duplicates ${m.duplicates}, rejected ${m.rejected}, failed batches ${m.failed})`,
  );
  // Every accepted kill must be in PostgreSQL: the count shows the work was really done.
  const { rows } = await deps.db.query<{ n: number }>('SELECT count(*)::int AS n FROM kills WHERE server_id = $1', [ids.ingestServer]);
  const stored = rows[0]!.n;
  say(`  ingest: ${fmt(stored)} kills stored for the ingest server over the whole run, ${fmt(m.acceptedInAll)} accepted`);
  return { ...m, stored };
}

/** Share of CPU time the machine spent busy over a short sample (before the bench loads it). */
async function busyShare(ms = 1000): Promise<number> {
  const total = () =>
    os.cpus().reduce(
      (acc, c) => {
        const t = c.times;
        return { busy: acc.busy + t.user + t.nice + t.sys + t.irq, all: acc.all + t.user + t.nice + t.sys + t.irq + t.idle };
      },
      { busy: 0, all: 0 },
    );
  const a = total();
  await new Promise((resolve) => setTimeout(resolve, ms));
  const b = total();
  return (b.busy - a.busy) / Math.max(1, b.all - a.all);
}

async function main(): Promise<void> {
  const started = Date.now();
  say(
    `# bench: ${os.cpus().length} cores, Node ${process.version}, ${settings.connections} connections, ` +
      `${settings.warmupSeconds} s warm-up + ${settings.seconds} s per target (controller limiter: 8 x ${settings.limiterSeconds} s), ${settings.rounds} round(s), ` +
      `${serviceEnv.WEB_CONCURRENCY} web process(es) per service${serviceEnv.REDIS_CLUSTER_NODES ? ', Redis Cluster' : ''}${serviceEnv.DATABASE_READ_URL ? ', read replica' : ''}`,
  );
  const busy = await busyShare();
  if (busy > 0.15) say(`note: the machine was ${Math.round(busy * 100)}% busy before the bench started; other load skews the results`);
  const deps = createDeps(loadConfig(serviceEnv));
  try {
    await connectDeps(deps);
    await prepareDatabase(deps, say);
    const creds = await credentials(deps);
    await prepareRedis(deps, say);
    const accuracy = await measureAccuracy(deps);
    for (const a of accuracy) say(`  ${describeAccuracy(a)}`);

    const hello = await startChild('koa hello-world', 'bench/hello.ts', [], { NODE_ENV: 'production' }, '/');
    const service = await startService('service', serviceEnv);
    const limiterOff = await startService('service, controller limiter off', { ...serviceEnv, CONTROLLER_RATE_LIMIT: 'false' });
    const limiterOn = await startService('service, controller limiter on', serviceEnv);
    say(
      `started: hello-world pid ${hello.process.pid} on ${hello.port}, service pid ${service.process.pid} on ${service.port}, ` +
        `limiter off pid ${limiterOff.process.pid} on ${limiterOff.port}, limiter on pid ${limiterOn.process.pid} on ${limiterOn.port}`,
    );

    const reads = readTargets(hello, service, creds);
    const measureUrl = (
      url: string,
      headers: Record<string, string>,
      options: { paths?: string[]; connections?: number; cpuPid?: number } = {},
    ) =>
      measure({
        url,
        headers,
        connections: options.connections ?? settings.connections,
        warmupSeconds: settings.warmupSeconds,
        seconds: settings.seconds,
        paths: options.paths,
        cpuPid: options.cpuPid,
      });
    const ctx: BenchContext = {
      deps,
      say,
      service,
      creds,
      settings,
      measure: measureUrl,
      measureKoa: () => measureUrl(reads[0]!.url, {}),
      koaUrl: reads[0]!.url,
    };
    if (settings.only.includes('reads')) {
      await measureReadsAlone(reads);
      return;
    }
    if (settings.only.length > 0) {
      const rows = await runScenarios(ctx);
      say('\n| route | measured | p99 ms | x Koa | target | result |\n|---|---|---|---|---|---|');
      for (const row of rows) say(`| ${row.cells.join(' | ')} |`);
      return;
    }
    const [off, on] = controllerTargets(limiterOff, limiterOn, creds);
    for (const t of [...reads, off, on]) await checkTarget(t);
    const results = new Map<ReadTarget['key'], Measurement[]>();
    /** with/without of each adjacent pair of controller limiter runs. */
    const limiterPairs: number[] = [];
    for (let round = 1; round <= settings.rounds; round += 1) {
      if (settings.rounds > 1) say(`round ${round}/${settings.rounds}`);
      // Koa opens and closes every round: the baseline is the median of those runs, so a
      // machine that slows down or speeds up during the round moves it less.
      for (const t of [...reads, reads[0]!]) {
        const m = await measure({
          url: t.url,
          headers: t.headers,
          connections: settings.connections,
          warmupSeconds: settings.warmupSeconds,
          seconds: settings.seconds,
        });
        say(`  ${t.label}: ${describe(m)}`);
        results.set(t.key, [...(results.get(t.key) ?? []), m]);
      }
      const order = [off, on, on, off, on, off, off, on];
      for (let i = 0; i < order.length; i += 1) {
        const t = order[i]!;
        const warmupSeconds = results.has(t.key) ? 0 : settings.warmupSeconds;
        const m = await measure({
          url: t.url,
          headers: t.headers,
          connections: settings.connections,
          warmupSeconds,
          seconds: settings.limiterSeconds,
        });
        say(`  ${t.label}: ${describe(m)}`);
        results.set(t.key, [...(results.get(t.key) ?? []), m]);
        if (i % 2 === 1) {
          const last = (key: ReadTarget['key']) => results.get(key)!.at(-1)!.reqPerSec;
          limiterPairs.push(last('limiterOn') / last('limiterOff'));
          say(`    pair ${limiterPairs.length}: with/without ${limiterPairs.at(-1)!.toFixed(2)}`);
        }
      }
    }
    const ingest = await measureIngest(deps, service, creds);
    const scenarioRows = await runScenarios(ctx);
    report(reads, [off, on], results, limiterPairs, ingest, accuracy, scenarioRows);
    say(`\n(total ${fmt((Date.now() - started) / 1000, 0)} s)`);
  } finally {
    await stopChildren();
    await closeDeps(deps);
  }
}

/**
 * BENCH_ONLY=reads: the read routes alone, Koa first and last in each round, and each route's
 * requests/s against the median of Koa's (to compare a change with its parent in a few minutes).
 */
async function measureReadsAlone(reads: ReadTarget[]): Promise<void> {
  for (const t of reads) await checkTarget(t);
  const results = new Map<ReadTarget['key'], number[]>();
  for (let round = 1; round <= settings.rounds; round += 1) {
    for (const t of [...reads, reads[0]!]) {
      const m = await measure({
        url: t.url,
        headers: t.headers,
        connections: settings.connections,
        warmupSeconds: settings.warmupSeconds,
        seconds: settings.seconds,
      });
      say(`  ${t.label}: ${describe(m)}`);
      results.set(t.key, [...(results.get(t.key) ?? []), m.reqPerSec]);
    }
  }
  const koa = median(results.get('koa')!);
  say(`\n| route | req/s (median) | x Koa |\n|---|---|---|\n| Koa hello-world | ${fmt(koa)} | 1.00 |`);
  for (const t of reads.slice(1))
    say(`| ${t.label} | ${fmt(median(results.get(t.key)!))} | ${(median(results.get(t.key)!) / koa).toFixed(2)} |`);
}

/** The scenarios of bench/scenarios/ (those named in BENCH_ONLY, or all). */
async function runScenarios(ctx: BenchContext): Promise<ScenarioRow[]> {
  const rows: ScenarioRow[] = [];
  for (const scenario of scenarios) {
    if (settings.only.length > 0 && !settings.only.includes(scenario.name)) continue;
    say(`scenario ${scenario.name}`);
    rows.push(...(await scenario.run(ctx)));
  }
  return rows;
}

function report(
  reads: ReadTarget[],
  [off, on]: ReadTarget[],
  results: Map<ReadTarget['key'], Measurement[]>,
  limiterPairs: number[],
  ingest: IngestOutcome & { stored: number },
  accuracy: AccuracyOutcome[],
  scenarioRows: ScenarioRow[],
): void {
  const summary = (key: ReadTarget['key']) => {
    const ms = results.get(key)!;
    return {
      reqPerSec: median(ms.map((m) => m.reqPerSec)),
      p99Ms: tenths(median(ms.map((m) => m.p99Ms))),
      clean: ms.every((m) => m.non2xx === 0 && m.errors === 0 && m.timeouts === 0),
    };
  };
  const koa = summary('koa');
  const koaRuns = results.get('koa')!.map((m) => m.reqPerSec);
  const drift = Math.max(...koaRuns) / Math.min(...koaRuns);
  const checks: string[] = [];
  const check = (ok: boolean, what: string) => {
    checks.push(`${ok ? 'PASS' : 'FAIL'}  ${what}`);
    return ok;
  };
  const rows: string[][] = [
    [
      `${reads[0]!.label}, median of ${koaRuns.length} runs`,
      fmt(koa.reqPerSec),
      String(koa.p99Ms),
      '1.00',
      '–',
      koa.clean ? '–' : 'errors',
    ],
  ];
  for (const t of reads.slice(1)) {
    const s = summary(t.key);
    const ratio = s.reqPerSec / koa.reqPerSec;
    const min = targets[t.key as 'status' | 'leaderboard' | 'killfeed'];
    const fast = check(ratio >= min, `${t.key}: ${ratio.toFixed(2)} x Koa >= ${min}`);
    // The absolute cap, and at most 2.5 x the p99 of Koa in the same run.
    const quick = check(
      s.p99Ms < targets.p99Ms && s.p99Ms <= targets.p99FactorOfKoa * koa.p99Ms,
      `${t.key}: p99 ${s.p99Ms} ms < ${targets.p99Ms} ms and <= ${targets.p99FactorOfKoa} x Koa's ${koa.p99Ms} ms`,
    );
    const clean = check(s.clean, `${t.key}: every answer 2xx, no errors or timeouts`);
    const failed = [fast ? '' : 'x Koa', quick ? '' : 'p99', clean ? '' : 'errors'].filter(Boolean);
    rows.push([
      t.label,
      fmt(s.reqPerSec),
      String(s.p99Ms),
      ratio.toFixed(2),
      `≥ ${min.toFixed(2)} x Koa, p99 < ${targets.p99Ms} ms and ≤ ${targets.p99FactorOfKoa} x Koa's`,
      failed.length === 0 ? 'PASS' : `FAIL (${failed.join(', ')})`,
    ]);
  }

  // The controller limiter's cost: the same authenticated read with the limiter on and off.
  const without = summary('limiterOff');
  const withLimiter = summary('limiterOn');
  const limiterRatio = median(limiterPairs);
  const pairs = limiterPairs.map((r) => r.toFixed(2)).join(', ');
  const limiterCheap = check(
    limiterRatio >= targets.controllerLimiter,
    `controller limiter: with/without ${limiterRatio.toFixed(2)} >= ${targets.controllerLimiter.toFixed(2)} (median of the pairs ${pairs})`,
  );
  const limiterClean = check(
    without.clean && withLimiter.clean,
    'controller limiter: every answer 2xx, no errors or timeouts (limiter on and off)',
  );
  const of = `median of ${results.get('limiterOn')!.length} runs`;
  rows.push([
    `${off!.label} (${of})`,
    fmt(without.reqPerSec),
    String(without.p99Ms),
    (without.reqPerSec / koa.reqPerSec).toFixed(2),
    '–',
    without.clean ? '–' : 'errors',
  ]);
  rows.push([
    `${on!.label} (${of}; counts, never refuses)`,
    fmt(withLimiter.reqPerSec),
    String(withLimiter.p99Ms),
    (withLimiter.reqPerSec / koa.reqPerSec).toFixed(2),
    `with/without ≥ ${targets.controllerLimiter.toFixed(2)} (median of adjacent pairs)`,
    `${limiterCheap && limiterClean ? 'PASS' : `FAIL (${limiterCheap ? 'errors' : 'slower'})`}: with/without ${limiterRatio.toFixed(2)} (pairs ${pairs})`,
  ]);
  const ingestClean = ingest.failed === 0 && ingest.duplicates === 0 && ingest.rejected === 0 && ingest.stored === ingest.acceptedInAll;
  const ingestFast = check(
    ingest.eventsPerSec >= targets.ingestEventsPerSec,
    `ingest: ${fmt(ingest.eventsPerSec)} events/s >= ${fmt(targets.ingestEventsPerSec)}`,
  );
  check(ingestClean, 'ingest: every batch accepted in full (no failed batches, duplicates or rejections), every accepted kill stored');
  rows.push([
    `POST /api/servers/:id/events (${settings.batchSize} kills per batch, ${settings.ingestConcurrency} in flight)`,
    `${fmt(ingest.eventsPerSec)} events/s (${fmt(ingest.batchesPerSec, 1)} batches/s)`,
    String(ingest.p99Ms),
    '–',
    `≥ ${fmt(targets.ingestEventsPerSec)} events/s`,
    ingestFast && ingestClean ? 'PASS' : `FAIL (${ingestFast ? 'errors' : 'events/s'})`,
  ]);

  for (const row of scenarioRows) {
    check(row.pass, `${row.cells[0]}: ${row.cells[1]}, ${row.cells[3]} x Koa (${row.cells[4]})`);
    rows.push(row.cells);
  }

  // The limiter's accuracy: no target, the figures as measured.
  const pct = (admitted: number) => `${overAdmission(admitted) >= 0 ? '+' : ''}${overAdmission(admitted).toFixed(1)}%`;
  for (const a of accuracy) {
    rows.push([
      `limiter accuracy, ${a.schedule.name} (${a.schedule.detail})`,
      `admitted ${fmt(a.worst.admitted)} of limit ${accuracyLimit} in the worst 60 s`,
      '–',
      '–',
      `none (a fixed window admits ${fmt(a.fixedWorst.admitted)}: over-admission ${pct(a.fixedWorst.admitted)})`,
      `over-admission ${pct(a.worst.admitted)}`,
    ]);
  }

  if (drift > 1.2) {
    say(
      `\nnote: the Koa baseline ranged from ${fmt(Math.min(...koaRuns))} to ${fmt(Math.max(...koaRuns))} req/s in this run: ` +
        'the machine was not quiet (other load?); ratios use the median. BENCH_ROUNDS=3 takes medians of more runs.',
    );
  }
  say('\ntargets:');
  for (const line of checks) say(`  ${line}`);
  say(
    `\n${settings.connections} connections, ${settings.seconds} s per target after ${settings.warmupSeconds} s warm-up` +
      `${settings.rounds > 1 ? `, median of ${settings.rounds} rounds` : ''}; fixture ${fmt(fixtureSize.players)} ranked players, ` +
      `${fmt(fixtureSize.kills)} kills; ${os.cpus().length} cores, Node ${process.version}. Controller limiter: 8 runs of ` +
      `${settings.limiterSeconds} s, with/without = median of the ${limiterPairs.length} adjacent (off, on) pairs. Limiter accuracy: the most requests ` +
      `admitted within any 60 s [t, t + 60 s), limit ${accuracyLimit} per 60 s window; over-admission = admitted / limit − 1\n`,
  );
  say('| route | req/s | p99 ms | x Koa | target | result |');
  say('|---|---|---|---|---|---|');
  for (const row of rows) say(`| ${row.join(' | ')} |`);
}

process.on('exit', killChildrenNow);
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    say(`\n${signal}: stopping`);
    void stopChildren().finally(() => process.exit(130));
  });
}

try {
  await main();
} catch (err) {
  process.stderr.write(`bench failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exitCode = 1;
}
