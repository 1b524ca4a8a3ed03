// Property tests of the controller's input handling: whatever arrives as a body (any JSON value,
// near-miss objects with wrong types, missing, unknown or over-long fields, malformed JSON text,
// another content type, more than 64 KiB) or as an :id path segment, the answer is a 4xx with
// the Error body, never a 5xx; a body the schema accepts is never refused as a 400.
import { randomUUID } from 'node:crypto';
import test from 'ava';
import type { ExecutionContext } from 'ava';
import fc from 'fast-check';
import type { Response } from 'supertest';
import { validatorFor } from '../../src/http/schemas.ts';
import { registerServer } from '../../src/servers/server.ts';
import { createUser } from '../../src/users/users.ts';
import { password, setupOperator } from '../helpers/controller.ts';
import type { Session } from '../helpers/controller.ts';
import { controllerEnv } from '../helpers/controller-http.ts';
import type { Method } from '../helpers/controller-http.ts';
import type { TestEnv } from '../helpers/env.ts';
import { assertSchema } from '../helpers/seed.ts';

const runs = 100;

let env: TestEnv;
let operator: Session;
let serverId: string;
let targetUserId: string;
test.before(async () => {
  env = await controllerEnv();
  operator = await setupOperator(env);
  serverId = (await registerServer(env.deps, operator.accountId, { name: 'target' })).server.id;
  // A user to PATCH: a valid password change must not end the operator's own session.
  targetUserId = (await createUser(env.deps, operator.accountId, 'patch-target', password, 'viewer')).id;
});
test.after.always(async () => {
  await env?.close();
});

interface BodyRoute {
  label: string;
  method: Method;
  path: () => string;
  schema: string;
  fields: string[];
  /** A body the route accepts (for the content-type and size cases). */
  valid: () => Record<string, unknown>;
  session: boolean;
}

const bodyRoutes: BodyRoute[] = [
  {
    label: 'POST /api/setup/admin',
    method: 'post',
    path: () => '/api/setup/admin',
    schema: 'setup-admin.json',
    fields: ['accountName', 'username', 'password'],
    valid: () => ({ accountName: 'A', username: `u-${randomUUID().slice(0, 8)}`, password }),
    session: false,
  },
  {
    label: 'POST /api/auth/login',
    method: 'post',
    path: () => '/api/auth/login',
    schema: 'login.json',
    fields: ['username', 'password'],
    valid: () => ({ username: 'nobody', password: 'wrong' }),
    session: false,
  },
  {
    label: 'POST /api/users',
    method: 'post',
    path: () => '/api/users',
    schema: 'user-create.json',
    fields: ['username', 'password', 'role'],
    valid: () => ({ username: `u-${randomUUID().slice(0, 8)}`, password, role: 'viewer' }),
    session: true,
  },
  {
    label: 'PATCH /api/users/:id',
    method: 'patch',
    path: () => `/api/users/${targetUserId}`,
    schema: 'user-update.json',
    fields: ['role', 'password'],
    valid: () => ({ role: 'viewer' }),
    session: true,
  },
  {
    label: 'POST /api/accounts',
    method: 'post',
    path: () => '/api/accounts',
    schema: 'account-create.json',
    fields: ['accountName', 'username', 'password'],
    valid: () => ({ accountName: 'A', username: `u-${randomUUID().slice(0, 8)}`, password }),
    session: true,
  },
  {
    label: 'POST /api/account/api-keys',
    method: 'post',
    path: () => '/api/account/api-keys',
    schema: 'api-key-create.json',
    fields: ['name', 'tier'],
    valid: () => ({ name: 'k' }),
    session: true,
  },
  {
    label: 'POST /api/servers',
    method: 'post',
    path: () => '/api/servers',
    schema: 'server-create.json',
    fields: ['name', 'banFilePath', 'priorityFilePath'],
    valid: () => ({ name: 's' }),
    session: true,
  },
  {
    label: 'PATCH /api/servers/:id',
    method: 'patch',
    path: () => `/api/servers/${serverId}`,
    schema: 'server-update.json',
    fields: ['name', 'banFilePath', 'priorityFilePath'],
    valid: () => ({ name: 's' }),
    session: true,
  },
  {
    label: 'PUT /api/operator/data-api',
    method: 'put',
    path: () => '/api/operator/data-api',
    schema: 'data-api-switch.json',
    fields: ['enabled'],
    valid: () => ({ enabled: true }),
    session: true,
  },
];

