import { randomUUID } from 'node:crypto';
import test from 'ava';
import type { ExecutionContext } from 'ava';
import { revokeServer, rotateIngestToken, registerServer } from '../../src/servers/server.ts';
import { testEnv } from '../helpers/env.ts';
import type { TestEnv } from '../helpers/env.ts';
import { assertSchema, dataGet, ev, ingest, player, tenant } from '../helpers/seed.ts';
import type { Tenant } from '../helpers/seed.ts';
import { assertError, assertRateLimitHeaders } from '../helpers/data-api.ts';
import { pgDump, redisDump } from '../helpers/stores.ts';
import type { LeaderboardEntry as Entry } from '../../src/stats/ranking.ts';

// No test here moves the clock of the shared environment: each reads env.clock.now() once.
// Tests that need their own limits (body size, rate) build their own environment.
let env: TestEnv;
test.before(async () => {
  env = await testEnv();
});
test.after.always(async () => {
  await env?.close();
});

const iso = (ms: number) => new Date(ms).toISOString();
const eventsPath = (serverId: string) => `/api/servers/${serverId}/events`;

async function accepted(t: ExecutionContext, a: Pick<Tenant, 'serverId' | 'token'>, events: unknown[]) {
  const res = await ingest(env, a, events);
  t.is(res.status, 200, JSON.stringify(res.body).slice(0, 300));
  assertSchema(t, 'ingest-result.json', res.body);
  return res.body as { accepted: number; duplicates: number; rejected: { index: number; error: string }[] };
}

async function leaderboard(t: ExecutionContext, a: Tenant): Promise<{ total: number; players: Entry[] }> {
  const res = await dataGet(env, a, `/servers/${a.serverId}/leaderboard?limit=100`);
  t.is(res.status, 200);
  assertSchema(t, 'leaderboard-page.json', res.body);
  return res.body;
}

async function killfeed(
  t: ExecutionContext,
  a: Tenant,
  query = 'limit=100',
): Promise<{ kills: { ts: string; killerPlatformId: string; victimPlatformId: string }[]; nextCursor: string | null }> {
  const res = await dataGet(env, a, `/servers/${a.serverId}/kills?${query}`);
  t.is(res.status, 200);
  assertSchema(t, 'killfeed-page.json', res.body);
  return res.body;
}

async function serverStatus(t: ExecutionContext, a: Tenant) {
  const res = await dataGet(env, a, `/servers/${a.serverId}`);
  t.is(res.status, 200);
  assertSchema(t, 'server-status.json', res.body);
  return res.body as Record<string, unknown>;
}

const byId = (players: Entry[]) => Object.fromEntries(players.map((p) => [p.platformId, p]));

async function storedKills(a: Tenant): Promise<{ us: number; killer: string; victim: string }[]> {
  const { rows } = await env.deps.db.query<{ us: number; killer: string; victim: string }>(
    `SELECT (extract(epoch FROM ts) * 1000000)::int8 AS us, killer_platform_id AS killer, victim_platform_id AS victim
     FROM kills WHERE server_id = $1 ORDER BY ts`,
    [a.serverId],
  );
  return rows;
}

// --- the answer and idempotency -------------------------------------------------------------

test('a batch answers { accepted, duplicates, rejected }', async (t) => {
  const a = await tenant(env.deps);
  const now = env.clock.now();
  const body = await accepted(t, a, [
    ev.status(now - 9000, { map: 'chernarusplus' }),
    { id: randomUUID(), type: 'server.started', ts: now - 8000 },
    ev.presence('player.connect', now - 7000, 1),
    ev.presence('player.heartbeat', now - 6000, 1),
    ev.kill(now - 5000, 1, 2),
    ev.shots(now - 4000, 1, 10, 4),
    ev.presence('player.disconnect', now - 3000, 1),
  ]);
  t.deepEqual(body, { accepted: 7, duplicates: 0, rejected: [] });
});

