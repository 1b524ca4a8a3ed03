// Ids in paths are normalised once, at the edge: an upper-cased UUID is the same id on every
// route, so no rule that compares ids (yourself, your account's server) can be stepped around.
import test from 'ava';
import { registerServer } from '../../src/servers/server.ts';
import { setupOperator } from '../helpers/controller.ts';
import { api, envFor } from '../helpers/controller-http.ts';
import { assertError } from '../helpers/data-api.ts';
import { ev, ingest, tenant } from '../helpers/seed.ts';

test('deleting yourself by an upper-cased id is refused like the lower-case one', async (t) => {
  const env = await envFor(t);
  const owner = await setupOperator(env);
  assertError(t, await api(t, env, owner, 'delete', `/api/users/${owner.userId.toUpperCase()}`), 409, 'CONFLICT');
  t.is((await api(t, env, owner, 'get', '/api/users')).body.users.length, 1, 'still there');
});

test('an upper-cased server id reaches the same server on the controller, Data API and ingestion routes', async (t) => {
  const env = await envFor(t);
  const owner = await setupOperator(env);
  const { server, ingestToken } = await registerServer(env.deps, owner.accountId, { name: 'upper' });
  const upper = server.id.toUpperCase();
  const got = await api(t, env, owner, 'get', `/api/servers/${upper}`);
  t.is(got.status, 200);
  t.is(got.body.id, server.id);
  const pushed = await ingest(env, { serverId: upper, token: ingestToken }, [ev.kill(env.clock.now() - 1000, 1, 2)]);
  t.is(pushed.status, 200);
  const a = await tenant(env.deps);
  // Another account's server stays 404 in any case.
  assertError(t, await api(t, env, owner, 'get', `/api/servers/${a.serverId.toUpperCase()}`), 404, 'NOT_FOUND');
});
