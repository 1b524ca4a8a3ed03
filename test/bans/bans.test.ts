// /api/bans: create, search, read, change, lift, import by shared id; roles, tenancy, audit entries,
// sync requests, DayZ ID resolution and the identity merge a Steam64 ban triggers.
import test from 'ava';
import type { ExecutionContext } from 'ava';
import { dayzIdOf } from '../../src/identities/id-forms.ts';
import { registerServer } from '../../src/servers/server.ts';
import { call } from '../helpers/controller-http.ts';
import { userWithRole } from '../helpers/controller.ts';
import type { Session } from '../helpers/controller.ts';
import { testEnv } from '../helpers/env.ts';
import type { TestEnv } from '../helpers/env.ts';
import { assertError } from '../helpers/data-api.ts';
import { assertSchema, ingest, tenant } from '../helpers/seed.ts';
import { randomUUID } from 'node:crypto';

let env: TestEnv;
test.before(async () => {
  env = await testEnv({ RATE_AUTH: '100000', RATE_CONTROLLER: '100000' });
});
test.after.always(async () => {
  await env?.close();
});

let n = 0;
const steam = () => String(76561198300000000n + BigInt(++n));

async function ban(t: ExecutionContext, s: Session, body: Record<string, unknown>) {
  const res = await call(env, s, 'post', '/api/bans', body);
  t.is(res.status, 201, JSON.stringify(res.body));
  assertSchema(t, 'ban-record.json', res.body);
  return res.body as Record<string, unknown> & { id: string };
}

async function auditActions(s: Session): Promise<string[]> {
  const { rows } = await env.deps.db.query<{ action: string }>(
    "SELECT action FROM audit_log WHERE account_id = $1 AND action LIKE 'ban.%' ORDER BY id",
    [s.accountId],
  );
  return rows.map((r) => r.action);
}

test.serial('create: permanent, timed by durationMinutes or expiresAt; the record names its creator', async (t) => {
  const s = await userWithRole(env, 'moderator');
  const now = env.clock.now();
  const permanent = await ban(t, s, { platformId: steam(), playerName: 'Cheater', reason: 'aimbot' });
  t.like(permanent, {
    source: 'manual',
    permanent: true,
    active: true,
    expiresAt: null,
    liftedAt: null,
    liftedBy: null,
    playerName: 'Cheater',
    reason: 'aimbot',
  });
  t.deepEqual(permanent.createdBy, { id: s.userId, name: s.username });
  t.is(permanent.bannedAt, new Date(now).toISOString());
  const timed = await ban(t, s, { platformId: steam(), durationMinutes: 90 });
  t.like(timed, { permanent: false, expiresAt: new Date(now + 90 * 60_000).toISOString() });
  const until = new Date(now + 86_400_000).toISOString();
  t.like(await ban(t, s, { platformId: steam(), expiresAt: until }), { expiresAt: until });
  t.deepEqual(await auditActions(s), ['ban.create', 'ban.create', 'ban.create']);
});

test.serial('bad bodies are 400s; a second ban in force of one player is a 409', async (t) => {
  const s = await userWithRole(env, 'admin');
  const id = steam();
  for (const body of [
    {},
    { platformId: 'nobody' },
    { platformId: '12345678901234567' },
    { platformId: id, durationMinutes: 0 },
    { platformId: id, expiresAt: 'tomorrow' },
    { platformId: id, expiresAt: new Date(env.clock.now() + 1000).toISOString(), durationMinutes: 5 },
    { platformId: id, expiresAt: new Date(env.clock.now() - 1000).toISOString() },
    { platformId: id, extra: 1 },
    { platformId: id, reason: '' },
  ]) {
    assertError(t, await call(env, s, 'post', '/api/bans', body), 400, 'BAD_REQUEST', JSON.stringify(body));
  }
  await ban(t, s, { platformId: id });
  assertError(t, await call(env, s, 'post', '/api/bans', { platformId: id }), 409, 'CONFLICT');
  assertError(
    t,
    await call(env, s, 'post', '/api/bans', { platformId: dayzIdOf(id) }),
    409,
    'CONFLICT',
    'a DayZ ID of a banned Steam64 the service knows',
  );
});