test('a re-sent batch answers accepted 0, duplicates = its size, and counts nothing twice', async (t) => {
  const a = await tenant(env.deps);
  const now = env.clock.now();
  const batch = [
    ev.presence('player.connect', now - 60_000, 1),
    ev.presence('player.connect', now - 60_000, 2),
    ev.kill(now - 50_000, 1, 2, { distance: 120, isHeadshot: true }),
    ev.kill(now - 40_000, 1, 2, { distance: 80 }),
    ev.kill(now - 30_000, 2, 1, { distance: 10 }),
    ev.shots(now - 20_000, 1, 30, 12),
    ev.presence('player.heartbeat', now - 10_000, 1),
    ev.status(now - 5000, { players: 2 }),
  ];
  t.deepEqual(await accepted(t, a, batch), { accepted: 8, duplicates: 0, rejected: [] });
  const board = await leaderboard(t, a);
  const feed = await killfeed(t, a);
  t.is(board.total, 2);
  t.like(byId(board.players), {
    [player(1).platformId]: { rank: 1, kills: 2, deaths: 1, headshots: 1, points: 4, kd: 2, meanKillDistance: 100 },
    [player(2).platformId]: { rank: 2, kills: 1, deaths: 2, headshots: 0, points: 2, kd: 0.5, meanKillDistance: 10 },
  });
  t.is(feed.kills.length, 3);
  const shots = async () =>
    (
      await env.deps.db.query('SELECT shots_fired, shots_hit FROM server_players WHERE server_id = $1 AND platform_id = $2', [
        a.serverId,
        player(1).platformId,
      ])
    ).rows[0];

  for (let attempt = 0; attempt < 2; attempt++) {
    t.deepEqual(await accepted(t, a, batch), { accepted: 0, duplicates: batch.length, rejected: [] }, `re-send ${attempt + 1}`);
  }
  // Re-sent in another order and with the ids in upper case: still the same events.
  const shuffled = [...batch].reverse().map((e) => ({ ...e, id: String(e.id).toUpperCase() }));
  t.deepEqual(await accepted(t, a, shuffled), { accepted: 0, duplicates: batch.length, rejected: [] });

  t.deepEqual(await leaderboard(t, a), board);
  t.deepEqual(await killfeed(t, a), feed);
  t.is((await storedKills(a)).length, 3);
  t.deepEqual(await shots(), { shots_fired: 30, shots_hit: 12 });

  // A batch mixing sent and new events counts only the new ones.
  const fresh = ev.kill(now - 1000, 1, 2, { distance: 100 });
  t.deepEqual(await accepted(t, a, [batch[2], fresh, batch[4]]), { accepted: 1, duplicates: 2, rejected: [] });
  const after = byId((await leaderboard(t, a)).players);
  t.is(after[player(1).platformId]!.kills, 3);
  t.is(after[player(2).platformId]!.deaths, 3);
  t.is((await killfeed(t, a)).kills.length, 4);
});

test('duplicate ids inside one batch count once', async (t) => {
  const a = await tenant(env.deps);
  const now = env.clock.now();
  const kill = ev.kill(now - 5000, 1, 2);
  const shots = ev.shots(now - 4000, 1, 10, 5);
  const body = await accepted(t, a, [kill, kill, shots, { ...kill }, shots, ev.kill(now - 3000, 3, 1)]);
  t.deepEqual(body, { accepted: 3, duplicates: 3, rejected: [] });
  const players = byId((await leaderboard(t, a)).players);
  t.like(players[player(1).platformId], { kills: 1, deaths: 1 });
  t.like(players[player(2).platformId], { kills: 0, deaths: 1 });
  t.like(players[player(3).platformId], { kills: 1, deaths: 0 });
  t.is((await killfeed(t, a)).kills.length, 2);
  t.is((await storedKills(a)).length, 2);
  const { rows } = await env.deps.db.query('SELECT shots_fired, shots_hit FROM server_players WHERE server_id = $1 AND platform_id = $2', [
    a.serverId,
    player(1).platformId,
  ]);
  t.deepEqual(rows, [{ shots_fired: 10, shots_hit: 5 }]);
});

// --- bad events ------------------------------------------------------------------------------

