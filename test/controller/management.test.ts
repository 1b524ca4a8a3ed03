// The management endpoints end to end: servers and their ingest tokens, Data API
// keys, users, communities, the operator's Data API switch, and the audit log; plus a scan that
// no secret ever reaches an audit entry, a response it does not belong in, or a log line.
import { randomUUID } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import test from 'ava';
import type { ExecutionContext } from 'ava';
import { pino } from 'pino';
import supertest from 'supertest';
import type { Response } from 'supertest';
import { createApp } from '../../src/app.ts';
import { closeDeps, connectDeps, createDeps } from '../../src/deps.ts';
import type { Deps } from '../../src/deps.ts';
import { createLog } from '../../src/log.ts';
import { password, setupOperator, signIn, userWithRole } from '../helpers/controller.ts';
import type { Session } from '../helpers/controller.ts';
import { api, browserCall, controllerEnv, envFor, logCollector } from '../helpers/controller-http.ts';
import type { Method } from '../helpers/controller-http.ts';
import { assertError, keysDeep } from '../helpers/data-api.ts';
import type { TestEnv } from '../helpers/env.ts';
import { gameFilesDirFor } from '../helpers/game-files-dir.ts';
import { assertSchema, dataGet, ev, ingest, tenant } from '../helpers/seed.ts';

let env: TestEnv;
let operator: Session;
test.before(async () => {
  env = await controllerEnv();
  operator = await setupOperator(env);
});
test.after.always(async () => {
  await env?.close();
});

const tag = () => randomUUID().slice(0, 8);

/** A new community (through POST /api/accounts) with its owner signed in. */
async function community(t: ExecutionContext, e = env, op = operator): Promise<Session> {
  const name = `owner-${tag()}`;
  const res = await api(t, e, op, 'post', '/api/accounts', { accountName: `Community ${name}`, username: name, password });
  t.is(res.status, 201, JSON.stringify(res.body));
  return signIn(e, name);
}

async function newServer(t: ExecutionContext, owner: Session, body: Record<string, unknown> = { name: 'alpha' }, e = env) {
  const res = await api(t, e, owner, 'post', '/api/servers', body);
  t.is(res.status, 201, JSON.stringify(res.body));
  assertSchema(t, 'server-created.json', res.body);
  return { server: res.body.server as { id: string; name: string }, token: res.body.ingestToken as string };
}

async function newKey(t: ExecutionContext, owner: Session, body: Record<string, unknown> = { name: 'dashboard' }, e = env) {
  const res = await api(t, e, owner, 'post', '/api/account/api-keys', body);
  t.is(res.status, 201, JSON.stringify(res.body));
  assertSchema(t, 'api-key-created.json', res.body);
  return res.body as { id: string; name: string; tier: string; key: string; createdAt: string };
}

const statusEvent = (e = env) => [ev.status(e.clock.now() - 1000)];

async function latestAudit(t: ExecutionContext, owner: Session, limit = 1, e = env) {
  const res = await api(t, e, owner, 'get', `/api/audit?limit=${limit}`);
  t.is(res.status, 200);
  assertSchema(t, 'audit-page.json', res.body);
  return res.body.entries as {
    id: string;
    at: string;
    actor: { type: string; id: string | null; name: string | null };
    action: string;
    target: { type: string | null; id: string | null };
    ip: string | null;
    details: Record<string, unknown>;
  }[];
}

/** The newest audit entry of the owner's account is this action of this user, from the test's address. */
async function assertAudited(
  t: ExecutionContext,
  owner: Session,
  action: string,
  target: { type: string; id: string },
  by: Session = owner,
  e = env,
) {
  const [entry] = await latestAudit(t, owner, 1, e);
  t.truthy(entry, `an audit entry for ${action}`);
  t.like(entry, { actor: { type: 'user', id: by.userId, name: by.username }, action, target, ip: '127.0.0.1' }, `audit of ${action}`);
  t.is(entry!.at, new Date(e.clock.now()).toISOString());
}

/**
 * A world of its own whose operator may name file paths (only accounts.manage, only
 * inside GAME_FILES_DIR), with the folders `alpha` and `beta` in its GAME_FILES_DIR.
 */
async function filesWorld(t: ExecutionContext): Promise<{ e: TestEnv; owner: Session }> {
  const dir = await gameFilesDirFor(t);
  await Promise.all(['alpha', 'beta'].map((f) => mkdir(join(dir, f))));
  const e = await envFor(t, { GAME_FILES_DIR: dir });
  return { e, owner: await setupOperator(e) };
}

// ---------------------------------------------------------------- servers