function send(route: BodyRoute, text: string | undefined, contentType = 'application/json') {
  let req = env.request[route.method](route.path());
  if (route.session) req = req.set('Authorization', `Bearer ${operator.token}`);
  if (text !== undefined) req = req.set('Content-Type', contentType).send(text);
  return req;
}

/** Does the route's schema accept this JSON text (what the service should conclude too)? */
function accepted(schema: string, text: string): boolean {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return false;
  }
  // PostgreSQL text cannot hold U+0000, so the service also refuses any string carrying one.
  return validatorFor(schema)(value) && !JSON.stringify(value).includes('\\u0000') && !namesHostFile(schema, value);
}

/**
 * Beyond the schema: this world has no GAME_FILES_DIR, so a server body naming a file path is
 * refused (the paths' own rules are tested in test/game-files/).
 */
function namesHostFile(schema: string, value: unknown): boolean {
  if (schema !== 'server-create.json' && schema !== 'server-update.json') return false;
  const body = value as Record<string, unknown>;
  return typeof body.banFilePath === 'string' || typeof body.priorityFilePath === 'string';
}

function assertErrorBody(res: Response, status?: number, code?: string): void {
  if (status !== undefined && res.status !== status)
    throw new Error(`expected ${status}, got ${res.status}: ${JSON.stringify(res.body).slice(0, 300)}`);
  if (res.status < 400 || res.status >= 500)
    throw new Error(`expected a 4xx, got ${res.status}: ${JSON.stringify(res.body).slice(0, 300)}`);
  const body = res.body as { statusCode?: unknown; error?: unknown };
  if (!validatorFor('error.json')(body)) throw new Error(`not an Error body: ${JSON.stringify(body).slice(0, 300)}`);
  if (body.statusCode !== res.status) throw new Error(`statusCode ${String(body.statusCode)} in a ${res.status}`);
  if (code !== undefined && body.error !== code) throw new Error(`expected ${code}, got ${String(body.error)}`);
}

/** The property every answer to a JSON body holds: never a 5xx; a 400 exactly when the schema refuses it. */
function checkAnswer(route: BodyRoute, text: string, res: Response): void {
  if (res.status >= 500) throw new Error(`${res.status} for ${text.slice(0, 200)}: ${JSON.stringify(res.body)}`);
  if (accepted(route.schema, text)) {
    if (res.status === 400) throw new Error(`a body the schema accepts was refused: ${text.slice(0, 200)} -> ${JSON.stringify(res.body)}`);
    if (res.status >= 400) assertErrorBody(res);
  } else {
    assertErrorBody(res, 400, 'BAD_REQUEST');
  }
}

// ---- generators

const longText = fc.integer({ min: 101, max: 2000 }).map((n) => 'x'.repeat(n));
/** Values a field might wrongly (or rightly) carry. */
const fieldValue = fc.oneof(
  fc.jsonValue({ maxDepth: 2 }),
  fc.string({ maxLength: 30 }),
  fc.string({ unit: 'grapheme', minLength: 1, maxLength: 12 }),
  longText,
  fc.constantFrom(
    'owner',
    'admin',
    'moderator',
    'viewer',
    'chat-bot',
    'partner',
    'standard',
    true,
    false,
    null,
    0,
    -1,
    '',
    ' ',
    'a',
    'ab',
    'abc',
    'x'.repeat(64),
    'x'.repeat(65),
    'x'.repeat(200),
    'x'.repeat(201),
    '\u0000',
    '../../etc/passwd',
    '__proto__',
  ),
);
const unknownFields = fc.dictionary(
  fc.oneof(
    fc.string({ minLength: 1, maxLength: 10 }),
    fc.constantFrom('__proto__', 'constructor', 'prototype', 'id', 'accountId', 'isOperator', 'role ', 'tier'),
  ),
  fc.jsonValue({ maxDepth: 1 }),
  { maxKeys: 2 },
);

