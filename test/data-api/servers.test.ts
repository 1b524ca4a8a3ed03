import { randomUUID } from 'node:crypto';
import test from 'ava';
import { registerServer, revokeServer } from '../../src/servers/server.ts';
import { testEnv } from '../helpers/env.ts';
import type { TestEnv } from '../helpers/env.ts';
import { assertSchema, dataGet, ev, ingest, player, tenant } from '../helpers/seed.ts';
import { assertError, assertNoCoordinates, perServerPaths } from '../helpers/data-api.ts';

// Tests that move the clock are serial (AVA runs them before the concurrent ones); the others
// read env.clock.now() once and never move it.
let env: TestEnv;
test.before(async () => {
  env = await testEnv();
});
test.after.always(async () => {
  await env?.close();
});

const iso = (ms: number) => new Date(ms).toISOString();

test('server status shows the latest metrics sample and online within 120 s', async (t) => {
  const a = await tenant(env.deps);
  const now = env.clock.now();
  t.is(
    (
      await ingest(env, a, [
        ev.status(now - 1000, { players: 12, fps: 59.5, uptimeSeconds: 600, map: 'chernarusplus', gameVersion: '1.26' }),
      ])
    ).status,
    200,
  );
  const res = await dataGet(env, a, `/servers/${a.serverId}`);
  t.is(res.status, 200);
  assertSchema(t, 'server-status.json', res.body);
  t.like(res.body, { id: a.serverId, online: true, players: 12, fps: 59.5, uptimeSeconds: 600, map: 'chernarusplus', gameVersion: '1.26' });
  t.is(res.body.metricsAt, new Date(now - 1000).toISOString());
});

test('the list orders by lastSeenAt newest first, then never-seen servers newest created first', async (t) => {
  const a = await tenant(env.deps); // "server one", created first, never seen
  const now = env.clock.now();
  const two = await registerServer(env.deps, a.accountId, { name: 'server two' });
  const three = await registerServer(env.deps, a.accountId, { name: 'server three' });
  const four = await registerServer(env.deps, a.accountId, { name: 'server four' });
  const five = await registerServer(env.deps, a.accountId, { name: 'server five' }); // never seen, created last
  const asTenant = (r: typeof two) => ({ serverId: r.server.id, token: r.ingestToken });
  // two seen earliest, four latest; three in between (through a player event, not a status).
  t.is((await ingest(env, asTenant(two), [ev.status(now - 30_000)])).status, 200);
  t.is((await ingest(env, asTenant(four), [ev.status(now - 1000, { online: false })])).status, 200);
  t.is((await ingest(env, asTenant(three), [ev.presence('player.connect', now - 10_000, 1)])).status, 200);

  const res = await dataGet(env, a, '/servers');
  t.is(res.status, 200);
  assertSchema(t, 'server-list.json', res.body);
  const servers = res.body.servers as { id: string; name: string; lastSeenAt: string | null }[];
  t.deepEqual(
    servers.map((s) => s.name),
    ['server four', 'server three', 'server two', 'server five', 'server one'],
  );
  t.deepEqual(
    servers.map((s) => s.lastSeenAt),
    [iso(now - 1000), iso(now - 10_000), iso(now - 30_000), null, null],
  );
  t.deepEqual(
    servers.map((s) => s.id),
    [four.server.id, three.server.id, two.server.id, five.server.id, a.serverId],
  );
});