test.serial('search by platform id (either form), by name, by status; paginated newest first', async (t) => {
  const s = await userWithRole(env, 'moderator');
  const ids = [steam(), steam(), steam()];
  const made = [];
  for (const [i, id] of ids.entries()) {
    made.push(await ban(t, s, { platformId: id, playerName: i === 1 ? 'Big_Bad%Wolf' : `player ${i}`, durationMinutes: 10 + i }));
    env.clock.advance(1000);
  }
  await call(env, s, 'delete', `/api/bans/${made[2]!.id}`);
  const get = async (q: string) => {
    const res = await call(env, s, 'get', `/api/bans${q}`);
    t.is(res.status, 200, q);
    assertSchema(t, 'ban-record-page.json', res.body);
    return res.body as { bans: { id: string }[]; total: number };
  };
  t.deepEqual(
    (await get('')).bans.map((b) => b.id),
    [made[2]!.id, made[1]!.id, made[0]!.id],
  );
  t.deepEqual(
    (await get(`?platformId=${ids[0]}`)).bans.map((b) => b.id),
    [made[0]!.id],
  );
  t.deepEqual(
    (await get(`?platformId=${encodeURIComponent(dayzIdOf(ids[1]!))}`)).bans.map((b) => b.id),
    [made[1]!.id],
  );
  t.deepEqual(
    (await get('?name=bad%25w')).bans.map((b) => b.id),
    [made[1]!.id],
    'case-insensitive, % taken literally',
  );
  t.deepEqual(
    (await get('?name=%25')).bans.map((b) => b.id),
    [made[1]!.id],
  );
  t.deepEqual(
    (await get('?status=lifted')).bans.map((b) => b.id),
    [made[2]!.id],
  );
  t.deepEqual(
    (await get('?status=active')).bans.map((b) => b.id),
    [made[1]!.id, made[0]!.id],
  );
  const page = await get('?limit=1&offset=1');
  t.deepEqual(
    page.bans.map((b) => b.id),
    [made[1]!.id],
  );
  t.is(page.total, 3);
  env.clock.advance(10 * 60_000);
  t.deepEqual(
    (await get('?status=expired')).bans.map((b) => b.id),
    [made[0]!.id],
  );
  for (const q of ['?status=gone', '?limit=0', '?limit=201', '?offset=-1', '?name='])
    assertError(t, await call(env, s, 'get', `/api/bans${q}`), 400, 'BAD_REQUEST', q);
});

test.serial('patch changes the fields given; delete lifts (kept in history); a lifted ban cannot change or lift again', async (t) => {
  const s = await userWithRole(env, 'moderator');
  const b = await ban(t, s, { platformId: steam(), reason: 'x', durationMinutes: 5 });
  const path = `/api/bans/${b.id}`;
  let res = await call(env, s, 'patch', path, { reason: 'wallhack', expiresAt: null });
  t.is(res.status, 200);
  assertSchema(t, 'ban-record.json', res.body);
  t.like(res.body, { reason: 'wallhack', permanent: true, expiresAt: null, playerName: null });
  res = await call(env, s, 'patch', path, { durationMinutes: 60 });
  t.is(res.body.expiresAt, new Date(env.clock.now() + 3_600_000).toISOString());
  assertError(t, await call(env, s, 'patch', path, {}), 400, 'BAD_REQUEST');
  assertError(t, await call(env, s, 'patch', path, { platformId: steam() }), 400, 'BAD_REQUEST');
  res = await call(env, s, 'delete', path.toUpperCase().replace('/API/BANS/', '/api/bans/'));
  t.is(res.status, 200);
  t.like(res.body, { active: false, liftedAt: new Date(env.clock.now()).toISOString(), liftedBy: { id: s.userId, name: s.username } });
  assertError(t, await call(env, s, 'delete', path), 409, 'CONFLICT');
  assertError(t, await call(env, s, 'patch', path, { reason: 'y' }), 409, 'CONFLICT');
  t.like((await call(env, s, 'get', path)).body, { id: b.id, active: false, reason: 'wallhack' });
  t.deepEqual(await auditActions(s), ['ban.create', 'ban.update', 'ban.update', 'ban.lift']);
  await ban(t, s, { platformId: b.platformId as string });
});

