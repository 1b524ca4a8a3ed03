// Webhooks: the fleet's load (2,500 servers, a batch of ~20 mixed events each every 5 s, 3 kills
// in each) run twice on the same service and worker, first with no endpoint, then with 500
// communities of 5 servers each subscribed to their kills (one endpoint each, Discord and standard
// in turns, receivers on 127.0.0.1 in a process of their own; a tenth of them slow, answering after
// 3 s, or failing with 500). Ingestion's batch p50/p99 of both runs side by side (the outbox is
// written in the batch's own transaction: what it adds to a batch is what this shows), and the
// delivery lag of the kills of the measured seconds, from the kill's time to its arrival, for the
// healthy receivers and the slow ones (a failing receiver's kills wait for its backoff: they have
// no lag to speak of). The worker is the service's own (`--role all`, WEBHOOK_ALLOW_PRIVATE=1),
// running in both runs.
import { performance } from 'node:perf_hooks';
import type { Deps } from '../../src/deps.ts';
import { findAccount, insertAccount } from '../../src/accounts/account.repo.ts';
import { listServerRecords } from '../../src/servers/server.repo.ts';
import { registerServer, rotateIngestToken } from '../../src/servers/server.ts';
import { insertEndpoint } from '../../src/webhooks/endpoint.repo.ts';
import { startChild } from '../processes.ts';
import { serviceEnv } from '../service-env.ts';
import { serviceNodeFlags } from '../v8-flags.ts';
import { batchOf, sendBatch, Tally } from './fleet.ts';
import type { FleetServer } from './fleet.ts';
import type { BenchContext, Scenario } from './scenario.ts';
import { fmt } from './scenario.ts';

const servers = Number(process.env.BENCH_WEBHOOKS_SERVERS ?? 2500);
const endpoints = Number(process.env.BENCH_WEBHOOKS_ENDPOINTS ?? 500);
const seconds = Number(process.env.BENCH_WEBHOOKS_SECONDS ?? 30);
const warmupSeconds = Number(process.env.BENCH_WEBHOOKS_WARMUP_SECONDS ?? 30);
/** After the batches stop, how long the healthy receivers' kills may take to arrive. */
const drainSeconds = Number(process.env.BENCH_WEBHOOKS_DRAIN_SECONDS ?? 60);
const periodMs = 5000;
const slowMs = 3000;
const targets = { batchP99Ms: 100, healthyLagP99Ms: 5000 };

/** Endpoint n's receiver: every tenth slow or failing, in turns. */
const kindOf = (n: number) => (n % 20 === 5 ? 'slow' : n % 20 === 15 ? 'failing' : 'healthy');
const communityId = (n: number) => `b3c0a000-0000-4000-8001-${n.toString(16).padStart(12, '0')}`;

/** The communities and their servers, made by the first run and reused by later ones (with new tokens). */
async function hookedFleet(deps: Deps): Promise<{ fleet: FleetServer[]; communities: string[] }> {
  const perCommunity = Math.max(1, Math.floor(servers / endpoints));
  const fleet: FleetServer[] = [];
  const communities: string[] = [];
  for (let c = 0; c < endpoints; c++) {
    const account = communityId(c);
    if (!(await findAccount(deps.db, account))) await insertAccount(deps.db, `bench hooked community ${c}`, account);
    communities.push(account);
    const known = new Map((await listServerRecords(deps.db, account)).map((s) => [s.name, s.id]));
    for (let i = 0; i < perCommunity; i++) {
      const n = c * perCommunity + i;
      const name = `bench hooked ${n}`;
      const id = known.get(name);
      const token = id ? await rotateIngestToken(deps, account, id) : undefined;
      if (id && token) fleet.push({ id, token, n });
      else {
        const { server, ingestToken } = await registerServer(deps, account, { name });
        fleet.push({ id: server.id, token: ingestToken, n });
      }
    }
  }
  return { fleet, communities };
}

