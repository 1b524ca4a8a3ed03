// The service on a Redis Cluster of its own (three masters, one replica each) through the faults
// that matter: pub/sub crosses nodes (a publish reaches a subscriber connected elsewhere, and
// cache drops reach every process), and a master stopped mid-traffic is replaced by its replica:
// ingestion and reads fail at most for the few requests in flight while no master serves the
// slot, and the derived state converges to PostgreSQL afterwards (the reconcile job).
import test from 'ava';
import { setTimeout as delay } from 'node:timers/promises';
import { Cluster } from 'ioredis';
import { closeDeps, connectDeps, createDeps } from '../../src/deps.ts';
import type { Deps } from '../../src/deps.ts';
import { lagGraceMs, reconcileDerivedState } from '../../src/derived/reconcile.ts';
import { invalidate, invalidationChannel } from '../../src/store/invalidation.ts';
import { serverKeys } from '../../src/store/keys.ts';
import { connectRedis, createRedis } from '../../src/store/redis.ts';
import { testEnv } from '../helpers/env.ts';
import type { TestEnv } from '../helpers/env.ts';
import { privateCluster, untilOk } from '../helpers/private-cluster.ts';
import type { PrivateCluster } from '../helpers/private-cluster.ts';
import { dataGet, ev, ingest, tenant } from '../helpers/seed.ts';
import { calculateSlot } from '../helpers/slots.ts';

let cluster: PrivateCluster;
let env: TestEnv;
/** A second process of the same service: its own clients, caches and subscriber. */
let other: Deps;
const dropped: string[] = [];

test.before(async () => {
  cluster = await privateCluster(3, 1);
  env = await testEnv({ REDIS_CLUSTER_NODES: cluster.nodes });
  other = createDeps(env.deps.config, { clock: env.clock, log: env.deps.log });
  other.cacheDrops.on('probe', (keys) => dropped.push(...keys));
  await connectDeps(other);
});
test.after.always(async () => {
  if (other) await closeDeps(other);
  await env?.close();
  await cluster?.stop();
});

/** Waits (real time: the message crosses the cluster bus) until the other process dropped the key. */
async function droppedInOther(key: string, timeoutMs = 10_000): Promise<boolean> {
  for (let waitedMs = 0; waitedMs < timeoutMs; waitedMs += 20) {
    if (dropped.includes(key)) return true;
    await delay(20);
  }
  return false;
}

test.serial('the service runs on the Cluster client', (t) => {
  t.true(env.deps.redis instanceof Cluster);
  t.true(other.redis instanceof Cluster);
});

test.serial("pub/sub crosses nodes: a publish on any master reaches the other process's subscriber, and so do cache drops", async (t) => {
  await invalidate(env.deps, { cache: 'probe', key: 'through-the-service' });
  t.true(await droppedInOther('through-the-service'));
  // The subscriber is connected to one node; a message published on each node reaches it.
  for (const member of cluster.members) {
    const key = `published-on-${member.port}`;
    await member.admin.publish(invalidationChannel(env.deps), JSON.stringify({ cache: 'probe', key, from: 'elsewhere' }));
    t.true(await droppedInOther(key), `published on ${member.port}`);
  }
});

test.serial("pub/sub keeps a process's order: changes published one after another arrive in that order", async (t) => {
  const heard: string[] = [];
  other.cacheDrops.on('order', (keys) => heard.push(...keys));
  const sent = Array.from({ length: 300 }, (_, i) => String(i));
  // Each in a tick of its own, none waiting for the one before (as concurrent requests make them).
  const published: Promise<void>[] = [];
  for (const key of sent) {
    published.push(invalidate(env.deps, { cache: 'order', key }));
    await new Promise((resolve) => setImmediate(resolve));
  }
  await Promise.all(published);
  for (let waitedMs = 0; heard.length < sent.length && waitedMs < 10_000; waitedMs += 20) await delay(20);
  t.deepEqual(heard, sent);
});

