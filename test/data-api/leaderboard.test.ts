import { randomUUID } from 'node:crypto';
import test from 'ava';
import type { ExecutionContext } from 'ava';
import { mintApiKey } from '../../src/accounts/api-key.ts';
import { serverKeys } from '../../src/store/keys.ts';
import { maxStoredPages } from '../../src/stats/stats.store.ts';
import { testEnv } from '../helpers/env.ts';
import type { TestEnv } from '../helpers/env.ts';
import { assertSchema, dataGet, ev, ingest, player, tenant } from '../helpers/seed.ts';
import type { Tenant } from '../helpers/seed.ts';
import { assertError } from '../helpers/data-api.ts';
import type { LeaderboardEntry as Entry } from '../../src/stats/ranking.ts';

let env: TestEnv;
test.before(async () => {
  env = await testEnv();
});
test.after.always(async () => {
  await env?.close();
});

interface Page {
  total: number;
  sort: string;
  players: Entry[];
}

async function board(t: ExecutionContext, a: Pick<Tenant, 'key' | 'serverId'>, query = ''): Promise<Page> {
  const res = await dataGet(env, a, `/servers/${a.serverId}/leaderboard${query}`);
  t.is(res.status, 200, `leaderboard${query}: ${JSON.stringify(res.body).slice(0, 200)}`);
  assertSchema(t, 'leaderboard-page.json', res.body);
  const page = res.body as Page;
  t.true(page.players.length <= page.total);
  return page;
}

type Who = { platformId: string; name: string };
const who = (name: string, id: number): Who => ({ platformId: `7656119801${String(id).padStart(7, '0')}`, name });

/**
 * Kill events that give each player exactly the kills and deaths asked for: each kill takes a
 * death slot of another player, leftover deaths become suicides (a death without a kill).
 */
function craftedKills(spec: [Who, number, number][], startMs: number): Record<string, unknown>[] {
  const deathSlots = spec.flatMap(([p, , deaths]) => Array.from({ length: deaths }, () => p));
  const events: Record<string, unknown>[] = [];
  let ms = startMs;
  const kill = (killer: Who, victim: Who) => ({
    id: randomUUID(),
    type: 'kill',
    ts: ms++,
    killer,
    victim,
    weapon: 'AKM',
    distance: 50,
    isHeadshot: false,
  });
  for (const [killer, kills] of spec) {
    for (let k = 0; k < kills; k++) {
      const i = deathSlots.findIndex((v) => v.platformId !== killer.platformId);
      if (i < 0) throw new Error('the spec needs more deaths of other players');
      events.push(kill(killer, deathSlots.splice(i, 1)[0]!));
    }
  }
  for (const victim of deathSlots) events.push(kill(victim, victim));
  return events;
}

// Crafted so that every tie-breaker decides somewhere. [player, kills, deaths]
const A = who('A', 10),
  B = who('B', 11),
  C = who('C', 12),
  D = who('D', 13),
  E = who('E', 14),
  F = who('F', 15),
  G = who('G', 16);
const H = who('H', 17),
  I = who('I', 18),
  J = who('J', 19),
  K = who('K', 20);
const tieHigh = who('tieHigh', 31),
  tieLow = who('tieLow', 30); // equal stats: platformId decides
const crafted: [Who, number, number][] = [
  [A, 4, 2],
  [B, 4, 1],
  [C, 2, 0],
  [D, 2, 1],
  [E, 0, 3],
  [F, 0, 1],
  [tieHigh, 1, 1],
  [tieLow, 1, 1],
  [G, 3, 0],
  [H, 0, 7],
  [I, 1, 3],
  [J, 2, 6],
  [K, 5, 3],
];
const expectedOrder = {
  points: [K, B, A, G, C, D, J, tieLow, tieHigh, I, F, E, H],
  kills: [K, B, A, G, C, D, J, tieLow, tieHigh, I, F, E, H],
  kd: [B, G, A, C, D, K, tieLow, tieHigh, J, I, F, E, H],
};

async function craftedServer(t: ExecutionContext): Promise<Tenant> {
  const a = await tenant(env.deps);
  const now = env.clock.now();
  const res = await ingest(env, a, [
    ...craftedKills(crafted, now - 100_000),
    // Not ranked: only presence, only shots.
    ev.presence('player.connect', now - 5000, 900),
    ev.presence('player.heartbeat', now - 4000, 900),
    ev.shots(now - 3000, 901, 30, 10),
  ]);
  t.is(res.status, 200);
  t.deepEqual(res.body.rejected, []);
  return a;
}