test('a partly bad batch keeps every good event and reports each bad one with its index', async (t) => {
  const a = await tenant(env.deps);
  const now = env.clock.now();
  const killWithoutWeapon = ev.kill(now - 9000, 5, 6);
  delete killWithoutWeapon.weapon;
  const withoutType = ev.status(now - 9000);
  delete withoutType.type;
  const events = [
    ev.kill(now - 10_000, 1, 2, { weapon: 'AKM', distance: 250 }), // 0 good
    { id: randomUUID(), type: 'player.teleport', ts: now - 9000, ...player(7) }, // 1 unknown type
    killWithoutWeapon, // 2 missing field
    { ...ev.presence('player.connect', now - 9000, 8), id: 'not-a-uuid' }, // 3 non-UUID id
    ev.kill(now - 9000, 5, 6, { distance: 'far' }), // 4 wrong type
    ev.shots(now - 9000, 5, 10, 11), // 5 hits > fired
    ev.shots(now - 8000, 1, 40, 10), // 6 good
    ev.status(Date.UTC(1999, 11, 31, 23, 59, 59, 999)), // 7 before 2000 (epoch ms)
    ev.status(now - 7000, { map: 'livonia', players: 3 }), // 8 good
    ev.presence('player.connect', now - 6000, 3), // 9 good
    { ...ev.kill(now - 9000, 5, 6), ts: '1999-12-31T23:59:59Z' }, // 10 before 2000 (ISO)
    withoutType, // 11 no type
    ev.presence('player.heartbeat', now - 9000, 9, { name: 42 }), // 12 wrong type
    { ...ev.status(now - 9000), online: 'yes' }, // 13 wrong type
    { ...ev.kill(now - 9000, 5, 6), ts: 'yesterday' }, // 14 not a date-time
    { ...ev.shots(now - 9000, 5, 10, 1), fired: 2.5 }, // 15 not an integer
    { ...ev.kill(now - 9000, 5, 6), victim: { platformId: player(6).platformId } }, // 16 victim without name
    { ...ev.shots(now - 9000, 5, 10, 1), ts: now - 9000.5 }, // 17 epoch ms with a fraction
  ];
  const body = await accepted(t, a, events);
  t.is(body.accepted, 4);
  t.is(body.duplicates, 0);
  t.deepEqual(
    body.rejected.map((r) => r.index),
    [1, 2, 3, 4, 5, 7, 10, 11, 12, 13, 14, 15, 16, 17],
  );
  for (const r of body.rejected) t.true(r.error.length > 0, `index ${r.index} has a message`);
  const error = (index: number) => body.rejected.find((r) => r.index === index)!.error;
  t.regex(error(1), /unknown event type/);
  t.regex(error(2), /weapon/);
  t.regex(error(3), /id/);
  t.regex(error(4), /distance/);
  t.regex(error(5), /hits must not exceed fired/);
  t.regex(error(7), /2000/);
  t.regex(error(10), /2000/);
  // A ts that fits neither form is told both.
  t.is(error(14), 'ts must match format "date-time" or must be integer');
  t.is(error(17), 'ts must be string or must be integer');

  // The good events were stored; nothing of the bad ones was.
  const board = await leaderboard(t, a);
  t.is(board.total, 2);
  t.like(byId(board.players), {
    [player(1).platformId]: { kills: 1, deaths: 0, meanKillDistance: 250 },
    [player(2).platformId]: { kills: 0, deaths: 1 },
  });
  const feed = await killfeed(t, a);
  t.is(feed.kills.length, 1);
  t.like(feed.kills[0], { killerPlatformId: player(1).platformId, victimPlatformId: player(2).platformId, weapon: 'AKM' });
  t.like(await serverStatus(t, a), { map: 'livonia', players: 3, online: true, lastSeenAt: iso(now - 6000) });
  const online = await dataGet(env, a, `/servers/${a.serverId}/players`);
  t.is(online.status, 200);
  assertSchema(t, 'online-players.json', online.body);
  t.deepEqual(online.body, { players: [{ platformId: player(3).platformId, name: 'player3' }], count: 1 });
  const { rows } = await env.deps.db.query<{ platform_id: string; shots_fired: number; shots_hit: number }>(
    'SELECT platform_id, shots_fired, shots_hit FROM server_players WHERE server_id = $1 ORDER BY platform_id',
    [a.serverId],
  );
  t.deepEqual(
    rows.map((r) => r.platform_id),
    [player(1).platformId, player(2).platformId, player(3).platformId],
  );
  t.like(rows[0], { shots_fired: 40, shots_hit: 10 });
  const ids = await env.deps.db.query('SELECT count(*)::int AS n FROM event_claims WHERE server_id = $1', [a.serverId]);
  t.is(ids.rows[0].n, 4, 'only the good events claimed their ids');
});

test('a batch of only bad events answers 200 with every event rejected', async (t) => {
  const a = await tenant(env.deps);
  const now = env.clock.now();
  const body = await accepted(t, a, [ev.shots(now, 1, 1, 2), { id: randomUUID(), type: 'nope', ts: now }]);
  t.is(body.accepted, 0);
  t.is(body.duplicates, 0);
  t.deepEqual(
    body.rejected.map((r) => r.index),
    [0, 1],
  );
  t.is((await serverStatus(t, a)).lastSeenAt, null);
});

test('an event with a NUL character in any text is rejected alone; the good ones land', async (t) => {
  const a = await tenant(env.deps);
  const now = env.clock.now();
  const body = await accepted(t, a, [
    ev.status(now, { map: 'cherna\u0000rus' }),
    ev.presence('player.heartbeat', now, 1, { name: 'bad\u0000name' }),
    ev.kill(now, 2, 3),
  ]);
  t.is(body.accepted, 1);
  t.deepEqual(
    body.rejected.map((r) => r.index),
    [0, 1],
  );
  t.true(body.rejected.every((r) => /NUL/.test(r.error)));
});

test('an id in its urn:uuid form is the same event as the plain id', async (t) => {
  const a = await tenant(env.deps);
  const now = env.clock.now();
  const kill = ev.kill(now - 5000, 1, 2);
  t.deepEqual(await accepted(t, a, [{ ...kill, id: `urn:uuid:${String(kill.id)}` }]), { accepted: 1, duplicates: 0, rejected: [] });
  t.deepEqual(await accepted(t, a, [kill]), { accepted: 0, duplicates: 1, rejected: [] });
  t.is((await storedKills(a)).length, 1);
});

// --- what is kept ----------------------------------------------------------------------------