test.serial('a cluster that stops answering: a command fails after the command timeout, as with one Redis', async (t) => {
  const masters = [];
  for (const member of cluster.members) if ((await member.admin.info('replication')).includes('role:master')) masters.push(member);
  await Promise.all(masters.map((m) => m.admin.call('CLIENT', 'PAUSE', '4000', 'ALL')));
  const started = Date.now();
  await t.throwsAsync(env.deps.redis.get('paused'), { message: /timed out/ });
  const waitedMs = Date.now() - started;
  t.true(waitedMs >= 1900 && waitedMs < 3900, `failed after ${waitedMs} ms`);
  await Promise.all(masters.map((m) => m.admin.call('CLIENT', 'UNPAUSE')));
  t.is(await env.deps.redis.get('paused'), null);
});

test.serial('a start while the cluster does not answer yet waits for it instead of failing', async (t) => {
  const [node] = cluster.members.filter((m) => m.admin.status === 'ready');
  const client = createRedis({
    redisUrl: 'redis://unused',
    redisClusterNodes: [{ host: '127.0.0.1', port: node!.port }],
    redisPrefix: 'start:',
  });
  t.teardown(() => client.disconnect());
  // Its only startup node answers nothing for 4 s: the first fetch of the slots times out.
  await node!.admin.call('CLIENT', 'PAUSE', '4000', 'ALL');
  const started = Date.now();
  await connectRedis(client);
  t.true(Date.now() - started >= 2000, 'the first connect failed and was waited past');
  t.is(await client.ping(), 'PONG');
});

test.serial(
  'a master stopped mid-traffic: its replica takes over, at most the requests in flight fail, and the derived state converges',
  async (t) => {
    const a = await tenant(env.deps);
    const now = env.clock.now();
    t.is((await ingest(env, a, [ev.kill(now - 60_000, 1, 2)])).status, 200);
    const slot = calculateSlot(env.deps.config.redisPrefix + serverKeys(a.serverId).players);
    const master = await cluster.masterOf(slot);
    await master.kill();
    const survivor = cluster.members.find((m) => m !== master)!;

    // Traffic as a game server and a reader make it, one request after another, through the failover.
    let failed = 0;
    let acknowledged = 1;
    let promoted = false;
    const started = Date.now();
    for (let round = 0, okAfter = 0; okAfter < 5 && Date.now() - started < 30_000; round++) {
      const batch = await ingest(env, a, [ev.kill(now - 50_000 + round, 1 + (round % 3), 4)]);
      const read = await dataGet(env, a, `/servers/${a.serverId}/leaderboard?limit=10`);
      if (batch.status === 200) acknowledged++;
      if (batch.status !== 200 || ![200, 503].includes(read.status)) failed++;
      promoted ||= (await cluster.masterOf(slot).catch(() => master)) !== master;
      okAfter = promoted && batch.status === 200 && read.status === 200 ? okAfter + 1 : 0;
    }
    t.true(promoted, 'the replica became master');
    await untilOk(survivor);
    t.log(`failover: ${failed} failed request pairs, ${acknowledged} batches acknowledged in ${Date.now() - started} ms`);
    t.true(failed <= 3, `${failed} rounds failed`);

    // Whatever the stopped master had not passed on is rebuilt from PostgreSQL.
    await reconcileDerivedState(env.deps);
    env.clock.advance(lagGraceMs);
    await reconcileDerivedState(env.deps);
    const { rows } = await env.deps.db.query<{ kills: number }>(
      'SELECT coalesce(sum(kills), 0)::int AS kills FROM server_players WHERE server_id = $1',
      [a.serverId],
    );
    t.is(rows[0]!.kills, acknowledged, 'every acknowledged batch is in PostgreSQL');
    const board = await dataGet(env, a, `/servers/${a.serverId}/leaderboard?limit=10`);
    t.is(board.status, 200, JSON.stringify(board.body));
    const shown = (board.body.players as { kills: number }[]).reduce((sum, p) => sum + p.kills, 0);
    t.is(shown, acknowledged, 'the leaderboard shows every acknowledged kill');

    // The subscribers followed the failover too.
    await invalidate(env.deps, { cache: 'probe', key: 'after-the-failover' });
    t.true(await droppedInOther('after-the-failover'));
  },
);