test('defaults: sort points, limit 25, offset 0', async (t) => {
  const a = await tenant(env.deps);
  const now = env.clock.now();
  // 30 ranked players: killer i (0..14) kills its own victim 100 + i, i + 1 times.
  const events = Array.from({ length: 15 }, (_, i) =>
    Array.from({ length: i + 1 }, (_, k) => ev.kill(now - 60_000 + i * 100 + k, i, 100 + i)),
  ).flat();
  t.is((await ingest(env, a, events)).status, 200);
  const page = await board(t, a);
  t.is(page.sort, 'points');
  t.is(page.total, 30);
  t.is(page.players.length, 25);
  t.deepEqual(
    page.players.map((p) => p.rank),
    Array.from({ length: 25 }, (_, i) => i + 1),
  );
  t.is(page.players[0]!.platformId, player(14).platformId);
  t.is(page.players[0]!.points, 30);
  t.deepEqual(await board(t, a, '?sort=points&limit=25&offset=0'), page);
});

for (const sort of ['points', 'kills', 'kd'] as const) {
  test(`order by ${sort}: ${sort} desc, then kills desc, deaths asc, platformId asc`, async (t) => {
    const a = await craftedServer(t);
    const page = await board(t, a, `?sort=${sort}`);
    t.is(page.sort, sort);
    t.is(page.total, crafted.length, 'only players with a kill or a death are ranked');
    t.deepEqual(
      page.players.map((p) => p.name),
      expectedOrder[sort].map((p) => p.name),
    );
    t.deepEqual(
      page.players.map((p) => p.rank),
      page.players.map((_, i) => i + 1),
    );
    for (const p of page.players) {
      const [, kills, deaths] = crafted.find(([w]) => w.platformId === p.platformId)!;
      t.like(p, { kills, deaths, points: 2 * kills });
    }
    // Ranks stay 1-based positions in the whole order when paging.
    for (const [offset, limit] of [
      [3, 4],
      [10, 5],
      [0, 1],
      [12, 1],
    ] as const) {
      const slice = await board(t, a, `?sort=${sort}&offset=${offset}&limit=${limit}`);
      t.is(slice.total, crafted.length);
      t.deepEqual(slice.players, page.players.slice(offset, offset + limit), `offset ${offset} limit ${limit}`);
      t.deepEqual(
        slice.players.map((p) => p.rank),
        slice.players.map((_, i) => offset + i + 1),
      );
    }
    const beyond = await board(t, a, `?sort=${sort}&offset=13`);
    t.deepEqual(beyond, { total: crafted.length, sort, players: [] });
  });
}

test('entry values: kd to 2 decimals, points = 2 x kills, headshots, mean kill distance, play minutes', async (t) => {
  const a = await tenant(env.deps);
  const now = env.clock.now();
  const [p1, p2, p3, p4, p5] = [1, 2, 3, 4, 5].map((n) => player(n));
  const kill = (ms: number, killer: Who, victim: Who, distance: number, isHeadshot = false) => ({
    id: randomUUID(),
    type: 'kill',
    ts: ms,
    killer,
    victim,
    weapon: 'SVD',
    distance,
    isHeadshot,
  });
  const res = await ingest(env, a, [
    // p1: 2 kills (100 m, 251 m; one headshot), no deaths; 120 s of play.
    ev.presence('player.connect', now - 200_000, 1),
    ev.presence('player.heartbeat', now - 140_000, 1),
    ev.presence('player.heartbeat', now - 80_000, 1),
    kill(now - 150_000, p1!, p2!, 100, true),
    kill(now - 149_000, p1!, p2!, 251),
    // p3: 5 kills, 3 deaths -> 1.67; p4: 1 kill, 3 deaths -> 0.33; p5: 2 kills, 3 deaths -> 0.67
    ...Array.from({ length: 5 }, (_, i) => kill(now - 100_000 + i, p3!, p4!, 10 * (i + 1))),
    ...Array.from({ length: 3 }, (_, i) => kill(now - 90_000 + i, p4!, p3!, 3)),
    ...Array.from({ length: 2 }, (_, i) => kill(now - 80_000 + i, p5!, p4!, 1)),
    ...Array.from({ length: 3 }, (_, i) => kill(now - 70_000 + i, p5!, p5!, 0)), // suicides: deaths, not kills
  ]);
  t.is(res.status, 200);
  t.deepEqual(res.body.rejected, []);
  const page = await board(t, a, '?limit=100');
  const by = new Map(page.players.map((p) => [p.platformId, p]));
  t.like(by.get(p1!.platformId), { kills: 2, deaths: 0, headshots: 1, kd: 2, points: 4, meanKillDistance: 175.5, playMinutes: 2 });
  t.like(by.get(p2!.platformId), { kills: 0, deaths: 2, headshots: 0, kd: 0, points: 0, meanKillDistance: null, playMinutes: 0 });
  t.like(by.get(p3!.platformId), { kills: 5, deaths: 3, kd: 1.67, points: 10, meanKillDistance: 30 });
  t.like(by.get(p4!.platformId), { kills: 3, deaths: 7, kd: 0.43, points: 6, meanKillDistance: 3 });
  t.like(by.get(p5!.platformId), { kills: 2, deaths: 3, kd: 0.67, points: 4, meanKillDistance: 1 });
  t.is(page.total, 5);
  t.is(by.get(p2!.platformId)!.meanKillDistance, null);
});

