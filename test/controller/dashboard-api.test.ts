// Controller reads the dashboard builds on: who is signed in and what their role allows
// (GET /api/auth/session, and GET /api/auth/signed-in, never a 401), the network's communities (GET /api/accounts), and the audit log
// filtered by actor and action.
import test from 'ava';
import { password, setupOperator, signIn, userWithRole } from '../helpers/controller.ts';
import { api, browserCall, call, envFor } from '../helpers/controller-http.ts';
import { assertError } from '../helpers/data-api.ts';

test('the session says who is signed in, their community and exactly their permissions', async (t) => {
  const env = await envFor(t);
  const operator = await setupOperator(env);
  const own = await api(t, env, operator, 'get', '/api/auth/session');
  t.is(own.status, 200);
  t.like(own.body, { user: { id: operator.userId, username: 'operator', role: 'owner' }, account: { name: 'Operator', operator: true } });
  t.true(own.body.permissions.includes('trust.moderate'));
  t.true(own.body.permissions.includes('users.manage'));

  const viewer = await userWithRole(env, 'viewer');
  const seen = await browserCall(env, viewer, 'get', '/api/auth/session');
  t.is(seen.status, 200);
  t.deepEqual(seen.body.permissions, ['servers.read', 'trust.read']);
  t.like(seen.body, { user: { role: 'viewer' }, account: { id: viewer.accountId, operator: false } });
  const moderator = await userWithRole(env, 'moderator');
  t.deepEqual((await api(t, env, moderator, 'get', '/api/auth/session')).body.permissions, [
    'servers.read',
    'bans.manage',
    'queue.manage',
    'trust.read',
    'trust.submit',
  ]);

  await browserCall(env, viewer, 'post', '/api/auth/logout');
  assertError(t, await browserCall(env, viewer, 'get', '/api/auth/session'), 401, 'UNAUTHORIZED');
});

test('signed-in answers 200 either way: false without a live session, else the session exactly as GET /api/auth/session has it', async (t) => {
  const env = await envFor(t);
  const operator = await setupOperator(env);
  t.deepEqual((await api(t, env, undefined, 'get', '/api/auth/signed-in')).body, { signedIn: false });
  t.deepEqual((await call(env, { token: 'not-a-session' }, 'get', '/api/auth/signed-in')).body, { signedIn: false });
  const own = await api(t, env, operator, 'get', '/api/auth/signed-in');
  t.deepEqual(own.body, { signedIn: true, session: (await api(t, env, operator, 'get', '/api/auth/session')).body });
  const viewer = await userWithRole(env, 'viewer');
  const seen = await browserCall(env, viewer, 'get', '/api/auth/signed-in');
  t.is(seen.status, 200);
  t.like(seen.body, { signedIn: true, session: { user: { role: 'viewer' }, permissions: ['servers.read', 'trust.read'] } });
  await browserCall(env, viewer, 'post', '/api/auth/logout');
  const after = await browserCall(env, viewer, 'get', '/api/auth/signed-in');
  t.is(after.status, 200);
  t.deepEqual(after.body, { signedIn: false }, 'a session that ended is no session');
});

test('the operator lists every community with its live servers; nobody else may', async (t) => {
  const env = await envFor(t);
  const operator = await setupOperator(env);
  const created = await api(t, env, operator, 'post', '/api/accounts', {
    accountName: 'Livonia Friends',
    username: 'livonia-owner',
    password,
  });
  t.is(created.status, 201);
  const owner = await signIn(env, 'livonia-owner');
  await api(t, env, owner, 'post', '/api/servers', { name: 'one' });
  const list = await api(t, env, operator, 'get', '/api/accounts');
  t.is(list.status, 200);
  t.deepEqual(
    list.body.accounts.map((a: { name: string; isOperator: boolean; servers: number }) => [a.name, a.isOperator, a.servers]),
    [
      ['Operator', true, 0],
      ['Livonia Friends', false, 1],
    ],
  );
  assertError(t, await api(t, env, owner, 'get', '/api/accounts'), 403, 'FORBIDDEN');
});

test('the audit log filters by actor (name in any case, or id) and by action or kind of action', async (t) => {
  const env = await envFor(t);
  const owner = await userWithRole(env, 'owner');
  const admin = await userWithRole(env, 'admin', owner.accountId);
  await api(t, env, owner, 'post', '/api/servers', { name: 'by owner' });
  const made = await api(t, env, admin, 'post', '/api/servers', { name: 'by admin' });
  await api(t, env, admin, 'patch', `/api/servers/${made.body.server.id}`, { name: 'renamed' });
  await api(t, env, admin, 'post', '/api/account/api-keys', { name: 'site' });

  const actions = async (query: string) => {
    const res = await api(t, env, owner, 'get', `/api/audit?${query}`);
    t.is(res.status, 200, query);
    return res.body.entries.map((e: { action: string; actor: { name: string } }) => `${e.actor.name} ${e.action}`);
  };
  t.deepEqual(await actions(`actor=${admin.username.toUpperCase()}`), [
    `${admin.username} apikey.create`,
    `${admin.username} server.update`,
    `${admin.username} server.create`,
    `${admin.username} auth.login`,
  ]);
  t.deepEqual(await actions(`actor=${admin.userId}&action=server`), [`${admin.username} server.update`, `${admin.username} server.create`]);
  t.deepEqual(await actions('action=server.create'), [`${admin.username} server.create`, `${owner.username} server.create`]);
  t.deepEqual(await actions('action=serv'), [], 'a kind is a whole word before the dot');
  t.deepEqual(await actions('actor=nobody'), []);
  // Paging keeps the filter.
  const first = await api(t, env, owner, 'get', '/api/audit?action=server&limit=2');
  const next = await api(t, env, owner, 'get', `/api/audit?action=server&limit=2&before=${first.body.nextCursor}`);
  t.deepEqual(
    next.body.entries.map((e: { action: string }) => e.action),
    ['server.create'],
  );
  t.is(next.body.nextCursor, null);
  assertError(t, await api(t, env, owner, 'get', '/api/audit?action=a%20b'), 400, 'BAD_REQUEST');
});
