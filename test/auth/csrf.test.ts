import test from 'ava';
import type { ExecutionContext } from 'ava';
import type { Response } from 'supertest';
import { csrfExempt } from '../../src/auth/authenticate.ts';
import { testEnv } from '../helpers/env.ts';
import type { TestEnv } from '../helpers/env.ts';
import { password, setupOperator, signIn } from '../helpers/controller.ts';
import type { Session } from '../helpers/controller.ts';
import { assertSchema } from '../helpers/seed.ts';

// CSRF for cookie sessions: every POST, PUT, PATCH, DELETE outside the exempt paths must echo the
// session's csrf-token in X-CSRF-Token. No test moves the clock, so they share one environment.

let env: TestEnv;
let operator: Session;
test.before(async () => {
  env = await testEnv({ RATE_AUTH: '100000', RATE_CONTROLLER: '100000' });
  operator = await setupOperator(env);
});
test.after.always(async () => {
  await env?.close();
});

type Method = 'post' | 'put' | 'patch' | 'delete';

/** A call with the session's cookies; csrf undefined sends no X-CSRF-Token header. */
function withCookie(session: Session, method: Method | 'get', path: string, csrf?: string, body?: object) {
  let req = env.request[method](path).set('Cookie', session.cookie);
  if (csrf !== undefined) req = req.set('X-CSRF-Token', csrf);
  if (body !== undefined) req = req.send(body);
  return req;
}

function assertCsrfMismatch(t: ExecutionContext, res: Response, note: string): void {
  t.is(res.status, 403, `${note}: ${res.status} ${JSON.stringify(res.body)}`);
  assertSchema(t, 'error.json', res.body);
  t.is(res.body.error, 'csrf-mismatch', note);
}

async function newServer(name = 'csrf target'): Promise<string> {
  const res = await env.request.post('/api/servers').set('Authorization', `Bearer ${operator.token}`).send({ name });
  if (res.status !== 201) throw new Error(`server creation failed: ${res.status}`);
  return res.body.server.id;
}

const serverNames = async () =>
  ((await env.request.get('/api/servers').set('Authorization', `Bearer ${operator.token}`)).body.servers as { name: string }[]).map(
    (s) => s.name,
  );

/** A wrong token of the right shape (the same length as a real one) and a few of other shapes. */
const wrongTokens = (session: Session) => [
  `${session.csrf.slice(0, -1)}${session.csrf.endsWith('A') ? 'B' : 'A'}`,
  '',
  'x',
  session.token,
  session.csrf.toUpperCase(),
];

test('POST /api/servers with a cookie: no token or a wrong one is 403 csrf-mismatch, the right one passes', async (t) => {
  const session = await signIn(env, 'operator');
  assertCsrfMismatch(t, await withCookie(session, 'post', '/api/servers', undefined, { name: 'no token' }), 'no token');
  for (const wrong of wrongTokens(session)) {
    assertCsrfMismatch(
      t,
      await withCookie(session, 'post', '/api/servers', wrong, { name: 'wrong token' }),
      `token ${JSON.stringify(wrong.slice(0, 12))}`,
    );
  }
  const names = await serverNames();
  t.false(names.includes('no token') || names.includes('wrong token'), 'refused requests change nothing');
  const ok = await withCookie(session, 'post', '/api/servers', session.csrf, { name: 'right token' });
  t.is(ok.status, 201);
  t.true((await serverNames()).includes('right token'));
});

test('PATCH /api/servers/:id with a cookie needs the token', async (t) => {
  const session = await signIn(env, 'operator');
  const id = await newServer('patch me');
  assertCsrfMismatch(t, await withCookie(session, 'patch', `/api/servers/${id}`, undefined, { name: 'patched without' }), 'no token');
  for (const wrong of wrongTokens(session)) {
    assertCsrfMismatch(t, await withCookie(session, 'patch', `/api/servers/${id}`, wrong, { name: 'patched wrong' }), 'wrong token');
  }
  const unchanged = await env.request.get(`/api/servers/${id}`).set('Cookie', session.cookie);
  t.is(unchanged.body.name, 'patch me');
  const ok = await withCookie(session, 'patch', `/api/servers/${id}`, session.csrf, { name: 'patched' });
  t.is(ok.status, 200);
  t.is(ok.body.name, 'patched');
});

