// Fleet: 2,500 game servers, each posting a batch every 5 s of about 20 mixed events (heartbeats
// of its ~60 online players spread over 30 s, a status every 30 s, a few kills, shots, connects
// and disconnects): about 10,000 events/s offered, open loop (a batch leaves on time whether the
// last one was answered or not). Meanwhile the Data API status route is read at 1,000 requests a
// second, open loop too, over as many connections as that takes (far above what the keys of 2,500
// servers' communities may ask: 60 a minute each; a reader as fast as the answers come would
// measure how the two share 2 cores, not what ingestion does to a read); its p99 is compared with
// the same read on an idle service. Beside it, a bare Koa hello-world (a process of its own that
// does nothing else) is read at 200 a second, idle and under the fleet: how much of the status
// read's p99 the machine's shared cores alone add, so a run tells a service's stalls from the
// machine's.
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import type { Deps } from '../../src/deps.ts';
import { listServerRecords } from '../../src/servers/server.repo.ts';
import { registerServer, rotateIngestToken } from '../../src/servers/server.ts';
import { cpuPerUnitText, cpuSnapshot, cpuSpent } from '../cpu-usage.ts';
import { ids, loadAccount, platformId } from '../fixture.ts';
import { percentile } from '../latencies.ts';
import { pacedReads } from '../paced-reads.ts';
import { post } from '../post.ts';
import type { Scenario } from './scenario.ts';
import { fmt } from './scenario.ts';

const servers = Number(process.env.BENCH_FLEET_SERVERS ?? 2500);
const seconds = Number(process.env.BENCH_FLEET_SECONDS ?? 30);
// One heartbeat cycle (every player's heartbeat is sent once in 30 s) before the measured seconds:
// from a cold start each player is new to the service's caches once, which a fleet that has been
// running does not see again. The warm-up's figures are printed beside the measured ones.
const warmupSeconds = Number(process.env.BENCH_FLEET_WARMUP_SECONDS ?? 30);
const periodMs = 5000;
const playersPerServer = 60;
const targets = { batchP99Ms: 100, statusP99Factor: 3 };
const statusReadsPerSecond = 1000;
const koaReadsPerSecond = 200;
/** The reader's own warm-up before each of its measured runs. */
const readerWarmupSeconds = 10;

export interface FleetServer {
  id: string;
  token: string;
  n: number;
}

/** One batch of server s at its k-th period: ~20 events. */
export function batchOf(s: FleetServer, k: number, nowMs: number): unknown[] {
  const player = (j: number) => ({
    platformId: platformId(1_000_000 + s.n * 100 + (j % playersPerServer)),
    name: `fleet ${s.n}.${j % playersPerServer}`,
  });
  const events: Record<string, unknown>[] = [];
  // Each player's heartbeat every 30 s: a sixth of them per 5 s batch.
  for (let j = k % 6; j < playersPerServer; j += 6) events.push({ id: randomUUID(), type: 'player.heartbeat', ts: nowMs, ...player(j) });
  // Each server's status every sixth batch, in its own turn: a fleet's servers keep no common clock.
  if ((k + s.n) % 6 === 0)
    events.push({
      id: randomUUID(),
      type: 'server.status',
      ts: nowMs,
      online: true,
      players: playersPerServer,
      fps: 55 + (k % 5),
      uptimeSeconds: k * 5,
    });
  for (let i = 0; i < 3; i++) {
    const killer = player(k * 7 + i);
    const victim = player(k * 11 + i + 1);
    if (killer.platformId !== victim.platformId)
      events.push({ id: randomUUID(), type: 'kill', ts: nowMs - i, killer, victim, weapon: 'AKM', distance: 50 + i, isHeadshot: i === 0 });
    events.push({ id: randomUUID(), type: 'shots', ts: nowMs - i, platformId: killer.platformId, fired: 10, hits: 3 });
  }
  events.push({ id: randomUUID(), type: 'player.disconnect', ts: nowMs, ...player(k + 3) });
  events.push({ id: randomUUID(), type: 'player.connect', ts: nowMs, ...player(k + 3) });
  return events;
}

/**
 * The fleet's servers, made by the first run and reused by later ones (with new tokens): a run that
 * registered 2,500 more servers each time would grow what every later run rebuilds and reconciles.
 */
export async function fleetServers(deps: Deps): Promise<FleetServer[]> {
  // A community of their own: the bench community's server list (a measured controller route) stays its two servers.
  const fleetAccount = await loadAccount(deps);
  const known = new Map((await listServerRecords(deps.db, fleetAccount)).map((s) => [s.name, s.id]));
  const fleet: FleetServer[] = [];
  for (let n = 0; n < servers; n++) {
    const name = `bench fleet ${n}`;
    const id = known.get(name);
    const token = id ? await rotateIngestToken(deps, fleetAccount, id) : undefined;
    if (id && token) fleet.push({ id, token, n });
    else {
      const { server, ingestToken } = await registerServer(deps, fleetAccount, { name });
      fleet.push({ id: server.id, token: ingestToken, n });
    }
  }
  return fleet;
}

