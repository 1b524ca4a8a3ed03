// /api/priority-queue: add (every server or some), adding again extends, change, delete, list;
// roles, tenancy, audit; the priority files it leads to; a merge moves queue entries.
import { randomUUID } from 'node:crypto';
import { mkdtemp, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import test from 'ava';
import type { ExecutionContext } from 'ava';
import { drainSyncRequests } from '../../src/game-files/sync-job.ts';
import { dayzIdOf } from '../../src/identities/id-forms.ts';
import { mergeIntoSteam64 } from '../../src/identities/merge.ts';
import { placeQueueEntry, queuePlayer, resolveQueueInput } from '../../src/queue/queue.ts';
import { inTransaction } from '../../src/store/db.ts';
import { registerServer } from '../../src/servers/server.ts';
import { call } from '../helpers/controller-http.ts';
import { userWithRole } from '../helpers/controller.ts';
import type { Session } from '../helpers/controller.ts';
import { testEnv } from '../helpers/env.ts';
import type { TestEnv } from '../helpers/env.ts';
import { makeGameFilesDir } from '../helpers/game-files-dir.ts';
import { assertError } from '../helpers/data-api.ts';
import { assertSchema, ingest, tenant } from '../helpers/seed.ts';

let env: TestEnv;
let filesDir: string;
let removeFilesDir: () => Promise<void>;
test.before(async () => {
  ({ dir: filesDir, remove: removeFilesDir } = await makeGameFilesDir('queue-'));
  env = await testEnv({ RATE_AUTH: '100000', RATE_CONTROLLER: '100000', GAME_FILES_DIR: filesDir });
});
test.after.always(async () => {
  await env?.close();
  await removeFilesDir?.();
});

let n = 0;
const steam = () => String(76561198500000000n + BigInt(++n));
const day = 86_400_000;
const iso = (ms: number) => new Date(ms).toISOString();

async function add(t: ExecutionContext, s: Session, body: Record<string, unknown>, status = 201) {
  const res = await call(env, s, 'post', '/api/priority-queue', body);
  t.is(res.status, status, JSON.stringify(res.body));
  assertSchema(t, 'queue-entry.json', res.body);
  return res.body as Record<string, unknown> & { id: string };
}

test.serial('add: every server or some; adding again with the same scope extends the entry instead of adding one', async (t) => {
  const a = await tenant(env.deps);
  const s = await userWithRole(env, 'moderator', a.accountId);
  const now = env.clock.now();
  const p = steam();
  const all = await add(t, s, { platformId: p, playerName: 'Vip', comment: 'donor', durationDays: 30 });
  t.like(all, {
    serverIds: null,
    permanent: false,
    active: true,
    expiresAt: iso(now + 30 * day),
    source: 'manual',
    playerName: 'Vip',
    comment: 'donor',
  });
  t.deepEqual(all.createdBy, { id: s.userId, name: s.username });
  const again = await add(t, s, { platformId: p, durationDays: 30 }, 200);
  t.like(again, { id: all.id, expiresAt: iso(now + 60 * day), playerName: 'Vip', comment: 'donor' });
  const scoped = await add(t, s, { platformId: p, serverIds: [a.serverId.toUpperCase()] });
  t.not(scoped.id, all.id, 'another scope is another entry');
  t.like(scoped, { permanent: true, expiresAt: null });
  t.deepEqual(scoped.serverIds, [a.serverId], 'its one server, the id as stored');
  t.like(
    await add(t, s, { platformId: p, serverIds: [a.serverId], durationDays: 5 }, 200),
    { id: scoped.id, permanent: true },
    'a permanent entry stays permanent',
  );
  const until = iso(now + 2 * day);
  const later = await add(t, s, { platformId: steam(), expiresAt: until });
  t.is(later.expiresAt, until);
  const audit = await env.deps.db.query("SELECT action FROM audit_log WHERE account_id = $1 AND action LIKE 'queue.%' ORDER BY id", [
    a.accountId,
  ]);
  t.deepEqual(
    audit.rows.map((r) => r.action),
    ['queue.add', 'queue.extend', 'queue.add', 'queue.extend', 'queue.add'],
  );
});

test.serial('bad bodies and servers of another account are 400s', async (t) => {
  const [a, b] = [await tenant(env.deps), await tenant(env.deps)];
  const s = await userWithRole(env, 'admin', a.accountId);
  for (const body of [
    {},
    { platformId: 'x' },
    { platformId: steam(), durationDays: 0 },
    { platformId: steam(), serverIds: [] },
    { platformId: steam(), serverIds: ['nope'] },
    { platformId: steam(), serverIds: [b.serverId] },
    { platformId: steam(), serverIds: [randomUUID()] },
    { platformId: steam(), durationDays: 1, expiresAt: iso(env.clock.now() + day) },
    { platformId: steam(), expiresAt: iso(env.clock.now() - 1) },
    { platformId: steam(), vip: true },
  ]) {
    assertError(t, await call(env, s, 'post', '/api/priority-queue', body), 400, 'BAD_REQUEST', JSON.stringify(body));
  }
});

test.serial('patch, delete, list; tenancy; viewers read, moderators manage', async (t) => {
  const [a, b] = [await tenant(env.deps), await tenant(env.deps)];
  const s = await userWithRole(env, 'moderator', a.accountId);
  const other = await userWithRole(env, 'owner', b.accountId);
  const viewer = await userWithRole(env, 'viewer', a.accountId);
  const entry = await add(t, s, { platformId: steam(), durationDays: 1 });
  env.clock.advance(1000);
  const second = await registerServer(env.deps, a.accountId, { name: 'two' });
  const scoped = await add(t, s, { platformId: steam(), serverIds: [second.server.id] });
  let res = await call(env, s, 'patch', `/api/priority-queue/${entry.id}`, { comment: 'gold', expiresAt: null });
  t.is(res.status, 200);
  t.like(res.body, { comment: 'gold', permanent: true });
  res = await call(env, viewer, 'get', '/api/priority-queue');
  t.is(res.status, 200);
  assertSchema(t, 'queue-page.json', res.body);
  t.deepEqual(
    res.body.entries.map((e: { id: string }) => e.id),
    [scoped.id, entry.id],
  );
  t.deepEqual(
    (await call(env, s, 'get', `/api/priority-queue?serverId=${a.serverId}`)).body.entries.map((e: { id: string }) => e.id),
    [entry.id],
  );
  t.deepEqual(
    (await call(env, s, 'get', `/api/priority-queue?platformId=${scoped.platformId}`)).body.entries.map((e: { id: string }) => e.id),
    [scoped.id],
  );
  t.is((await call(env, s, 'get', '/api/priority-queue?limit=1')).body.total, 2);
  t.deepEqual((await call(env, other, 'get', '/api/priority-queue')).body.entries, []);
  assertError(t, await call(env, other, 'patch', `/api/priority-queue/${entry.id}`, { comment: 'x' }), 404, 'NOT_FOUND');
  assertError(t, await call(env, other, 'delete', `/api/priority-queue/${entry.id}`), 404, 'NOT_FOUND');
  assertError(t, await call(env, viewer, 'post', '/api/priority-queue', { platformId: steam() }), 403, 'FORBIDDEN');
  assertError(t, await call(env, viewer, 'delete', `/api/priority-queue/${entry.id}`), 403, 'FORBIDDEN');
  assertError(t, await call(env, undefined, 'get', '/api/priority-queue'), 401, 'UNAUTHORIZED');
  assertError(t, await call(env, s, 'patch', `/api/priority-queue/${entry.id}`, {}), 400, 'BAD_REQUEST');
  t.is((await call(env, s, 'delete', `/api/priority-queue/${entry.id.toUpperCase()}`)).status, 204);
  assertError(t, await call(env, s, 'delete', `/api/priority-queue/${entry.id}`), 404, 'NOT_FOUND');
  assertError(t, await call(env, s, 'delete', '/api/priority-queue/abc'), 404, 'NOT_FOUND');
});

test.serial("priority files: an entry for every server is in each; a scoped one only in its servers'; expired entries leave", async (t) => {
  const a = await tenant(env.deps);
  const dir = await mkdtemp(join(filesDir, 'priority-'));
  const one = join(dir, 'one.txt');
  const two = join(dir, 'two.txt');
  await env.deps.db.query('UPDATE servers SET priority_file_path = $2 WHERE id = $1', [a.serverId, one]);
  const second = await registerServer(env.deps, a.accountId, { name: 'two', priorityFilePath: two });
  const other = await tenant(env.deps);
  const actor = { type: 'user' as const, id: null, name: 'test' };
  const [p1, p2, p3] = [steam(), steam(), steam()].sort() as [string, string, string];
  await queuePlayer(env.deps, a.accountId, { platformId: p1 }, actor);
  await queuePlayer(env.deps, a.accountId, { platformId: p2, serverIds: [second.server.id], durationDays: 1 }, actor);
  await queuePlayer(env.deps, other.accountId, { platformId: p3 }, actor);
  await drainSyncRequests(env.deps);
  t.is(await readFile(one, 'utf8'), `${p1};`);
  t.is(await readFile(two, 'utf8'), `${p1};${p2};`);
  const pulled = await env.request
    .get(`/api/servers/${second.server.id}/files/priority`)
    .set('Authorization', `Bearer ${second.ingestToken}`);
  t.is(pulled.text, `${p1};${p2};`);
  env.clock.advance(day);
  const { expireGameFileEntries } = await import('../../src/game-files/expiry-job.ts');
  const result = await expireGameFileEntries(env.deps);
  t.like(result, { expiredEntries: 1 });
  t.is(await readFile(two, 'utf8'), `${p1};`);
  t.is((await env.deps.db.query('SELECT 1 FROM priority_queue WHERE account_id = $1', [a.accountId])).rowCount, 1);
});

test.serial('a merge moves queue entries to the Steam64: same scope merged (later expiry), others moved', async (t) => {
  const a = await tenant(env.deps);
  const p = steam();
  const dz = dayzIdOf(p);
  await ingest(env, a, [{ id: randomUUID(), type: 'player.connect', ts: env.clock.now(), platformId: dz, name: 'Console' }]).expect(200);
  const actor = { type: 'user' as const, id: null, name: 'test' };
  await queuePlayer(env.deps, a.accountId, { platformId: dz, durationDays: 10 }, actor);
  await queuePlayer(env.deps, a.accountId, { platformId: dz, serverIds: [a.serverId] }, actor);
  await env.deps.db.query(
    "INSERT INTO priority_queue (account_id, platform_id, server_ids, scope_key, expires_at, created_at) VALUES ($1, $2, NULL, 'all', $3, now())",
    [a.accountId, p, iso(env.clock.now() + 2 * day)],
  );
  const merged = await mergeIntoSteam64(env.deps, dz, p);
  t.true(merged.merged);
  const { rows } = await env.deps.db.query<{ platform_id: string; scope_key: string; expires_at: string | null }>(
    'SELECT platform_id, scope_key, expires_at FROM priority_queue WHERE account_id = $1 ORDER BY scope_key',
    [a.accountId],
  );
  t.deepEqual(
    rows.map((r) => [r.platform_id, r.scope_key, r.expires_at]).sort((x, y) => String(x[1]).localeCompare(String(y[1]))),
    [
      [p, a.serverId, null],
      [p, 'all', iso(env.clock.now() + 10 * day)],
    ].sort((x, y) => String(x[1]).localeCompare(String(y[1]))),
  );
  const pending = await env.deps.db.query('SELECT kind FROM file_sync_requests WHERE server_id = $1 ORDER BY kind', [a.serverId]);
  t.deepEqual(
    pending.rows.map((r) => r.kind),
    ['bans', 'priority'],
  );
});

test("the list names each entry's player as last seen on the community's servers (a store grant has no name of its own), never as another community saw them", async (t) => {
  const a = await tenant(env.deps);
  const other = await tenant(env.deps);
  const viewer = await userWithRole(env, 'viewer', a.accountId);
  const [seen, renamed, elsewhere, named, never] = [steam(), steam(), steam(), steam(), steam()];
  const dz = dayzIdOf(steam());
  const now = env.clock.now();
  const connect = (platformId: string, name: string, ago: number) => ({
    id: randomUUID(),
    type: 'player.connect',
    ts: now - ago,
    platformId,
    name,
  });
  await ingest(env, a, [
    connect(seen, 'Leaderboard Larry', 60_000),
    connect(renamed, 'Old Name', 120_000),
    connect(renamed, 'New Name', 60_000),
    connect(named, 'In-game Nina', 60_000),
    connect(dz, 'Console Carl', 60_000),
  ]).expect(200);
  await ingest(env, other, [connect(elsewhere, 'Elsewhere Eve', 60_000)]).expect(200);
  // As the store webhook grants a slot: the purchase names the player by id only.
  const store = { type: 'store' as const, id: 'own:evt-1', name: 'Store' };
  for (const platformId of [seen, renamed, elsewhere, never, dz]) {
    const input = await resolveQueueInput(env.deps, a.accountId, { platformId, durationDays: 30 });
    await inTransaction(env.deps.db, (tx) => placeQueueEntry(tx, a.accountId, input, store, env.clock.now(), 'store'));
  }
  await queuePlayer(env.deps, a.accountId, { platformId: named, playerName: 'Given Name' }, { type: 'user', id: null, name: 'test' });

  const res = await call(env, viewer, 'get', '/api/priority-queue?limit=100');
  t.is(res.status, 200);
  assertSchema(t, 'queue-page.json', res.body);
  const names = new Map(
    (res.body.entries as { platformId: string; playerName: string | null; seenName: string | null; source: string }[]).map((e) => [
      e.platformId,
      [e.playerName, e.seenName, e.source],
    ]),
  );
  t.deepEqual(names.get(seen), [null, 'Leaderboard Larry', 'store']);
  t.deepEqual(names.get(renamed), [null, 'New Name', 'store'], 'the name last seen');
  t.deepEqual(names.get(dz), [null, 'Console Carl', 'store'], 'a DayZ ID as the service keeps it');
  t.deepEqual(names.get(elsewhere), [null, null, 'store'], "another community's sighting is not this one's to see");
  t.deepEqual(names.get(never), [null, null, 'store']);
  t.deepEqual(names.get(named), ['Given Name', 'In-game Nina', 'manual'], 'the name given stays; the one seen is beside it');
});
