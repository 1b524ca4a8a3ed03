// First run: GET /api/setup/status and POST /api/setup/admin, which works once per
// installation; the operator's owner holds the network permission accounts.manage, owners of
// other communities do not. Every test builds its own world: setup succeeds once per world.
import test from 'ava';
import { password, signIn } from '../helpers/controller.ts';
import { api, envFor } from '../helpers/controller-http.ts';
import { assertError } from '../helpers/data-api.ts';
import { assertSchema } from '../helpers/seed.ts';

const admin = (username = 'operator', accountName = 'Operator') => ({ accountName, username, password });

test('status needs setup on a fresh install; setup creates the account and its owner once, then 409', async (t) => {
  const env = await envFor(t);
  const before = await env.request.get('/api/setup/status');
  t.is(before.status, 200);
  assertSchema(t, 'setup-status.json', before.body);
  t.deepEqual(before.body, { needsSetup: true });

  const res = await env.request.post('/api/setup/admin').send(admin());
  t.is(res.status, 201);
  assertSchema(t, 'account-created.json', res.body);
  t.is(res.body.account.name, 'Operator');
  t.like(res.body.owner, { username: 'operator', role: 'owner', accountId: res.body.account.id });
  t.false(JSON.stringify(res.body).includes(password), 'the answer does not echo the password');

  const after = await env.request.get('/api/setup/status');
  t.is(after.status, 200);
  assertSchema(t, 'setup-status.json', after.body);
  t.deepEqual(after.body, { needsSetup: false });

  // The row is what the answer says: the account is the operator's, the owner is stored hashed.
  const { rows } = await env.deps.db.query<{ role: string; isOperator: boolean; hash: string }>(
    `SELECT u.role, a.is_operator AS "isOperator", u.password_hash AS hash FROM users u JOIN accounts a ON a.id = u.account_id WHERE u.id = $1`,
    [res.body.owner.id],
  );
  t.is(rows.length, 1);
  t.is(rows[0]!.role, 'owner');
  t.true(rows[0]!.isOperator);
  t.regex(rows[0]!.hash, /^scrypt\$/);

  // The owner signs in.
  const login = await env.request.post('/api/auth/login').send({ username: 'operator', password });
  t.is(login.status, 200);
  assertSchema(t, 'login-result.json', login.body);
  t.like(login.body.user, { id: res.body.owner.id, username: 'operator', role: 'owner', accountId: res.body.account.id });
  const session = await signIn(env, 'operator');
  t.is(session.userId, res.body.owner.id);
  t.is(session.accountId, res.body.account.id);

  // Any later call is refused, whatever its body, and creates nothing.
  for (const body of [admin(), admin('someone-else', 'Other'), admin('operator2', 'Operator')]) {
    assertError(t, await env.request.post('/api/setup/admin').send(body), 409, 'CONFLICT', `setup again as ${body.username}`);
  }
  const counts = await env.deps.db.query<{ users: number; accounts: number }>(
    'SELECT (SELECT count(*)::int FROM users) AS users, (SELECT count(*)::int FROM accounts) AS accounts',
  );
  t.deepEqual(counts.rows[0], { users: 1, accounts: 1 });
  t.deepEqual((await env.request.get('/api/setup/status')).body, { needsSetup: false });
});

test('an invalid setup body is a 400 and does not use up the first run', async (t) => {
  const env = await envFor(t);
  assertError(
    t,
    await env.request.post('/api/setup/admin').send({ accountName: 'Operator', username: 'operator', password: 'short' }),
    400,
    'BAD_REQUEST',
  );
  assertError(t, await env.request.post('/api/setup/admin').send({ username: 'operator', password }), 400, 'BAD_REQUEST');
  t.deepEqual((await env.request.get('/api/setup/status')).body, { needsSetup: true });
  t.is((await env.request.post('/api/setup/admin').send(admin())).status, 201);
});

test('concurrent setup calls: exactly one creates the operator, the others answer 409', async (t) => {
  const env = await envFor(t);
  const calls = Array.from({ length: 6 }, (_, i) => env.request.post('/api/setup/admin').send(admin(`operator${i}`, `Operator ${i}`)));
  const answers = await Promise.all(calls);
  const created = answers.filter((r) => r.status === 201);
  t.is(created.length, 1, `statuses ${answers.map((r) => r.status).join(',')}`);
  assertSchema(t, 'account-created.json', created[0]!.body);
  for (const res of answers.filter((r) => r.status !== 201)) assertError(t, res, 409, 'CONFLICT');

  const { rows } = await env.deps.db.query<{ users: number; accounts: number; operators: number }>(
    'SELECT (SELECT count(*)::int FROM users) AS users, (SELECT count(*)::int FROM accounts) AS accounts, (SELECT count(*)::int FROM accounts WHERE is_operator) AS operators',
  );
  t.deepEqual(rows[0], { users: 1, accounts: 1, operators: 1 });
  await t.notThrowsAsync(signIn(env, created[0]!.body.owner.username));
});

test("the operator's owner may add communities (accounts.manage); the owner of an added community may not", async (t) => {
  const env = await envFor(t);
  t.is((await env.request.post('/api/setup/admin').send(admin())).status, 201);
  const operator = await signIn(env, 'operator');

  const res = await api(t, env, operator, 'post', '/api/accounts', { accountName: 'Community A', username: 'owner-a', password });
  t.is(res.status, 201);
  assertSchema(t, 'account-created.json', res.body);
  t.like(res.body.owner, { username: 'owner-a', role: 'owner', accountId: res.body.account.id });
  t.not(res.body.account.id, operator.accountId);

  const ownerA = await signIn(env, 'owner-a');
  t.is(ownerA.accountId, res.body.account.id);
  assertError(
    t,
    await api(t, env, ownerA, 'post', '/api/accounts', { accountName: 'Community B', username: 'owner-b', password }),
    403,
    'FORBIDDEN',
  );
  assertError(t, await api(t, env, ownerA, 'get', '/api/operator/data-api'), 403, 'FORBIDDEN');
  assertError(t, await api(t, env, ownerA, 'put', '/api/operator/data-api', { enabled: false }), 403, 'FORBIDDEN');
  // Nothing was created by the refused call, and the Data API is still on.
  t.is((await env.deps.db.query('SELECT 1 FROM users WHERE username = $1', ['owner-b'])).rowCount, 0);
  t.true(env.deps.runtime.dataApiEnabled);
  // The owner of the community still manages its own account.
  const users = await api(t, env, ownerA, 'get', '/api/users');
  t.is(users.status, 200);
  assertSchema(t, 'user-list.json', users.body);
  t.deepEqual(
    (users.body.users as { username: string }[]).map((u) => u.username),
    ['owner-a'],
  );
  // Adding communities never re-opens setup.
  t.deepEqual((await env.request.get('/api/setup/status')).body, { needsSetup: false });
  assertError(t, await env.request.post('/api/setup/admin').send(admin('late', 'Late')), 409, 'CONFLICT');
});