test('POST /api/servers returns the server and its ingest token once; the token ingests; reads never show it', async (t) => {
  const { e, owner } = await filesWorld(t);
  const body = { name: 'alpha', banFilePath: 'alpha/ban.txt', priorityFilePath: 'alpha/priority.txt' };
  const { server, token } = await newServer(t, owner, body, e);
  t.like(server, { ...body, online: false, lastSeenAt: null });
  t.regex(token, /^svci_[A-Za-z0-9_-]{20,}$/);
  await assertAudited(t, owner, 'server.create', { type: 'server', id: server.id }, owner, e);

  const ingested = await ingest(e, { serverId: server.id, token }, statusEvent(e));
  t.is(ingested.status, 200);
  assertSchema(t, 'ingest-result.json', ingested.body);
  t.is(ingested.body.accepted, 1);

  const one = await api(t, e, owner, 'get', `/api/servers/${server.id}`);
  t.is(one.status, 200);
  assertSchema(t, 'managed-server.json', one.body);
  t.like(one.body, { ...body, id: server.id, online: true });
  const list = await api(t, e, owner, 'get', '/api/servers');
  t.is(list.status, 200);
  assertSchema(t, 'managed-server-list.json', list.body);
  t.deepEqual(
    (list.body.servers as { id: string }[]).map((s) => s.id),
    [server.id],
  );
  for (const res of [one, list]) {
    const text = JSON.stringify(res.body);
    t.false(text.includes(token));
    t.false(text.includes('svci_'));
    t.false(
      [...keysDeep(res.body)].some((k) => /token|hash/i.test(k)),
      `no token field in ${text}`,
    );
  }
  // Only a hash is stored.
  const { rows } = await e.deps.db.query<{ row: string }>('SELECT row_to_json(s)::text AS row FROM servers s WHERE id = $1', [server.id]);
  t.false(rows[0]!.row.includes(token));
});

test('PATCH /api/servers/:id changes name and paths, null clears, and the Data API shows the new name at once', async (t) => {
  const { e, owner } = await filesWorld(t);
  const { server } = await newServer(t, owner, { name: 'alpha', banFilePath: 'alpha/ban.txt', priorityFilePath: 'alpha/prio.txt' }, e);
  const key = await newKey(t, owner, { name: 'dashboard' }, e);
  // Warm the Data API's caches of the server first.
  t.is((await dataGet(e, key, `/servers/${server.id}`)).body.name, 'alpha');
  t.deepEqual(
    ((await dataGet(e, key, '/servers')).body.servers as { name: string }[]).map((s) => s.name),
    ['alpha'],
  );

  const renamed = await api(t, e, owner, 'patch', `/api/servers/${server.id}`, {
    name: 'beta',
    banFilePath: 'beta/other-ban.txt',
    priorityFilePath: null,
  });
  t.is(renamed.status, 200);
  assertSchema(t, 'managed-server.json', renamed.body);
  t.like(renamed.body, { id: server.id, name: 'beta', banFilePath: 'beta/other-ban.txt', priorityFilePath: null });
  await assertAudited(t, owner, 'server.update', { type: 'server', id: server.id }, owner, e);

  const status = await dataGet(e, key, `/servers/${server.id}`);
  t.is(status.status, 200);
  assertSchema(t, 'server-status.json', status.body);
  t.is(status.body.name, 'beta');
  t.deepEqual(
    ((await dataGet(e, key, '/servers')).body.servers as { name: string }[]).map((s) => s.name),
    ['beta'],
  );

  // Fields left out are kept; null clears the rest.
  const cleared = await api(t, e, owner, 'patch', `/api/servers/${server.id}`, { banFilePath: null });
  t.is(cleared.status, 200);
  t.like(cleared.body, { name: 'beta', banFilePath: null, priorityFilePath: null });
  const read = await api(t, e, owner, 'get', `/api/servers/${server.id}`);
  t.deepEqual(read.body, cleared.body);
  // An empty change and a null name are refused.
  assertError(t, await api(t, e, owner, 'patch', `/api/servers/${server.id}`, {}), 400, 'BAD_REQUEST');
  assertError(t, await api(t, e, owner, 'patch', `/api/servers/${server.id}`, { name: null }), 400, 'BAD_REQUEST');
  t.is((await api(t, e, owner, 'get', `/api/servers/${server.id}`)).body.name, 'beta');
  // A community's owner renames, and names no path (section 16).
  const community = await userWithRole(e, 'owner');
  const theirs = await newServer(t, community, { name: 'gamma' }, e);
  assertError(
    t,
    await api(t, e, community, 'patch', `/api/servers/${theirs.server.id}`, { banFilePath: 'beta/ban.txt' }),
    403,
    'FORBIDDEN',
  );
  t.is((await api(t, e, community, 'patch', `/api/servers/${theirs.server.id}`, { name: 'delta' })).status, 200);
});

test('DELETE /api/servers/:id revokes: its token no longer ingests, the Data API and the controller answer 404', async (t) => {
  const owner = await community(t);
  const { server, token } = await newServer(t, owner);
  const kept = await newServer(t, owner, { name: 'kept' });
  const key = await newKey(t, owner);
  // Warm every cache: the token check, the Data API status.
  t.is((await ingest(env, { serverId: server.id, token }, statusEvent())).status, 200);
  t.is((await dataGet(env, key, `/servers/${server.id}`)).status, 200);

  const res = await api(t, env, owner, 'delete', `/api/servers/${server.id}`);
  t.is(res.status, 204);
  await assertAudited(t, owner, 'server.revoke', { type: 'server', id: server.id });

  assertError(t, await ingest(env, { serverId: server.id, token }, statusEvent()), 401, 'UNAUTHORIZED');
  assertError(t, await dataGet(env, key, `/servers/${server.id}`), 404, 'NOT_FOUND');
  t.deepEqual(
    ((await dataGet(env, key, '/servers')).body.servers as { id: string }[]).map((s) => s.id),
    [kept.server.id],
  );
  assertError(t, await api(t, env, owner, 'get', `/api/servers/${server.id}`), 404, 'NOT_FOUND');
  t.deepEqual(
    ((await api(t, env, owner, 'get', '/api/servers')).body.servers as { id: string }[]).map((s) => s.id),
    [kept.server.id],
  );
  assertError(
    t,
    await api(t, env, owner, 'post', `/api/servers/${server.id}/ingest-token`),
    404,
    'NOT_FOUND',
    'no token for a revoked server',
  );
  assertError(t, await api(t, env, owner, 'patch', `/api/servers/${server.id}`, { name: 'back' }), 404, 'NOT_FOUND');
  // The other server is untouched.
  t.is((await ingest(env, { serverId: kept.server.id, token: kept.token }, statusEvent())).status, 200);
});

