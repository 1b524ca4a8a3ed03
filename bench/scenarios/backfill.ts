// Backfill: a season of logs pushed at once, as the agent does on its first run. 200,000 kill
// events among 20,000 distinct players (killer and victim drawn uniformly), batches of 500, 4 in
// flight, into a server of its own made for the run; every event must be stored exactly once.
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { registerServer } from '../../src/servers/server.ts';
import { loadAccount, platformId } from '../fixture.ts';
import { post } from '../post.ts';
import type { Scenario } from './scenario.ts';
import { fmt } from './scenario.ts';

const events = Number(process.env.BENCH_BACKFILL_EVENTS ?? 200_000);
const players = 20_000;
const batchSize = 500;
const inFlight = 4;
const target = 20_000;

/** A deterministic pseudo-random sequence (xorshift32), so every run pushes the same shape. */
function random(seed: number) {
  let x = seed;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 4294967296;
  };
}

export const backfillScenario: Scenario = {
  name: 'backfill',
  async run(ctx) {
    const { server, ingestToken } = await registerServer(ctx.deps, await loadAccount(ctx.deps), {
      name: `bench backfill ${new Date().toISOString()}`,
    });
    const next = random(20_261_123);
    const weapons = ['M4A1', 'AKM', 'SVD', 'Mosin 91/30', 'MP5-K', 'FNX45'];
    let tsMs = Date.now() - 30 * 24 * 3600_000; // a month back, 10 ms apart
    const batches: string[] = [];
    for (let b = 0; b < Math.ceil(events / batchSize); b++) {
      const batch = Array.from({ length: Math.min(batchSize, events - b * batchSize) }, () => {
        const killer = 1 + Math.floor(next() * players);
        let victim = 1 + Math.floor(next() * players);
        if (victim === killer) victim = (victim % players) + 1;
        tsMs += 10;
        return {
          id: randomUUID(),
          type: 'kill',
          ts: tsMs,
          weapon: weapons[killer % weapons.length],
          distance: Math.round(next() * 4000) / 10,
          isHeadshot: next() < 0.2,
          killer: { platformId: platformId(700_000 + killer), name: `backfill ${killer}` },
          victim: { platformId: platformId(700_000 + victim), name: `backfill ${victim}` },
        };
      });
      batches.push(JSON.stringify({ events: batch }));
    }
    const url = `${ctx.service.url}/api/servers/${server.id}/events`;
    const headers = { authorization: `Bearer ${ingestToken}`, 'content-type': 'application/json' };
    const latencies: number[] = [];
    let accepted = 0;
    let failed = 0;
    let taken = 0;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: inFlight }, async () => {
        while (taken < batches.length) {
          const body = batches[taken++]!;
          const sent = performance.now();
          // A 429 of the ingest gate is retried after its Retry-After, as the agent does.
          for (;;) {
            const res = await post(url, headers, body);
            if (res.status === 429) {
              await new Promise((resolve) => setTimeout(resolve, 1000 * Number(res.headers['retry-after'] ?? 1)));
              continue;
            }
            if (res.status === 200) accepted += (JSON.parse(res.text) as { accepted: number }).accepted;
            else failed += 1;
            break;
          }
          latencies.push(performance.now() - sent);
        }
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    const { rows } = await ctx.deps.db.query<{ kills: number; counted: number; players: number }>(
      `SELECT (SELECT count(*) FROM kills WHERE server_id = $1)::int AS kills,
              (SELECT coalesce(sum(kills), 0) FROM server_players WHERE server_id = $1)::int AS counted,
              (SELECT count(*) FROM server_players WHERE server_id = $1)::int AS players`,
      [server.id],
    );
    const stored = rows[0]!;
    latencies.sort((a, b) => a - b);
    const p99 = Math.round(latencies[Math.min(latencies.length - 1, Math.ceil(0.99 * latencies.length) - 1)] ?? 0);
    const rate = accepted / seconds;
    const exact = failed === 0 && accepted === events && stored.kills === events && stored.counted === events;
    ctx.say(
      `  backfill: ${fmt(rate)} events/s, batch p99 ${p99} ms; ${fmt(stored.kills)} kills stored, ${fmt(stored.counted)} counted in totals, ${fmt(stored.players)} players, ${failed} failed batches`,
    );
    // The bare Koa right after, on the same machine in the same minute: the events/s as a share of its requests/s.
    const koa = await ctx.measureKoa();
    ctx.say(
      `  backfill: Koa hello-world ${fmt(koa.reqPerSec)} req/s just after; the backfill's events/s ${(rate / koa.reqPerSec).toFixed(2)} x Koa`,
    );
    return [
      {
        cells: [
          `backfill: ${fmt(events)} kills among ${fmt(players)} players, batches of ${batchSize}, ${inFlight} in flight`,
          `${fmt(rate)} events/s (Koa ${fmt(koa.reqPerSec)} req/s)`,
          String(p99),
          (rate / koa.reqPerSec).toFixed(2),
          `≥ ${fmt(target)} events/s, every event stored once`,
          rate >= target && exact ? 'PASS' : `FAIL${exact ? '' : ' (not stored exactly once)'}`,
        ],
        pass: rate >= target && exact,
      },
    ];
  },
};