test('a mean kill distance is rounded to 2 decimals; a player with deaths only has null', async (t) => {
  const a = await tenant(env.deps);
  const now = env.clock.now();
  t.is(
    (
      await ingest(
        env,
        a,
        [10, 20, 40].map((d, i) => ev.kill(now - 1000 + i, 1, 2, { distance: d })),
      )
    ).status,
    200,
  );
  const page = await board(t, a);
  t.deepEqual(
    page.players.map((p) => [p.platformId, p.meanKillDistance, p.kd]),
    [
      [player(1).platformId, 23.33, 3],
      [player(2).platformId, null, 0],
    ],
  );
});

test('total counts ranked players only: heartbeats or shots alone do not rank a player', async (t) => {
  const a = await tenant(env.deps);
  const now = env.clock.now();
  t.is(
    (
      await ingest(env, a, [
        ev.presence('player.connect', now - 2000, 1),
        ev.presence('player.heartbeat', now - 1000, 1),
        ev.shots(now - 1000, 2, 10, 5),
      ])
    ).status,
    200,
  );
  t.deepEqual(await board(t, a), { total: 0, sort: 'points', players: [] });
  t.is((await ingest(env, a, [ev.kill(now - 500, 3, 3)])).status, 200); // a suicide: one death
  const page = await board(t, a, '?sort=kd');
  t.is(page.total, 1);
  t.like(page.players[0], { rank: 1, platformId: player(3).platformId, kills: 0, deaths: 1, kd: 0, meanKillDistance: null });
  // The heartbeat player becomes ranked with a kill.
  t.is((await ingest(env, a, [ev.kill(now - 400, 1, 4)])).status, 200);
  const after = await board(t, a);
  t.is(after.total, 3);
  t.deepEqual(
    after.players.map((p) => p.platformId),
    [1, 3, 4].map((n) => player(n).platformId),
  );
});

test('limit=1000 clamps to 100 for standard keys and 500 for partner keys', async (t) => {
  const a = await tenant(env.deps);
  const partner = { key: (await mintApiKey(env.deps, a.accountId, 'partner', 'partner')).key, serverId: a.serverId };
  const now = env.clock.now();
  // 550 ranked players: 250 killers (1 or 2 kills each) and 300 victims.
  const events = Array.from({ length: 300 }, (_, i) => ev.kill(now - 100_000 + i, 1000 + (i % 250), 2000 + i));
  t.is((await ingest(env, a, events)).status, 200);
  const standard = await board(t, a, '?limit=1000');
  t.is(standard.total, 550);
  t.is(standard.players.length, 100);
  const wide = await board(t, partner, '?limit=1000');
  t.is(wide.total, 550);
  t.is(wide.players.length, 500);
  t.deepEqual(wide.players.slice(0, 100), standard.players);
  t.is((await board(t, a, '?limit=101')).players.length, 100);
  t.is((await board(t, partner, '?limit=501')).players.length, 500);
  // The tail through a partner page: ranks continue from the offset.
  const tail = await board(t, partner, '?limit=1000&offset=500');
  t.is(tail.players.length, 50);
  t.deepEqual(
    tail.players.map((p) => p.rank),
    Array.from({ length: 50 }, (_, i) => 501 + i),
  );
  t.deepEqual(new Set([...wide.players, ...tail.players].map((p) => p.platformId)).size, 550);
});

