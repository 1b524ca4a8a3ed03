import test from 'ava';
import type { ExecutionContext } from 'ava';
import { performance } from 'node:perf_hooks';
import supertest from 'supertest';
import type { Response } from 'supertest';
import { createApp } from '../../src/app.ts';
import { createDeps } from '../../src/deps.ts';
import { insertAccount } from '../../src/accounts/account.repo.ts';
import { hashPassword } from '../../src/auth/password.ts';
import { insertUser } from '../../src/users/user.repo.ts';
import { testEnv, testScryptN } from '../helpers/env.ts';
import type { TestEnv } from '../helpers/env.ts';
import { password } from '../helpers/controller.ts';
import { assertSchema } from '../helpers/seed.ts';

// Login lockout per (IP, username), the spec's state table. Every test that moves the clock has
// its own environment, so the tests of this file run concurrently; the others share one and keep
// apart by client IP. Limits are raised so that only the lockout answers 429; 127.0.0.1 is a
// trusted proxy so X-Forwarded-For picks the client IP.

const second = 1000;
const minute = 60 * second;
const hour = 60 * minute;
const wrong = 'not the password';

interface LockoutEnv extends TestEnv {
  login: (username: string, pass: string, ip?: string) => Promise<Response>;
}

// Hashed once: every environment's users share it (scrypt is the slow part of these tests).
const passwordHash = await hashPassword(password, testScryptN);

async function lockoutEnv(): Promise<LockoutEnv> {
  const env = await testEnv({ RATE_AUTH: '100000', RATE_CONTROLLER: '100000', TRUSTED_PROXIES: '127.0.0.1,::1,::ffff:127.0.0.1' });
  const account = await insertAccount(env.deps.db, 'lockout community');
  for (const username of ['alice', 'bob', 'carol', 'dave', 'erin'])
    await insertUser(env.deps.db, account.id, username, passwordHash, 'owner');
  const login = (username: string, pass: string, ip = '203.0.113.10') =>
    env.request.post('/api/auth/login').set('X-Forwarded-For', ip).send({ username, password: pass });
  return { ...env, login };
}

/** An environment of the test's own, for tests that move the clock. */
async function ownEnv(t: ExecutionContext): Promise<LockoutEnv> {
  const env = await lockoutEnv();
  t.teardown(() => env.close());
  return env;
}

// For the tests that leave the clock alone; each uses client IPs of its own.
let shared: LockoutEnv;
test.before(async () => {
  shared = await lockoutEnv();
});
test.after.always(async () => {
  await shared?.close();
});

function assertInvalid(t: ExecutionContext, res: Response, note = ''): void {
  t.is(res.status, 401, `${note} ${JSON.stringify(res.body)}`);
  t.is(res.body.error, 'INVALID_CREDENTIALS', note);
}

function assertLocked(t: ExecutionContext, res: Response, seconds: number, note = ''): void {
  t.is(res.status, 429, `${note} ${res.status} ${JSON.stringify(res.body)}`);
  assertSchema(t, 'error.json', res.body);
  t.is(res.body.error, 'RATE_LIMITED', note);
  t.is(res.headers['retry-after'], String(seconds), note);
  t.is(res.body.retryAfter, seconds, note);
  t.is(res.headers['set-cookie'], undefined, `${note}: a refused sign-in sets no cookie`);
}

/** n wrong passwords, each answered 401 (none of them is refused yet). */
async function fail(t: ExecutionContext, env: LockoutEnv, n: number, username = 'alice', ip?: string): Promise<void> {
  for (let i = 0; i < n; i++) assertInvalid(t, await env.login(username, wrong, ip), `failure ${i + 1} of ${n}`);
}

/** Five failures at the current time: the fifth still answers 401 and locks the pair. */
const lockNow = (t: ExecutionContext, env: LockoutEnv, username = 'alice', ip?: string) => fail(t, env, 5, username, ip);

test('fewer than 5 failures within 10 minutes keep counting: each is a 401 INVALID_CREDENTIALS', async (t) => {
  const env = await ownEnv(t);
  for (let i = 0; i < 4; i++) {
    const res = await env.login('alice', wrong);
    assertInvalid(t, res);
    assertSchema(t, 'error.json', res.body);
    env.clock.advance(2 * minute);
  }
  // Four failures in 8 minutes: not locked, the right password signs in.
  t.is((await env.login('alice', password)).status, 200);
});