test.serial("import copies another community's ban in force by its id, with source import", async (t) => {
  const [a, b] = [await userWithRole(env, 'moderator'), await userWithRole(env, 'moderator')];
  const original = await ban(t, a, { platformId: steam(), playerName: 'Shared', reason: 'duping', durationMinutes: 600 });
  const res = await call(env, b, 'post', '/api/bans/import', { banId: original.id.toUpperCase() });
  t.is(res.status, 201, JSON.stringify(res.body));
  assertSchema(t, 'ban-record.json', res.body);
  t.like(res.body, {
    source: 'import',
    importedFrom: original.id,
    platformId: original.platformId,
    reason: 'duping',
    playerName: 'Shared',
    expiresAt: original.expiresAt,
  });
  t.not(res.body.id, original.id);
  assertError(t, await call(env, b, 'post', '/api/bans/import', { banId: original.id }), 409, 'CONFLICT', 'already banned');
  assertError(t, await call(env, a, 'post', '/api/bans/import', { banId: original.id }), 409, 'CONFLICT', 'own ban');
  assertError(t, await call(env, b, 'post', '/api/bans/import', { banId: randomUUID() }), 404, 'NOT_FOUND');
  assertError(t, await call(env, b, 'post', '/api/bans/import', { banId: 'nope' }), 400, 'BAD_REQUEST');
  const lifted = await ban(t, a, { platformId: steam() });
  await call(env, a, 'delete', `/api/bans/${lifted.id}`);
  assertError(t, await call(env, b, 'post', '/api/bans/import', { banId: lifted.id }), 404, 'NOT_FOUND', 'a lifted ban is not shared');
  t.deepEqual(await auditActions(b), ['ban.import']);
});

test.serial("tenancy: another account's ban is never listed, read, changed or lifted", async (t) => {
  const [a, b] = [await userWithRole(env, 'owner'), await userWithRole(env, 'owner')];
  const theirs = await ban(t, a, { platformId: steam() });
  t.deepEqual((await call(env, b, 'get', '/api/bans')).body.bans, []);
  t.deepEqual((await call(env, b, 'get', `/api/bans?platformId=${theirs.platformId}`)).body.bans, []);
  assertError(t, await call(env, b, 'get', `/api/bans/${theirs.id}`), 404, 'NOT_FOUND');
  assertError(t, await call(env, b, 'patch', `/api/bans/${theirs.id}`, { reason: 'x' }), 404, 'NOT_FOUND');
  assertError(t, await call(env, b, 'delete', `/api/bans/${theirs.id}`), 404, 'NOT_FOUND');
  assertError(t, await call(env, b, 'get', '/api/bans/not-a-uuid'), 404, 'NOT_FOUND');
  t.like((await call(env, a, 'get', `/api/bans/${theirs.id}`)).body, { active: true, liftedAt: null });
});