test('heartbeat coordinates are stored nowhere: no PostgreSQL row, no Redis key', async (t) => {
  const a = await tenant(env.deps);
  const now = env.clock.now();
  // Values no other test uses, exactly representable, so any rendering of them is recognisable.
  const coords = { x: 48213.0625, y: 271.8125, z: 90417.4375 };
  const body = await accepted(t, a, [
    ev.presence('player.connect', now - 20_000, 41, coords),
    ev.presence('player.heartbeat', now - 15_000, 41, { ...coords, position: coords, coordinates: [coords.x, coords.y, coords.z] }),
    ev.presence('player.heartbeat', now - 10_000, 42, coords),
    ev.kill(now - 5000, 41, 42, { killer: { ...player(41), ...coords }, victim: { ...player(42), ...coords }, ...coords }),
    ev.status(now - 1000, { players: 2, ...coords }),
  ]);
  t.deepEqual(body, { accepted: 5, duplicates: 0, rejected: [] });
  // The events did reach the stores.
  t.is((await dataGet(env, a, `/servers/${a.serverId}/players`)).body.count, 2);

  const needles = Object.values(coords).flatMap((v) => [String(v), v.toFixed(2), v.toExponential()]);
  const rows = await pgDump(env.deps);
  t.true(rows.has('server_players') && rows.has('kills') && rows.has('servers'), 'the dump covers the ingestion tables');
  for (const [table, texts] of rows) {
    for (const text of texts) {
      for (const needle of needles) t.false(text.includes(needle), `${table} row holds ${needle}: ${text.slice(0, 200)}`);
      t.notRegex(text, /"(x|y|z|position|coordinates)":/, `${table} row has a coordinate column`);
    }
  }
  const keys = await redisDump(env.deps);
  t.true(
    [...keys.keys()].some((k) => k.includes(a.serverId)),
    'the dump covers the server keys',
  );
  for (const [key, text] of keys) {
    for (const needle of needles) t.false(text.includes(needle), `${key} holds ${needle}`);
    t.notRegex(text, /\\"(x|y|z|position|coordinates)\\":/, `${key} has a coordinate field`);
  }
});

// --- timestamps ------------------------------------------------------------------------------

test('ts works as epoch milliseconds and as ISO-8601 (Z or an offset)', async (t) => {
  const a = await tenant(env.deps);
  const now = env.clock.now();
  const at = [now - 50_000, now - 40_000, now - 30_000];
  const offset = (ms: number) => {
    // The same instant written in UTC+02:00.
    const local = new Date(ms + 2 * 3600_000).toISOString().slice(0, -1);
    return `${local}+02:00`;
  };
  t.deepEqual(
    await accepted(t, a, [
      ev.kill(at[0]!, 1, 2),
      { ...ev.kill(0, 2, 1), ts: iso(at[1]! + 250) },
      { ...ev.kill(0, 1, 3), ts: offset(at[2]! + 125) },
      { ...ev.status(0), ts: offset(now - 20_000) },
    ]),
    { accepted: 4, duplicates: 0, rejected: [] },
  );
  const feed = await killfeed(t, a);
  t.deepEqual(
    feed.kills.map((k) => Date.parse(k.ts)),
    [at[2]! + 125, at[1]! + 250, at[0]!],
  );
  t.like(await serverStatus(t, a), { lastSeenAt: iso(now - 20_000), metricsAt: null, online: true });
});

test('a ts more than 60 s in the future is taken as the arrival time', async (t) => {
  const a = await tenant(env.deps);
  const b = await tenant(env.deps);
  const now = env.clock.now();
  // Exactly 60 s ahead is believed.
  t.deepEqual(await accepted(t, b, [ev.status(now + 60_000)]), { accepted: 1, duplicates: 0, rejected: [] });
  t.is((await serverStatus(t, b)).lastSeenAt, iso(now + 60_000));

  t.deepEqual(
    await accepted(t, a, [
      ev.status(now + 61_000, { players: 4 }),
      ev.kill(now + 3600_000, 1, 2),
      { ...ev.kill(0, 2, 1), ts: '2999-01-01T00:00:00.000Z' },
    ]),
    { accepted: 3, duplicates: 0, rejected: [] },
  );
  const status = await serverStatus(t, a);
  t.is(status.lastSeenAt, iso(now));
  t.is(status.metricsAt, iso(now));
  const kills = await storedKills(a);
  t.deepEqual(
    kills.map((k) => k.us),
    [now * 1000, now * 1000 + 1],
    'both kills at arrival time, kept apart by a microsecond',
  );
  const feed = await killfeed(t, a, `before=${encodeURIComponent(iso(now + 1))}`);
  t.is(feed.kills.length, 2);
});

// --- who may send ----------------------------------------------------------------------------