test('POST /api/servers/:id/ingest-token rotates: the old token answers 401, the new one ingests', async (t) => {
  const owner = await community(t);
  const { server, token: first } = await newServer(t, owner);
  t.is((await ingest(env, { serverId: server.id, token: first }, statusEvent())).status, 200);

  const rotated = await api(t, env, owner, 'post', `/api/servers/${server.id}/ingest-token`);
  t.is(rotated.status, 200);
  assertSchema(t, 'ingest-token.json', rotated.body);
  const second = rotated.body.ingestToken as string;
  t.regex(second, /^svci_/);
  t.not(second, first);
  await assertAudited(t, owner, 'server.ingest-token.rotate', { type: 'server', id: server.id });
  t.false(JSON.stringify(await latestAudit(t, owner, 50)).includes('svci_'));

  assertError(t, await ingest(env, { serverId: server.id, token: first }, statusEvent()), 401, 'UNAUTHORIZED');
  t.is((await ingest(env, { serverId: server.id, token: second }, statusEvent())).status, 200);

  const third = (await api(t, env, owner, 'post', `/api/servers/${server.id}/ingest-token`)).body.ingestToken as string;
  assertError(t, await ingest(env, { serverId: server.id, token: second }, statusEvent()), 401, 'UNAUTHORIZED');
  t.is((await ingest(env, { serverId: server.id, token: third }, statusEvent())).status, 200);
  const read = await api(t, env, owner, 'get', `/api/servers/${server.id}`);
  t.false(JSON.stringify(read.body).includes('svci_'));
});

test('a browser session manages servers with its CSRF token, and is refused without it', async (t) => {
  const owner = await community(t);
  const created = await browserCall(env, owner, 'post', '/api/servers', { name: 'via cookie' });
  t.is(created.status, 201);
  const id = created.body.server.id as string;
  const noCsrf = await env.request.patch(`/api/servers/${id}`).set('Cookie', owner.cookie).send({ name: 'forged' });
  assertError(t, noCsrf, 403, 'csrf-mismatch');
  const wrongCsrf = await env.request
    .delete(`/api/servers/${id}`)
    .set('Cookie', owner.cookie)
    .set('X-CSRF-Token', `${owner.csrf.slice(0, -1)}${owner.csrf.endsWith('A') ? 'B' : 'A'}`);
  assertError(t, wrongCsrf, 403, 'csrf-mismatch');
  t.is((await browserCall(env, owner, 'get', `/api/servers/${id}`)).body.name, 'via cookie');
  t.is((await browserCall(env, owner, 'delete', `/api/servers/${id}`)).status, 204);
});

// ---------------------------------------------------------------- API keys

test('API keys: the raw key is shown once, works on the Data API, is listed without key material, and revocation is immediate', async (t) => {
  const owner = await community(t);
  const { server } = await newServer(t, owner);
  const created = await newKey(t, owner, { name: 'dashboard' });
  t.regex(created.key, /^svc_[A-Za-z0-9_-]{20,}$/);
  t.like(created, { name: 'dashboard', tier: 'standard' });
  await assertAudited(t, owner, 'apikey.create', { type: 'apikey', id: created.id });

  const servers = await dataGet(env, created, '/servers');
  t.is(servers.status, 200);
  assertSchema(t, 'server-list.json', servers.body);
  t.deepEqual(
    (servers.body.servers as { id: string }[]).map((s) => s.id),
    [server.id],
  );
  t.is((await env.request.get(`/api/v1/data/servers/${server.id}`).set('X-Service-Api-Key', created.key)).status, 200);

  const list = await api(t, env, owner, 'get', '/api/account/api-keys');
  t.is(list.status, 200);
  assertSchema(t, 'api-key-list.json', list.body);
  t.deepEqual(list.body.keys, [{ id: created.id, name: 'dashboard', tier: 'standard', createdAt: created.createdAt, revokedAt: null }]);
  const text = JSON.stringify(list.body);
  t.false(text.includes(created.key));
  t.false(text.includes('svc_'));
  t.false([...keysDeep(list.body)].some((k) => /^key$|hash|secret/i.test(k)));
  // PostgreSQL holds the SHA-256, never the key.
  const { rows } = await env.deps.db.query<{ row: string; hashLength: number }>(
    'SELECT row_to_json(k)::text AS row, length(key_hash) AS "hashLength" FROM api_keys k WHERE id = $1',
    [created.id],
  );
  t.false(rows[0]!.row.includes(created.key));
  t.is(rows[0]!.hashLength, 32);

  const revoked = await api(t, env, owner, 'delete', `/api/account/api-keys/${created.id}`);
  t.is(revoked.status, 204);
  await assertAudited(t, owner, 'apikey.revoke', { type: 'apikey', id: created.id });
  assertError(t, await dataGet(env, created, '/servers'), 401, 'UNAUTHORIZED');
  assertError(t, await dataGet(env, created, `/servers/${server.id}`), 401, 'UNAUTHORIZED');
  const after = await api(t, env, owner, 'get', '/api/account/api-keys');
  assertSchema(t, 'api-key-list.json', after.body);
  t.is(after.body.keys.length, 1);
  t.is(typeof after.body.keys[0].revokedAt, 'string');
});