/** The fleet's batches over a warm-up and the measured seconds, open loop; the tallies of both. */
async function runFleet(ctx: BenchContext, fleet: FleetServer[]): Promise<{ warm: Tally; measured: Tally; measuredFromMs: number }> {
  const madeAtMs = Date.now();
  const endMs = (warmupSeconds + seconds) * 1000;
  const batches: { s: FleetServer; at: number; events: number; body: Buffer }[] = [];
  for (const s of fleet) {
    const phase = (s.n / fleet.length) * periodMs;
    for (let k = 0; phase + k * periodMs < endMs; k++) {
      const events = batchOf(s, k, Math.round(madeAtMs + phase + k * periodMs));
      batches.push({ s, at: phase + k * periodMs, events: events.length, body: Buffer.from(JSON.stringify({ events })) });
    }
  }
  const warm = new Tally();
  const measured = new Tally();
  const inFlight: Promise<void>[] = [];
  const started = performance.now();
  const send = (b: (typeof batches)[number], t: Tally) => inFlight.push(sendBatch(ctx.service.url, b, t));
  const timers = batches.map((b) => setTimeout(() => send(b, b.at < warmupSeconds * 1000 ? warm : measured), b.at));
  await new Promise((resolve) => setTimeout(resolve, Math.max(0, endMs - (performance.now() - started)) + 100));
  await Promise.all(inFlight);
  for (const t of timers) clearTimeout(t);
  // The kills of the measured seconds: their times are when their batches were due (a kill of a batch up to 2 ms before).
  return { warm, measured, measuredFromMs: madeAtMs + warmupSeconds * 1000 - 10 };
}

const tallyText = (t: Tally) =>
  `${fmt(t.sent)} batches, ${fmt(t.accepted)} of ${fmt(t.offered)} events accepted; batch p50 ${t.p(50)} ms, p99 ${t.p(99)} ms, ${t.late} late, ${t.failedText}`;

interface LagStats {
  kills: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
}