test("401 for a missing, malformed or wrong token, another server's token, and a non-UUID serverId", async (t) => {
  const a = await tenant(env.deps);
  const b = await tenant(env.deps);
  const now = env.clock.now();
  const batch = { events: [ev.kill(now - 1000, 1, 2)] };
  const post = (serverId: string, authorization?: string) => {
    const req = env.request.post(eventsPath(serverId));
    return authorization === undefined ? req.send(batch) : req.set('Authorization', authorization).send(batch);
  };
  assertError(t, await post(a.serverId), 401, 'UNAUTHORIZED', 'no header');
  assertError(t, await post(a.serverId, ''), 401, 'UNAUTHORIZED', 'empty header');
  assertError(t, await post(a.serverId, 'Bearer'), 401, 'UNAUTHORIZED', 'Bearer without a token');
  assertError(t, await post(a.serverId, a.token), 401, 'UNAUTHORIZED', 'token without Bearer');
  assertError(t, await post(a.serverId, `Basic ${Buffer.from(`x:${a.token}`).toString('base64')}`), 401, 'UNAUTHORIZED', 'Basic');
  assertError(t, await post(a.serverId, `Bearer ${a.token}x`), 401, 'UNAUTHORIZED', 'token with a character more');
  assertError(t, await post(a.serverId, `Bearer ${a.token.slice(0, -1)}`), 401, 'UNAUTHORIZED', 'token with a character less');
  assertError(t, await post(a.serverId, `Bearer svci_${'A'.repeat(32)}`), 401, 'UNAUTHORIZED', 'made-up token');
  assertError(t, await post(a.serverId, `Bearer ${a.key}`), 401, 'UNAUTHORIZED', 'a Data API key');
  assertError(t, await post(a.serverId, `Bearer ${b.token}`), 401, 'UNAUTHORIZED', "another server's token");
  assertError(t, await post(b.serverId, `Bearer ${a.token}`), 401, 'UNAUTHORIZED', 'token sent to another server');
  assertError(t, await post(randomUUID(), `Bearer ${a.token}`), 401, 'UNAUTHORIZED', 'unknown server');
  assertError(t, await post('not-a-uuid', `Bearer ${a.token}`), 401, 'UNAUTHORIZED', 'non-UUID serverId');
  assertError(t, await post(`${a.serverId}x`, `Bearer ${a.token}`), 401, 'UNAUTHORIZED', 'serverId with a character more');
  // Nothing of those reached the stores; the right token still works, also with the id in upper case.
  t.is((await storedKills(a)).length + (await storedKills(b)).length, 0);
  const ok = await env.request.post(eventsPath(a.serverId.toUpperCase())).set('Authorization', `bearer  ${a.token}`).send(batch);
  t.is(ok.status, 200);
  assertSchema(t, 'ingest-result.json', ok.body);
  t.is(ok.body.accepted, 1);
});

test('401 for a revoked server, also right after it was used', async (t) => {
  const a = await tenant(env.deps);
  const now = env.clock.now();
  t.is((await accepted(t, a, [ev.kill(now - 2000, 1, 2)])).accepted, 1); // warms the token cache
  t.true(await revokeServer(env.deps, a.accountId, a.serverId));
  assertError(t, await ingest(env, a, [ev.kill(now - 1000, 1, 2)]), 401, 'UNAUTHORIZED', 'revoked');
  t.is((await storedKills(a)).length, 1);
});

test('401 for a rotated-away token; the new token works at once', async (t) => {
  const a = await tenant(env.deps);
  const now = env.clock.now();
  t.is((await accepted(t, a, [ev.kill(now - 3000, 1, 2)])).accepted, 1); // warms the token cache
  const token = await rotateIngestToken(env.deps, a.accountId, a.serverId);
  t.truthy(token);
  assertError(t, await ingest(env, a, [ev.kill(now - 2000, 1, 2)]), 401, 'UNAUTHORIZED', 'old token');
  t.is((await accepted(t, { serverId: a.serverId, token: token! }, [ev.kill(now - 1000, 1, 2)])).accepted, 1);
  t.is((await storedKills(a)).length, 2);
  // Rotating needs the owning account.
  const other = await tenant(env.deps);
  t.is(await rotateIngestToken(env.deps, other.accountId, a.serverId), undefined);
  t.is((await accepted(t, { serverId: a.serverId, token: token! }, [ev.status(now)])).accepted, 1);
});

// --- malformed requests ----------------------------------------------------------------------

test('400 for malformed JSON, events not an array, missing or empty events, more than 1000 events', async (t) => {
  const a = await tenant(env.deps);
  const now = env.clock.now();
  const raw = (text: string) =>
    env.request.post(eventsPath(a.serverId)).set('Authorization', `Bearer ${a.token}`).set('Content-Type', 'application/json').send(text);
  const send = (body: unknown) =>
    env.request
      .post(eventsPath(a.serverId))
      .set('Authorization', `Bearer ${a.token}`)
      .send(body as object);
  assertError(t, await raw('{"events": [{"id": '), 400, 'BAD_REQUEST', 'truncated JSON');
  assertError(t, await raw('{events: []}'), 400, 'BAD_REQUEST', 'unquoted key');
  assertError(t, await raw('"events"'), 400, 'BAD_REQUEST', 'a JSON string');
  assertError(t, await raw('42'), 400, 'BAD_REQUEST', 'a JSON number');
  assertError(t, await raw('null'), 400, 'BAD_REQUEST', 'JSON null');
  assertError(t, await raw(''), 400, 'BAD_REQUEST', 'empty body');
  assertError(t, await raw('[]'), 400, 'BAD_REQUEST', 'a JSON array');
  assertError(t, await send({}), 400, 'BAD_REQUEST', 'no events');
  assertError(t, await send({ events: {} }), 400, 'BAD_REQUEST', 'events an object');
  assertError(t, await send({ events: 'kill' }), 400, 'BAD_REQUEST', 'events a string');
  assertError(t, await send({ events: null }), 400, 'BAD_REQUEST', 'events null');
  assertError(t, await send({ events: [] }), 400, 'BAD_REQUEST', 'empty events');
  assertError(t, await send({ events: [ev.kill(now - 1000, 1, 2), 'kill'] }), 400, 'BAD_REQUEST', 'an event that is not an object');
  const many = Array.from({ length: 1001 }, (_, i) => ev.status(now - 10_000 + i));
  assertError(t, await send({ events: many }), 400, 'BAD_REQUEST', '1001 events');
  t.is((await serverStatus(t, a)).lastSeenAt, null, 'nothing of it was stored');
  // 1000 events are one batch.
  t.deepEqual(await accepted(t, a, many.slice(0, 1000)), { accepted: 1000, duplicates: 0, rejected: [] });
  t.is((await serverStatus(t, a)).lastSeenAt, iso(now - 10_000 + 999));
});