/** Objects shaped like the route's body: any subset of its fields with any values, maybe unknown fields. */
const shapedBody = (route: BodyRoute) =>
  fc
    .tuple(
      fc.record(Object.fromEntries(route.fields.map((f) => [f, fieldValue])), { requiredKeys: [] }),
      fc.option(unknownFields, { nil: undefined }),
    )
    .map(([known, extra]) => JSON.stringify(extra ? { ...extra, ...known } : known));

const jsonText = fc.oneof(
  fc.json({ maxDepth: 3 }),
  fc.jsonValue({ maxDepth: 2 }).map((v) => JSON.stringify(v)),
);

const notJson = (text: string) => {
  try {
    JSON.parse(text);
    return false;
  } catch {
    return true;
  }
};
const malformedJson = fc.oneof(
  fc.string({ maxLength: 60 }).filter((s) => s.trim().length > 0 && notJson(s)),
  fc
    .tuple(fc.json({ maxDepth: 2 }), fc.nat())
    .map(([s, n]) => s.slice(0, n % Math.max(1, s.length)))
    .filter((s) => s.trim().length > 0 && notJson(s)),
  fc.json({ maxDepth: 2 }).map((s) => `${s},`),
  fc.constantFrom(
    "{'name':'x'}",
    '{name:"x"}',
    '{"name":"x",}',
    '{"name":"x"}}',
    '{"name":"x"} trailing',
    '{"name":NaN}',
    '{"name":undefined}',
    '{"name":"x" /* comment */}',
    '\u0000',
    '{',
    '[',
    '"unterminated',
    '{"a":1e999999',
    '{"name":"\\u00"}',
    `${'['.repeat(5000)}${']'.repeat(5000)}`,
    `${'{"a":'.repeat(3000)}1${'}'.repeat(3000)}`,
  ),
);
const wrongType = fc.constantFrom(
  'text/plain',
  'text/html',
  'application/xml',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=xyz',
  'application/octet-stream',
  'application/jsonx',
  'application/vnd.api+json',
  'image/png',
  'json',
  'text/json; charset=utf-8',
);

// ---- body properties, one test per route

for (const route of bodyRoutes) {
  test(`${route.label}: any body answers a 4xx Error or, if valid, is not refused`, async (t: ExecutionContext) => {
    await fc.assert(
      fc.asyncProperty(jsonText, async (text) => checkAnswer(route, text, await send(route, text))),
      { numRuns: runs },
    );
    await fc.assert(
      fc.asyncProperty(shapedBody(route), async (text) => checkAnswer(route, text, await send(route, text))),
      { numRuns: runs },
    );
    await fc.assert(
      fc.asyncProperty(malformedJson, async (text) => assertErrorBody(await send(route, text), 400, 'BAD_REQUEST')),
      { numRuns: runs / 2 },
    );
    await fc.assert(
      fc.asyncProperty(wrongType, async (type) => {
        const res = await send(route, JSON.stringify(route.valid()), type);
        assertErrorBody(res, 415, 'UNSUPPORTED_MEDIA_TYPE');
      }),
      { numRuns: 20 },
    );
    // More than 64 KiB, even when it would be valid: 413, not parsed.
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 64 * 1024 + 1, max: 300 * 1024 }), fc.constantFrom(...route.fields), async (size, field) => {
        const body = { ...route.valid(), [field]: 'x'.repeat(size) };
        assertErrorBody(await send(route, JSON.stringify(body)), 413, 'PAYLOAD_TOO_LARGE');
      }),
      { numRuns: 5 },
    );
    // No body at all is an empty object: refused by the schema.
    assertErrorBody(await send(route, undefined), 400, 'BAD_REQUEST');
    assertErrorBody(await send(route, ''), 400, 'BAD_REQUEST');
    t.pass();
  });
}