test('the 5th failure within 10 minutes locks for 60 s; the password is not checked while locked', async (t) => {
  const env = await ownEnv(t);
  await lockNow(t, env);
  assertLocked(t, await env.login('alice', wrong), 60, 'the 6th attempt');
  // The right password is refused the same way: it is not even looked at.
  assertLocked(t, await env.login('alice', password), 60, 'right password while locked');
  env.clock.advance(30 * second);
  for (let i = 0; i < 5; i++) assertLocked(t, await env.login('alice', wrong), 30, 'wrong password while locked');
  env.clock.advance(29 * second);
  assertLocked(t, await env.login('alice', password), 1, 'at 59 s');
  // Refused attempts do not extend the lock: 60 s after it began the right password works.
  env.clock.advance(1 * second);
  const res = await env.login('alice', password);
  t.is(res.status, 200);
  assertSchema(t, 'login-result.json', res.body);
});

test('5 failures spread within 10 minutes lock the pair', async (t) => {
  const env = await ownEnv(t);
  for (const gap of [0, 3 * minute, 3 * minute, 3 * minute]) {
    env.clock.advance(gap);
    await fail(t, env, 1);
  }
  // The first failure is 9 min 59 s old: still within the 10 minutes.
  env.clock.advance(59 * second);
  await fail(t, env, 1);
  assertLocked(t, await env.login('alice', password), 60);
});

test('failures spread over more than 10 minutes do not lock', async (t) => {
  const env = await ownEnv(t);
  await fail(t, env, 4);
  env.clock.advance(10 * minute + 1 * second);
  // The four old failures left the window: this is failure 1 of a new count, and so is the next.
  await fail(t, env, 1);
  assertInvalid(t, await env.login('alice', wrong), 'not 429');
  t.is((await env.login('alice', password)).status, 200);
});

test('a second lockout within 24 h lasts 5 minutes, the third and later 1 hour', async (t) => {
  const env = await ownEnv(t);
  await lockNow(t, env);
  assertLocked(t, await env.login('alice', wrong), 60, 'first lockout');
  env.clock.advance(60 * second);

  await lockNow(t, env);
  assertLocked(t, await env.login('alice', password), 300, 'second lockout');
  env.clock.advance(299 * second);
  assertLocked(t, await env.login('alice', password), 1, 'second lockout at 299 s');
  env.clock.advance(1 * second);
  assertInvalid(t, await env.login('alice', wrong), 'free at 300 s');
  await fail(t, env, 4);
  assertLocked(t, await env.login('alice', password), 3600, 'third lockout');
  env.clock.advance(3599 * second);
  assertLocked(t, await env.login('alice', password), 1, 'third lockout at 3599 s');
  env.clock.advance(1 * second);

  await lockNow(t, env);
  assertLocked(t, await env.login('alice', password), 3600, 'fourth lockout');
  env.clock.advance(hour);
  t.is((await env.login('alice', password)).status, 200, 'free after the hour');
});

test('the lockout level is remembered 24 h after the last lockout, and forgotten after', async (t) => {
  const env = await ownEnv(t);
  await lockNow(t, env);
  assertLocked(t, await env.login('alice', wrong), 60, 'first lockout');
  // 23 h later the first lockout is remembered: the next one is the second.
  env.clock.advance(23 * hour);
  await lockNow(t, env);
  assertLocked(t, await env.login('alice', wrong), 300, 'second lockout, 23 h after the first');
  // 46 h after the first but 23 h after the last lockout: the third.
  env.clock.advance(23 * hour);
  await lockNow(t, env);
  assertLocked(t, await env.login('alice', wrong), 3600, 'third lockout, 23 h after the second');
  // More than 24 h after the last lockout (and after its end): forgotten, 60 s again.
  env.clock.advance(24 * hour + hour + 1 * second);
  await lockNow(t, env);
  assertLocked(t, await env.login('alice', wrong), 60, 'a lockout more than 24 h after the previous one');
});

