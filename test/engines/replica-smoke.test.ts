// A smoke of the whole API against a real streaming replica (TEST_DATABASE_READ_URL, made by
// scripts/ci/pg-replica.sh): the controller and ingestion write to the primary, the Data API, the
// trust lookup and the export read through the replica, readiness reports it, and the reads that
// go to it are shown to: a server registered while replay is paused is missing from the Data API's
// server list until the replica replays it. Skipped without a replica (it runs in the "engines" CI stage).
import test from 'ava';
import supertest from 'supertest';
import { createApp } from '../../src/app.ts';
import { registerServer } from '../../src/servers/server.ts';
import { testEnv } from '../helpers/env.ts';
import { setupOperator, userWithRole } from '../helpers/controller.ts';
import { api } from '../helpers/controller-http.ts';
import { assertSchema, dataGet, ev, ingest, player, tenant } from '../helpers/seed.ts';
import { decide, feedSettled, submit } from '../helpers/trust.ts';
import { replicaCaughtUp, testDatabaseReadUrl } from '../helpers/replica.ts';

const replicaTest = testDatabaseReadUrl ? test : test.skip;

replicaTest('the whole API with a read replica: writes on the primary, reads through the replica', async (t) => {
  const env = await testEnv({ RATE_AUTH: '100000', RATE_CONTROLLER: '100000' });
  t.teardown(() => env.close());
  t.not(env.deps.readDb, env.deps.db);
  const a = await tenant(env.deps, 'partner');
  const now = env.clock.now();

  // Ingestion and the controller write to the primary.
  const batch = await ingest(env, a, [
    ev.status(now - 5000, { players: 2 }),
    ev.presence('player.connect', now - 4000, 1),
    ev.presence('player.connect', now - 4000, 2),
    ...Array.from({ length: 5 }, (_, i) => ev.kill(now - 3000 + i, 1, 2)),
  ]);
  t.is(batch.status, 200, JSON.stringify(batch.body));

  // The Data API: every route, the killfeed walked to its end.
  const servers = await dataGet(env, a, '/servers');
  t.is(servers.status, 200);
  assertSchema(t, 'server-list.json', servers.body);
  t.deepEqual(
    servers.body.servers.map((s: { id: string }) => s.id),
    [a.serverId],
  );
  for (const [path, schema] of [
    [`/servers/${a.serverId}`, 'server-status.json'],
    [`/servers/${a.serverId}/players`, 'online-players.json'],
    [`/servers/${a.serverId}/leaderboard`, 'leaderboard-page.json'],
    [`/servers/${a.serverId}/bans`, 'ban-list.json'],
  ] as const) {
    const res = await dataGet(env, a, path);
    t.is(res.status, 200, path);
    assertSchema(t, schema, res.body);
  }
  const kills: string[] = [];
  for (let query = '?limit=2'; ;) {
    const res = await dataGet(env, a, `/servers/${a.serverId}/kills${query}`);
    t.is(res.status, 200);
    assertSchema(t, 'killfeed-page.json', res.body);
    kills.push(...res.body.kills.map((k: { ts: string }) => k.ts));
    if (res.body.nextCursor === null) break;
    query = `?limit=2&before=${encodeURIComponent(res.body.nextCursor)}`;
  }
  t.is(kills.length, 5);
  t.is(new Set(kills).size, 5);

  // The trust network: a pool entry, the lookup, the public entries, the partner export.
  const operator = await setupOperator(env);
  const community = await userWithRole(env, 'owner');
  const entry = await submit(env, community, { platformId: player(2).platformId });
  await decide(env, operator, String(entry.id), 'approve');
  await feedSettled(env);
  const lookup = await env.request.get(`/api/v1/trust/${player(2).platformId}`);
  t.is(lookup.status, 200);
  assertSchema(t, 'trust-score.json', lookup.body);
  const entries = await env.request.get(`/api/v1/trust/${player(2).platformId}/entries`);
  t.is(entries.status, 200);
  t.is(entries.body.entries.length, 1);
  const partner = await api(t, env, operator, 'post', '/api/trust/partner-keys', { name: 'partner', tier: 'basic' });
  const exported = await env.request.get('/api/v1/trust/export').set('Authorization', `Bearer ${partner.body.key as string}`);
  t.is(exported.status, 200);
  assertSchema(t, 'trust-export-page.json', exported.body);
  t.deepEqual(
    exported.body.rows.map((r: { id: string }) => r.id),
    [entry.id],
  );

  const ready = await env.request.get('/api/health/ready');
  t.is(ready.status, 200);
  t.like(ready.body, { status: 'ready', readReplica: 'up' });

  // The server list is the replica's: a server registered while its replay is paused is not in it
  // (answered without waiting for replay), and is once the replica has replayed it.
  const direct = supertest(createApp(env.deps).callback());
  await replicaCaughtUp(env.deps);
  await env.deps.readDb.query('SELECT pg_wal_replay_pause()');
  const resume = () => env.deps.readDb.query('SELECT pg_wal_replay_resume()').then(() => undefined);
  t.teardown(resume);
  const { server: second } = await registerServer(env.deps, a.accountId, { name: 'server two' });
  const paused = await direct.get('/api/v1/data/servers').set('Authorization', `Bearer ${a.key}`);
  t.deepEqual(
    paused.body.servers.map((s: { id: string }) => s.id),
    [a.serverId],
    'read from the paused replica',
  );
  const status = await direct.get(`/api/v1/data/servers/${second.id}`).set('Authorization', `Bearer ${a.key}`);
  t.is(status.status, 200, "a server's own status comes from Redis or the primary, never behind its registration");
  await resume();
  await replicaCaughtUp(env.deps);
  const resumed = await direct.get('/api/v1/data/servers').set('Authorization', `Bearer ${a.key}`);
  t.deepEqual(resumed.body.servers.map((s: { id: string }) => s.id).sort(), [a.serverId, second.id].sort());
});