test('DELETE /api/servers/:id with a cookie needs the token', async (t) => {
  const session = await signIn(env, 'operator');
  const id = await newServer('delete me');
  assertCsrfMismatch(t, await withCookie(session, 'delete', `/api/servers/${id}`), 'no token');
  for (const wrong of wrongTokens(session))
    assertCsrfMismatch(t, await withCookie(session, 'delete', `/api/servers/${id}`, wrong), 'wrong token');
  t.is((await env.request.get(`/api/servers/${id}`).set('Cookie', session.cookie)).status, 200, 'still there');
  t.is((await withCookie(session, 'delete', `/api/servers/${id}`, session.csrf)).status, 204);
  t.is((await env.request.get(`/api/servers/${id}`).set('Cookie', session.cookie)).status, 404, 'revoked');
});

test('PUT /api/operator/data-api with a cookie needs the token', async (t) => {
  const session = await signIn(env, 'operator');
  t.true(env.deps.runtime.dataApiEnabled);
  assertCsrfMismatch(t, await withCookie(session, 'put', '/api/operator/data-api', undefined, { enabled: false }), 'no token');
  for (const wrong of wrongTokens(session)) {
    assertCsrfMismatch(t, await withCookie(session, 'put', '/api/operator/data-api', wrong, { enabled: false }), 'wrong token');
  }
  t.true(env.deps.runtime.dataApiEnabled, 'the switch did not move');
  const ok = await withCookie(session, 'put', '/api/operator/data-api', session.csrf, { enabled: true });
  t.is(ok.status, 200);
  t.deepEqual(ok.body, { enabled: true });
});

test('GET needs no token', async (t) => {
  const session = await signIn(env, 'operator');
  t.is((await withCookie(session, 'get', '/api/servers')).status, 200);
  t.is((await withCookie(session, 'get', '/api/operator/data-api')).status, 200);
  t.is((await withCookie(session, 'get', '/api/users')).status, 200);
});

test('Bearer-only requests need no token', async (t) => {
  const bearer = (method: Method, path: string) => env.request[method](path).set('Authorization', `Bearer ${operator.token}`);
  const created = await bearer('post', '/api/servers').send({ name: 'by bearer' });
  t.is(created.status, 201);
  const id = created.body.server.id as string;
  t.is((await bearer('patch', `/api/servers/${id}`).send({ name: 'by bearer 2' })).status, 200);
  t.is((await bearer('put', '/api/operator/data-api').send({ enabled: true })).status, 200);
  t.is((await bearer('delete', `/api/servers/${id}`)).status, 204);
});

test('a cookie next to a valid Bearer is still a cookie session: the token is required', async (t) => {
  const session = await signIn(env, 'operator');
  const res = await withCookie(session, 'post', '/api/servers', undefined, { name: 'cookie and bearer' }).set(
    'Authorization',
    `Bearer ${session.token}`,
  );
  assertCsrfMismatch(t, res, 'cookie and Bearer, no token');
});

test('the CSRF token of another session is refused', async (t) => {
  const mine = await signIn(env, 'operator');
  const theirs = await setupOperatorPeer();
  const mySecond = await signIn(env, 'operator');
  t.not(mine.csrf, mySecond.csrf, 'each session has its own token');
  assertCsrfMismatch(t, await withCookie(mine, 'post', '/api/servers', theirs.csrf, { name: 'other user token' }), "another user's token");
  assertCsrfMismatch(
    t,
    await withCookie(mine, 'post', '/api/servers', mySecond.csrf, { name: 'other session token' }),
    "my other session's token",
  );
  // Not a double-submit echo: a csrf-token cookie chosen by the caller does not help.
  const forged = { ...mine, cookie: `${mine.cookie.replace(/csrf-token=[^;]+/, 'csrf-token=chosen-by-attacker')}` };
  assertCsrfMismatch(
    t,
    await withCookie(forged, 'post', '/api/servers', 'chosen-by-attacker', { name: 'echo' }),
    'echo of a chosen cookie',
  );
  // Without any csrf-token cookie the header still has to match the session.
  const authOnly = { ...mine, cookie: `auth-token=${mine.token}` };
  t.is((await withCookie(authOnly, 'post', '/api/servers', mine.csrf, { name: 'auth cookie only' })).status, 201);
});

/** Another user of the operator's account, signed in. */
async function setupOperatorPeer(): Promise<Session> {
  const username = `peer-${Math.random().toString(36).slice(2, 8)}`;
  const res = await env.request
    .post('/api/users')
    .set('Authorization', `Bearer ${operator.token}`)
    .send({ username, password, role: 'admin' });
  if (res.status !== 201) throw new Error(`user creation failed: ${res.status} ${JSON.stringify(res.body)}`);
  return signIn(env, username);
}

