// Liveness and readiness: liveness answers while the process runs, whatever its stores do;
// readiness is 503 while the primary PostgreSQL or Redis is down or a migration of this build has
// not run, and reports the read replica without ever failing on it.
import test from 'ava';
import type { ExecutionContext } from 'ava';
import supertest from 'supertest';
import { createApp } from '../../src/app.ts';
import type { Config } from '../../src/config.ts';
import { closeDeps, createDeps } from '../../src/deps.ts';
import { testEnv, testDatabaseUrl } from '../helpers/env.ts';
import type { TestEnv } from '../helpers/env.ts';
import { assertSchema } from '../helpers/seed.ts';
import { testDatabaseReadUrl } from '../helpers/replica.ts';

let env: TestEnv;
test.before(async () => {
  env = await testEnv();
});
test.after.always(async () => {
  await env?.close();
});

/** Nothing listens on port 1: connections are refused at once. */
const refused = (url: string) => {
  const u = new URL(url);
  u.port = '1';
  return u.toString();
};

/** The service of the test world with some configuration changed, and its two health answers. */
async function probes(t: ExecutionContext, change: Partial<Config>) {
  const deps = createDeps({ ...env.deps.config, ...change }, { clock: env.clock, log: env.deps.log });
  t.teardown(() => closeDeps(deps));
  // Its Redis client connects as a started service's does (a broken one is left to fail its probe).
  if (!change.redisUrl) await deps.redis.connect();
  const request = supertest(createApp(deps).callback());
  const ready = await request.get('/api/health/ready');
  const live = await request.get('/api/health/live');
  assertSchema(t, 'health-ready.json', ready.body);
  t.is(live.status, 200, 'liveness answers whatever the stores do');
  t.deepEqual(live.body, { status: 'alive' });
  return ready;
}

test('ready: every store answers and every migration ran; the replica is reported', async (t) => {
  const ready = await env.request.get('/api/health/ready');
  t.is(ready.status, 200);
  assertSchema(t, 'health-ready.json', ready.body);
  t.deepEqual(ready.body, {
    status: 'ready',
    postgres: 'up',
    redis: 'up',
    migrations: 'applied',
    draining: false,
    readReplica: testDatabaseReadUrl ? 'up' : 'none',
  });
  const live = await env.request.get('/api/health/live');
  t.is(live.status, 200);
  assertSchema(t, 'health-live.json', live.body);
});

test('not ready while Redis is down', async (t) => {
  const ready = await probes(t, { redisUrl: 'redis://127.0.0.1:1' });
  t.is(ready.status, 503);
  t.like(ready.body, { status: 'not_ready', postgres: 'up', redis: 'down', migrations: 'applied' });
});

test('not ready while the primary PostgreSQL is down (migrations then unknown)', async (t) => {
  const ready = await probes(t, { databaseUrl: refused(testDatabaseUrl) });
  t.is(ready.status, 503);
  t.like(ready.body, { status: 'not_ready', postgres: 'down', redis: 'up', migrations: 'unknown' });
});

test('not ready while a migration of this build has not run, in a schema never migrated or one left behind', async (t) => {
  const empty = `t_empty_${Date.now().toString(36)}`;
  await env.deps.db.query(`CREATE SCHEMA ${empty}`);
  t.teardown(() => env.deps.db.query(`DROP SCHEMA ${empty} CASCADE`));
  const fresh = await probes(t, { databaseSchema: empty });
  t.is(fresh.status, 503);
  t.like(fresh.body, { status: 'not_ready', postgres: 'up', migrations: 'pending' });

  const behind = `t_behind_${Date.now().toString(36)}`;
  await env.deps.db.query(`CREATE SCHEMA ${behind}`);
  t.teardown(() => env.deps.db.query(`DROP SCHEMA ${behind} CASCADE`));
  await env.deps.db.query(`CREATE TABLE ${behind}.schema_migrations AS SELECT * FROM schema_migrations ORDER BY name DESC OFFSET 1`);
  const older = await probes(t, { databaseSchema: behind });
  t.is(older.status, 503);
  t.like(older.body, { migrations: 'pending' });
});

test('a read replica that is down is reported, and the process stays ready (its reads go to the primary)', async (t) => {
  const ready = await probes(t, { databaseReadUrl: refused(testDatabaseUrl) });
  t.is(ready.status, 200);
  t.like(ready.body, { status: 'ready', readReplica: 'down' });
});
