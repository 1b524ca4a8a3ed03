import test from 'ava';
import { testEnv } from '../helpers/env.ts';
import type { TestEnv } from '../helpers/env.ts';
import { assertSchema, dataGet, ev, ingest, tenant } from '../helpers/seed.ts';

let env: TestEnv;
test.before(async () => {
  env = await testEnv();
});
test.after.always(async () => {
  await env?.close();
});

test('server status shows the latest metrics sample and online within 120 s', async (t) => {
  const a = await tenant(env.deps);
  const now = env.clock.now();
  t.is((await ingest(env, a, [ev.status(now - 1000, { players: 12, fps: 59.5, uptimeSeconds: 600, map: 'chernarusplus', gameVersion: '1.26' })])).status, 200);
  const res = await dataGet(env, a, `/servers/${a.serverId}`);
  t.is(res.status, 200);
  assertSchema(t, 'server-status.json', res.body);
  t.like(res.body, { id: a.serverId, online: true, players: 12, fps: 59.5, uptimeSeconds: 600, map: 'chernarusplus', gameVersion: '1.26' });
  t.is(res.body.metricsAt, new Date(now - 1000).toISOString());
});