/** What one phase of the run (the warm-up, the measured seconds) saw of its batches. */
export class Tally {
  latencies: number[] = [];
  sent = 0;
  offered = 0;
  accepted = 0;
  late = 0;
  failed = 0;
  readonly failures = new Map<string, number>(); // why batches failed: status code or error, and how many
  readonly refusals = new Map<string, number>(); // why events of answered batches were not accepted, and how many

  fail(why: string): void {
    this.failed += 1;
    this.failures.set(why, (this.failures.get(why) ?? 0) + 1);
  }

  p(q: number): number {
    return percentile(
      [...this.latencies].sort((a, b) => a - b),
      q,
    );
  }

  answered(body: { accepted: number; duplicates: number; rejected: { error: string }[] }): void {
    this.accepted += body.accepted;
    const refused = (why: string, n = 1) => this.refusals.set(why, (this.refusals.get(why) ?? 0) + n);
    if (body.duplicates > 0) refused('duplicate', body.duplicates);
    for (const r of body.rejected) refused(r.error);
  }

  get failedText(): string {
    const counted = (m: Map<string, number>) => [...m].map(([why, n]) => `${n} x ${why}`).join('; ');
    const refused = this.refusals.size > 0 ? `; events not accepted: ${counted(this.refusals)}` : '';
    return (this.failed === 0 ? '0 failed' : `${this.failed} failed (${counted(this.failures)})`) + refused;
  }
}

/** Posts one batch (open loop: the answer is tallied when it comes, however late). */
export function sendBatch(serviceUrl: string, b: { s: FleetServer; events: number; body: Buffer }, t: Tally): Promise<void> {
  t.offered += b.events;
  t.sent += 1;
  const at = performance.now();
  return post(
    `${serviceUrl}/api/servers/${b.s.id}/events`,
    { authorization: `Bearer ${b.s.token}`, 'content-type': 'application/json' },
    b.body,
  ).then(
    (res) => {
      const ms = performance.now() - at;
      t.latencies.push(ms);
      if (ms > periodMs) t.late += 1; // answered after the server's next batch was due: a backlog
      if (res.status === 200) t.answered(JSON.parse(res.text) as Parameters<Tally['answered']>[0]);
      else t.fail(`${res.status} ${res.text.slice(0, 80)}`);
    },
    (err: Error) => t.fail(err.message),
  );
}

