// Readiness during a shutdown's drain: once markDraining() is called (by SIGTERM's handler) the
// process answers readiness 503 so a balancer sends requests elsewhere, while liveness and the
// health check still answer 200 (it is finishing what is in flight). A file of its own: the flag
// belongs to the process and is never lowered again.
import test from 'ava';
import { isDraining, markDraining } from '../../src/health/draining.ts';
import { testEnv } from '../helpers/env.ts';
import { assertSchema } from '../helpers/seed.ts';

test('draining: readiness 503 with draining true; liveness and the health check still 200', async (t) => {
  const env = await testEnv();
  t.teardown(() => env.close());
  t.is((await env.request.get('/api/health/ready')).status, 200);
  t.false(isDraining());
  markDraining();
  t.true(isDraining());
  const ready = await env.request.get('/api/health/ready');
  t.is(ready.status, 503);
  assertSchema(t, 'health-ready.json', ready.body);
  t.like(ready.body, { status: 'not_ready', postgres: 'up', redis: 'up', migrations: 'applied', draining: true });
  t.is((await env.request.get('/api/health/live')).status, 200);
  t.is((await env.request.get('/api/health')).status, 200);
});
