import { randomUUID } from 'node:crypto';
import test from 'ava';
import { mintApiKey, revokeApiKey } from '../../src/accounts/api-key.ts';
import { registerServer } from '../../src/servers/server.ts';
import { testEnv } from '../helpers/env.ts';
import type { TestEnv } from '../helpers/env.ts';
import { assertSchema, dataGet, ev, ingest, tenant } from '../helpers/seed.ts';
import type { Tenant } from '../helpers/seed.ts';
import { assertError, assertRateLimitHeaders, perServerPaths } from '../helpers/data-api.ts';

// Three worlds: the defaults; tiny per-minute rates (fast 429 checks); the Data API switched off.
// Tests that move a clock or flip the runtime switch are serial (AVA runs them first).
let env: TestEnv;
let small: TestEnv;
let disabled: TestEnv;
test.before(async () => {
  [env, small, disabled] = await Promise.all([
    testEnv(),
    testEnv({ RATE_DATA_STANDARD: '3', RATE_DATA_PARTNER: '5' }),
    testEnv({ DATA_API_ENABLED: 'false' }),
  ]);
});
test.after.always(async () => {
  await Promise.all([env?.close(), small?.close(), disabled?.close()]);
});

const minute = 60_000;
const schemaOfPath = (serverId: string): [string, string][] => [
  ['/servers', 'server-list.json'],
  [`/servers/${serverId}`, 'server-status.json'],
  [`/servers/${serverId}/players`, 'online-players.json'],
  [`/servers/${serverId}/leaderboard`, 'leaderboard-page.json'],
  [`/servers/${serverId}/kills`, 'killfeed-page.json'],
  [`/servers/${serverId}/bans`, 'ban-list.json'],
];
const raw = (e: TestEnv, path: string) => e.request.get(`/api/v1/data${path}`);

/** Moves the clock to the start of the next rate window, so a burst sits in one window. */
const toNextWindow = (e: TestEnv) => e.clock.set(Math.ceil((e.clock.now() + 1) / minute) * minute);

test('the key works as Authorization: Bearer and as X-Service-Api-Key on every route', async (t) => {
  const a = await tenant(env.deps);
  for (const [path, schema] of schemaOfPath(a.serverId)) {
    const bearer = await raw(env, path).set('Authorization', `Bearer ${a.key}`);
    t.is(bearer.status, 200, `${path} with Bearer`);
    assertSchema(t, schema, bearer.body);
    assertRateLimitHeaders(t, bearer, 60);
    const header = await raw(env, path).set('X-Service-Api-Key', a.key);
    t.is(header.status, 200, `${path} with X-Service-Api-Key`);
    assertSchema(t, schema, header.body);
    assertRateLimitHeaders(t, header, 60);
    t.deepEqual(header.body, bearer.body);
  }
});

test('a missing key answers 401 UNAUTHORIZED on every route', async (t) => {
  const a = await tenant(env.deps);
  for (const [path] of schemaOfPath(a.serverId)) assertError(t, await raw(env, path), 401, 'UNAUTHORIZED', path);
});

test('unknown and malformed keys answer 401 UNAUTHORIZED', async (t) => {
  const a = await tenant(env.deps);
  const path = `/servers/${a.serverId}`;
  const cases: [string, Record<string, string>][] = [
    ['unknown key, Bearer', { Authorization: 'Bearer svc_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' }],
    ['unknown key, header', { 'X-Service-Api-Key': 'svc_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' }],
    ['key with one character changed', { 'X-Service-Api-Key': `${a.key.slice(0, -1)}${a.key.endsWith('A') ? 'B' : 'A'}` }],
    ['key without its prefix', { 'X-Service-Api-Key': a.key.slice('svc_'.length) }],
    ['Basic scheme', { Authorization: `Basic ${Buffer.from(`user:${a.key}`).toString('base64')}` }],
    ['raw key without scheme', { Authorization: a.key }],
    ['Bearer without a token', { Authorization: 'Bearer ' }],
    ['Bearer with two tokens', { Authorization: `Bearer ${a.key} extra` }],
    ['empty header', { 'X-Service-Api-Key': '' }],
    ['an ingest token instead of a key', { Authorization: `Bearer ${a.token}` }],
    ['a very long key', { 'X-Service-Api-Key': `svc_${'A'.repeat(5000)}` }],
  ];
  for (const [what, headers] of cases) assertError(t, await raw(env, path).set(headers), 401, 'UNAUTHORIZED', what);
});

