import test from 'ava';
import type { ExecutionContext } from 'ava';
import { randomBytes } from 'node:crypto';
import { SignJWT, decodeJwt } from 'jose';
import type { Response } from 'supertest';
import { testEnv, t0 } from '../helpers/env.ts';
import type { TestEnv } from '../helpers/env.ts';
import { password, setupOperator, signIn, userWithRole } from '../helpers/controller.ts';
import type { Session } from '../helpers/controller.ts';
import { deleteAllKeys } from '../helpers/redis-keys.ts';
import { assertSchema } from '../helpers/seed.ts';

// Controller sessions: the login answer, the cookies, cookie-before-Bearer, logout revocation and
// the JWT rules. Tests that move the clock get an environment of their own.

const trustedProxies = '127.0.0.1,::1,::ffff:127.0.0.1';
const envOptions = { RATE_AUTH: '100000', RATE_CONTROLLER: '100000' };

let env: TestEnv;
let operator: Session;
test.before(async () => {
  env = await testEnv({ ...envOptions, TRUSTED_PROXIES: trustedProxies });
  operator = await setupOperator(env);
});
test.after.always(async () => {
  await env?.close();
});

async function ownEnv(t: ExecutionContext, extra: Record<string, string> = {}): Promise<TestEnv> {
  const own = await testEnv({ ...envOptions, ...extra });
  t.teardown(() => own.close());
  return own;
}

const setCookies = (res: Response): string[] => (res.headers['set-cookie'] as unknown as string[] | undefined) ?? [];

/** The Set-Cookie line of one cookie, split into its lower-cased attributes. */
function cookieOf(res: Response, name: string): { value: string; attrs: Map<string, string> } {
  const line = setCookies(res).find((c) => c.startsWith(`${name}=`));
  if (!line) throw new Error(`no ${name} cookie in ${JSON.stringify(setCookies(res))}`);
  const [pair, ...rest] = line.split(';').map((p) => p.trim());
  const attrs = new Map(
    rest.map((a) => {
      const [k, ...v] = a.split('=');
      return [k!.toLowerCase(), v.join('=')] as const;
    }),
  );
  return { value: pair!.slice(name.length + 1), attrs };
}

const login = (e: TestEnv, username: string) => e.request.post('/api/auth/login').send({ username, password });
/** A request that needs a session (servers.manage): 200 with one. */
const servers = (e: TestEnv = env) => e.request.get('/api/servers');
const byCookie = (token: string, e: TestEnv = env) => servers(e).set('Cookie', `auth-token=${token}`);
const byBearer = (token: string, e: TestEnv = env) => servers(e).set('Authorization', `Bearer ${token}`);

function assertUnauthorized(t: ExecutionContext, res: Response, note = ''): void {
  t.is(res.status, 401, `${note} ${JSON.stringify(res.body)}`);
  assertSchema(t, 'error.json', res.body);
  t.is(res.body.error, 'UNAUTHORIZED', note);
}

/** A token signed by the test, by default with the claims and key the service uses. */
async function forge(
  e: TestEnv,
  base: string,
  change: { secret?: string; iss?: string; aud?: string; typ?: string; exp?: number; sub?: string } = {},
): Promise<string> {
  const claims = decodeJwt(base);
  const jwt = new SignJWT({})
    .setProtectedHeader({ alg: 'HS256', typ: change.typ ?? 'session+jwt' })
    .setSubject(change.sub ?? claims.sub!)
    .setJti(claims.jti!)
    .setIssuer(change.iss ?? claims.iss!)
    .setAudience(change.aud ?? (claims.aud as string))
    .setIssuedAt(claims.iat!)
    .setExpirationTime(change.exp ?? claims.exp!);
  return jwt.sign(new TextEncoder().encode(change.secret ?? e.deps.config.jwtSecret));
}

