// Revocation reaches every web process at once (an invalidation message through Redis), not after
// their caches expire; and revoking what is already revoked is a 404 that writes nothing.
import test from 'ava';
import type { ExecutionContext } from 'ava';
import supertest from 'supertest';
import { createApp } from '../../src/app.ts';
import { closeDeps, connectDeps, createDeps } from '../../src/deps.ts';
import { revokeApiKey } from '../../src/accounts/api-key.ts';
import { revokeServer, rotateIngestToken } from '../../src/servers/server.ts';
import { setupOperator } from '../helpers/controller.ts';
import { api, envFor } from '../helpers/controller-http.ts';
import type { TestEnv } from '../helpers/env.ts';
import { assertError } from '../helpers/data-api.ts';
import { ev, tenant } from '../helpers/seed.ts';

/** A second web process on the same stores, with caches that would hold for a minute. */
async function secondProcess(t: ExecutionContext, env: TestEnv) {
  const deps = createDeps({ ...env.deps.config, authCacheMs: 60_000 }, { clock: env.clock, log: env.deps.log });
  t.teardown(() => closeDeps(deps));
  await connectDeps(deps);
  return supertest(createApp(deps).callback());
}

async function eventually(check: () => Promise<boolean>): Promise<boolean> {
  for (let i = 0; i < 100; i++) {
    if (await check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return false;
}

test('an API key revoked in one process (the CLI) stops working in another process at once', async (t) => {
  const env = await envFor(t);
  const other = await secondProcess(t, env);
  const a = await tenant(env.deps);
  const read = () => other.get('/api/v1/data/servers').set('X-Service-Api-Key', a.key);
  t.is((await read()).status, 200, 'resolved and cached by the other process');
  t.true(await revokeApiKey(env.deps, a.accountId, a.keyId));
  t.true(await eventually(async () => (await read()).status === 401), 'the other process refuses it without waiting for its cache');
});

test('a server revoked or its token rotated in one process is refused by another at once', async (t) => {
  const env = await envFor(t);
  const other = await secondProcess(t, env);
  const a = await tenant(env.deps);
  const push = (token: string) =>
    other
      .post(`/api/servers/${a.serverId}/events`)
      .set('Authorization', `Bearer ${token}`)
      .send({ events: [ev.status(env.clock.now())] });
  t.is((await push(a.token)).status, 200);
  const rotated = (await rotateIngestToken(env.deps, a.accountId, a.serverId))!;
  t.true(await eventually(async () => (await push(a.token)).status === 401), 'the old token is refused');
  t.is((await push(rotated)).status, 200);
  t.true(await revokeServer(env.deps, a.accountId, a.serverId));
  t.true(await eventually(async () => (await push(rotated)).status === 401), 'a revoked server is refused');
});

test('revoking a key that is already revoked answers 404 and writes no second audit entry', async (t) => {
  const env = await envFor(t);
  const owner = await setupOperator(env);
  const created = await api(t, env, owner, 'post', '/api/account/api-keys', { name: 'to revoke' });
  t.is((await api(t, env, owner, 'delete', `/api/account/api-keys/${created.body.id}`)).status, 204);
  assertError(t, await api(t, env, owner, 'delete', `/api/account/api-keys/${created.body.id}`), 404, 'NOT_FOUND');
  const { rows } = await env.deps.db.query<{ n: number }>("SELECT count(*)::int AS n FROM audit_log WHERE action = 'apikey.revoke'");
  t.is(rows[0]!.n, 1);
});
