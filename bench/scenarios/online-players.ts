// Online players with 200 online (DayZ servers hold up to 127): the route first measured at
// 0.07 x Koa. The players are kept online as a live server keeps them: a heartbeat of each every
// 20 s while the route is read, so the list changes (and is rendered anew) during the measurement.
import { randomUUID } from 'node:crypto';
import { ids, platformId } from '../fixture.ts';
import { tenths } from '../latencies.ts';
import type { Measurement } from '../load.ts';
import type { BenchContext, Scenario, ScenarioRow } from './scenario.ts';
import { clean, fmt, median } from './scenario.ts';

const online = 200;
const heartbeatEveryMs = 20_000;
const target = 0.35;
const p99FactorOfKoa = 2.5;

async function heartbeats(ctx: BenchContext): Promise<void> {
  const now = Date.now();
  const events = Array.from({ length: online }, (_, i) => ({
    id: randomUUID(),
    type: 'player.heartbeat',
    ts: now,
    platformId: platformId(800_001 + i),
    name: `online ${i + 1}`,
  }));
  const res = await fetch(`${ctx.service.url}/api/servers/${ids.ingestServer}/events`, {
    method: 'POST',
    headers: { authorization: `Bearer ${ctx.creds.ingestToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({ events }),
  });
  if (res.status !== 200) throw new Error(`heartbeats: ${res.status} ${await res.text()}`);
}

export const onlinePlayersScenario: Scenario = {
  name: 'online',
  async run(ctx) {
    await heartbeats(ctx);
    const timer = setInterval(() => void heartbeats(ctx).catch((err: unknown) => ctx.say(`  online: ${String(err)}`)), heartbeatEveryMs);
    try {
      const url = `${ctx.service.url}/api/v1/data/servers/${ids.ingestServer}/players`;
      const headers = { authorization: `Bearer ${ctx.creds.apiKey}` };
      const body = (await (await fetch(url, { headers })).json()) as { count?: number };
      if (body.count !== online) throw new Error(`online players: count ${body.count}, expected ${online}`);
      const koa: Measurement[] = [];
      const route: Measurement[] = [];
      for (let round = 0; round < ctx.settings.rounds; round++) {
        koa.push(await ctx.measureKoa());
        route.push(await ctx.measure(url, headers));
        ctx.say(
          `  online players (${online} online): ${fmt(route.at(-1)!.reqPerSec)} req/s, p99 ${route.at(-1)!.p99Ms} ms; Koa ${fmt(koa.at(-1)!.reqPerSec)} req/s, p99 ${koa.at(-1)!.p99Ms} ms`,
        );
      }
      koa.push(await ctx.measureKoa());
      const ratio = median(route.map((m) => m.reqPerSec)) / median(koa.map((m) => m.reqPerSec));
      const p99 = tenths(median(route.map((m) => m.p99Ms)));
      const koaP99 = tenths(median(koa.map((m) => m.p99Ms)));
      const ok = ratio >= target && p99 <= p99FactorOfKoa * koaP99 && route.every(clean);
      const row: ScenarioRow = {
        cells: [
          `GET /api/v1/data/servers/:id/players (${online} online, heartbeats every ${heartbeatEveryMs / 1000} s)`,
          `${fmt(median(route.map((m) => m.reqPerSec)))} req/s`,
          String(p99),
          ratio.toFixed(2),
          `≥ ${target} x Koa, p99 ≤ ${p99FactorOfKoa} x Koa's (${koaP99} ms)`,
          ok ? 'PASS' : 'FAIL',
        ],
        pass: ok,
      };
      return [row];
    } finally {
      clearInterval(timer);
    }
  },
};
