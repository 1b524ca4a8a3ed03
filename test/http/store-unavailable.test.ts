import test from 'ava';
import supertest from 'supertest';
import { createApp } from '../../src/app.ts';
import { createDeps } from '../../src/deps.ts';
import { testEnv } from '../helpers/env.ts';
import type { TestEnv } from '../helpers/env.ts';
import { assertSchema, tenant } from '../helpers/seed.ts';
import type { Tenant } from '../helpers/seed.ts';

// The same database, but a Redis that is not there (nothing listens on port 1).
let env: TestEnv;
let a: Tenant;
let request: ReturnType<typeof supertest>;
let closeBroken: () => Promise<void>;
test.before(async () => {
  env = await testEnv();
  a = await tenant(env.deps);
  const broken = createDeps(
    { ...env.deps.config, redisUrl: 'redis://127.0.0.1:1', redisClusterNodes: undefined },
    { clock: env.clock, log: env.deps.log },
  );
  request = supertest(createApp(broken).callback());
  closeBroken = async () => {
    broken.redis.disconnect();
    await broken.db.end();
  };
});
test.after.always(async () => {
  await closeBroken?.();
  await env?.close();
});

test('health reports Redis down and PostgreSQL up with 503', async (t) => {
  const res = await request.get('/api/health');
  t.is(res.status, 503);
  assertSchema(t, 'health.json', res.body);
  t.deepEqual(res.body, { status: 'degraded', postgres: 'up', redis: 'down' });
});

test('a Data API read of Redis state answers 503 STORE_UNAVAILABLE, the limiter fails open', async (t) => {
  const res = await request.get(`/api/v1/data/servers/${a.serverId}`).set('X-Service-Api-Key', a.key);
  t.is(res.status, 503);
  assertSchema(t, 'error.json', res.body);
  t.is(res.body.error, 'STORE_UNAVAILABLE');
});

test('a Data API read of PostgreSQL only still answers while Redis is down', async (t) => {
  const res = await request.get('/api/v1/data/servers').set('X-Service-Api-Key', a.key);
  t.is(res.status, 200);
  t.is(res.body.servers.length, 1);
});