test('a NUL character in any text field is a 400, never a store error', async (t) => {
  for (const route of bodyRoutes) {
    for (const field of route.fields) {
      const body = { ...route.valid(), [field]: field === 'password' ? 'long enough\u0000password' : 'ab\u0000cd' };
      if (typeof route.valid()[field] === 'boolean' || field === 'role' || field === 'tier') continue;
      const res = await send(route, JSON.stringify(body));
      t.is(res.status, 400, `${route.label} ${field}: ${JSON.stringify(res.body)}`);
      assertSchema(t, 'error.json', res.body);
    }
  }
});

test('a valid body with a wrong content type creates nothing', async (t) => {
  const before = await env.deps.db.query<{ n: number }>(
    'SELECT (SELECT count(*) FROM users)::int + (SELECT count(*) FROM servers)::int + (SELECT count(*) FROM api_keys)::int AS n',
  );
  const route = bodyRoutes.find((r) => r.label === 'POST /api/servers')!;
  for (const type of ['text/plain', 'application/x-www-form-urlencoded']) {
    assertErrorBody(await send(route, JSON.stringify({ name: 'sneaky' }), type), 415);
  }
  const { rows } = await env.deps.db.query<{ n: number }>("SELECT count(*)::int AS n FROM servers WHERE name = 'sneaky'");
  t.is(rows[0]!.n, 0);
  t.true(before.rows[0]!.n > 0);
});

// ---- :id path segments

const idRoutes: { method: Method; path: (id: string) => string; body?: unknown }[] = [
  { method: 'get', path: (id) => `/api/servers/${id}` },
  { method: 'patch', path: (id) => `/api/servers/${id}`, body: { name: 'x' } },
  { method: 'delete', path: (id) => `/api/servers/${id}` },
  { method: 'post', path: (id) => `/api/servers/${id}/ingest-token` },
  { method: 'patch', path: (id) => `/api/users/${id}`, body: { role: 'viewer' } },
  { method: 'delete', path: (id) => `/api/users/${id}` },
  { method: 'delete', path: (id) => `/api/account/api-keys/${id}` },
];

const segment = fc
  .oneof(
    fc.string({ minLength: 1, maxLength: 40 }).map(encodeURIComponent),
    fc.string({ unit: 'grapheme', minLength: 1, maxLength: 20 }).map(encodeURIComponent),
    fc.string({ unit: 'binary', minLength: 1, maxLength: 20 }).map(encodeURIComponent),
    fc
      .uuid()
      .map((u) => fc.constantFrom(u, u.toUpperCase(), `{${u}}`, `${u}x`, u.replaceAll('-', ''), ` ${u}`.replace(' ', '%20'), `${u}%00`))
      .chain((a) => a),
    fc.integer().map(String),
    fc.constantFrom(
      '%',
      '%zz',
      '%00',
      '%c0%ae',
      '%2e%2e',
      '%2F',
      '%5c',
      '..%2f..%2fusers',
      'null',
      'undefined',
      'NaN',
      '-1',
      '0',
      '00000000-0000-0000-0000-000000000000',
      'x'.repeat(5000),
      "1' OR '1'='1",
      '1;DROP TABLE users',
      '$1',
      '\\x00',
    ),
  )
  .filter((s) => s !== '.' && s !== '..');

for (const route of idRoutes) {
  test(`${route.method.toUpperCase()} ${route.path(':id')}: any id segment answers a 4xx Error`, async (t) => {
    await fc.assert(
      fc.asyncProperty(segment, async (id) => {
        let req = env.request[route.method](route.path(id)).set('Authorization', `Bearer ${operator.token}`);
        if (route.body) req = req.send(route.body);
        const res = await req;
        assertErrorBody(res);
      }),
      { numRuns: runs },
    );
    t.pass();
  });
}

// After every property ran (AVA runs `after` hooks before `after.always`, which closes the world).
test.after('the service is still healthy afterwards', async (t) => {
  const health = await env.request.get('/api/health');
  t.is(health.status, 200);
  assertSchema(t, 'health.json', health.body);
  const users = await env.request.get('/api/users').set('Authorization', `Bearer ${operator.token}`);
  t.is(users.status, 200);
  assertSchema(t, 'user-list.json', users.body);
  const server = await env.request.get(`/api/servers/${serverId}`).set('Authorization', `Bearer ${operator.token}`);
  t.is(server.status, 200);
});