test('logout with a cookie and no CSRF header works (exempt)', async (t) => {
  const session = await signIn(env, 'operator');
  const res = await withCookie(session, 'post', '/api/auth/logout');
  t.is(res.status, 204);
  t.is((await withCookie(session, 'get', '/api/servers')).status, 401);
});

test('login and setup with a cookie and no CSRF header are not refused for CSRF', async (t) => {
  const session = await signIn(env, 'operator');
  const login = await withCookie(session, 'post', '/api/auth/login', undefined, { username: 'operator', password });
  t.is(login.status, 200);
  const setup = await withCookie(session, 'post', '/api/setup/admin', undefined, { accountName: 'Again', username: 'again', password });
  t.is(setup.status, 409, 'setup is done: a conflict, not a CSRF refusal');
  t.is((await withCookie(session, 'get', '/api/health')).status, 200);
});

test('variations of an exempt path are not exempt and never answer 2xx without the token', async (t) => {
  const session = await signIn(env, 'operator');
  const logoutVariants = [
    '/api/auth/logout/',
    '/API/AUTH/LOGOUT',
    '/api/auth/Logout',
    '/api/auth//logout',
    '/api/auth/logout%2F',
    '/api/auth/%6cogout',
  ];
  for (const path of logoutVariants) {
    const res = await withCookie(session, 'post', path);
    t.false(res.status >= 200 && res.status < 300, `POST ${path}: ${res.status}`);
    if (res.status === 403) t.is(res.body.error, 'csrf-mismatch');
  }
  t.is((await withCookie(session, 'get', '/api/servers')).status, 200, 'the session survived every variant');
  const traversals = [
    '/api/setup/../servers',
    '/api/setup/%2e%2e/servers',
    '/api/setup/%2E%2E/servers',
    '/api/setup/.%2e/servers',
    '/api/setup/..%2fservers',
    '/api/setup/%2e%2e%2fservers',
    '/api/auth/login/../../servers',
    '/api/health/../servers',
    '/api/setup/../operator/data-api',
  ];
  for (const path of traversals) {
    const res = await withCookie(
      session,
      path.endsWith('data-api') ? 'put' : 'post',
      path,
      undefined,
      path.endsWith('data-api') ? { enabled: false } : { name: 'traversal' },
    );
    t.false(res.status >= 200 && res.status < 300, `POST ${path}: ${res.status}`);
  }
  t.false((await serverNames()).includes('traversal'), 'no server was created');
  t.true(env.deps.runtime.dataApiEnabled, 'the switch did not move');
});

test('csrfExempt names exactly the exempt paths of the spec', (t) => {
  const exempt: [string, string][] = [
    ['POST', '/api/auth/login'],
    ['POST', '/api/auth/logout'],
    ['POST', '/api/setup/admin'],
    ['PUT', '/api/setup/anything'],
    ['DELETE', '/api/setup/x'],
    ['GET', '/api/health'],
    ['POST', '/api/store/webhook'],
    ['POST', '/api/chat/action'],
  ];
  for (const [method, path] of exempt) t.true(csrfExempt(method, path), `${method} ${path}`);
  const notExempt: [string, string][] = [
    ['POST', '/api/auth/logout/'],
    ['POST', '/api/auth/login/'],
    ['POST', '/API/AUTH/LOGOUT'],
    ['POST', '/api/auth/logout/x'],
    ['PUT', '/api/auth/logout'],
    ['DELETE', '/api/auth/login'],
    ['POST', '/api/health'],
    ['DELETE', '/api/health'],
    ['PUT', '/api/store/webhook'],
    ['PATCH', '/api/chat/action'],
    ['POST', '/api/chat/action/'],
    ['POST', '/api/store/webhook/'],
    ['POST', '/api/setup'],
    ['POST', '/api/setupx/admin'],
    ['POST', '/api/servers'],
    ['POST', '/api/auth/logoutx'],
    ['POST', '/api/setup/../servers'],
    ['POST', '/api/setup/%2e%2e/servers'],
    ['POST', '/api/setup/%2E%2e/servers'],
    ['POST', '/api/setup/.%2E/servers'],
    ['PUT', '/api/setup/../operator/data-api'],
    ['POST', '/api/setup/./../servers'],
    ['POST', '/api/setup/..%2fservers'],
    ['POST', '/api/setup/%2e%2e%2Fservers'],
    ['POST', '/api/setup/%zz/../servers'],
  ];
  for (const [method, path] of notExempt) t.false(csrfExempt(method, path), `${method} ${path}`);
});