test('partner-tier keys are minted by the operator only', async (t) => {
  const partner = await newKey(t, operator, { name: 'partner', tier: 'partner' });
  t.is(partner.tier, 'partner');
  t.regex(partner.key, /^svc_/);
  t.is((await dataGet(env, partner, '/servers')).status, 200);
  const owner = await community(t);
  assertError(t, await api(t, env, owner, 'post', '/api/account/api-keys', { name: 'partner', tier: 'partner' }), 403, 'FORBIDDEN');
  t.deepEqual((await api(t, env, owner, 'get', '/api/account/api-keys')).body.keys, []);
});

// ---------------------------------------------------------------- users

test('users: create, duplicate usernames (any case) 409, list', async (t) => {
  const owner = await community(t);
  const name = `mod-${tag()}`;
  const created = await api(t, env, owner, 'post', '/api/users', { username: name, password, role: 'moderator' });
  t.is(created.status, 201);
  assertSchema(t, 'user.json', created.body);
  t.like(created.body, { username: name, role: 'moderator', accountId: owner.accountId });
  await assertAudited(t, owner, 'user.create', { type: 'user', id: created.body.id });
  const latest = (await latestAudit(t, owner))[0]!;
  t.deepEqual(latest.details, { username: name, role: 'moderator' });

  assertError(t, await api(t, env, owner, 'post', '/api/users', { username: name, password, role: 'viewer' }), 409, 'CONFLICT');
  assertError(
    t,
    await api(t, env, owner, 'post', '/api/users', { username: name.toUpperCase(), password, role: 'viewer' }),
    409,
    'CONFLICT',
  );
  // Usernames are unique across communities too: the login form has no account field.
  assertError(
    t,
    await api(t, env, operator, 'post', '/api/users', { username: owner.username, password, role: 'viewer' }),
    409,
    'CONFLICT',
  );

  const list = await api(t, env, owner, 'get', '/api/users');
  assertSchema(t, 'user-list.json', list.body);
  t.deepEqual(
    (list.body.users as { username: string; role: string }[]).map((u) => [u.username, u.role]),
    [
      [owner.username, 'owner'],
      [name, 'moderator'],
    ],
  );
  const mod = await signIn(env, name);
  t.is(mod.accountId, owner.accountId);
  assertError(t, await api(t, env, mod, 'get', '/api/users'), 403, 'FORBIDDEN');
});

test("users: a password change ends that user's sessions; the new password signs in, the old one does not", async (t) => {
  const owner = await community(t);
  const name = `admin-${tag()}`;
  const id = (await api(t, env, owner, 'post', '/api/users', { username: name, password, role: 'admin' })).body.id as string;
  const first = await signIn(env, name);
  const second = await signIn(env, name);
  t.is((await api(t, env, first, 'get', '/api/servers')).status, 200);

  const changed = await api(t, env, owner, 'patch', `/api/users/${id}`, { password: 'a brand new password' });
  t.is(changed.status, 200);
  assertSchema(t, 'user.json', changed.body);
  t.like(changed.body, { id, username: name, role: 'admin' });
  await assertAudited(t, owner, 'user.update', { type: 'user', id });

  for (const old of [first, second]) {
    assertError(t, await api(t, env, old, 'get', '/api/servers'), 401, 'UNAUTHORIZED');
    assertError(t, await browserCall(env, old, 'get', '/api/servers'), 401, 'UNAUTHORIZED');
  }
  assertError(t, await env.request.post('/api/auth/login').send({ username: name, password }), 401, 'INVALID_CREDENTIALS');
  const fresh = await signIn(env, name, 'a brand new password');
  t.is((await api(t, env, fresh, 'get', '/api/servers')).status, 200);
  // The acting owner's own session is untouched.
  t.is((await api(t, env, owner, 'get', '/api/users')).status, 200);
});

test('users: a role change takes effect; the demoted user keeps none of the old permissions', async (t) => {
  const owner = await community(t);
  const name = `admin-${tag()}`;
  const id = (await api(t, env, owner, 'post', '/api/users', { username: name, password, role: 'admin' })).body.id as string;
  const asAdmin = await signIn(env, name);
  t.is((await api(t, env, asAdmin, 'post', '/api/servers', { name: 'by the admin' })).status, 201);

  const demoted = await api(t, env, owner, 'patch', `/api/users/${id}`, { role: 'viewer' });
  t.is(demoted.status, 200);
  t.is(demoted.body.role, 'viewer');
  t.deepEqual((await latestAudit(t, owner))[0]!.details, { changed: ['role'], role: 'viewer' });
  t.true(
    [401, 403].includes((await api(t, env, asAdmin, 'post', '/api/servers', { name: 'again' })).status),
    'the old session no longer manages servers',
  );
  const asViewer = await signIn(env, name);
  assertError(t, await api(t, env, asViewer, 'post', '/api/servers', { name: 'as viewer' }), 403, 'FORBIDDEN');
  t.is((await api(t, env, asViewer, 'get', '/api/servers')).status, 200, 'a viewer reads the servers');

  t.is((await api(t, env, owner, 'patch', `/api/users/${id}`, { role: 'owner', password: 'owner password 42' })).status, 200);
  const asOwner = await signIn(env, name, 'owner password 42');
  t.is((await api(t, env, asOwner, 'get', '/api/users')).status, 200);
  // An owner of a community is still no network operator.
  assertError(t, await api(t, env, asOwner, 'get', '/api/operator/data-api'), 403, 'FORBIDDEN');
});