test('login answers { token, expiresAt, user } and the token opens a session', async (t) => {
  const res = await login(env, 'operator');
  t.is(res.status, 200);
  assertSchema(t, 'login-result.json', res.body);
  t.like(res.body.user, { id: operator.userId, username: 'operator', role: 'owner', accountId: operator.accountId });
  const claims = decodeJwt(res.body.token);
  t.is(claims.sub, operator.userId);
  t.is(typeof claims.jti, 'string');
  t.is(Date.parse(res.body.expiresAt), claims.exp! * 1000);
  t.is(Date.parse(res.body.expiresAt), env.clock.now() + env.deps.config.sessionTtlMinutes * 60_000);
  t.is(cookieOf(res, 'auth-token').value, res.body.token, 'the cookie carries the same JWT');
  t.is((await byBearer(res.body.token)).status, 200);
  t.is((await byCookie(res.body.token)).status, 200);
});

test('without a session a controller route answers 401 UNAUTHORIZED', async (t) => {
  assertUnauthorized(t, await servers());
  assertUnauthorized(t, await servers().set('Authorization', 'Bearer '), 'empty Bearer');
  assertUnauthorized(t, await servers().set('Cookie', 'auth-token='), 'empty cookie');
});

test('cookies over plain HTTP: auth-token HttpOnly, SameSite=Lax, Path=/, neither Secure; csrf-token readable', async (t) => {
  const res = await login(env, 'operator');
  const auth = cookieOf(res, 'auth-token');
  t.true(auth.attrs.has('httponly'));
  t.is(auth.attrs.get('samesite')?.toLowerCase(), 'lax');
  t.is(auth.attrs.get('path'), '/');
  t.false(auth.attrs.has('secure'));
  t.is(Number(auth.attrs.get('max-age')), env.deps.config.sessionTtlMinutes * 60);
  const csrf = cookieOf(res, 'csrf-token');
  t.false(csrf.attrs.has('httponly'), 'scripts must read the csrf-token');
  t.is(csrf.attrs.get('samesite')?.toLowerCase(), 'lax');
  t.is(csrf.attrs.get('path'), '/');
  t.false(csrf.attrs.has('secure'));
  t.true(csrf.value.length >= 32);
});

test('both cookies are Secure when a trusted proxy says X-Forwarded-Proto: https', async (t) => {
  const res = await login(env, 'operator').set('X-Forwarded-Proto', 'https');
  t.is(res.status, 200);
  t.true(cookieOf(res, 'auth-token').attrs.has('secure'));
  t.true(cookieOf(res, 'auth-token').attrs.has('httponly'));
  t.true(cookieOf(res, 'csrf-token').attrs.has('secure'));
  // Plain http through the same proxy: not Secure.
  const plain = await login(env, 'operator').set('X-Forwarded-Proto', 'http');
  t.false(cookieOf(plain, 'auth-token').attrs.has('secure'));
});

test('X-Forwarded-Proto from an untrusted peer does not make the cookies Secure', async (t) => {
  // The peer (127.0.0.1) is not among the trusted proxies of this environment.
  const own = await ownEnv(t, { TRUSTED_PROXIES: '10.0.0.1' });
  await setupOperator(own);
  const res = await login(own, 'operator').set('X-Forwarded-Proto', 'https');
  t.is(res.status, 200);
  t.false(cookieOf(res, 'auth-token').attrs.has('secure'));
  t.false(cookieOf(res, 'csrf-token').attrs.has('secure'));
});

test('the cookie is read before the Bearer header', async (t) => {
  const other = await userWithRole(env, 'owner');
  // A valid cookie with a garbage Bearer works.
  t.is((await byCookie(operator.token).set('Authorization', 'Bearer garbage.garbage.garbage')).status, 200);
  // A garbage cookie falls back to a valid Bearer.
  t.is((await byBearer(operator.token).set('Cookie', 'auth-token=garbage.garbage.garbage')).status, 200);
  // Both valid: the cookie's user is the one acting (users of the cookie's account are listed).
  const res = await env.request
    .get('/api/users')
    .set('Cookie', `auth-token=${other.token}`)
    .set('Authorization', `Bearer ${operator.token}`);
  t.is(res.status, 200);
  t.deepEqual(
    res.body.users.map((u: { id: string }) => u.id),
    [other.userId],
  );
  const reverse = await env.request
    .get('/api/users')
    .set('Cookie', `auth-token=${operator.token}`)
    .set('Authorization', `Bearer ${other.token}`);
  t.true(reverse.body.users.some((u: { id: string }) => u.id === operator.userId));
  t.false(reverse.body.users.some((u: { id: string }) => u.id === other.userId));
});

