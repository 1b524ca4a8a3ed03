import test from 'ava';
import type { ExecutionContext } from 'ava';
import { serverKeys } from '../../src/store/keys.ts';
import { testEnv } from '../helpers/env.ts';
import type { TestEnv } from '../helpers/env.ts';
import { assertSchema, dataGet, ev, ingest, player, tenant } from '../helpers/seed.ts';
import type { Tenant } from '../helpers/seed.ts';
import { assertNoCoordinates } from '../helpers/data-api.ts';

// Tests that move the clock are serial (AVA runs them before the concurrent ones).
let env: TestEnv;
test.before(async () => {
  env = await testEnv();
});
test.after.always(async () => {
  await env?.close();
});

interface OnlinePlayers {
  players: { platformId: string; name: string }[];
  count: number;
}

async function online(t: ExecutionContext, a: Tenant): Promise<OnlinePlayers> {
  const res = await dataGet(env, a, `/servers/${a.serverId}/players`);
  t.is(res.status, 200);
  assertSchema(t, 'online-players.json', res.body);
  const body = res.body as OnlinePlayers;
  t.is(body.count, body.players.length, 'count equals players.length');
  return body;
}
const ids = (body: OnlinePlayers) => body.players.map((p) => p.platformId).sort();

test.serial('a player whose last presence is 89 s old is listed, 91 s old is not', async (t) => {
  const a = await tenant(env.deps);
  const heartbeatMs = env.clock.now();
  t.is(
    (await ingest(env, a, [ev.presence('player.connect', heartbeatMs - 30_000, 1), ev.presence('player.heartbeat', heartbeatMs, 1)]))
      .status,
    200,
  );
  env.clock.set(heartbeatMs + 89_000);
  t.deepEqual(ids(await online(t, a)), [player(1).platformId], 'at 89 s');
  env.clock.set(heartbeatMs + 91_000);
  const gone = await online(t, a);
  t.deepEqual(gone, { players: [], count: 0 }, 'at 91 s');
  // A fresh heartbeat brings the player back.
  t.is((await ingest(env, a, [ev.presence('player.heartbeat', heartbeatMs + 91_000, 1)])).status, 200);
  t.deepEqual(ids(await online(t, a)), [player(1).platformId], 'after a new heartbeat');
});

test.serial('each player has their own window: the one seen 91 s ago drops out, the one seen 89 s ago stays', async (t) => {
  const a = await tenant(env.deps);
  const start = env.clock.now();
  t.is((await ingest(env, a, [ev.presence('player.heartbeat', start, 1), ev.presence('player.heartbeat', start + 2000, 2)])).status, 200);
  env.clock.set(start + 91_000);
  t.deepEqual(ids(await online(t, a)), [player(2).platformId]);
  t.deepEqual(await online(t, a), { players: [{ platformId: player(2).platformId, name: 'player2' }], count: 1 });
});

test('a disconnect removes the player at once; the others stay', async (t) => {
  const a = await tenant(env.deps);
  const now = env.clock.now();
  t.is(
    (
      await ingest(env, a, [
        ev.presence('player.connect', now - 20_000, 1),
        ev.presence('player.connect', now - 20_000, 2),
        ev.presence('player.connect', now - 20_000, 3),
      ])
    ).status,
    200,
  );
  t.deepEqual(
    ids(await online(t, a)),
    [1, 2, 3].map((n) => player(n).platformId),
  );
  t.is((await ingest(env, a, [ev.presence('player.disconnect', now - 1000, 2)])).status, 200);
  t.deepEqual(
    ids(await online(t, a)),
    [1, 3].map((n) => player(n).platformId),
  );
  // Connect and disconnect in one batch: not online.
  t.is((await ingest(env, a, [ev.presence('player.connect', now - 900, 4), ev.presence('player.disconnect', now - 800, 4)])).status, 200);
  t.deepEqual(
    ids(await online(t, a)),
    [1, 3].map((n) => player(n).platformId),
  );
  // A reconnect after a disconnect is online again.
  t.is((await ingest(env, a, [ev.presence('player.connect', now - 500, 2)])).status, 200);
  t.deepEqual(
    ids(await online(t, a)),
    [1, 2, 3].map((n) => player(n).platformId),
  );
});

test('count equals players.length, for none, one and many players', async (t) => {
  const a = await tenant(env.deps);
  const now = env.clock.now();
  t.deepEqual(await online(t, a), { players: [], count: 0 });
  t.is((await ingest(env, a, [ev.presence('player.connect', now - 1000, 1)])).status, 200);
  t.is((await online(t, a)).count, 1);
  const many = Array.from({ length: 250 }, (_, i) => ev.presence('player.heartbeat', now - 1000 + (i % 50), 100 + i));
  t.is((await ingest(env, a, many)).status, 200);
  const body = await online(t, a);
  t.is(body.count, 251);
  t.is(new Set(body.players.map((p) => p.platformId)).size, 251, 'each player once');
});

test('players of another server are not listed', async (t) => {
  const [a, b] = await Promise.all([tenant(env.deps), tenant(env.deps)]);
  const now = env.clock.now();
  t.is((await ingest(env, b, [ev.presence('player.connect', now - 1000, 7)])).status, 200);
  t.is((await ingest(env, a, [ev.presence('player.connect', now - 1000, 1)])).status, 200);
  t.deepEqual(ids(await online(t, a)), [player(1).platformId]);
  t.deepEqual(ids(await online(t, b)), [player(7).platformId]);
});