test('415 for a body that is not application/json', async (t) => {
  const a = await tenant(env.deps);
  const json = JSON.stringify({ events: [ev.status(env.clock.now() - 1000)] });
  for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/xml']) {
    const res = await env.request
      .post(eventsPath(a.serverId))
      .set('Authorization', `Bearer ${a.token}`)
      .set('Content-Type', type)
      .send(json);
    assertError(t, res, 415, 'UNSUPPORTED_MEDIA_TYPE', type);
  }
  t.is((await serverStatus(t, a)).lastSeenAt, null);
  const ok = await env.request
    .post(eventsPath(a.serverId))
    .set('Authorization', `Bearer ${a.token}`)
    .set('Content-Type', 'application/json; charset=utf-8')
    .send(json);
  t.is(ok.status, 200);
  t.is(ok.body.accepted, 1);
});

test('413 PAYLOAD_TOO_LARGE for a body over INGEST_BODY_LIMIT_BYTES', async (t) => {
  const small = await testEnv({ INGEST_BODY_LIMIT_BYTES: '2048' });
  try {
    const a = await tenant(small.deps);
    const now = small.clock.now();
    const post = (events: unknown[]) => ingest(small, a, events);
    const event = (i: number) => ev.status(now - 10_000 + i, { map: 'm'.repeat(60) });
    const fits: unknown[] = [];
    while (JSON.stringify({ events: [...fits, event(fits.length)] }).length <= 2048) fits.push(event(fits.length));
    const over = [...fits, event(fits.length)];
    t.true(JSON.stringify({ events: over }).length > 2048);

    const refused = await post(over);
    assertError(t, refused, 413, 'PAYLOAD_TOO_LARGE');
    const big = await post([{ ...event(0), map: 'x'.repeat(100_000) }]);
    assertError(t, big, 413, 'PAYLOAD_TOO_LARGE', '100 kB');
    const status = await small.request.get(`/api/v1/data/servers/${a.serverId}`).set('Authorization', `Bearer ${a.key}`);
    t.is(status.body.lastSeenAt, null, 'nothing of it was stored');

    const ok = await post(fits);
    t.is(ok.status, 200);
    assertSchema(t, 'ingest-result.json', ok.body);
    t.is(ok.body.accepted, fits.length);
  } finally {
    await small.close();
  }
});

test('429 RATE_LIMITED after RATE_INGEST requests in a minute, per server token', async (t) => {
  const limited = await testEnv({ RATE_INGEST: '3' });
  try {
    const minute = 60_000;
    limited.clock.set(Math.ceil(limited.clock.now() / minute) * minute + 10_000);
    const a = await tenant(limited.deps);
    const b = await tenant(limited.deps);
    const now = limited.clock.now();
    for (let i = 0; i < 3; i++) {
      const res = await ingest(limited, a, [ev.status(now - 1000 + i)]);
      t.is(res.status, 200);
      assertRateLimitHeaders(t, res, 3);
      t.is(res.headers['ratelimit-remaining'], String(2 - i));
    }
    const refused = await ingest(limited, a, [ev.status(now)]);
    assertError(t, refused, 429, 'RATE_LIMITED');
    assertRateLimitHeaders(t, refused, 3);
    // The window ends in 50 s, but there the 3 requests still weigh 3: only after 70 s does their
    // weight (3 x 40/60 = 2) leave room for one more.
    t.is(refused.headers['retry-after'], '70');
    t.is(refused.body.retryAfter, 70);
    // The refused batch was not applied; another server is not affected.
    const status = await limited.request.get(`/api/v1/data/servers/${a.serverId}`).set('Authorization', `Bearer ${a.key}`);
    t.is(status.body.lastSeenAt, iso(now - 1000 + 2));
    t.is((await ingest(limited, b, [ev.status(now)])).status, 200);
    // Requests with a wrong token do not use up the server's allowance (and are 401, not 429).
    assertError(t, await ingest(limited, { serverId: a.serverId, token: b.token }, [ev.status(now)]), 401, 'UNAUTHORIZED');
    // Two minutes later the window has passed.
    limited.clock.advance(2 * minute);
    const again = await ingest(limited, a, [ev.status(limited.clock.now())]);
    t.is(again.status, 200);
    t.is(again.body.accepted, 1);
  } finally {
    await limited.close();
  }
});

