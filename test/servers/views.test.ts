// The server page's reads for a signed-in user (GET /api/servers/:id/{players,leaderboard,kills,
// bans,metrics}): the Data API's answers through a session, tenancy, and the stored status samples
// behind the chart: every sample kept, a time range paged without skipping or repeating, pruning.
import test from 'ava';
import type { ExecutionContext } from 'ava';
import { createBan } from '../../src/bans/bans.ts';
import { drainSyncRequests } from '../../src/game-files/sync-job.ts';
import { metricsRetentionMs, pruneMetricsSamples } from '../../src/servers/metrics.ts';
import { userWithRole } from '../helpers/controller.ts';
import type { Session } from '../helpers/controller.ts';
import { api, call, envFor } from '../helpers/controller-http.ts';
import { assertError } from '../helpers/data-api.ts';
import type { TestEnv } from '../helpers/env.ts';
import { dataGet, ev, ingest, player } from '../helpers/seed.ts';
import { registerServer } from '../../src/servers/server.ts';

const minute = 60_000;

/** A community with one server, its owner and a viewer signed in. */
async function world(t: ExecutionContext, env: TestEnv) {
  const owner = await userWithRole(env, 'owner');
  const viewer = await userWithRole(env, 'viewer', owner.accountId);
  const { server, ingestToken } = await registerServer(env.deps, owner.accountId, { name: 'alpha' });
  t.truthy(server.id);
  return { owner, viewer, serverId: server.id, token: ingestToken };
}

const samples = (res: { body: { samples: { at: string; players: number | null }[] } }) => res.body.samples.map((s) => [s.at, s.players]);

test('metrics: every status sample is stored and read back by time range, oldest first, paged by nextCursor', async (t) => {
  const env = await envFor(t);
  const { owner, viewer, serverId, token } = await world(t, env);
  const now = env.clock.now();
  // Two days of samples every 30 minutes, sent in batches of several statuses (the servers row keeps only the newest).
  const statuses = Array.from({ length: 96 }, (_, i) =>
    ev.status(now - (96 - i) * 30 * minute, { players: i, fps: 40 + (i % 20), uptimeSeconds: i * 1800 }),
  );
  for (let i = 0; i < statuses.length; i += 10) t.is((await ingest(env, { serverId, token }, statuses.slice(i, i + 10))).status, 200);
  // The same instant again (a retry with a new event id): stored once, the first one kept.
  t.is((await ingest(env, { serverId, token }, [ev.status(now - 30 * minute, { players: 999 })])).status, 200);

  const day = await api(t, env, viewer, 'get', `/api/servers/${serverId}/metrics`);
  t.is(day.status, 200);
  t.is(day.body.to, new Date(now).toISOString());
  t.is(day.body.from, new Date(now - 24 * 60 * minute).toISOString());
  // Samples strictly after from (the one exactly 24 h old is not), up to now: the last 47.
  t.deepEqual(
    samples(day),
    Array.from({ length: 47 }, (_, k) => [new Date(now - (47 - k) * 30 * minute).toISOString(), 49 + k]),
  );
  t.like(day.body.samples[0], { online: true, fps: 40 + (49 % 20), uptimeSeconds: 49 * 1800 });
  t.is(day.body.nextCursor, null);

  // A range read in pages of 7: nothing skipped, nothing repeated.
  const from = new Date(now - 40 * 60 * minute).toISOString();
  const to = new Date(now - 10 * 60 * minute).toISOString();
  const paged: unknown[] = [];
  let cursor: string | null = from;
  let pages = 0;
  while (cursor) {
    const res = await api(t, env, owner, 'get', `/api/servers/${serverId}/metrics?from=${cursor}&to=${to}&limit=7`);
    t.true(res.body.samples.length <= 7);
    paged.push(...samples(res));
    cursor = res.body.nextCursor;
    pages += 1;
  }
  const whole = await api(t, env, owner, 'get', `/api/servers/${serverId}/metrics?from=${from}&to=${to}&limit=2000`);
  t.is(whole.body.samples.length, 60, '30 hours of half-hourly samples, from exclusive, to inclusive');
  t.deepEqual(paged, samples(whole));
  t.is(pages, Math.ceil(60 / 7));

  assertError(t, await api(t, env, owner, 'get', `/api/servers/${serverId}/metrics?from=${to}&to=${from}`), 400, 'BAD_REQUEST');
  assertError(t, await api(t, env, owner, 'get', `/api/servers/${serverId}/metrics?limit=2001`), 400, 'BAD_REQUEST');
  assertError(t, await api(t, env, owner, 'get', `/api/servers/${serverId}/metrics?from=yesterday`), 400, 'BAD_REQUEST');
});