test('coordinates sent with presence events never appear in a response nor in the stored state', async (t) => {
  const a = await tenant(env.deps);
  const now = env.clock.now();
  const coords = { x: 7345.875, y: 201.0625, z: 2891.4375 };
  t.is(
    (
      await ingest(env, a, [
        ev.presence('player.connect', now - 3000, 1, coords),
        ev.presence('player.heartbeat', now - 2000, 1, { ...coords, coordinates: [coords.x, coords.y, coords.z] }),
        ev.presence('player.heartbeat', now - 1000, 2, { ...coords, position: coords }),
      ])
    ).status,
    200,
  );
  const res = await dataGet(env, a, `/servers/${a.serverId}/players`);
  t.is(res.status, 200);
  assertSchema(t, 'online-players.json', res.body);
  assertNoCoordinates(t, res.body, 'players');
  for (const p of res.body.players as Record<string, unknown>[]) t.deepEqual(Object.keys(p).sort(), ['name', 'platformId']);
  for (const value of Object.values(coords)) t.false(res.text.includes(String(value)));
  // Not kept in Redis either.
  const stored = await env.deps.redis.hgetall(serverKeys(a.serverId).players);
  t.is(Object.keys(stored).length, 2);
  for (const value of Object.values(coords)) t.false(JSON.stringify(stored).includes(String(value)), 'not in the Redis player totals');
});

test('names update: the newest name of a player is shown', async (t) => {
  const a = await tenant(env.deps);
  const now = env.clock.now();
  t.is((await ingest(env, a, [ev.presence('player.connect', now - 5000, 1, { name: 'Old Name' })])).status, 200);
  t.deepEqual((await online(t, a)).players, [{ platformId: player(1).platformId, name: 'Old Name' }]);
  t.is((await ingest(env, a, [ev.presence('player.heartbeat', now - 4000, 1, { name: 'New Name' })])).status, 200);
  t.deepEqual((await online(t, a)).players, [{ platformId: player(1).platformId, name: 'New Name' }]);
  // Within one batch the newest event's name wins, whatever the order in the batch.
  t.is(
    (
      await ingest(env, a, [
        ev.presence('player.heartbeat', now - 1000, 1, { name: 'Newest' }),
        ev.presence('player.heartbeat', now - 2000, 1, { name: 'Older' }),
      ])
    ).status,
    200,
  );
  t.deepEqual((await online(t, a)).players, [{ platformId: player(1).platformId, name: 'Newest' }]);
  // A kill carries a name too.
  t.is(
    (await ingest(env, a, [ev.kill(now - 500, 1, 2, { killer: { platformId: player(1).platformId, name: 'Renamed In Fight' } })])).status,
    200,
  );
  t.deepEqual((await online(t, a)).players, [{ platformId: player(1).platformId, name: 'Renamed In Fight' }]);
  const board = await dataGet(env, a, `/servers/${a.serverId}/leaderboard`);
  t.is(board.status, 200);
  assertSchema(t, 'leaderboard-page.json', board.body);
  t.is(board.body.players[0].name, 'Renamed In Fight');
});

// Events can arrive late (an agent retrying an older batch): they must not win over newer state.
test('a late, older presence event does not overwrite a newer name', async (t) => {
  const a = await tenant(env.deps);
  const now = env.clock.now();
  t.is((await ingest(env, a, [ev.presence('player.heartbeat', now - 1000, 1, { name: 'Newest' })])).status, 200);
  t.is((await ingest(env, a, [ev.presence('player.heartbeat', now - 5000, 1, { name: 'Stale' })])).status, 200);
  t.deepEqual((await online(t, a)).players, [{ platformId: player(1).platformId, name: 'Newest' }]);
});

test('a late heartbeat older than the disconnect does not bring the player back online', async (t) => {
  const a = await tenant(env.deps);
  const now = env.clock.now();
  t.is((await ingest(env, a, [ev.presence('player.connect', now - 3000, 1), ev.presence('player.disconnect', now - 500, 1)])).status, 200);
  t.is((await ingest(env, a, [ev.presence('player.heartbeat', now - 900, 1)])).status, 200);
  t.deepEqual(await online(t, a), { players: [], count: 0 });
});

test.serial('the list is rendered once per change and kept until its longest-idle player would leave the window', async (t) => {
  const a = await tenant(env.deps);
  const start = env.clock.now();
  t.is((await ingest(env, a, [ev.presence('player.connect', start - 30_000, 1), ev.presence('player.connect', start, 2)])).status, 200);
  t.deepEqual(ids(await online(t, a)), [player(1).platformId, player(2).platformId]);
  const stored = await env.deps.redis.hget(serverKeys(a.serverId).pages, 'online');
  t.is(stored?.split('|')[0], String(start - 30_000 + 90_000), 'kept until player 1 leaves the window');
  // Served from the cache until then; at that moment rendered anew without player 1.
  env.clock.set(start + 59_999);
  t.is((await online(t, a)).count, 2);
  env.clock.set(start + 60_001);
  t.deepEqual(ids(await online(t, a)), [player(2).platformId]);
  // A change drops the page at once.
  t.is((await ingest(env, a, [ev.presence('player.disconnect', start + 60_002, 2)])).status, 200);
  t.deepEqual(await online(t, a), { players: [], count: 0 });
});