test('a revoked server is absent from the list and 404 on every per-server route', async (t) => {
  const a = await tenant(env.deps);
  const now = env.clock.now();
  const kept = await registerServer(env.deps, a.accountId, { name: 'kept' });
  t.is((await ingest(env, a, [ev.status(now - 1000), ev.kill(now - 900, 1, 2)])).status, 200);
  // Warm every cache first, so revocation has to drop them.
  t.is((await dataGet(env, a, `/servers/${a.serverId}`)).status, 200);
  t.is((await dataGet(env, a, `/servers/${a.serverId}/leaderboard`)).status, 200);
  t.true(await revokeServer(env.deps, a.accountId, a.serverId));

  const list = await dataGet(env, a, '/servers');
  t.is(list.status, 200);
  assertSchema(t, 'server-list.json', list.body);
  t.deepEqual(
    (list.body.servers as { id: string }[]).map((s) => s.id),
    [kept.server.id],
  );
  for (const path of perServerPaths(a.serverId)) assertError(t, await dataGet(env, a, path), 404, 'NOT_FOUND', path);
});

test('status metrics are null before any sample, and a status without metrics keeps them null', async (t) => {
  const a = await tenant(env.deps);
  const now = env.clock.now();
  const fresh = await dataGet(env, a, `/servers/${a.serverId}`);
  t.is(fresh.status, 200);
  assertSchema(t, 'server-status.json', fresh.body);
  t.deepEqual(fresh.body, {
    id: a.serverId,
    name: 'server one',
    map: null,
    gameVersion: null,
    online: false,
    lastSeenAt: null,
    players: null,
    fps: null,
    uptimeSeconds: null,
    metricsAt: null,
  });

  t.is((await ingest(env, a, [ev.status(now - 2000, { map: 'livonia' })])).status, 200);
  const res = await dataGet(env, a, `/servers/${a.serverId}`);
  t.is(res.status, 200);
  assertSchema(t, 'server-status.json', res.body);
  t.deepEqual(res.body, {
    id: a.serverId,
    name: 'server one',
    map: 'livonia',
    gameVersion: null,
    online: true,
    lastSeenAt: iso(now - 2000),
    players: null,
    fps: null,
    uptimeSeconds: null,
    metricsAt: null,
  });
});

test.serial('online is true 120 s after the newest status and false at 121 s', async (t) => {
  const a = await tenant(env.deps);
  const statusMs = env.clock.now();
  t.is((await ingest(env, a, [ev.status(statusMs, { players: 3 })])).status, 200);
  const online = async () => {
    const status = await dataGet(env, a, `/servers/${a.serverId}`);
    t.is(status.status, 200);
    assertSchema(t, 'server-status.json', status.body);
    const list = await dataGet(env, a, '/servers');
    t.is(list.status, 200);
    assertSchema(t, 'server-list.json', list.body);
    const listed = (list.body.servers as { id: string; online: boolean }[]).find((s) => s.id === a.serverId);
    t.is(listed?.online, status.body.online, 'list and status agree');
    return status.body.online as boolean;
  };
  t.true(await online());
  env.clock.set(statusMs + 120_000);
  t.true(await online(), 'at 120 s');
  env.clock.set(statusMs + 121_000);
  t.false(await online(), 'at 121 s');
});

test.serial('newer non-status events do not keep a server online once its status is older than 120 s', async (t) => {
  const a = await tenant(env.deps);
  const statusMs = env.clock.now();
  t.is((await ingest(env, a, [ev.status(statusMs)])).status, 200);
  env.clock.set(statusMs + 121_000);
  t.is((await ingest(env, a, [ev.presence('player.heartbeat', statusMs + 120_500, 1)])).status, 200);
  const res = await dataGet(env, a, `/servers/${a.serverId}`);
  t.is(res.status, 200);
  assertSchema(t, 'server-status.json', res.body);
  t.false(res.body.online);
  t.is(res.body.lastSeenAt, iso(statusMs + 120_500));
});

