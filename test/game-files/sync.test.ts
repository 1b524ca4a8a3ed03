// Ban and priority files on disk after bans change (real PostgreSQL and files in a temporary
// folder): both id forms, line endings, the first-sync import of hand-written entries, the sync
// records the Data API reads, the remote pull with the ingest token, and tenancy. The files are in
// the test's own GAME_FILES_DIR (docs/game-files.md).
import { mkdtemp, readFile, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import test from 'ava';
import { createBan, removeBan } from '../../src/bans/bans.ts';
import type { Actor } from '../../src/audit/actor.ts';
import { drainSyncRequests } from '../../src/game-files/sync-job.ts';
import { syncGameFiles } from '../../src/game-files/sync.ts';
import { expireGameFileEntries } from '../../src/game-files/expiry-job.ts';
import { requestServerSync } from '../../src/game-files/sync-requests.ts';
import { dayzIdOf } from '../../src/identities/id-forms.ts';
import { updateManagedServer } from '../../src/servers/server.repo.ts';
import { registerServer } from '../../src/servers/server.ts';
import { testEnv } from '../helpers/env.ts';
import type { TestEnv } from '../helpers/env.ts';
import { makeGameFilesDir } from '../helpers/game-files-dir.ts';
import { assertError } from '../helpers/data-api.ts';
import { dataGet, tenant } from '../helpers/seed.ts';
import type { Tenant } from '../helpers/seed.ts';

let env: TestEnv;
let root: string;
let removeRoot: () => Promise<void>;
test.before(async () => {
  ({ dir: root, remove: removeRoot } = await makeGameFilesDir('sync-'));
  env = await testEnv({ GAME_FILES_DIR: root });
});
test.after.always(async () => {
  await env?.close();
  await removeRoot?.();
});

const admin: Actor = { type: 'user', id: null, name: 'test' };
let n = 0;
const steam = () => String(76561198400000000n + BigInt(++n));
const xbox = () => `${'AB'.repeat(19)}${String(++n % 100).padStart(2, '0')}`;

async function withFiles(a: Tenant): Promise<{ dir: string; bans: string; priority: string }> {
  const dir = await mkdtemp(join(root, 'server-'));
  const paths = { dir, bans: join(dir, 'ban.txt'), priority: join(dir, 'priority.txt') };
  await updateManagedServer(env.deps.db, a.accountId, a.serverId, { banFilePath: paths.bans, priorityFilePath: paths.priority });
  return paths;
}

const crlf = (...lines: string[]) => lines.map((l) => `${l}\r\n`).join('');

test.serial('the ban file holds exactly the bans in force: created, lifted, expired; CRLF, no BOM, both id forms', async (t) => {
  const a = await tenant(env.deps);
  const files = await withFiles(a);
  const [p1, p2] = [steam(), steam()];
  const console = xbox();
  const b1 = await createBan(env.deps, a.accountId, { platformId: p1, reason: 'aimbot' }, admin);
  env.clock.advance(1000);
  await createBan(env.deps, a.accountId, { platformId: p2, durationMinutes: 10 }, admin);
  env.clock.advance(1000);
  await createBan(env.deps, a.accountId, { platformId: console }, admin);
  const result = await drainSyncRequests(env.deps);
  t.is(result?.failed, 0);
  const text = await readFile(files.bans, 'utf8');
  t.is(text, crlf(p1, dayzIdOf(p1), p2, dayzIdOf(p2), console));
  t.false(text.includes('aimbot'));
  t.not(text.charCodeAt(0), 0xfeff);
  await removeBan(env.deps, a.accountId, b1.id, admin);
  await drainSyncRequests(env.deps);
  t.is(await readFile(files.bans, 'utf8'), crlf(p2, dayzIdOf(p2), console));
  env.clock.advance(10 * 60_000);
  await expireGameFileEntries(env.deps);
  t.is(await readFile(files.bans, 'utf8'), crlf(console));
  t.deepEqual(await readdir(files.dir), ['ban.txt'], 'no temp file left');
});

test.serial('an existing file keeps its LF line ends; a sync with nothing new leaves the file untouched', async (t) => {
  const a = await tenant(env.deps);
  const files = await withFiles(a);
  await writeFile(files.bans, '');
  await env.deps.db.query(
    "INSERT INTO game_file_syncs (server_id, kind, path, sha256, entries, synced_at) VALUES ($1, 'bans', $2, '', 0, now())",
    [a.serverId, files.bans],
  );
  await writeFile(files.bans, 'x\n');
  const p = steam();
  await createBan(env.deps, a.accountId, { platformId: p }, admin);
  await drainSyncRequests(env.deps);
  t.is(await readFile(files.bans, 'utf8'), `${p}\n${dayzIdOf(p)}\n`);
});

test.serial('first sync imports hand-written entries (both forms, comments, CRLF, BOM) as bans with source import, once', async (t) => {
  const a = await tenant(env.deps);
  const files = await withFiles(a);
  const [s1, s2, s3] = [steam(), steam(), steam()];
  const lone = dayzIdOf(steam());
  await writeFile(files.bans, `\uFEFF// banned by hand\r\n${s1} // cheater\r\n${dayzIdOf(s1)}\r\n\r\n${lone}\r\n${s2}\r\njunk line\r\n`);
  await writeFile(files.priority, `${s3};${s1};\r\n// vip\r\n`);
  await createBan(env.deps, a.accountId, { platformId: s2, reason: 'already' }, admin);
  await requestServerSync(env.deps.db, [a.serverId], 'priority', new Date(env.clock.now()).toISOString());
  await drainSyncRequests(env.deps);
  const { rows } = await env.deps.db.query<{ platform_id: string; source: string; reason: string | null }>(
    'SELECT platform_id, source, reason FROM bans WHERE account_id = $1 ORDER BY platform_id',
    [a.accountId],
  );
  t.deepEqual(
    rows.map((r) => [r.platform_id, r.source]).sort(),
    [
      [s1, 'import'],
      [s2, 'manual'],
      [lone, 'import'],
    ].sort(),
    'a Steam64 and its DayZ ID line are one ban; a banned player is not banned twice',
  );
  const text = await readFile(files.bans, 'utf8');
  t.deepEqual(text.split('\r\n').filter(Boolean).sort(), [s1, dayzIdOf(s1), s2, dayzIdOf(s2), lone].sort());
  const queue = await env.deps.db.query<{ platform_id: string; server_ids: string[]; expires_at: string | null }>(
    'SELECT platform_id, server_ids::text[] AS server_ids, expires_at FROM priority_queue WHERE account_id = $1 ORDER BY platform_id',
    [a.accountId],
  );
  t.deepEqual(
    queue.rows.map((r) => [r.platform_id, r.server_ids, r.expires_at]),
    [
      [s1, [a.serverId], null],
      [s3, [a.serverId], null],
    ].sort(),
  );
  t.is(
    await readFile(files.priority, 'utf8'),
    [s1, s3]
      .sort()
      .map((id) => `${id};`)
      .join(''),
  );
  // A second sync imports nothing again, even if the admin edits the file meanwhile.
  await writeFile(files.bans, `${steam()}\r\n`);
  await createBan(env.deps, a.accountId, { platformId: steam() }, admin);
  await drainSyncRequests(env.deps);
  t.is((await env.deps.db.query('SELECT 1 FROM bans WHERE account_id = $1', [a.accountId])).rowCount, 4);
  // Each file's import is audited before its sync (the two files sync side by side, in either order).
  const audit = await env.deps.db.query(
    "SELECT action, coalesce(details->>'file', CASE action WHEN 'ban.import-file' THEN 'bans' ELSE 'priority' END) AS file FROM audit_log WHERE account_id = $1 AND action IN ('ban.import-file', 'queue.import-file', 'files.sync') ORDER BY id",
    [a.accountId],
  );
  const ofFile = (file: string) => audit.rows.filter((r) => r.file === file).map((r) => r.action);
  t.deepEqual(ofFile('bans'), ['ban.import-file', 'files.sync', 'files.sync']);
  t.deepEqual(ofFile('priority'), ['queue.import-file', 'files.sync']);
});

test.serial("the Data API lists the synced bans newest in the file first; lifted and other accounts' bans never appear", async (t) => {
  const [a, b] = [await tenant(env.deps), await tenant(env.deps)];
  const files = await withFiles(a);
  const filesB = await withFiles(b);
  const mine = steam();
  const theirs = steam();
  await createBan(env.deps, a.accountId, { platformId: mine, playerName: 'Mine' }, admin);
  await createBan(env.deps, b.accountId, { platformId: theirs }, admin);
  await drainSyncRequests(env.deps);
  env.clock.advance(5000);
  const later = steam();
  const lifted = await createBan(env.deps, a.accountId, { platformId: later }, admin);
  await drainSyncRequests(env.deps);
  const res = await dataGet(env, a, `/servers/${a.serverId}/bans`);
  t.is(res.status, 200);
  t.deepEqual(
    res.body.bans.map((x: { platformId: string }) => x.platformId),
    [later, mine],
  );
  t.false((await readFile(files.bans, 'utf8')).includes(theirs));
  t.false((await readFile(filesB.bans, 'utf8')).includes(mine));
  t.deepEqual(
    (await dataGet(env, b, `/servers/${b.serverId}/bans`)).body.bans.map((x: { platformId: string }) => x.platformId),
    [theirs],
  );
  await removeBan(env.deps, a.accountId, lifted.id, admin);
  await drainSyncRequests(env.deps);
  t.deepEqual(
    (await dataGet(env, a, `/servers/${a.serverId}/bans`)).body.bans.map((x: { platformId: string }) => x.platformId),
    [mine],
  );
});

test.serial('a server without a file path is synced for the pull; the pull answers the rendered file with a good token only', async (t) => {
  const a = await tenant(env.deps);
  const p = steam();
  await createBan(env.deps, a.accountId, { platformId: p }, admin);
  const result = await drainSyncRequests(env.deps);
  t.true(result!.synced.some((s) => s.serverId === a.serverId && s.path === null && !s.written));
  let res = await env.request.get(`/api/servers/${a.serverId}/files/bans`).set('Authorization', `Bearer ${a.token}`);
  t.is(res.status, 200);
  t.regex(res.headers['content-type']!, /^text\/plain/);
  t.is(res.text, crlf(p, dayzIdOf(p)));
  t.truthy(res.headers['ratelimit-limit']);
  res = await env.request.get(`/api/servers/${a.serverId}/files/priority`).set('Authorization', `Bearer ${a.token}`);
  t.is(res.status, 200);
  t.is(res.text, '');
  const other = await tenant(env.deps);
  for (const [path, token] of [
    [`/api/servers/${a.serverId}/files/bans`, other.token],
    [`/api/servers/${a.serverId}/files/priority`, 'svci_wrong'],
    [`/api/servers/${a.serverId}/files/bans`, ''],
    ['/api/servers/not-a-uuid/files/bans', a.token],
  ] as const) {
    assertError(t, await env.request.get(path).set('Authorization', `Bearer ${token}`), 401, 'UNAUTHORIZED', path);
  }
  const second = await registerServer(env.deps, a.accountId, { name: 'two' });
  res = await env.request.get(`/api/servers/${second.server.id}/files/bans`).set('Authorization', `Bearer ${second.ingestToken}`);
  t.is(res.text, crlf(p, dayzIdOf(p)), 'every server of the account gets every ban');
});

test.serial('a file that cannot be written is retried after a wait; the other servers sync', async (t) => {
  const a = await tenant(env.deps);
  const files = await withFiles(a);
  const second = await registerServer(env.deps, a.accountId, { name: 'broken', banFilePath: join(files.dir, 'missing-dir', 'ban.txt') });
  const p = steam();
  await createBan(env.deps, a.accountId, { platformId: p }, admin);
  const result = await drainSyncRequests(env.deps);
  t.is(result!.failed, 1);
  t.is(await readFile(files.bans, 'utf8'), crlf(p, dayzIdOf(p)));
  const pending = await env.deps.db.query('SELECT kind FROM file_sync_requests WHERE server_id = $1', [second.server.id]);
  t.deepEqual(
    pending.rows.map((r) => r.kind),
    ['bans'],
    'the failed request stays',
  );
  await updateManagedServer(env.deps.db, a.accountId, second.server.id, { banFilePath: join(files.dir, 'ban2.txt') });
  await drainSyncRequests(env.deps);
  await t.throwsAsync(readFile(join(files.dir, 'ban2.txt')), { code: 'ENOENT' }, 'not before its wait (1 s after the first failure)');
  env.clock.advance(1000);
  await drainSyncRequests(env.deps);
  t.is(await readFile(join(files.dir, 'ban2.txt'), 'utf8'), crlf(p, dayzIdOf(p)));
  t.is((await env.deps.db.query('SELECT 1 FROM file_sync_requests WHERE server_id = $1', [second.server.id])).rowCount, 0);
});

test.serial("each server's sync audits what its own file gained and lost since its last sync", async (t) => {
  const a = await tenant(env.deps);
  const files = await withFiles(a);
  const second = await registerServer(env.deps, a.accountId, { name: 'second', banFilePath: join(files.dir, 'ban2.txt') });
  const first = await createBan(env.deps, a.accountId, { platformId: steam() }, admin);
  await drainSyncRequests(env.deps);
  env.clock.advance(1000);
  // The second server misses a sync (its file cannot be written), so its file falls behind.
  await updateManagedServer(env.deps.db, a.accountId, second.server.id, { banFilePath: join(files.dir, 'missing-dir', 'ban2.txt') });
  await createBan(env.deps, a.accountId, { platformId: steam() }, admin);
  await removeBan(env.deps, a.accountId, first.id, admin);
  await drainSyncRequests(env.deps);
  env.clock.advance(1000);
  await updateManagedServer(env.deps.db, a.accountId, second.server.id, { banFilePath: join(files.dir, 'ban2.txt') });
  await createBan(env.deps, a.accountId, { platformId: steam() }, admin);
  await drainSyncRequests(env.deps);
  const audits = await env.deps.db.query(
    "SELECT target_id AS server, details->'added' AS added, details->'removed' AS removed FROM audit_log WHERE account_id = $1 AND action = 'files.sync' ORDER BY id",
    [a.accountId],
  );
  const of = (server: string) => audits.rows.filter((r) => r.server === server).map((r) => [r.added, r.removed]);
  t.deepEqual(of(a.serverId), [
    [1, 0],
    [1, 1],
    [1, 0],
  ]);
  t.deepEqual(
    of(second.server.id),
    [
      [1, 0],
      [2, 1],
    ],
    'the missed sync counts in the next one',
  );
  t.deepEqual((await dataGet(env, a, `/servers/${second.server.id}/bans`)).body.bans.length, 2);
});

test.serial('two syncs of one community at once record each ban once; the one that lost tries again and syncs too', async (t) => {
  // A server without file paths (its host pulls the file): the two syncs meet only in PostgreSQL.
  const a = await tenant(env.deps);
  for (let i = 0; i < 20; i++) await createBan(env.deps, a.accountId, { platformId: steam() }, admin);
  const outcomes = await Promise.all([
    syncGameFiles(env.deps, [{ serverId: a.serverId, kind: 'bans' }]),
    syncGameFiles(env.deps, [{ serverId: a.serverId, kind: 'bans' }]),
  ]);
  t.deepEqual(
    outcomes.map((o) => [o.synced.length, o.failed]),
    [
      [1, []],
      [1, []],
    ],
    'both synced',
  );
  const entries = await env.deps.db.query('SELECT ban_id FROM ban_file_entries WHERE account_id = $1', [a.accountId]);
  t.is(entries.rowCount, 20);
  t.is(new Set(entries.rows.map((r) => r.ban_id)).size, 20);
  await drainSyncRequests(env.deps);
  t.is((await dataGet(env, a, `/servers/${a.serverId}/bans?limit=100`)).body.bans.length, 20);
});