// --- what the events mean --------------------------------------------------------------------

test('play minutes come from connect, heartbeat and disconnect; gaps over 90 s are not play time', async (t) => {
  const a = await tenant(env.deps);
  const now = env.clock.now();
  const T = now - 3600_000;
  const s = 1000;
  const p1: unknown[] = [
    ev.presence('player.connect', T, 1),
    ev.kill(T + 10 * s, 1, 2), // both are ranked, so the leaderboard shows them
    ev.presence('player.heartbeat', T + 60 * s, 1), // +60
    ev.presence('player.heartbeat', T + 120 * s, 1), // +60
    ev.presence('player.heartbeat', T + 300 * s, 1), // gap 180 s: +0
  ];
  const p1Later: unknown[] = [
    ev.presence('player.heartbeat', T + 360 * s, 1), // +60 (across batches)
    ev.presence('player.heartbeat', T + 450 * s, 1), // gap of exactly 90 s: +90
    ev.presence('player.disconnect', T + 500 * s, 1), // +50
    ev.presence('player.heartbeat', T + 1000 * s, 1), // after a disconnect: +0
    ev.presence('player.heartbeat', T + 1060 * s, 1), // +60
    ev.presence('player.heartbeat', T + 1151 * s, 1), // gap 91 s: +0
  ];
  const p2: unknown[] = [
    ev.presence('player.connect', T, 2),
    ev.presence('player.disconnect', T + 100 * s, 2), // gap 100 s: +0
    ev.presence('player.connect', T + 200 * s, 2),
    ev.presence('player.heartbeat', T + 280 * s, 2), // +80
    ev.presence('player.disconnect', T + 330 * s, 2), // +50
    ev.presence('player.disconnect', T + 340 * s, 2), // already gone: +0
  ];
  // Out of order within a batch: the service sorts by ts.
  t.deepEqual(await accepted(t, a, [...p1, ...p2].reverse()), { accepted: p1.length + p2.length, duplicates: 0, rejected: [] });
  t.deepEqual(await accepted(t, a, p1Later), { accepted: p1Later.length, duplicates: 0, rejected: [] });

  const { rows } = await env.deps.db.query<{ platform_id: string; play_seconds: number }>(
    'SELECT platform_id, play_seconds FROM server_players WHERE server_id = $1 ORDER BY platform_id',
    [a.serverId],
  );
  t.deepEqual(rows, [
    { platform_id: player(1).platformId, play_seconds: 60 + 60 + 60 + 90 + 50 + 60 },
    { platform_id: player(2).platformId, play_seconds: 80 + 50 },
  ]);
  const players = byId((await leaderboard(t, a)).players);
  t.is(players[player(1).platformId]!.playMinutes, 6); // 380 s
  t.is(players[player(2).platformId]!.playMinutes, 2); // 130 s
  // A re-sent batch adds no play time.
  t.is((await accepted(t, a, p1Later)).duplicates, p1Later.length);
  t.is(byId((await leaderboard(t, a)).players)[player(1).platformId]!.playMinutes, 6);
});

test('a late presence event older than the last one adds no play time', async (t) => {
  const a = await tenant(env.deps);
  const now = env.clock.now();
  const T = now - 600_000;
  await accepted(t, a, [ev.presence('player.connect', T, 1), ev.presence('player.heartbeat', T + 60_000, 1), ev.kill(T + 1000, 1, 2)]);
  await accepted(t, a, [ev.presence('player.heartbeat', T + 30_000, 1)]);
  await accepted(t, a, [ev.presence('player.heartbeat', T + 120_000, 1)]);
  const { rows } = await env.deps.db.query('SELECT play_seconds FROM server_players WHERE server_id = $1 AND platform_id = $2', [
    a.serverId,
    player(1).platformId,
  ]);
  t.deepEqual(rows, [{ play_seconds: 120 }]);
});