test('online is false when the newest status said online:false, even when fresh', async (t) => {
  const a = await tenant(env.deps);
  const now = env.clock.now();
  t.is((await ingest(env, a, [ev.status(now - 5000, { online: true }), ev.status(now - 1000, { online: false })])).status, 200);
  const res = await dataGet(env, a, `/servers/${a.serverId}`);
  t.is(res.status, 200);
  assertSchema(t, 'server-status.json', res.body);
  t.false(res.body.online);
  // An older status arriving late does not overturn the newer one.
  t.is((await ingest(env, a, [ev.status(now - 3000, { online: true })])).status, 200);
  const again = await dataGet(env, a, `/servers/${a.serverId}`);
  t.is(again.status, 200);
  assertSchema(t, 'server-status.json', again.body);
  t.false(again.body.online);
});

test('lastSeenAt is the ts of the newest event of any type, and late older events do not move it back', async (t) => {
  const a = await tenant(env.deps);
  const now = env.clock.now();
  const lastSeen = async () => {
    const res = await dataGet(env, a, `/servers/${a.serverId}`);
    t.is(res.status, 200);
    assertSchema(t, 'server-status.json', res.body);
    const list = await dataGet(env, a, '/servers');
    assertSchema(t, 'server-list.json', list.body);
    t.is(list.body.servers[0].lastSeenAt, res.body.lastSeenAt, 'list and status agree');
    return res.body.lastSeenAt as string | null;
  };
  t.is((await ingest(env, a, [ev.status(now - 50_000), ev.kill(now - 40_000, 1, 2)])).status, 200);
  t.is(await lastSeen(), iso(now - 40_000), 'a kill');
  t.is((await ingest(env, a, [ev.shots(now - 30_000, 1, 10, 3)])).status, 200);
  t.is(await lastSeen(), iso(now - 30_000), 'shots');
  t.is((await ingest(env, a, [ev.presence('player.heartbeat', now - 20_000, 1)])).status, 200);
  t.is(await lastSeen(), iso(now - 20_000), 'a heartbeat');
  t.is((await ingest(env, a, [{ id: randomUUID(), type: 'server.started', ts: iso(now - 10_000) }])).status, 200);
  t.is(await lastSeen(), iso(now - 10_000), 'server.started, ts as ISO text');
  t.is((await ingest(env, a, [ev.status(now - 60_000), ev.kill(now - 15_000, 2, 1)])).status, 200);
  t.is(await lastSeen(), iso(now - 10_000), 'older events leave it');
});

test('no route exposes x, y, z or any coordinate field', async (t) => {
  const a = await tenant(env.deps);
  const now = env.clock.now();
  const coords = { x: 4711.125, y: 313.5, z: 9876.25 };
  const res = await ingest(env, a, [
    ev.status(now - 5000, { players: 2, ...coords }),
    ev.presence('player.connect', now - 4000, 1, coords),
    ev.presence('player.heartbeat', now - 3000, 1, { ...coords, position: coords }),
    ev.presence('player.heartbeat', now - 3000, 2, coords),
    ev.kill(now - 2000, 1, 2, { ...coords, killer: { ...player(1), ...coords }, victim: { ...player(2), ...coords } }),
  ]);
  t.is(res.status, 200);
  t.is(res.body.accepted, 5);
  const schemaOf: Record<string, string> = {
    '/servers': 'server-list.json',
    [`/servers/${a.serverId}`]: 'server-status.json',
    [`/servers/${a.serverId}/players`]: 'online-players.json',
    [`/servers/${a.serverId}/leaderboard`]: 'leaderboard-page.json',
    [`/servers/${a.serverId}/kills`]: 'killfeed-page.json',
    [`/servers/${a.serverId}/bans`]: 'ban-list.json',
  };
  for (const [path, schema] of Object.entries(schemaOf)) {
    const got = await dataGet(env, a, path);
    t.is(got.status, 200, path);
    assertSchema(t, schema, got.body);
    assertNoCoordinates(t, got.body, path);
    for (const value of Object.values(coords)) t.false(got.text.includes(String(value)), `${path} carries no coordinate value`);
  }
  // The routes did answer with the data the events carried.
  const players = await dataGet(env, a, `/servers/${a.serverId}/players`);
  t.is(players.body.count, 2);
});