test('users: the last owner cannot be demoted, nobody deletes themselves, and a deleted user cannot sign in', async (t) => {
  const owner = await community(t);
  assertError(
    t,
    await api(t, env, owner, 'patch', `/api/users/${owner.userId}`, { role: 'admin' }),
    409,
    'CONFLICT',
    'the last owner demotes itself',
  );
  assertError(t, await api(t, env, owner, 'delete', `/api/users/${owner.userId}`), 409, 'CONFLICT', 'delete yourself');
  t.is((await api(t, env, owner, 'get', '/api/users')).body.users[0].role, 'owner');

  // With a second owner, one owner can be demoted; then the remaining one is the last again.
  const name = `second-${tag()}`;
  const secondId = (await api(t, env, owner, 'post', '/api/users', { username: name, password, role: 'owner' })).body.id as string;
  const second = await signIn(env, name);
  assertError(
    t,
    await api(t, env, second, 'delete', `/api/users/${second.userId}`),
    409,
    'CONFLICT',
    'delete yourself as one of two owners',
  );
  t.is((await api(t, env, second, 'patch', `/api/users/${owner.userId}`, { role: 'admin' })).status, 200);
  assertError(t, await api(t, env, second, 'patch', `/api/users/${secondId}`, { role: 'viewer' }), 409, 'CONFLICT', 'now the last owner');
  // Re-promoting the first owner lets the second be removed.
  t.is((await api(t, env, second, 'patch', `/api/users/${owner.userId}`, { role: 'owner' })).status, 200);
  const first = await signIn(env, owner.username);
  t.is((await api(t, env, first, 'delete', `/api/users/${secondId}`)).status, 204);
  await assertAudited(t, first, 'user.delete', { type: 'user', id: secondId });

  assertError(t, await api(t, env, second, 'get', '/api/servers'), 401, 'UNAUTHORIZED', "the deleted user's session");
  assertError(t, await env.request.post('/api/auth/login').send({ username: name, password }), 401, 'INVALID_CREDENTIALS');
  assertError(t, await api(t, env, first, 'delete', `/api/users/${secondId}`), 404, 'NOT_FOUND', 'deleted twice');
  assertError(
    t,
    await api(t, env, first, 'patch', `/api/users/${secondId}`, { role: 'owner' }),
    404,
    'NOT_FOUND',
    'a deleted user is not revived',
  );
  t.deepEqual(
    ((await api(t, env, first, 'get', '/api/users')).body.users as { id: string }[]).map((u) => u.id),
    [owner.userId],
  );
  t.is((await env.request.post('/api/auth/login').send({ username: name, password })).status, 401);
});

test('users: two owners removing or demoting each other at once still leave the account an owner', async (t) => {
  for (let round = 0; round < 6; round++) {
    const a = await community(t);
    const name = `b-${tag()}`;
    const bId = (await api(t, env, a, 'post', '/api/users', { username: name, password, role: 'owner' })).body.id as string;
    const b = await signIn(env, name);
    const [ab, ba] =
      round % 2 === 0
        ? await Promise.all([api(t, env, a, 'delete', `/api/users/${bId}`), api(t, env, b, 'delete', `/api/users/${a.userId}`)])
        : await Promise.all([
            api(t, env, a, 'patch', `/api/users/${bId}`, { role: 'admin' }),
            api(t, env, b, 'patch', `/api/users/${a.userId}`, { role: 'admin' }),
          ]);
    const { rows } = await env.deps.db.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM users WHERE account_id = $1 AND role = 'owner' AND deleted_at IS NULL",
      [a.accountId],
    );
    t.true(rows[0]!.n >= 1, `round ${round}: owners left ${rows[0]!.n} (statuses ${ab.status}, ${ba.status})`);
  }
});

// ---------------------------------------------------------------- accounts

test('POST /api/accounts creates a community whose owner signs in and manages it; audited in both accounts', async (t) => {
  const name = `owner-${tag()}`;
  const res = await api(t, env, operator, 'post', '/api/accounts', { accountName: 'Chernarus Survivors', username: name, password });
  t.is(res.status, 201);
  assertSchema(t, 'account-created.json', res.body);
  t.like(res.body, { account: { name: 'Chernarus Survivors' }, owner: { username: name, role: 'owner' } });
  const accountId = res.body.account.id as string;
  t.is(res.body.owner.accountId, accountId);
  const owner = await signIn(env, name);
  t.is(owner.accountId, accountId);
  t.is((await api(t, env, owner, 'get', '/api/users')).status, 200);
  t.is((await api(t, env, owner, 'post', '/api/servers', { name: 'first' })).status, 201);

  const entries = await latestAudit(t, owner, 200);
  const created = entries.find((e) => e.action === 'account.create');
  t.like(created, {
    actor: { type: 'user', id: operator.userId, name: operator.username },
    target: { type: 'account', id: accountId },
    ip: '127.0.0.1',
  });
  const operatorEntries = await latestAudit(t, operator, 200);
  t.truthy(operatorEntries.find((e) => e.action === 'account.create' && e.target.id === accountId));

  assertError(
    t,
    await api(t, env, operator, 'post', '/api/accounts', { accountName: 'Again', username: name.toUpperCase(), password }),
    409,
    'CONFLICT',
  );
  const { rows } = await env.deps.db.query<{ n: number }>("SELECT count(*)::int AS n FROM accounts WHERE name = 'Again'");
  t.is(rows[0]!.n, 0, 'a refused community leaves no account behind');
});

