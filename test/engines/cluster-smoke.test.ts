// A smoke of the whole API on a Redis Cluster: the service boots against the cluster under test
// (TEST_REDIS_CLUSTER_NODES, scripts/ci/redis-cluster.sh; else a private one of three masters) and
// every major route family answers once, as the OpenAPI description says, with the state it
// keeps in Redis (rate limits, sign-in lockouts, derived state, page and trust caches, locks)
// spread over the masters. A command naming keys of two slots would fail here with CROSSSLOT.
import test from 'ava';
import { Cluster } from 'ioredis';
import { reconcileDerivedState } from '../../src/derived/reconcile.ts';
import { testEnv, testRedisClusterNodes } from '../helpers/env.ts';
import type { TestEnv } from '../helpers/env.ts';
import { api } from '../helpers/controller-http.ts';
import { password, setupOperator, signIn } from '../helpers/controller.ts';
import { privateCluster } from '../helpers/private-cluster.ts';
import type { PrivateCluster } from '../helpers/private-cluster.ts';
import { prefixedKeys } from '../helpers/redis-keys.ts';
import { dataGet, ev, ingest, player } from '../helpers/seed.ts';
import { calculateSlot } from '../helpers/slots.ts';

let own: PrivateCluster | undefined;
let env: TestEnv;
test.before(async () => {
  if (!testRedisClusterNodes) own = await privateCluster(3, 0);
  env = await testEnv({ REDIS_CLUSTER_NODES: testRedisClusterNodes ?? own!.nodes, RATE_AUTH: '100000', RATE_CONTROLLER: '100000' });
});
test.after.always(async () => {
  await env?.close();
  await own?.stop();
});

test('every major route family answers on the cluster', async (t) => {
  t.true(env.deps.redis instanceof Cluster);
  t.is((await env.request.get('/api/health')).status, 200);
  t.is((await api(t, env, undefined, 'get', '/api/setup/status')).status, 200);

  // Sign-in (lockout script), a failed one first.
  t.is((await env.request.post('/api/auth/login').send({ username: 'nobody', password: 'wrong password' })).status, 401);
  const operator = await setupOperator(env);
  t.is((await api(t, env, operator, 'get', '/api/auth/session')).status, 200);
  t.is((await signIn(env, 'operator', password)).username, 'operator');

  // A community with a server, an API key and users.
  const server = await api(t, env, operator, 'post', '/api/servers', { name: 'cluster one' });
  t.is(server.status, 201, JSON.stringify(server.body));
  const serverId = server.body.server?.id ?? server.body.id;
  const token = server.body.ingestToken;
  const key = await api(t, env, operator, 'post', '/api/account/api-keys', { name: 'smoke' });
  t.is(key.status, 201, JSON.stringify(key.body));

  // Ingestion (derived state script, trust drops), then the Data API's reads (page cache, online list).
  const now = env.clock.now();
  const batch = await ingest(env, { serverId, token }, [
    ev.presence('player.connect', now - 30_000, 1),
    ev.kill(now - 20_000, 1, 2),
    ev.kill(now - 10_000, 3, 1),
    ev.status(now - 5000, { map: 'chernarus' }),
  ]);
  t.is(batch.status, 200, JSON.stringify(batch.body));
  t.is(batch.body.accepted, 4);
  const tenant = { key: key.body.key as string };
  for (const path of ['/servers', `/servers/${serverId}`, `/servers/${serverId}/leaderboard`, `/servers/${serverId}/players`]) {
    const res = await dataGet(env, tenant, path);
    t.is(res.status, 200, `${path}: ${JSON.stringify(res.body)}`);
  }
  const board = await dataGet(env, tenant, `/servers/${serverId}/leaderboard?sort=kills`);
  t.deepEqual((board.body.players as { platformId: string; kills: number }[]).map((p) => [p.platformId, p.kills]).slice(0, 2), [
    [player(3).platformId, 1],
    [player(1).platformId, 1],
  ]);

  // The controller's families.
  for (const path of [
    '/api/servers',
    `/api/servers/${serverId}`,
    `/api/servers/${serverId}/players`,
    `/api/servers/${serverId}/leaderboard`,
    `/api/servers/${serverId}/kills`,
    `/api/servers/${serverId}/commands`,
    '/api/players?q=player',
    `/api/players/${player(1).platformId}`,
    '/api/bans',
    '/api/priority-queue',
    '/api/audit',
    '/api/users',
    '/api/accounts',
    '/api/account/api-keys',
    '/api/account/settings',
    '/api/webhooks',
    '/api/trust/submissions',
    '/api/trust/partner-keys',
    '/api/chat/bots',
    '/api/operator/data-api',
  ]) {
    const res = await api(t, env, operator, 'get', path);
    t.is(res.status, 200, `${path}: ${JSON.stringify(res.body)}`);
  }
  const ban = await api(t, env, operator, 'post', '/api/bans', {
    platformId: player(3).platformId,
    reason: 'smoke test',
  });
  t.true([200, 201].includes(ban.status), JSON.stringify(ban.body));

  // The public trust lookup (score script and cache), twice: computed, then cached.
  for (let i = 0; i < 2; i++) t.is((await env.request.get(`/api/v1/trust/${player(1).platformId}`)).status, 200);

  // A rebuild through the operator and the worker's reconcile job (rebuild transaction, job lock).
  t.true([200, 202].includes((await api(t, env, operator, 'post', '/api/operator/rebuild')).status));
  await reconcileDerivedState(env.deps);
  t.is((await dataGet(env, tenant, `/servers/${serverId}/leaderboard`)).status, 200);

  // The keys the service wrote are spread over more than one slot (over the masters).
  const prefix = env.deps.config.redisPrefix;
  const keys = await prefixedKeys(env.deps);
  t.true(keys.length > 5, keys.join(' '));
  t.true(new Set(keys.map((k) => calculateSlot(prefix + k))).size > 1);
});