test('server.status updates map, gameVersion and metrics; an older status arriving later changes nothing', async (t) => {
  const a = await tenant(env.deps);
  const now = env.clock.now();
  await accepted(t, a, [ev.status(now - 10_000, { map: 'chernarusplus', gameVersion: '1.26', players: 40, fps: 60, uptimeSeconds: 3600 })]);
  t.like(await serverStatus(t, a), {
    map: 'chernarusplus',
    gameVersion: '1.26',
    players: 40,
    fps: 60,
    uptimeSeconds: 3600,
    metricsAt: iso(now - 10_000),
    online: true,
  });
  // Within one batch the newest status wins, whatever the order they were sent in.
  await accepted(t, a, [
    ev.status(now - 5000, { map: 'livonia', players: 10, fps: 30.5, uptimeSeconds: 3605 }),
    ev.status(now - 7000, { map: 'banov', gameVersion: '1.25', players: 20, fps: 45, uptimeSeconds: 3603 }),
  ]);
  const expected = {
    id: a.serverId,
    name: 'server one',
    map: 'livonia',
    gameVersion: '1.25',
    online: true,
    lastSeenAt: iso(now - 5000),
    players: 10,
    fps: 30.5,
    uptimeSeconds: 3605,
    metricsAt: iso(now - 5000),
  };
  // gameVersion comes from the older status of the batch: the newest one did not carry any, and
  // both are newer than what was stored (the same as if they had come in two batches).
  t.deepEqual(await serverStatus(t, a), expected);

  await accepted(t, a, [
    ev.status(now - 20_000, { online: false, map: 'sakhal', gameVersion: '1.0', players: 99, fps: 1, uptimeSeconds: 1 }),
  ]);
  t.deepEqual(await serverStatus(t, a), expected, 'a late, older status is ignored');
  const { rows } = await env.deps.db.query('SELECT map, game_version, players, fps, uptime_seconds, online FROM servers WHERE id = $1', [
    a.serverId,
  ]);
  t.deepEqual(rows, [{ map: 'livonia', game_version: '1.25', players: 10, fps: 30.5, uptime_seconds: 3605, online: true }]);

  // A metrics sample followed in the same batch by a status without metrics is kept.
  await accepted(t, a, [ev.status(now - 2000, { map: 'deerisle' }), ev.status(now - 3000, { players: 7, fps: 50, uptimeSeconds: 3610 })]);
  const sampled = {
    ...expected,
    map: 'deerisle',
    lastSeenAt: iso(now - 2000),
    players: 7,
    fps: 50,
    uptimeSeconds: 3610,
    metricsAt: iso(now - 3000),
  };
  t.deepEqual(await serverStatus(t, a), sampled);

  // A newer status without metrics keeps the metrics and their time.
  await accepted(t, a, [ev.status(now - 1000, { online: false })]);
  t.deepEqual(await serverStatus(t, a), { ...sampled, online: false, lastSeenAt: iso(now - 1000) });
});

test('metrics at the edges of their declared ranges are stored as sent', async (t) => {
  const a = await tenant(env.deps);
  const now = env.clock.now();
  await accepted(t, a, [ev.status(now - 2000, { players: 100_000, fps: 100_000, uptimeSeconds: 3_153_600_000 })]);
  t.like(await serverStatus(t, a), { players: 100_000, fps: 100_000, uptimeSeconds: 3_153_600_000 });
  const over = await accepted(t, a, [ev.status(now - 1000, { uptimeSeconds: 3_153_600_001 }), ev.status(now - 1000, { players: -1 })]);
  t.deepEqual(
    over.rejected.map((r) => r.index),
    [0, 1],
  );
  await accepted(t, a, [ev.status(now - 500, { players: 0, fps: 0, uptimeSeconds: 0 })]);
  t.like(await serverStatus(t, a), { players: 0, fps: 0, uptimeSeconds: 0 });
});

test('kills with identical timestamps, in one batch and across batches, are all stored with distinct microsecond ts', async (t) => {
  const a = await tenant(env.deps);
  const now = env.clock.now();
  const X = now - 30_000;
  await accepted(t, a, [ev.kill(X, 1, 2), ev.kill(X, 2, 1), ev.kill(X, 3, 1), ev.kill(X + 1, 4, 1)]);
  await accepted(t, a, [ev.kill(X, 1, 3), ev.kill(X, 1, 4)]);
  const kills = await storedKills(a);
  t.is(kills.length, 6);
  t.deepEqual(
    kills.map((k) => k.us),
    [0, 1, 2, 3, 4, 1000].map((d) => X * 1000 + d),
    'the second batch moves past the stored ones',
  );
  t.deepEqual(
    kills.slice(0, 3).map((k) => k.killer),
    [player(1), player(2), player(3)].map((p) => p.platformId),
    'batch order kept',
  );
  // The killfeed pages through them, two at a time, without a skip or a repeat.
  const seen: string[] = [];
  let query = 'limit=2';
  for (let page = 0; page < 10; page++) {
    const feed = await killfeed(t, a, query);
    t.true(feed.kills.length <= 2);
    seen.push(...feed.kills.map((k) => k.ts));
    if (feed.nextCursor === null) break;
    query = `limit=2&before=${encodeURIComponent(feed.nextCursor)}`;
  }
  t.is(seen.length, 6);
  t.is(new Set(seen).size, 6);
});

test('kills land on separate servers independently', async (t) => {
  const a = await tenant(env.deps);
  const now = env.clock.now();
  const second = await registerServer(env.deps, a.accountId, { name: 'server two' });
  const b = { ...a, serverId: second.server.id, token: second.ingestToken };
  const kill = ev.kill(now - 1000, 1, 2);
  // The same event id on two servers: ids are unique per server.
  t.is((await accepted(t, a, [kill])).accepted, 1);
  t.is((await accepted(t, b, [kill])).accepted, 1);
  t.deepEqual(
    (await storedKills(a)).map((k) => k.us),
    [(now - 1000) * 1000],
  );
  t.deepEqual(
    (await storedKills(b)).map((k) => k.us),
    [(now - 1000) * 1000],
  );
  t.is((await leaderboard(t, b)).total, 2);
});
