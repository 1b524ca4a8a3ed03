// The dashboard's player search over the read server's 100,000 players: GET /api/players?q= with
// the owner's session, 10 connections (people typing into a search field, not a crawler). Each
// player has, besides the fixture's "player N", an earlier name of its own (syllables and a
// number, 8,000 three-syllable stems), kept in the bench schema between runs. Measured:
// - mixed: 3-letter prefixes of those names (each ~500-2,000 matches, a page of 20 shown) and,
//   one request in five, a Steam64 (exact);
// - one prefix every player's current name shares ("play": 100,000 matches), the worst case of a
//   prefix search: a page still reads 20 rows a server from the index, never the matches whole.
// Target: p99 under 25 ms (the read routes' cap) at either; x Koa is reported.
import { platformId, fixtureSize, ids } from '../fixture.ts';
import type { Measurement } from '../load.ts';
import { tenths } from '../latencies.ts';
import type { BenchContext, Scenario, ScenarioRow } from './scenario.ts';
import { clean, fmt, median } from './scenario.ts';

const connections = 10;
const p99CapMs = 25;
const syllables = [
  'ka',
  'ro',
  'mi',
  'zed',
  'an',
  'bo',
  'li',
  'tor',
  'vex',
  'ul',
  'sha',
  'den',
  'gri',
  'mo',
  'pa',
  'rex',
  'sto',
  'val',
  'wi',
  'yu',
];
/** The earlier name of fixture player n, as the SQL below makes it. */
const earlierName = (n: number) => {
  const stem = syllables[n % 20]! + syllables[Math.floor(n / 20) % 20]! + syllables[Math.floor(n / 400) % 20]!;
  return `${stem[0]!.toUpperCase()}${stem.slice(1)}${n % 97}`;
};

async function ensureNames(ctx: BenchContext): Promise<void> {
  const { rows } = await ctx.deps.db.query<{ n: number }>(
    "SELECT count(*)::int AS n FROM player_names WHERE server_id = $1 AND name NOT LIKE 'player %'",
    [ids.readServer],
  );
  if (rows[0]!.n === fixtureSize.players) return ctx.say(`  player search: reusing ${fmt(fixtureSize.players)} earlier names`);
  await ctx.deps.db.query(
    `INSERT INTO player_names (server_id, platform_id, name, first_seen_at, last_seen_at)
     SELECT $1, '765611980' || lpad(n::text, 8, '0'),
            initcap(s[1 + n % 20] || s[1 + (n / 20) % 20] || s[1 + (n / 400) % 20]) || (n % 97)::text,
            now() - interval '60 days', now() - interval '30 days'
     FROM generate_series(1, $2::int) AS n, (SELECT $3::text[] AS s) AS x
     ON CONFLICT (server_id, platform_id, name) DO NOTHING`,
    [ids.readServer, fixtureSize.players, syllables],
  );
  await ctx.deps.db.query('ANALYZE player_names');
  ctx.say(`  player search: ${fmt(fixtureSize.players)} earlier names added`);
}

function mixedPaths(): string[] {
  const paths: string[] = [];
  for (let i = 0; i < 5000; i++) {
    const n = 1 + ((i * 7919) % fixtureSize.players);
    paths.push(
      i % 5 === 4 ? `/api/players?q=${platformId(n)}` : `/api/players?q=${encodeURIComponent(earlierName(n).slice(0, 3).toLowerCase())}`,
    );
  }
  return paths;
}

async function check(ctx: BenchContext, headers: Record<string, string>): Promise<void> {
  const n = 4242;
  for (const [q, expect] of [
    [earlierName(n), platformId(n)],
    [platformId(n), platformId(n)],
  ] as const) {
    const res = await fetch(`${ctx.service.url}/api/players?q=${encodeURIComponent(q)}`, { headers });
    const body = (await res.json()) as { players?: { ids: { platformId: string } }[] };
    if (res.status !== 200 || !body.players?.some((p) => p.ids.platformId === expect))
      throw new Error(`player search q=${q}: ${res.status} ${JSON.stringify(body).slice(0, 300)}`);
  }
  const wide = (await (await fetch(`${ctx.service.url}/api/players?q=play`, { headers })).json()) as { players: unknown[]; more: boolean };
  if (wide.players.length !== 20 || !wide.more) throw new Error(`player search q=play: ${wide.players.length} players, more ${wide.more}`);
}

export const playerSearchScenario: Scenario = {
  name: 'player-search',
  async run(ctx) {
    await ensureNames(ctx);
    const headers = { authorization: `Bearer ${ctx.creds.sessionToken}` };
    await check(ctx, headers);
    const shapes = [
      { label: `mixed: 3-letter name prefixes, 1 in 5 a Steam64`, paths: mixedPaths() },
      { label: `a prefix all ${fmt(fixtureSize.players)} current names share (q=play)`, paths: ['/api/players?q=play'] },
    ];
    const koa: Measurement[] = [];
    const runs = shapes.map(() => [] as Measurement[]);
    for (let round = 0; round < ctx.settings.rounds; round++) {
      koa.push(await ctx.measureKoa());
      for (const [i, shape] of shapes.entries()) {
        runs[i]!.push(await ctx.measure(ctx.service.url, headers, { paths: shape.paths, connections }));
        const m = runs[i]!.at(-1)!;
        ctx.say(
          `  player search, ${shape.label}: ${fmt(m.reqPerSec)} req/s, p50 ${m.p50Ms} ms, p99 ${m.p99Ms} ms (${connections} connections)`,
        );
      }
    }
    koa.push(await ctx.measureKoa());
    const base = median(koa.map((m) => m.reqPerSec));
    ctx.say(`  player search: Koa ${fmt(base)} req/s (median of ${koa.length} runs, ${ctx.settings.connections} connections)`);
    return shapes.map((shape, i): ScenarioRow => {
      const ms = runs[i]!;
      const reqPerSec = median(ms.map((m) => m.reqPerSec));
      const p99 = tenths(median(ms.map((m) => m.p99Ms)));
      const pass = p99 < p99CapMs && ms.every(clean);
      return {
        cells: [
          `GET /api/players?q= (session, ${fmt(fixtureSize.players)} players, ${connections} connections), ${shape.label}`,
          `${fmt(reqPerSec)} req/s (Koa ${fmt(base)})`,
          String(p99),
          (reqPerSec / base).toFixed(2),
          `p99 < ${p99CapMs} ms`,
          pass ? 'PASS' : 'FAIL',
        ],
        pass,
      };
    });
  },
};