export const fleetScenario: Scenario = {
  name: 'fleet',
  async run(ctx) {
    const fleet = await fleetServers(ctx.deps);
    const statusUrl = `${ctx.service.url}/api/v1/data/servers/${ids.readServer}`;
    const headers = { authorization: `Bearer ${ctx.creds.apiKey}` };
    // Each read run is measured for as long as the batches are (it was 10 s of their 30: one stall
    // of the service decided the p99 by whether it fell inside), after 10 s of its own warm-up: the
    // reader's onset, a thousand reads a second from a new process, held the batches up for 1.5-6 s
    // on a slow machine (Koa at 10,000 req/s), and with a second of warm-up that fell in the
    // batches' first measured seconds.
    const readStatusAndKoa = (readerWarmup: number, startAtMs?: number) =>
      Promise.all([
        pacedReads({ url: statusUrl, headers, perSecond: statusReadsPerSecond, warmupSeconds: readerWarmup, seconds, startAtMs }),
        pacedReads({ url: ctx.koaUrl, headers: {}, perSecond: koaReadsPerSecond, warmupSeconds: readerWarmup, seconds, startAtMs }),
      ]);
    // The CPU of the idle reads (a thousand a second) is taken off the fleet's: what is left is the batches'.
    const pid = ctx.service.process.pid;
    const idleFrom = { cpu: cpuSnapshot(pid), at: performance.now() };
    const [idle, idleKoa] = await readStatusAndKoa(readerWarmupSeconds);
    const readsCpu = cpuSpent(idleFrom.cpu, cpuSnapshot(pid));
    const readsSeconds = (performance.now() - idleFrom.at) / 1000;

    // Every batch is made before the first is sent: the generator shares the service's 2 cores, and
    // making 500 batches a second (ids, JSON) cost a fifth of a core. Its events happened since the
    // batches were made, as an agent's happened since its last batch.
    const madeAtMs = Date.now();
    const endMs = (warmupSeconds + seconds) * 1000;
    const batches: { s: FleetServer; at: number; events: number; body: Buffer }[] = [];
    for (const s of fleet) {
      // Every server's batches at its own phase within the period: the warm-up, then the measured seconds.
      const phase = (s.n / servers) * periodMs;
      for (let k = 0; phase + k * periodMs < endMs; k++) {
        // Whole milliseconds: the phase is fractional unless the servers divide the period evenly, and a ts
        // in epoch milliseconds is an integer (two thirds of 1,500 servers' events were rejected for it).
        const events = batchOf(s, k, Math.round(madeAtMs + phase + k * periodMs));
        batches.push({ s, at: phase + k * periodMs, events: events.length, body: Buffer.from(JSON.stringify({ events })) });
      }
    }
    ctx.say(`  fleet: ${fmt(batches.length)} batches made in ${fmt((Date.now() - madeAtMs) / 1000, 1)} s`);

    const warm = new Tally();
    const measured = new Tally();
    const started = performance.now();
    const inFlight: Promise<void>[] = [];
    const send = (b: (typeof batches)[number], t: Tally) => inFlight.push(sendBatch(ctx.service.url, b, t));
    const timers = batches.map((b) => setTimeout(() => send(b, b.at < warmupSeconds * 1000 ? warm : measured), b.at));
    const measuredFrom = new Promise<ReturnType<typeof cpuSnapshot>>((resolve) =>
      timers.push(setTimeout(() => resolve(cpuSnapshot(pid)), warmupSeconds * 1000)),
    );
    // The reader starts now and waits: its start-up and its warm-up fall in the batches' warm-up, and
    // its measured reads are due over the batches' measured seconds.
    // (A warm-up of the batches shorter than the reader's, set by hand, shortens the reader's to fit.)
    const busyWarmup = Math.min(readerWarmupSeconds, warmupSeconds);
    const [busy, busyKoa] = await readStatusAndKoa(
      busyWarmup,
      Date.now() - (performance.now() - started) + (warmupSeconds - busyWarmup) * 1000,
    );
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, endMs - (performance.now() - started)) + 100));
    await Promise.all(inFlight);
    for (const t of timers) clearTimeout(t);
    const fleetCpu = cpuSpent(await measuredFrom, cpuSnapshot(pid));
    const batchesCpu = { ...fleetCpu };
    for (const part of ['service', 'postgres', 'redis'] as const)
      batchesCpu[part] = Math.max(0, fleetCpu[part] - (readsCpu[part] / readsSeconds) * seconds);
    const batchP99 = measured.p(99);
    const eventsPerSec = measured.offered / seconds;
    const onTime = measured.failed === 0 && measured.late === 0 && measured.accepted === measured.offered;
    const statusOk = busy.ok === busy.due && idle.ok === idle.due && busy.p99Ms <= targets.statusP99Factor * Math.max(1, idle.p99Ms);
    const pass = onTime && batchP99 < targets.batchP99Ms && statusOk;
    ctx.say(
      `  fleet, warm-up (${warmupSeconds} s from a cold start, not judged): ${fmt(warm.sent)} batches, ${fmt(warm.accepted)} of ${fmt(warm.offered)} events accepted; ` +
        `batch p50 ${warm.p(50)} ms, p99 ${warm.p(99)} ms, ${warm.late} late, ${warm.failedText}`,
    );
    ctx.say(
      `  fleet: ${fmt(servers)} servers, ${fmt(measured.sent)} batches in ${seconds} s, ${fmt(eventsPerSec)} events/s offered, ${fmt(measured.accepted)} of ${fmt(measured.offered)} accepted; ` +
        `batch p50 ${measured.p(50)} ms, p99 ${batchP99} ms, ${measured.late} late, ${measured.failedText}; status p99 ${busy.p99Ms} ms, ` +
        `max ${busy.maxMs} ms, ${fmt(busy.ok)} of ${fmt(busy.due)} reads 2xx${busy.failed ? ` (failed: ${JSON.stringify(busy.failures)})` : ''} (idle: p99 ${idle.p99Ms} ms, max ${idle.maxMs} ms, ${fmt(idle.ok)} of ${fmt(idle.due)}); ` +
        `a bare Koa read beside them (${koaReadsPerSecond}/s): p99 ${busyKoa.p99Ms} ms, ${fmt(busyKoa.ok)} of ${fmt(busyKoa.due)} (idle: p99 ${idleKoa.p99Ms} ms)`,
    );
    ctx.say(
      `  fleet, CPU a batch of ~20 events (the measured seconds, less the status reads' CPU of the idle run): ${cpuPerUnitText(batchesCpu, measured.sent)}; ` +
        `a status read: ${cpuPerUnitText(readsCpu, idle.due + readerWarmupSeconds * statusReadsPerSecond, 'µs')}`,
    );
    return [
      {
        cells: [
          `fleet: ${fmt(servers)} servers, a batch of ~20 mixed events each every 5 s (${fmt(eventsPerSec)} events/s offered, open loop; measured ${seconds} s after a ${warmupSeconds} s warm-up)`,
          `${fmt(measured.accepted)} / ${fmt(measured.offered)} events accepted, ${measured.late} late`,
          `batch ${batchP99}; status ${busy.p99Ms} (idle ${idle.p99Ms}); bare Koa ${busyKoa.p99Ms} (idle ${idleKoa.p99Ms})`,
          '–',
          `all accepted on time, batch p99 < ${targets.batchP99Ms} ms, status p99 (${fmt(statusReadsPerSecond)} reads/s) < ${targets.statusP99Factor} x idle`,
          pass ? 'PASS' : 'FAIL',
        ],
        pass,
      },
    ];
  },
};