test('a revoked key answers 401 at once, also right after it was used (and cached)', async (t) => {
  const a = await tenant(env.deps);
  const other = await mintApiKey(env.deps, a.accountId, 'second', 'standard');
  t.is((await dataGet(env, a, '/servers')).status, 200);
  t.is((await raw(env, '/servers').set('X-Service-Api-Key', a.key)).status, 200);
  t.true(await revokeApiKey(env.deps, a.accountId, a.keyId));
  assertError(t, await dataGet(env, a, '/servers'), 401, 'UNAUTHORIZED', 'Bearer');
  assertError(t, await raw(env, '/servers').set('X-Service-Api-Key', a.key), 401, 'UNAUTHORIZED', 'header');
  for (const path of perServerPaths(a.serverId)) assertError(t, await dataGet(env, a, path), 401, 'UNAUTHORIZED', path);
  // The account's other key is untouched.
  const ok = await dataGet(env, { key: other.key }, '/servers');
  t.is(ok.status, 200);
  assertSchema(t, 'server-list.json', ok.body);
});

test("a key never sees another account's server: 404 NOT_FOUND on all five routes, never 403", async (t) => {
  const [a, b] = await Promise.all([tenant(env.deps), tenant(env.deps, 'partner')]);
  const now = env.clock.now();
  t.is(
    (await ingest(env, b, [ev.status(now - 1000, { players: 1 }), ev.presence('player.heartbeat', now - 900, 1), ev.kill(now - 800, 1, 2)]))
      .status,
    200,
  );
  for (const [viewer, owner] of [
    [a, b],
    [b, a],
  ] as const) {
    for (const path of perServerPaths(owner.serverId)) {
      assertError(t, await dataGet(env, viewer, path), 404, 'NOT_FOUND', path);
      assertError(t, await raw(env, path).set('X-Service-Api-Key', viewer.key), 404, 'NOT_FOUND', path);
    }
    // Also with valid query parameters, and with the id in upper case.
    assertError(t, await dataGet(env, viewer, `/servers/${owner.serverId}/leaderboard?sort=kills&limit=5`), 404, 'NOT_FOUND');
    assertError(t, await dataGet(env, viewer, `/servers/${owner.serverId}/kills?limit=5`), 404, 'NOT_FOUND');
    assertError(t, await dataGet(env, viewer, `/servers/${owner.serverId}/bans?active=true`), 404, 'NOT_FOUND');
    assertError(t, await dataGet(env, viewer, `/servers/${owner.serverId.toUpperCase()}`), 404, 'NOT_FOUND');
  }
  // The owner does see it.
  const own = await dataGet(env, b, `/servers/${b.serverId}`);
  t.is(own.status, 200);
  assertSchema(t, 'server-status.json', own.body);
});

test("the list shows only the servers of the key's own account", async (t) => {
  const [a, b] = await Promise.all([tenant(env.deps), tenant(env.deps)]);
  const second = await registerServer(env.deps, a.accountId, { name: 'a two' });
  await registerServer(env.deps, b.accountId, { name: 'b two' });
  const listA = await dataGet(env, a, '/servers');
  t.is(listA.status, 200);
  assertSchema(t, 'server-list.json', listA.body);
  t.deepEqual((listA.body.servers as { id: string }[]).map((s) => s.id).sort(), [a.serverId, second.server.id].sort());
  const listB = await dataGet(env, b, '/servers');
  t.is(listB.status, 200);
  assertSchema(t, 'server-list.json', listB.body);
  t.is(listB.body.servers.length, 2);
  t.false((listB.body.servers as { id: string }[]).some((s) => s.id === a.serverId || s.id === second.server.id));
});

test('a serverId that is not a UUID, or an unknown UUID, answers 404 on all five routes', async (t) => {
  const a = await tenant(env.deps);
  for (const id of [
    'not-a-uuid',
    '12345',
    `${a.serverId}x`,
    a.serverId.replaceAll('-', ''),
    'zzzzzzzz-zzzz-zzzz-zzzz-zzzzzzzzzzzz',
    randomUUID(),
    '%20',
  ]) {
    for (const path of perServerPaths(id)) assertError(t, await dataGet(env, a, path), 404, 'NOT_FOUND', path);
  }
});

test('an incoming sane X-Request-Id is echoed in the header and the error body', async (t) => {
  const res = await raw(env, '/servers').set('X-Request-Id', 'client-req-42');
  assertError(t, res, 401, 'UNAUTHORIZED');
  t.is(res.body.requestId, 'client-req-42');
  const insane = await raw(env, '/servers').set('X-Request-Id', 'no spaces allowed <script>');
  assertError(t, insane, 401, 'UNAUTHORIZED');
  t.not(insane.body.requestId, 'no spaces allowed <script>');
});