// ---------------------------------------------------------------- the Data API switch

async function waitFor(condition: () => boolean, what: string): Promise<void> {
  const deadline = performance.now() + 5000;
  while (!condition()) {
    if (performance.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}

async function secondProcess(t: ExecutionContext, e: TestEnv): Promise<{ deps: Deps; request: ReturnType<typeof supertest> }> {
  const deps = createDeps(e.deps.config, { clock: e.clock, log: createLog('silent') });
  t.teardown(() => closeDeps(deps));
  await connectDeps(deps);
  return { deps, request: supertest(createApp(deps).callback()) };
}

test('PUT /api/operator/data-api turns /api/v1/data/* off (503 DATA_API_DISABLED) and on at once, in every process', async (t) => {
  const e = await envFor(t);
  const op = await setupOperator(e);
  const a = await tenant(e.deps);
  const other = await secondProcess(t, e);
  const paths = ['/servers', `/servers/${a.serverId}`, `/servers/${a.serverId}/kills`, '/no-such-route'];
  const get = (request: ReturnType<typeof supertest>, path: string) =>
    request.get(`/api/v1/data${path}`).set('Authorization', `Bearer ${a.key}`);

  const initial = await api(t, e, op, 'get', '/api/operator/data-api');
  assertSchema(t, 'data-api-switch.json', initial.body);
  t.deepEqual(initial.body, { enabled: true });
  t.is((await get(e.request, '/servers')).status, 200);
  t.is((await get(other.request, '/servers')).status, 200);

  const off = await api(t, e, op, 'put', '/api/operator/data-api', { enabled: false });
  t.is(off.status, 200);
  assertSchema(t, 'data-api-switch.json', off.body);
  t.deepEqual(off.body, { enabled: false });
  for (const path of paths) assertError(t, await get(e.request, path), 503, 'DATA_API_DISABLED', path);
  assertError(t, await e.request.get('/api/v1/data/servers'), 503, 'DATA_API_DISABLED', 'even without a key');
  t.deepEqual((await api(t, e, op, 'get', '/api/operator/data-api')).body, { enabled: false });
  const [entry] = await latestAudit(t, op, 1, e);
  t.like(entry, {
    actor: { type: 'user', id: op.userId, name: op.username },
    action: 'operator.data-api.set',
    target: { type: 'setting', id: 'data-api' },
    details: { enabled: false },
    ip: '127.0.0.1',
  });

  // The rest of the service keeps working.
  t.is((await e.request.get('/api/health')).status, 200);
  t.is((await e.request.get('/api/v1/openapi.json')).status, 200);
  t.is((await ingest(e, a, statusEvent(e))).status, 200);
  t.is((await api(t, e, op, 'get', '/api/servers')).status, 200);

  // Another process on the same Redis follows through pub/sub; one started later reads the stored value.
  await waitFor(() => !other.deps.runtime.dataApiEnabled, 'the second process to see the switch off');
  for (const path of paths) assertError(t, await get(other.request, path), 503, 'DATA_API_DISABLED', `second process ${path}`);
  const late = await secondProcess(t, e);
  t.false(late.deps.runtime.dataApiEnabled);
  assertError(t, await get(late.request, '/servers'), 503, 'DATA_API_DISABLED', 'a process started later');

  const on = await api(t, e, op, 'put', '/api/operator/data-api', { enabled: true });
  t.deepEqual(on.body, { enabled: true });
  t.is((await get(e.request, '/servers')).status, 200);
  await waitFor(() => other.deps.runtime.dataApiEnabled && late.deps.runtime.dataApiEnabled, 'the other processes to see the switch on');
  t.is((await get(other.request, `/servers/${a.serverId}`)).status, 200);
  t.is((await get(late.request, '/servers')).status, 200);
  t.like((await latestAudit(t, op, 1, e))[0], { action: 'operator.data-api.set', details: { enabled: true } });
});

// ---------------------------------------------------------------- audit

test('every state change is audited with actor, action, target and address, newest first', async (t) => {
  const owner = await community(t);
  const start = Number((await latestAudit(t, owner))[0]!.id);
  const { server } = await newServer(t, owner);
  t.is((await api(t, env, owner, 'patch', `/api/servers/${server.id}`, { name: 'renamed' })).status, 200);
  t.is((await api(t, env, owner, 'post', `/api/servers/${server.id}/ingest-token`)).status, 200);
  const key = await newKey(t, owner);
  t.is((await api(t, env, owner, 'delete', `/api/account/api-keys/${key.id}`)).status, 204);
  const user = (await api(t, env, owner, 'post', '/api/users', { username: `u-${tag()}`, password, role: 'viewer' })).body as {
    id: string;
    username: string;
  };
  t.is((await api(t, env, owner, 'patch', `/api/users/${user.id}`, { role: 'moderator' })).status, 200);
  const asUser = await signIn(env, user.username);
  t.is((await api(t, env, asUser, 'post', '/api/auth/logout')).status, 204);
  t.is((await api(t, env, owner, 'delete', `/api/users/${user.id}`)).status, 204);
  t.is((await api(t, env, owner, 'delete', `/api/servers/${server.id}`)).status, 204);

  const byOwner = { type: 'user', id: owner.userId, name: owner.username };
  const byUser = { type: 'user', id: user.id, name: user.username };
  const expected = [
    [byOwner, 'server.create', 'server', server.id],
    [byOwner, 'server.update', 'server', server.id],
    [byOwner, 'server.ingest-token.rotate', 'server', server.id],
    [byOwner, 'apikey.create', 'apikey', key.id],
    [byOwner, 'apikey.revoke', 'apikey', key.id],
    [byOwner, 'user.create', 'user', user.id],
    [byOwner, 'user.update', 'user', user.id],
    [byUser, 'auth.login', 'user', user.id],
    [byUser, 'auth.logout', 'user', user.id],
    [byOwner, 'user.delete', 'user', user.id],
    [byOwner, 'server.revoke', 'server', server.id],
  ].reverse();
  const entries = (await latestAudit(t, owner, 200)).filter((e) => Number(e.id) > start);
  t.deepEqual(
    entries.map((e) => [e.actor, e.action, e.target.type, e.target.id]),
    expected,
  );
  for (const e of entries) {
    t.is(e.ip, '127.0.0.1');
    t.is(e.at, new Date(env.clock.now()).toISOString());
  }
  const ids = entries.map((e) => Number(e.id));
  t.deepEqual(
    ids,
    [...ids].sort((x, y) => y - x),
    'newest first',
  );
});

test('GET /api/audit pages with limit and nextCursor without gaps or repeats, even while entries are added', async (t) => {
  // Its own world, with ids that cross from three to four digits (text order would differ there).
  const e = await envFor(t);
  const op = await setupOperator(e);
  await e.deps.db.query('ALTER SEQUENCE audit_log_id_seq RESTART WITH 990');
  const owner = await community(t, e, op);
  const { server } = await newServer(t, owner, { name: 'alpha' }, e);
  for (let i = 0; i < 22; i++) t.is((await api(t, e, owner, 'patch', `/api/servers/${server.id}`, { name: `name ${i}` })).status, 200);
  const all = await latestAudit(t, owner, 200, e);
  t.true(all.length >= 24); // the login, account.create, server.create and 22 updates
  const allIds = all.map((entry) => entry.id);
  t.true(allIds.includes('999') && allIds.includes('1000'));

  for (const limit of [1, 5, 7, all.length]) {
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const res: Response = await api(t, e, owner, 'get', `/api/audit?limit=${limit}${cursor ? `&before=${cursor}` : ''}`);
      t.is(res.status, 200);
      assertSchema(t, 'audit-page.json', res.body);
      const ids = (res.body.entries as { id: string }[]).map((entry) => entry.id);
      t.true(ids.length <= limit);
      if (res.body.nextCursor !== null) {
        t.is(ids.length, limit, 'a page with a cursor is full');
        t.is(res.body.nextCursor, ids.at(-1));
      }
      seen.push(...ids);
      cursor = res.body.nextCursor as string | null;
      pages += 1;
      // Entries written while paging are newer than the cursor: they never show up in later pages.
      if (pages === 1) t.is((await api(t, e, owner, 'patch', `/api/servers/${server.id}`, { name: `while paging ${limit}` })).status, 200);
    } while (cursor !== null && pages < 100);
    t.deepEqual(seen, allIds, `limit ${limit}`);
    t.is(pages, Math.ceil(allIds.length / limit), `limit ${limit}: no empty last page`);
    allIds.unshift(...(await latestAudit(t, owner, 1, e)).map((entry) => entry.id));
  }
  assertError(t, await api(t, e, owner, 'get', '/api/audit?limit=0'), 400, 'BAD_REQUEST');
  assertError(t, await api(t, e, owner, 'get', '/api/audit?limit=201'), 400, 'BAD_REQUEST');
  assertError(t, await api(t, e, owner, 'get', '/api/audit?before=abc'), 400, 'BAD_REQUEST');
  assertError(t, await api(t, e, owner, 'get', '/api/audit?before=-1'), 400, 'BAD_REQUEST');
  const none = await api(t, e, owner, 'get', '/api/audit?before=1');
  t.deepEqual(none.body, { entries: [], nextCursor: null });
});

// ---------------------------------------------------------------- secrets

test('no password, password hash, API key, ingest token or JWT reaches an audit entry, a response it does not belong in, or a log line', async (t) => {
  const base = await envFor(t);
  const { stream, lines } = logCollector();
  const deps = createDeps(base.deps.config, { clock: base.clock, log: pino({ level: 'debug' }, stream) });
  t.teardown(() => closeDeps(deps));
  await connectDeps(deps);
  const e: TestEnv = { deps, clock: base.clock, request: supertest(createApp(deps).callback()), close: async () => undefined };

  const secrets = new Set<string>();
  const pw = (label: string) => {
    const value = `${label}-pw-${randomUUID()}`;
    secrets.add(value);
    return value;
  };
  const responses: { what: string; res: Response }[] = [];
  /** Every answer is scanned, except those that show a secret once by design. */
  const send = async (what: string, method: Method, path: string, session?: Session, body?: unknown, showsSecret = false) => {
    const res = await api(t, e, session, method, path, body);
    if (!showsSecret) responses.push({ what, res });
    return res;
  };
  const login = async (username: string, pass: string) => {
    const session = await signIn(e, username, pass);
    secrets.add(session.token);
    return session;
  };

  const operatorPw = pw('operator');
  t.is(
    (await send('setup', 'post', '/api/setup/admin', undefined, { accountName: 'Operator', username: 'operator', password: operatorPw }))
      .status,
    201,
  );
  await send('setup again', 'post', '/api/setup/admin', undefined, {
    accountName: 'Operator',
    username: 'operator2',
    password: pw('setup-again'),
  });
  const op = await login('operator', operatorPw);
  const wrong = pw('wrong');
  for (let i = 0; i < 6; i++) await send('wrong password', 'post', '/api/auth/login', undefined, { username: 'operator', password: wrong });
  await send('unknown user', 'post', '/api/auth/login', undefined, { username: 'nobody', password: pw('nobody') });
  await send('login with an extra field', 'post', '/api/auth/login', undefined, {
    username: 'operator',
    password: operatorPw,
    secret: operatorPw,
  });

  const ownerPw = pw('owner');
  t.is(
    (await send('account', 'post', '/api/accounts', op, { accountName: 'Community', username: 'owner', password: ownerPw })).status,
    201,
  );
  await send('account taken', 'post', '/api/accounts', op, { accountName: 'Community 2', username: 'owner', password: pw('taken') });
  await send('account bad body', 'post', '/api/accounts', op, { accountName: 'Community 3', username: 'x', password: pw('bad') });
  const owner = await login('owner', ownerPw);

  const userPw = pw('user');
  const user = await send('user', 'post', '/api/users', owner, { username: 'staff', password: userPw, role: 'admin' });
  await send('user short password', 'post', '/api/users', owner, { username: 'staff2', password: 'short' });
  await send('user unknown field', 'post', '/api/users', owner, {
    username: 'staff3',
    password: pw('staff3'),
    role: 'viewer',
    hash: pw('field'),
  });
  const staff = await login('staff', userPw);
  const newPw = pw('new');
  await send('password change', 'patch', `/api/users/${user.body.id}`, owner, { password: newPw, role: 'moderator' });
  await send('old session', 'get', '/api/users', staff);
  await login('staff', newPw);

  const created = await send('server', 'post', '/api/servers', owner, { name: 'alpha' }, true);
  const serverId = created.body.server.id as string;
  secrets.add(created.body.ingestToken);
  const rotated = await send('rotate', 'post', `/api/servers/${serverId}/ingest-token`, owner, undefined, true);
  secrets.add(rotated.body.ingestToken);
  t.is((await ingest(e, { serverId, token: rotated.body.ingestToken }, statusEvent(e))).status, 200);
  responses.push({
    what: 'ingest with the old token',
    res: await ingest(e, { serverId, token: created.body.ingestToken }, statusEvent(e)),
  });
  await send('server read', 'get', `/api/servers/${serverId}`, owner);
  await send('server list', 'get', '/api/servers', owner);

  const key = await send('key', 'post', '/api/account/api-keys', owner, { name: 'dashboard' }, true);
  secrets.add(key.body.key);
  responses.push({ what: 'data api', res: await dataGet(e, key.body, '/servers') });
  await send('key list', 'get', '/api/account/api-keys', owner);
  await send('key revoke', 'delete', `/api/account/api-keys/${key.body.id}`, owner);
  responses.push({ what: 'revoked key', res: await dataGet(e, key.body, '/servers') });
  await send('switch', 'put', '/api/operator/data-api', op, { enabled: true });
  await send('audit', 'get', '/api/audit?limit=200', owner);
  await send('operator audit', 'get', '/api/audit?limit=200', op);
  await send('logout', 'post', '/api/auth/logout', owner);
  await send('after logout', 'get', '/api/users', owner);
  responses.push({
    what: 'a JWT on the Data API',
    res: await e.request.get('/api/v1/data/servers').set('Authorization', `Bearer ${op.token}`),
  });
  responses.push({
    what: 'an ingest token on the Data API',
    res: await e.request.get('/api/v1/data/servers').set('X-Service-Api-Key', rotated.body.ingestToken as string),
  });
  responses.push({
    what: 'unknown route',
    res: await e.request.get('/api/nothing').set('Authorization', `Bearer ${op.token}`).set('Cookie', owner.cookie),
  });

  const { rows: hashes } = await deps.db.query<{ hash: string }>('SELECT password_hash AS hash FROM users');
  for (const { hash } of hashes) secrets.add(hash);
  t.true(hashes.length >= 3);
  const patterns: [string, RegExp][] = [
    ['password hash', /scrypt\$/],
    ['API key', /svc_[A-Za-z0-9_-]{16,}/],
    ['ingest token', /svci_[A-Za-z0-9_-]{16,}/],
    ['JWT', /eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{16,}/],
  ];
  const leaks = (text: string) => [
    ...[...secrets].filter((s) => text.includes(s)).map((s) => `secret ${s.slice(0, 12)}…`),
    ...patterns.filter(([, re]) => re.test(text)).map(([name]) => name),
  ];

  const { rows: audit } = await deps.db.query<{ row: string }>('SELECT row_to_json(a)::text AS row FROM audit_log a ORDER BY id');
  t.true(audit.length >= 10, `audit entries: ${audit.length}`);
  for (const { row } of audit) t.deepEqual(leaks(row), [], `audit row ${row}`);

  t.true(responses.length >= 25);
  for (const { what, res } of responses) t.deepEqual(leaks(JSON.stringify(res.body) + (res.text ?? '')), [], `response of ${what}`);

  stream.end();
  t.true(lines.length >= responses.length, `log lines: ${lines.length}`);
  t.true(
    lines.some((l) => l.includes('/api/auth/login')),
    'the requests were logged',
  );
  for (const line of lines) t.deepEqual(leaks(line), [], `log line ${line.slice(0, 300)}`);
});