test('400 BAD_REQUEST for parameters outside their range or of the wrong kind', async (t) => {
  const a = await tenant(env.deps);
  for (const query of [
    'limit=0',
    'limit=1001',
    'limit=-5',
    'offset=-1',
    'sort=foo',
    'sort=POINTS',
    'limit=abc',
    'limit=1.5',
    'offset=abc',
    'limit=5&limit=6',
    'sort=kd&sort=kills',
  ]) {
    assertError(t, await dataGet(env, a, `/servers/${a.serverId}/leaderboard?${query}`), 400, 'BAD_REQUEST', query);
  }
  // The range edges themselves are fine.
  for (const query of ['limit=1', 'limit=1000', 'offset=0', 'sort=kd', 'sort=kills']) await board(t, a, `?${query}`);
});

test('a cached page is refreshed once new kills are ingested', async (t) => {
  const a = await tenant(env.deps);
  const now = env.clock.now();
  t.is((await ingest(env, a, [ev.kill(now - 5000, 1, 2), ev.kill(now - 4000, 1, 2), ev.kill(now - 3000, 3, 2)])).status, 200);
  const first = await board(t, a);
  t.deepEqual(
    first.players.map((p) => [p.platformId, p.kills]),
    [
      [player(1).platformId, 2],
      [player(3).platformId, 1],
      [player(2).platformId, 0],
    ],
  );
  t.truthy(await env.deps.redis.hget(serverKeys(a.serverId).pages, 'lb:points:0:25'), 'the page was cached');
  t.deepEqual(await board(t, a), first, 'served again unchanged');
  const kd = await board(t, a, '?sort=kd');

  // Player 3 overtakes player 1.
  t.is((await ingest(env, a, [ev.kill(now - 2000, 3, 2), ev.kill(now - 1500, 3, 1), ev.kill(now - 1000, 3, 1)])).status, 200);
  const second = await board(t, a);
  t.deepEqual(
    second.players.map((p) => [p.platformId, p.kills, p.deaths]),
    [
      [player(3).platformId, 4, 0],
      [player(1).platformId, 2, 2],
      [player(2).platformId, 0, 4],
    ],
  );
  t.deepEqual(
    second.players.map((p) => p.rank),
    [1, 2, 3],
  );
  t.notDeepEqual(await board(t, a, '?sort=kd'), kd, 'every cached sort is dropped');
  // A change that touches only presence still drops the cache, and nothing is served stale.
  t.is((await ingest(env, a, [ev.presence('player.heartbeat', now - 500, 1, { name: 'renamed' })])).status, 200);
  t.is((await board(t, a)).players[1]!.name, 'renamed');
});

test('the page cache is bounded: distinct offsets and limits keep at most maxStoredPages pages, and its expiry is not renewed', async (t) => {
  // In-process reads kept a minute, so the walk cannot outlive them.
  const own = await testEnv({ PAGE_CACHE_MS: '60000' });
  t.teardown(own.close);
  const env = own;
  const board = async (t: ExecutionContext, a: Pick<Tenant, 'key' | 'serverId'>, query: string) => {
    const res = await dataGet(env, a, `/servers/${a.serverId}/leaderboard${query}`);
    t.is(res.status, 200, `leaderboard${query}: ${JSON.stringify(res.body).slice(0, 200)}`);
    return res.body as Page;
  };
  const a = await tenant(env.deps, 'partner'); // 600 requests a minute: room for the walk
  const now = env.clock.now();
  t.is((await ingest(env, a, [ev.kill(now - 5000, 1, 2)])).status, 200);
  const k = serverKeys(a.serverId);
  await board(t, a, '?offset=0&limit=1');
  const firstTtl = await env.deps.redis.pttl(k.pages);
  t.true(firstTtl > 0);
  for (let offset = 1; offset <= maxStoredPages + 40; offset++) await board(t, a, `?offset=${offset}&limit=${1 + (offset % 3)}`);
  t.is(await env.deps.redis.hlen(k.pages), maxStoredPages, 'the hash stops growing at the cap');
  t.true((await env.deps.redis.pttl(k.pages)) <= firstTtl, 'the expiry set on creation is not extended');
  const local = env.deps.caches.serverReads.get(a.serverId);
  t.truthy(local, 'the in-process copy is there');
  t.true(local!.values.size <= maxStoredPages + 1, 'the in-process copy is bounded too');
  // Pages past the cap are still served correctly.
  t.deepEqual(
    (await board(t, a, '?offset=0&limit=25')).players.map((p) => p.platformId),
    [player(1).platformId, player(2).platformId],
  );
});
