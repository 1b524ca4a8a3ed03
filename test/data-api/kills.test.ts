import { randomUUID } from 'node:crypto';
import test from 'ava';
import type { ExecutionContext } from 'ava';
import { mintApiKey } from '../../src/accounts/api-key.ts';
import { testEnv } from '../helpers/env.ts';
import type { TestEnv } from '../helpers/env.ts';
import { assertSchema, dataGet, ev, ingest, player, tenant } from '../helpers/seed.ts';
import type { Tenant } from '../helpers/seed.ts';
import { assertError } from '../helpers/data-api.ts';

let env: TestEnv;
test.before(async () => {
  env = await testEnv();
});
test.after.always(async () => {
  await env?.close();
});

interface Kill {
  ts: string;
  killerPlatformId: string;
  killerName: string;
  victimPlatformId: string;
  victimName: string;
  weapon: string;
  distance: number;
  isHeadshot: boolean;
  hitZone: string | null;
}
interface KillPage {
  kills: Kill[];
  nextCursor: string | null;
}

async function feed(t: ExecutionContext, a: Pick<Tenant, 'key' | 'serverId'>, query = ''): Promise<KillPage> {
  const res = await dataGet(env, a, `/servers/${a.serverId}/kills${query}`);
  t.is(res.status, 200, `kills${query}: ${JSON.stringify(res.body).slice(0, 200)}`);
  assertSchema(t, 'killfeed-page.json', res.body);
  return res.body as KillPage;
}

/** Follows nextCursor as `before` to the end; checks every page on the way. */
async function allPages(
  t: ExecutionContext,
  a: Pick<Tenant, 'key' | 'serverId'>,
  limit: number,
): Promise<{ kills: Kill[]; pages: KillPage[] }> {
  const pages: KillPage[] = [];
  let before: string | null | undefined;
  do {
    const page = await feed(t, a, `?limit=${limit}${before ? `&before=${encodeURIComponent(before)}` : ''}`);
    t.true(page.kills.length <= limit, 'a page never exceeds limit');
    if (page.nextCursor !== null) {
      t.is(page.kills.length, limit, 'only the last page may be short');
      t.is(page.nextCursor, page.kills.at(-1)!.ts, 'the cursor is the ts of the last kill of the page');
    }
    pages.push(page);
    before = page.nextCursor;
    if (pages.length > 1000) throw new Error('paging does not end');
  } while (before !== null);
  return { kills: pages.flatMap((p) => p.kills), pages };
}

const micros = (ts: string) => {
  const match = /\.(\d+)Z$/.exec(ts);
  return BigInt(Date.parse(ts)) * 1000n + BigInt((match?.[1] ?? '').padEnd(6, '0').slice(3, 6));
};
/** Asserts strictly descending timestamps, to the microsecond. */
function assertNewestFirst(t: ExecutionContext, kills: Kill[]): void {
  for (let i = 1; i < kills.length; i++) t.true(micros(kills[i - 1]!.ts) > micros(kills[i]!.ts), `kill ${i} is older than kill ${i - 1}`);
}

test('newest first, with every field of the kill', async (t) => {
  const a = await tenant(env.deps);
  const now = env.clock.now();
  t.is(
    (
      await ingest(env, a, [
        ev.kill(now - 3000, 1, 2, { weapon: 'Mosin', distance: 312.5, isHeadshot: true, hitZone: 'Head' }),
        ev.kill(now - 1000, 3, 1, { weapon: 'KA-M', distance: 12 }),
        ev.kill(now - 2000, 2, 3),
      ])
    ).status,
    200,
  );
  const page = await feed(t, a);
  t.is(page.nextCursor, null);
  t.deepEqual(page.kills, [
    {
      ts: new Date(now - 1000).toISOString(),
      killerPlatformId: player(3).platformId,
      killerName: 'player3',
      victimPlatformId: player(1).platformId,
      victimName: 'player1',
      weapon: 'KA-M',
      distance: 12,
      isHeadshot: false,
      hitZone: null,
    },
    {
      ts: new Date(now - 2000).toISOString(),
      killerPlatformId: player(2).platformId,
      killerName: 'player2',
      victimPlatformId: player(3).platformId,
      victimName: 'player3',
      weapon: 'M4A1',
      distance: 100,
      isHeadshot: false,
      hitZone: null,
    },
    {
      ts: new Date(now - 3000).toISOString(),
      killerPlatformId: player(1).platformId,
      killerName: 'player1',
      victimPlatformId: player(2).platformId,
      victimName: 'player2',
      weapon: 'Mosin',
      distance: 312.5,
      isHeadshot: true,
      hitZone: 'Head',
    },
  ]);
});

test('an empty killfeed has no kills and a null cursor', async (t) => {
  const a = await tenant(env.deps);
  t.deepEqual(await feed(t, a), { kills: [], nextCursor: null });
});