export const webhooksScenario: Scenario = {
  name: 'webhooks',
  async run(ctx) {
    const { fleet, communities } = await hookedFleet(ctx.deps);
    await ctx.deps.db.query('DELETE FROM webhook_endpoints WHERE account_id = ANY($1::uuid[])', [communities]);
    const slow = communities.map((_, n) => n).filter((n) => kindOf(n) === 'slow');
    const failing = communities.map((_, n) => n).filter((n) => kindOf(n) === 'failing');
    const receivers = await startChild(
      'webhook receivers',
      'bench/webhook-receivers.ts',
      [],
      { SLOW: slow.join(','), FAILING: failing.join(','), SLOW_MS: String(slowMs) },
      '/health',
    );
    // The worker that delivers (and runs the worker's other jobs, in both runs alike). Private
    // destinations are refused in production, so it runs as development: NODE_ENV changes nothing
    // else the worker does. (Its web part is not read.)
    await startChild(
      'service with its worker',
      'src/main.ts',
      ['--role', 'all'],
      { ...serviceEnv, NODE_ENV: 'development', WEBHOOK_ALLOW_PRIVATE: '1' },
      '/api/health',
      serviceNodeFlags(),
    );

    const without = await runFleet(ctx, fleet);
    ctx.say(
      `  webhooks, without endpoints: ${fmt(fleet.length)} servers; warm-up: ${tallyText(without.warm)}; measured ${seconds} s: ${tallyText(without.measured)}`,
    );

    const nowIso = new Date().toISOString();
    for (const [n, account] of communities.entries()) {
      await insertEndpoint(
        ctx.deps.db,
        account,
        {
          url: `${receivers.url}/hook/${n}`,
          format: n % 2 === 0 ? 'discord' : 'standard',
          events: ['kill'],
          serverIds: null,
          mentionRoleId: null,
        },
        nowIso,
      );
    }
    const withHooks = await runFleet(ctx, fleet);
    ctx.say(
      `  webhooks, with ${fmt(endpoints)} endpoints: warm-up: ${tallyText(withHooks.warm)}; measured ${seconds} s: ${tallyText(withHooks.measured)}`,
    );

    // The healthy receivers' kills drain; the slow ones' at their pace, the failing ones' wait for their backoff.
    const waitingOf = async (kind: ReturnType<typeof kindOf>) => {
      const { rows } = await ctx.deps.db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM webhook_outbox o JOIN webhook_endpoints w ON w.id = o.endpoint_id
         WHERE w.account_id = ANY($1::uuid[])`,
        [communities.filter((_, n) => kindOf(n) === kind)],
      );
      return rows[0]!.n;
    };
    const waitingOfHealthy = () => waitingOf('healthy');
    const drainStarted = performance.now();
    let waiting = await waitingOfHealthy();
    while (waiting > 0 && performance.now() - drainStarted < drainSeconds * 1000) {
      await new Promise((resolve) => setTimeout(resolve, 1000));
      waiting = await waitingOfHealthy();
    }
    const drainedIn = (performance.now() - drainStarted) / 1000;
    const res = await fetch(`${receivers.url}/stats?from=${withHooks.measuredFromMs}`);
    const stats = (await res.json()) as { healthy: LagStats; slow: LagStats; failedAnswers: number };
    const [slowWaiting, failingWaiting] = [await waitingOf('slow'), await waitingOf('failing')];
    const lagText = (s: LagStats) => `${fmt(s.kills)} kills, lag p50 ${fmt(s.p50Ms)} ms, p99 ${fmt(s.p99Ms)} ms, max ${fmt(s.maxMs)} ms`;
    ctx.say(
      `  webhooks, delivery of the measured seconds' kills: healthy receivers ${lagText(stats.healthy)}; slow receivers (${slowMs / 1000} s an answer) ${lagText(stats.slow)}; ` +
        `${waiting === 0 ? `the healthy receivers' outbox empty ${fmt(drainedIn, 1)} s after the last batch` : `${fmt(waiting)} kills still waiting for healthy receivers after ${drainSeconds} s`}, ` +
        `${fmt(slowWaiting)} for the slow ones; failing receivers: ${fmt(stats.failedAnswers)} answers of 500, ${fmt(failingWaiting)} kills waiting for their retries`,
    );
    // Their waiting kills go with them: the next run starts without endpoints again.
    await ctx.deps.db.query('DELETE FROM webhook_endpoints WHERE account_id = ANY($1::uuid[])', [communities]);

    const before = without.measured.p(99);
    const after = withHooks.measured.p(99);
    const onTime = (t: Tally) => t.failed === 0 && t.late === 0 && t.accepted === t.offered;
    const pass =
      onTime(without.measured) &&
      onTime(withHooks.measured) &&
      after < targets.batchP99Ms &&
      waiting === 0 &&
      stats.healthy.p99Ms < targets.healthyLagP99Ms;
    return [
      {
        cells: [
          `webhooks: the fleet (${fmt(fleet.length)} servers, ~20 events a batch every 5 s) with ${fmt(endpoints)} endpoints subscribed to kills (a community of ${Math.floor(servers / endpoints)} servers each; a tenth slow or failing), against the same run without`,
          `lag p50 ${fmt(stats.healthy.p50Ms)} ms (healthy), ${fmt(stats.healthy.kills)} kills; batch p50 ${withHooks.measured.p(50)} ms (without ${without.measured.p(50)})`,
          `batch ${after} (without ${before}); lag ${fmt(stats.healthy.p99Ms)} (slow receivers ${fmt(stats.slow.p99Ms)})`,
          '–',
          `all accepted on time, batch p99 < ${targets.batchP99Ms} ms, healthy receivers' lag p99 < ${targets.healthyLagP99Ms / 1000} s, their outbox drained`,
          pass ? 'PASS' : 'FAIL',
        ],
        pass,
      },
    ];
  },
};