test('metrics: the worker prunes samples older than 30 days, by the service clock', async (t) => {
  const env = await envFor(t);
  const { owner, serverId, token } = await world(t, env);
  const now = env.clock.now();
  await ingest(env, { serverId, token }, [ev.status(now - 5 * minute, { players: 3 })]);
  const old = now - metricsRetentionMs - minute;
  await env.deps.db.query('INSERT INTO server_metrics (server_id, at, online, players) VALUES ($1, $2, true, 7), ($1, $3, true, 8)', [
    serverId,
    new Date(old).toISOString(),
    new Date(now - metricsRetentionMs + minute).toISOString(),
  ]);
  t.true((await pruneMetricsSamples(env.deps)) >= 1);
  const all = await api(t, env, owner, 'get', `/api/servers/${serverId}/metrics?from=${new Date(old - minute).toISOString()}`);
  t.deepEqual(
    all.body.samples.map((s: { players: number }) => s.players),
    [8, 3],
    'only the sample past 30 days went',
  );
});

test('players, leaderboard, kills and bans answer for a session as the Data API answers for a key', async (t) => {
  const env = await envFor(t);
  const { owner, viewer, serverId, token } = await world(t, env);
  const now = env.clock.now();
  await ingest(env, { serverId, token }, [
    ev.presence('player.heartbeat', now - 10_000, 1),
    ev.presence('player.heartbeat', now - 5000, 2),
    ev.kill(now - 4000, 1, 2),
    ev.kill(now - 3000, 1, 3),
    ev.kill(now - 2000, 3, 1),
    ev.status(now - 1000, { players: 2, fps: 55.5 }),
  ]);
  await createBan(
    env.deps,
    owner.accountId,
    { platformId: player(3).platformId, reason: 'teaming' },
    { type: 'user', id: owner.userId, name: owner.username },
  );
  await drainSyncRequests(env.deps);
  const key = (await call(env, owner, 'post', '/api/account/api-keys', { name: 'compare' })).body.key as string;

  for (const path of ['/players', '/leaderboard?sort=kills&limit=2&offset=1', '/kills?limit=2', '/bans?active=true']) {
    const viaSession = await api(t, env, viewer, 'get', `/api/servers/${serverId}${path}`);
    t.is(viaSession.status, 200, path);
    const viaKey = await dataGet(env, { key }, `/servers/${serverId}${path}`);
    // The online list marks whom the account watches (no one here); the Data API's never does.
    const expected =
      path === '/players'
        ? { ...viaKey.body, players: viaKey.body.players.map((p: Record<string, unknown>) => ({ ...p, watched: false })) }
        : viaKey.body;
    t.deepEqual(viaSession.body, expected, `${path} is the Data API's answer`);
  }
  const kills = await api(t, env, viewer, 'get', `/api/servers/${serverId}/kills?limit=2`);
  const older = await api(t, env, viewer, 'get', `/api/servers/${serverId}/kills?limit=2&before=${kills.body.nextCursor}`);
  t.is(older.body.kills.length, 1, 'load older');
  t.is(older.body.nextCursor, null);
  const bans = await api(t, env, viewer, 'get', `/api/servers/${serverId}/bans`);
  t.deepEqual(
    bans.body.bans.map((b: { platformId: string }) => b.platformId),
    [player(3).platformId],
  );
  const board = await api(t, env, viewer, 'get', `/api/servers/${serverId}/leaderboard?limit=1000`);
  t.is(board.body.players.length, 3);

  const list = await api(t, env, viewer, 'get', '/api/servers');
  t.like(list.body.servers[0], { id: serverId, online: true, players: 2, fps: 55.5, metricsAt: new Date(now - 1000).toISOString() });
});

test('the server page reads are scoped to the account and need a session with servers.read', async (t) => {
  const env = await envFor(t);
  const { serverId } = await world(t, env);
  const stranger: Session = await userWithRole(env, 'owner');
  for (const path of ['players', 'leaderboard', 'kills', 'bans', 'metrics']) {
    assertError(t, await api(t, env, stranger, 'get', `/api/servers/${serverId}/${path}`), 404, 'NOT_FOUND');
    assertError(t, await api(t, env, stranger, 'get', `/api/servers/not-a-uuid/${path}`), 404, 'NOT_FOUND');
    assertError(t, await api(t, env, undefined, 'get', `/api/servers/${serverId}/${path}`), 401, 'UNAUTHORIZED');
  }
});