test.serial('standard tier: 60 requests a minute pass, request 61 answers 429 RATE_LIMITED; the window slides', async (t) => {
  const a = await tenant(env.deps);
  toNextWindow(env);
  const remaining: number[] = [];
  for (let i = 0; i < 60; i++) {
    const res = await dataGet(env, a, '/servers');
    t.is(res.status, 200, `request ${i + 1}`);
    assertSchema(t, 'server-list.json', res.body);
    assertRateLimitHeaders(t, res, 60);
    remaining.push(Number(res.headers['ratelimit-remaining']));
  }
  t.deepEqual(
    remaining,
    Array.from({ length: 60 }, (_, i) => 59 - i),
  );
  const refused = await dataGet(env, a, '/servers');
  assertError(t, refused, 429, 'RATE_LIMITED', 'request 61');
  t.is(refused.body.retryAfter, 60);
  t.is(refused.headers['retry-after'], '60');
  assertRateLimitHeaders(t, refused, 60);
  t.is(refused.headers['ratelimit-remaining'], '0');
  // Every route counts against the same key.
  for (const path of perServerPaths(a.serverId)) assertError(t, await dataGet(env, a, path), 429, 'RATE_LIMITED', path);
  // A minute later, at the same point of the next window, the burst still fills the sliding window.
  env.clock.advance(minute);
  assertError(t, await dataGet(env, a, '/servers'), 429, 'RATE_LIMITED', 'one minute later');
  // Another key of the same account has its own budget.
  const other = await mintApiKey(env.deps, a.accountId, 'other', 'standard');
  t.is((await dataGet(env, { key: other.key }, '/servers')).status, 200);
  // Two full minutes after the burst, requests pass again.
  env.clock.advance(minute);
  const again = await dataGet(env, a, '/servers');
  t.is(again.status, 200);
  assertSchema(t, 'server-list.json', again.body);
  assertRateLimitHeaders(t, again, 60);
});

test('partner keys carry the partner rate of 600 by default', async (t) => {
  const p = await tenant(env.deps, 'partner');
  const res = await dataGet(env, p, '/servers');
  t.is(res.status, 200);
  assertSchema(t, 'server-list.json', res.body);
  assertRateLimitHeaders(t, res, 600);
});

test.serial('each tier has its configured rate (RATE_DATA_STANDARD, RATE_DATA_PARTNER)', async (t) => {
  const [s, p] = await Promise.all([tenant(small.deps, 'standard'), tenant(small.deps, 'partner')]);
  toNextWindow(small);
  for (const [who, rate] of [
    [s, 3],
    [p, 5],
  ] as const) {
    for (let i = 0; i < rate; i++) {
      const res = await dataGet(small, who, `/servers/${who.serverId}`);
      t.is(res.status, 200);
      assertSchema(t, 'server-status.json', res.body);
      assertRateLimitHeaders(t, res, rate);
      t.is(res.headers['ratelimit-remaining'], String(rate - 1 - i));
    }
    const refused = await dataGet(small, who, `/servers/${who.serverId}`);
    assertError(t, refused, 429, 'RATE_LIMITED');
    t.is(refused.body.retryAfter, 60);
    t.is(refused.headers['retry-after'], '60');
  }
  small.clock.advance(2 * minute);
  for (const who of [s, p]) t.is((await dataGet(small, who, '/servers')).status, 200);
});

test.serial('503 DATA_API_DISABLED when the operator switches the Data API off at runtime', async (t) => {
  const a = await tenant(env.deps);
  env.deps.runtime.dataApiEnabled = false;
  try {
    for (const [path] of schemaOfPath(a.serverId)) {
      assertError(t, await dataGet(env, a, path), 503, 'DATA_API_DISABLED', path);
    }
    assertError(t, await raw(env, '/servers'), 503, 'DATA_API_DISABLED', 'without a key');
  } finally {
    env.deps.runtime.dataApiEnabled = true;
  }
  const back = await dataGet(env, a, '/servers');
  t.is(back.status, 200);
  assertSchema(t, 'server-list.json', back.body);
});

test('503 DATA_API_DISABLED on every /data route with DATA_API_ENABLED=false; the rest still answers', async (t) => {
  const a = await tenant(disabled.deps);
  for (const [path] of schemaOfPath(a.serverId)) {
    assertError(t, await dataGet(disabled, a, path), 503, 'DATA_API_DISABLED', path);
    assertError(t, await raw(disabled, path).set('X-Service-Api-Key', a.key), 503, 'DATA_API_DISABLED', path);
  }
  assertError(t, await raw(disabled, '/servers'), 503, 'DATA_API_DISABLED', 'without a key');
  assertError(t, await raw(disabled, '/anything/else'), 503, 'DATA_API_DISABLED', 'any path under /data');
  const doc = await disabled.request.get('/api/v1/openapi.json');
  t.is(doc.status, 200);
  const ingested = await ingest(disabled, a, [ev.status(disabled.clock.now())]);
  t.is(ingested.status, 200);
  assertSchema(t, 'ingest-result.json', ingested.body);
});

test('every error carries a requestId matching X-Request-Id (404 for an unknown /data path too)', async (t) => {
  const a: Tenant = await tenant(env.deps);
  const res = await dataGet(env, a, '/nothing-here');
  assertError(t, res, 404, 'NOT_FOUND');
  const bad = await dataGet(env, a, `/servers/${a.serverId}/leaderboard?limit=0`);
  assertError(t, bad, 400, 'BAD_REQUEST');
  t.not(res.body.requestId, bad.body.requestId);
});