test('a successful sign-in clears the failure counter', async (t) => {
  const env = await ownEnv(t);
  await fail(t, env, 4);
  t.is((await env.login('alice', password)).status, 200);
  await fail(t, env, 4);
  // Eight failures in all, but never five since the success: not locked.
  t.is((await env.login('alice', password)).status, 200);
  // The count after a success starts at zero: five new failures lock again.
  await lockNow(t, env);
  assertLocked(t, await env.login('alice', password), 60);
});

test('another IP is not locked out with the pair', async (t) => {
  const env = shared;
  await lockNow(t, env, 'carol', '203.0.113.10');
  assertLocked(t, await env.login('carol', password, '203.0.113.10'), 60);
  assertInvalid(t, await env.login('carol', wrong, '203.0.113.11'), 'another IP, wrong password');
  t.is((await env.login('carol', password, '203.0.113.11')).status, 200, 'another IP, right password');
  t.is((await env.login('carol', password, '2001:db8::10')).status, 200, 'an IPv6 client');
  assertLocked(t, await env.login('carol', password, '203.0.113.10'), 60, 'the locked IP stays locked');
});

test('another username from the same IP is not locked out', async (t) => {
  const env = shared;
  await lockNow(t, env, 'dave', '203.0.113.20');
  assertLocked(t, await env.login('dave', password, '203.0.113.20'), 60);
  assertInvalid(t, await env.login('bob', wrong, '203.0.113.20'), 'bob, wrong password');
  t.is((await env.login('bob', password, '203.0.113.20')).status, 200, 'bob, right password');
});

test('an unknown user and a wrong password get the same answer, and unknown users lock out too', async (t) => {
  const env = shared;
  const unknown = await env.login('nobody-here', wrong, '198.51.100.1');
  const wrongPassword = await env.login('alice', wrong, '198.51.100.1');
  const strip = (res: Response) => {
    const { requestId, ...rest } = res.body as Record<string, unknown>;
    t.is(typeof requestId, 'string');
    return rest;
  };
  t.is(unknown.status, 401);
  t.is(wrongPassword.status, 401);
  t.deepEqual(strip(unknown), strip(wrongPassword));
  t.deepEqual(strip(unknown), { error: 'INVALID_CREDENTIALS', message: unknown.body.message, statusCode: 401 });
  t.is(unknown.headers['set-cookie'], undefined);
  // An unknown name locks like a real one, so a 429 tells nothing about who exists.
  await fail(t, env, 4, 'nobody-here', '198.51.100.1');
  assertLocked(t, await env.login('nobody-here', wrong, '198.51.100.1'), 60, 'unknown user');
});

// Serial: runs before the concurrent tests of this file, so other sign-ins do not disturb the timing.
test.serial('an unknown user takes about as long as a wrong password', async (t) => {
  const env = shared;
  const timed = async (username: string, ip: string) => {
    const start = performance.now();
    const res = await env.login(username, wrong, ip);
    const ms = performance.now() - start;
    t.is(res.status, 401);
    return ms;
  };
  const known: number[] = [];
  const unknown: number[] = [];
  // Interleaved, from a fresh IP each (no lockout), after a warm-up round.
  for (let i = 0; i < 8; i++) {
    const a = await timed('alice', `198.51.100.${i + 10}`);
    const b = await timed(`ghost-${i}`, `198.51.100.${i + 10}`);
    if (i >= 1) {
      known.push(a);
      unknown.push(b);
    }
  }
  const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)]!;
  const ratio = median(unknown) / median(known);
  t.true(
    ratio > 0.5 && ratio < 2,
    `unknown-user median ${median(unknown).toFixed(1)} ms vs wrong-password median ${median(known).toFixed(1)} ms`,
  );
});

test('login answers 503 when Redis is unreachable, even with the right password', async (t) => {
  const env = shared;
  const broken = createDeps(
    { ...env.deps.config, redisUrl: 'redis://127.0.0.1:1', redisClusterNodes: undefined },
    { clock: env.clock, log: env.deps.log },
  );
  t.teardown(async () => {
    broken.redis.disconnect();
    await broken.db.end();
  });
  const request = supertest(createApp(broken).callback());
  for (const pass of [password, wrong]) {
    const res = await request.post('/api/auth/login').send({ username: 'erin', password: pass });
    t.is(res.status, 503, JSON.stringify(res.body));
    assertSchema(t, 'error.json', res.body);
    t.is(res.body.error, 'STORE_UNAVAILABLE');
    t.is(res.headers['set-cookie'], undefined, 'no session without the lockout');
  }
  // No session was issued behind the refusal.
  const { rows } = await env.deps.db.query<{ n: number }>(
    "SELECT count(*)::int AS n FROM sessions s JOIN users u ON u.id = s.user_id WHERE u.username = 'erin'",
  );
  t.is(rows[0]!.n, 0);
});