test('the default limit is 50', async (t) => {
  const a = await tenant(env.deps);
  const now = env.clock.now();
  t.is(
    (
      await ingest(
        env,
        a,
        Array.from({ length: 60 }, (_, i) => ev.kill(now - 60_000 + i * 100, 1, 2, { weapon: `w${i}` })),
      )
    ).status,
    200,
  );
  const page = await feed(t, a);
  t.is(page.kills.length, 50);
  t.deepEqual(
    page.kills.map((k) => k.weapon),
    Array.from({ length: 50 }, (_, i) => `w${59 - i}`),
  );
  t.is(page.nextCursor, page.kills[49]!.ts);
  const rest = await feed(t, a, `?before=${encodeURIComponent(page.nextCursor!)}`);
  t.deepEqual(
    rest.kills.map((k) => k.weapon),
    Array.from({ length: 10 }, (_, i) => `w${9 - i}`),
  );
  t.is(rest.nextCursor, null);
});

test('paging over 300 kills, most sharing a millisecond, returns each kill exactly once', async (t) => {
  const a = await tenant(env.deps, 'partner');
  const now = env.clock.now();
  const sameMs = now - 10_000;
  // 130 kills in one millisecond, sent in two batches (so they also collide with stored ones),
  // 100 in the next millisecond, and 70 spread over other milliseconds.
  const kill = (i: number, ms: number) => ev.kill(ms, 1 + (i % 7), 20 + (i % 11), { weapon: `k${i}` });
  const batches = [
    Array.from({ length: 80 }, (_, i) => kill(i, sameMs)),
    [...Array.from({ length: 50 }, (_, i) => kill(80 + i, sameMs)), ...Array.from({ length: 100 }, (_, i) => kill(130 + i, sameMs + 1))],
    Array.from({ length: 70 }, (_, i) => kill(230 + i, sameMs - 5000 + (i % 10))),
  ];
  for (const batch of batches) {
    const res = await ingest(env, a, batch);
    t.is(res.status, 200);
    t.is(res.body.accepted, batch.length);
  }
  const everyKill = Array.from({ length: 300 }, (_, i) => `k${i}`).sort();
  for (const limit of [7, 50, 100, 300, 299, 301, 1]) {
    const { kills, pages } = await allPages(t, a, limit);
    t.is(kills.length, 300, `limit ${limit}: all kills`);
    t.deepEqual(kills.map((k) => k.weapon).sort(), everyKill, `limit ${limit}: each kill exactly once`);
    assertNewestFirst(t, kills);
    t.is(pages.length, Math.ceil(300 / limit), `limit ${limit}: pages`);
    t.is(pages.at(-1)!.nextCursor, null);
  }
  // The kill timestamps still fall in the millisecond the game server reported.
  const { kills } = await allPages(t, a, 300);
  const ms = new Map(kills.map((k) => [k.weapon, Date.parse(k.ts)]));
  for (let i = 0; i < 130; i++) t.is(ms.get(`k${i}`), sameMs);
  for (let i = 130; i < 230; i++) t.is(ms.get(`k${i}`), sameMs + 1);
});

test('nextCursor is null exactly on the last page, also when the last page is exactly full', async (t) => {
  const a = await tenant(env.deps);
  const now = env.clock.now();
  t.is(
    (
      await ingest(
        env,
        a,
        Array.from({ length: 20 }, (_, i) => ev.kill(now - 5000, 1, 2, { weapon: `k${i}` })),
      )
    ).status,
    200,
  );
  const first = await feed(t, a, '?limit=10');
  t.is(first.kills.length, 10);
  t.not(first.nextCursor, null);
  const last = await feed(t, a, `?limit=10&before=${encodeURIComponent(first.nextCursor!)}`);
  t.is(last.kills.length, 10);
  t.is(last.nextCursor, null, 'the exactly full last page has no cursor');
  t.deepEqual(await feed(t, a, '?limit=20'), { kills: [...first.kills, ...last.kills], nextCursor: null });
  const one = await feed(t, a, '?limit=19');
  t.is(one.nextCursor, one.kills[18]!.ts);
});

test('before is strictly before, to the microsecond', async (t) => {
  const a = await tenant(env.deps);
  const now = env.clock.now();
  const ms = now - 7000;
  t.is(
    (
      await ingest(env, a, [
        ...Array.from({ length: 5 }, (_, i) => ev.kill(ms, 1, 2, { weapon: `same${i}` })),
        ev.kill(ms - 1, 1, 2, { weapon: 'earlier' }),
        ev.kill(ms + 1, 1, 2, { weapon: 'later' }),
      ])
    ).status,
    200,
  );
  const all = await feed(t, a);
  t.is(all.kills.length, 7);
  t.deepEqual(
    all.kills.map((k) => k.weapon),
    ['later', 'same4', 'same3', 'same2', 'same1', 'same0', 'earlier'],
  );
  // Before a kill's own ts: that kill is left out, the next older one comes first.
  for (let i = 0; i < all.kills.length; i++) {
    const page = await feed(t, a, `?before=${encodeURIComponent(all.kills[i]!.ts)}`);
    t.deepEqual(
      page.kills.map((k) => k.weapon),
      all.kills.slice(i + 1).map((k) => k.weapon),
    );
  }
  // At millisecond precision: the millisecond itself is not before itself.
  const before = await feed(t, a, `?before=${new Date(ms).toISOString()}`);
  t.deepEqual(
    before.kills.map((k) => k.weapon),
    ['earlier'],
  );
  // Any ISO form is accepted, e.g. with an offset.
  const offset = await feed(t, a, `?before=${encodeURIComponent(new Date(ms + 1).toISOString().replace('Z', '+00:00'))}`);
  t.is(offset.kills.length, 6);
  t.deepEqual(await feed(t, a, `?before=${new Date(ms - 1).toISOString()}`), { kills: [], nextCursor: null });
});