test.serial('roles: moderators, admins and owners manage bans; viewers read them; anonymous callers get nothing', async (t) => {
  const owner = await userWithRole(env, 'owner');
  const made = await ban(t, owner, { platformId: steam() });
  for (const role of ['admin', 'moderator'] as const) await ban(t, await userWithRole(env, role), { platformId: steam() });
  const viewer = await userWithRole(env, 'viewer', owner.accountId);
  t.deepEqual(
    (await call(env, viewer, 'get', '/api/bans')).body.bans.map((b: { id: string }) => b.id),
    [made.id],
  );
  t.is((await call(env, viewer, 'get', `/api/bans/${made.id}`)).status, 200);
  for (const [method, path] of [
    ['post', '/api/bans'],
    ['post', '/api/bans/import'],
    ['patch', `/api/bans/${made.id}`],
    ['delete', `/api/bans/${made.id}`],
  ] as const) {
    assertError(
      t,
      await call(env, viewer, method, path, method === 'delete' ? undefined : { platformId: steam() }),
      403,
      'FORBIDDEN',
      `${method} ${path}`,
    );
  }
  for (const [method, path] of [
    ['get', '/api/bans'],
    ['post', '/api/bans'],
    ['get', `/api/bans/${made.id}`],
    ['delete', `/api/bans/${made.id}`],
  ] as const) {
    assertError(t, await call(env, undefined, method, path), 401, 'UNAUTHORIZED');
  }
  t.like((await call(env, owner, 'get', `/api/bans/${made.id}`)).body, { active: true });
});

test.serial("every ban change asks for a sync of every live server's ban file of the account only", async (t) => {
  const a = await tenant(env.deps);
  const s = await userWithRole(env, 'moderator', a.accountId);
  const second = await registerServer(env.deps, a.accountId, { name: 'two' });
  const other = await tenant(env.deps);
  const pending = async () =>
    (
      await env.deps.db.query<{ server_id: string; kind: string }>(
        'SELECT server_id, kind FROM file_sync_requests WHERE server_id = ANY($1::uuid[]) ORDER BY server_id',
        [[a.serverId, second.server.id, other.serverId]],
      )
    ).rows.map((r) => `${r.server_id}:${r.kind}`);
  const b = await ban(t, s, { platformId: steam() });
  t.deepEqual(await pending(), [`${a.serverId}:bans`, `${second.server.id}:bans`].sort());
  await env.deps.db.query('DELETE FROM file_sync_requests');
  await call(env, s, 'patch', `/api/bans/${b.id}`, { reason: 'only text' });
  t.deepEqual(await pending(), [], 'a change of text only leaves the files as they are');
  await call(env, s, 'delete', `/api/bans/${b.id}`);
  t.is((await pending()).length, 2);
});

test.serial('a DayZ ID of a known Steam64 is banned as the Steam64; a Steam64 ban merges its DayZ-ID player', async (t) => {
  const a = await tenant(env.deps);
  const s = await userWithRole(env, 'moderator', a.accountId);
  const known = steam();
  await ingest(env, a, [{ id: randomUUID(), type: 'player.connect', ts: env.clock.now(), platformId: known, name: 'Known' }]).expect(200);
  t.like(await ban(t, s, { platformId: dayzIdOf(known) }), { platformId: known });
  const orphan = steam();
  await ingest(env, a, [
    { id: randomUUID(), type: 'player.connect', ts: env.clock.now(), platformId: dayzIdOf(orphan), name: 'Orphan' },
  ]).expect(200);
  const players = async () =>
    (
      await env.deps.db.query('SELECT platform_id FROM players WHERE platform_id = ANY($1) ORDER BY 1', [[orphan, dayzIdOf(orphan)]])
    ).rows.map((r) => r.platform_id);
  t.deepEqual(await players(), [dayzIdOf(orphan)]);
  t.like(await ban(t, s, { platformId: orphan }), { platformId: orphan });
  t.deepEqual(await players(), [orphan], 'the DayZ-ID player was merged into the Steam64');
  const merged = await env.deps.db.query("SELECT 1 FROM audit_log WHERE action = 'player.merged' AND target_id = $1", [orphan]);
  t.is(merged.rowCount, 1);
});

test.serial('an unknown DayZ ID ban and the Steam64 ban of the same player are one ban in force', async (t) => {
  const s = await userWithRole(env, 'moderator');
  const id = steam();
  await ban(t, s, { platformId: dayzIdOf(id) });
  assertError(t, await call(env, s, 'post', '/api/bans', { platformId: id }), 409, 'CONFLICT');
  const other = steam();
  await ban(t, s, { platformId: other });
  assertError(t, await call(env, s, 'post', '/api/bans', { platformId: dayzIdOf(other) }), 409, 'CONFLICT');
});