test('logout clears the cookies and revokes the JWT for cookie and Bearer, even after a Redis flush', async (t) => {
  const session = await signIn(env, 'operator');
  t.is((await byCookie(session.token)).status, 200);
  const res = await env.request.post('/api/auth/logout').set('Cookie', session.cookie);
  t.is(res.status, 204);
  const auth = cookieOf(res, 'auth-token');
  t.is(auth.value, '');
  t.is(auth.attrs.get('max-age'), '0');
  t.is(auth.attrs.get('path'), '/');
  t.is(cookieOf(res, 'csrf-token').attrs.get('max-age'), '0');
  assertUnauthorized(t, await byCookie(session.token), 'by cookie');
  assertUnauthorized(t, await byBearer(session.token), 'by Bearer');
  assertUnauthorized(t, await env.request.post('/api/auth/logout').set('Authorization', `Bearer ${session.token}`), 'a second logout');
  // Revocation lives in PostgreSQL: flushing every Redis key of this environment changes nothing.
  await deleteAllKeys(env.deps);
  assertUnauthorized(t, await byCookie(session.token), 'by cookie after the flush');
  assertUnauthorized(t, await byBearer(session.token), 'by Bearer after the flush');
});

test('logout with a Bearer token revokes it', async (t) => {
  const session = await signIn(env, 'operator');
  const res = await env.request.post('/api/auth/logout').set('Authorization', `Bearer ${session.token}`);
  t.is(res.status, 204);
  assertUnauthorized(t, await byBearer(session.token));
  assertUnauthorized(t, await byCookie(session.token));
});

test('logout without a session answers 401', async (t) => {
  assertUnauthorized(t, await env.request.post('/api/auth/logout'));
});

test('logout ends only its own session', async (t) => {
  const user = await userWithRole(env, 'owner');
  const second = await signIn(env, user.username);
  t.is((await env.request.post('/api/auth/logout').set('Cookie', user.cookie)).status, 204);
  assertUnauthorized(t, await byCookie(user.token));
  t.is((await byCookie(second.token)).status, 200, 'the second session of the same user');
  t.is((await byBearer(second.token)).status, 200);
  t.is((await byBearer(operator.token)).status, 200, 'another user');
});

test('tokens signed with another secret, with alg none, or for another issuer or audience are refused', async (t) => {
  const session = await signIn(env, 'operator');
  // The control: a token the test signs with the service's claims and key is accepted, so each
  // refusal below is down to the one thing changed.
  t.is((await byBearer(await forge(env, session.token))).status, 200, 'control');
  const refused: Record<string, string> = {
    'another secret': await forge(env, session.token, { secret: randomBytes(32).toString('base64url') }),
    'another issuer': await forge(env, session.token, { iss: 'someone-else' }),
    'another audience': await forge(env, session.token, { aud: 'gameservice-data' }),
    'another type': await forge(env, session.token, { typ: 'JWT' }),
    'another subject': await forge(env, session.token, { sub: (await userWithRole(env, 'owner')).userId }),
  };
  // alg none: the same header and claims, no signature.
  const [, payload] = session.token.split('.');
  const noneHeader = Buffer.from(JSON.stringify({ alg: 'none', typ: 'session+jwt' })).toString('base64url');
  refused['alg none'] = `${noneHeader}.${payload}.`;
  refused['alg none, signature kept'] = `${noneHeader}.${session.token.split('.').slice(1).join('.')}`;
  refused['a tampered payload'] =
    `${session.token.split('.')[0]}.${Buffer.from(JSON.stringify({ ...decodeJwt(session.token), exp: decodeJwt(session.token).exp! + 3600 })).toString('base64url')}.${session.token.split('.')[2]}`;
  // No exp at all.
  const claims = decodeJwt(session.token);
  refused['no exp'] = await new SignJWT({})
    .setProtectedHeader({ alg: 'HS256', typ: 'session+jwt' })
    .setSubject(claims.sub!)
    .setJti(claims.jti!)
    .setIssuer(claims.iss!)
    .setAudience(claims.aud as string)
    .setIssuedAt(claims.iat!)
    .sign(new TextEncoder().encode(env.deps.config.jwtSecret));
  for (const [what, token] of Object.entries(refused)) {
    assertUnauthorized(t, await byBearer(token), `${what} by Bearer`);
    assertUnauthorized(t, await byCookie(token), `${what} by cookie`);
  }
  t.is((await byBearer(session.token)).status, 200, 'the genuine token still works');
});