test('one canonical username: a locked name is not unlocked by a look-alike (U+0130, fullwidth, case)', async (t) => {
  const env = await ownEnv(t);
  await lockNow(t, env, 'dave');
  assertLocked(t, await env.login('dave', wrong), 60, 'the 6th attempt');
  // "İ" lower-cases to "i" + U+0307 in JavaScript and to "i" in some databases: it means nobody.
  assertInvalid(t, await env.login('dav\u0130', password), 'U+0130 with the right password');
  assertInvalid(t, await env.login('DAV\u0130', password), 'upper case with U+0130');
  // Compatibility and case forms fold to the same user and the same lock.
  assertLocked(t, await env.login('ｄａｖｅ', password), 60, 'fullwidth');
  assertLocked(t, await env.login('DAVE', password), 60, 'upper case');
  env.clock.advance(minute);
  t.is((await env.login('ＤＡＶＥ', password)).status, 200, 'after the lock, any form of the name signs in');
});

test('20 concurrent wrong passwords for one pair: exactly 5 are checked, the rest refused, and the pair locks', async (t) => {
  const env = await ownEnv(t);
  const answers = await Promise.all(Array.from({ length: 20 }, () => env.login('erin', wrong)));
  const statuses = answers.map((r) => r.status).sort();
  t.is(statuses.filter((s) => s === 401).length, 5, statuses.join(','));
  t.is(statuses.filter((s) => s === 429).length, 15);
  assertLocked(t, await env.login('erin', password), 60, 'locked after the burst');
});

test('IPv6: the lockout counts a client by its /64, like the per-IP limits', async (t) => {
  const env = await ownEnv(t);
  await lockNow(t, env, 'carol', '2001:db8:cccc:1::1');
  assertLocked(t, await env.login('carol', password, '2001:db8:cccc:1::2'), 60, 'another address of the same /64');
  assertLocked(t, await env.login('carol', password, '2001:db8:cccc:1:ffff:ffff:ffff:ffff'), 60, 'the last address of the /64');
  t.is((await env.login('carol', password, '2001:db8:cccc:2::1')).status, 200, 'another /64 is another client');
});

test('failed sign-ins of a known user and the lockout they start are in its account audit log', async (t) => {
  const env = await ownEnv(t);
  await lockNow(t, env, 'bob', '198.51.100.77');
  const { rows } = await env.deps.db.query<{
    action: string;
    actor_name: string;
    target_id: string;
    ip: string;
    details: Record<string, unknown>;
  }>(
    `SELECT action, actor_name, target_id, ip, details FROM audit_log a JOIN users u ON u.id::text = a.target_id
     WHERE u.username = 'bob' AND a.account_id = u.account_id ORDER BY a.id`,
  );
  t.deepEqual(
    rows.map((r) => r.action),
    [...Array(5).fill('auth.login-failed'), 'auth.lockout'],
  );
  t.true(rows.every((r) => r.actor_name === 'bob' && r.ip === '198.51.100.77'));
  t.deepEqual(rows.at(-1)!.details, { seconds: 60 });
  t.false(JSON.stringify(rows).includes(wrong), 'no password in the audit log');
});

test('an attempt whose check fails in a store (500) ends its reservation: it neither counts nor blocks the next sign-ins', async (t) => {
  const env = await ownEnv(t);
  await env.deps.db.query('ALTER TABLE users RENAME TO users_away');
  for (let i = 0; i < 6; i++) t.is((await env.login('alice', password)).status, 500);
  await env.deps.db.query('ALTER TABLE users_away RENAME TO users');
  const res = await env.login('alice', password);
  t.is(res.status, 200, JSON.stringify(res.body));
});