test('the default before is now on the service clock', async (t) => {
  const a = await tenant(env.deps);
  const now = env.clock.now();
  // 30 s ahead of the clock is accepted as reported (within the 60 s skew), but not yet before now.
  t.is(
    (await ingest(env, a, [ev.kill(now - 1000, 1, 2, { weapon: 'past' }), ev.kill(now + 30_000, 1, 2, { weapon: 'ahead' })])).status,
    200,
  );
  t.deepEqual(
    (await feed(t, a)).kills.map((k) => k.weapon),
    ['past'],
  );
  t.deepEqual(
    (await feed(t, a, `?before=${new Date(now + 60_000).toISOString()}`)).kills.map((k) => k.weapon),
    ['ahead', 'past'],
  );
});

test('400 BAD_REQUEST for before=garbage and limits outside 1..1000', async (t) => {
  const a = await tenant(env.deps);
  for (const query of [
    'before=garbage',
    'before=2026-13-45T00:00:00Z',
    'before=yesterday',
    'before=1732270000000',
    'limit=0',
    'limit=1001',
    'limit=-1',
    'limit=abc',
    'limit=2.5',
    'limit=1&limit=2',
  ]) {
    assertError(t, await dataGet(env, a, `/servers/${a.serverId}/kills?${query}`), 400, 'BAD_REQUEST', query);
  }
  for (const query of ['limit=1', 'limit=1000', `before=${new Date(env.clock.now()).toISOString()}`]) await feed(t, a, `?${query}`);
});

test('limit is clamped to the tier cap: 100 standard, 500 partner', async (t) => {
  const a = await tenant(env.deps);
  const partner = { key: (await mintApiKey(env.deps, a.accountId, 'partner', 'partner')).key, serverId: a.serverId };
  const now = env.clock.now();
  const events = Array.from({ length: 600 }, (_, i) => ({
    ...ev.kill(now - 100_000 + Math.floor(i / 3), 1, 2),
    id: randomUUID(),
    weapon: `k${i}`,
  }));
  t.is((await ingest(env, a, events)).status, 200);
  const standard = await feed(t, a, '?limit=1000');
  t.is(standard.kills.length, 100);
  t.is(standard.nextCursor, standard.kills[99]!.ts);
  t.is((await feed(t, a, '?limit=101')).kills.length, 100);
  const wide = await feed(t, partner, '?limit=1000');
  t.is(wide.kills.length, 500);
  t.is(wide.nextCursor, wide.kills[499]!.ts);
  t.deepEqual(wide.kills.slice(0, 100), standard.kills);
  const rest = await feed(t, partner, `?limit=1000&before=${encodeURIComponent(wide.nextCursor!)}`);
  t.is(rest.kills.length, 100);
  t.is(rest.nextCursor, null);
  t.is(new Set([...wide.kills, ...rest.kills].map((k) => k.weapon)).size, 600);
});

test('the newest page is cached until the next batch: a new kill shows at once', async (t) => {
  const a = await tenant(env.deps);
  const now = env.clock.now();
  t.is((await ingest(env, a, [ev.kill(now - 5000, 1, 2)])).status, 200);
  t.is((await feed(t, a, '?limit=5')).kills.length, 1);
  t.truthy(await env.deps.redis.hget(`{srv:${a.serverId}}:pages`, 'kills:5'), 'the newest page is kept');
  t.is((await ingest(env, a, [ev.kill(now - 1000, 3, 4)])).status, 200);
  const page = await feed(t, a, '?limit=5');
  t.deepEqual(
    page.kills.map((k) => k.killerPlatformId),
    [player(3).platformId, player(1).platformId],
  );
});

test.serial('a kill stamped ahead of now is not on the newest page yet, and appears once its time has come', async (t) => {
  const a = await tenant(env.deps);
  const now = env.clock.now();
  t.is((await ingest(env, a, [ev.kill(now - 5000, 1, 2), ev.kill(now + 30_000, 3, 4)])).status, 200);
  t.is((await feed(t, a, '?limit=5')).kills.length, 1);
  t.falsy(await env.deps.redis.hget(`{srv:${a.serverId}}:pages`, 'kills:5'), 'a page that will change by itself is not kept');
  env.clock.advance(31_000);
  try {
    t.is((await feed(t, a, '?limit=5')).kills.length, 2);
  } finally {
    env.clock.set(now);
  }
});