test('an expired token is refused; within the 60 s skew it still works', async (t) => {
  const own = await ownEnv(t);
  const session = await setupOperator(own);
  const ttlMs = own.deps.config.sessionTtlMinutes * 60_000;
  t.is(own.clock.now(), t0);
  own.clock.set(t0 + ttlMs - 1000);
  t.is((await byBearer(session.token, own)).status, 200, 'just before expiry');
  own.clock.set(t0 + ttlMs + 30_000);
  t.is((await byBearer(session.token, own)).status, 200, '30 s past exp, within the skew (Bearer)');
  t.is((await byCookie(session.token, own)).status, 200, '30 s past exp, within the skew (cookie)');
  own.clock.set(t0 + ttlMs + 61_000);
  assertUnauthorized(t, await byBearer(session.token, own), 'past exp and the skew');
  assertUnauthorized(t, await byCookie(session.token, own), 'past exp and the skew, by cookie');
  // A token whose exp the test pushes out is still bound to its session row, which has expired.
  assertUnauthorized(
    t,
    await byBearer(await forge(own, session.token, { exp: Math.floor((t0 + 2 * ttlMs) / 1000) }), own),
    'a longer exp on an expired session',
  );
});

test("a deleted user's sessions stop working", async (t) => {
  const user = await userWithRole(env, 'viewer', operator.accountId);
  const res = await env.request.get('/api/audit').set('Authorization', `Bearer ${user.token}`);
  t.is(res.status, 403, 'signed in, lacking the permission');
  const del = await env.request.delete(`/api/users/${user.userId}`).set('Authorization', `Bearer ${operator.token}`);
  t.is(del.status, 204);
  assertUnauthorized(t, await env.request.get('/api/audit').set('Authorization', `Bearer ${user.token}`), 'by Bearer');
  assertUnauthorized(t, await env.request.get('/api/audit').set('Cookie', user.cookie), 'by cookie');
  const relogin = await login(env, user.username);
  t.is(relogin.status, 401);
  t.is(relogin.body.error, 'INVALID_CREDENTIALS');
});

test('a protected route spelled in other letter case still needs a session', async (t) => {
  // @koa/router matches routes case-insensitively; the session check must not be skipped then.
  const before = env.deps.runtime.dataApiEnabled;
  for (const [method, path] of [
    ['get', '/API/SERVERS'],
    ['get', '/Api/Servers'],
    ['get', '/api/SERVERS'],
    ['get', '/API/USERS'],
    ['get', '/API/OPERATOR/DATA-API'],
    ['put', '/API/OPERATOR/DATA-API'],
    ['put', '/api/Operator/data-api'],
    ['post', '/API/OPERATOR/REBUILD'],
    ['get', '/API/ACCOUNT/API-KEYS'],
    ['get', '/API/AUDIT'],
    ['post', '/API/ACCOUNTS'],
  ] as const) {
    const req = env.request[method](path);
    const res = method === 'get' ? await req : await req.send({ enabled: !before });
    t.true(
      [401, 404, 405].includes(res.status),
      `${method.toUpperCase()} ${path} without a session: ${res.status} ${JSON.stringify(res.body)}`,
    );
  }
  t.is(env.deps.runtime.dataApiEnabled, before, 'the operator switch did not move');
});

test('passwords are checked: a wrong one gets no session', async (t) => {
  const res = await env.request.post('/api/auth/login').send({ username: 'operator', password: `${password}!` });
  t.is(res.status, 401);
  t.deepEqual(setCookies(res), []);
});
