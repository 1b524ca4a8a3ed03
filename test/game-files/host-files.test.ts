// Files on the service's host at run time (docs/game-files.md): the file system changes after a path was
// accepted, so every sync checks again. What breaks a rule (a symlink swapped in, a folder swapped
// for a symlink, a FIFO, a folder, a device, a file over 8 MiB, a file two servers name, a path
// outside GAME_FILES_DIR) is a failed sync: never read, never written, logged, audited once,
// retried after a wait. Without GAME_FILES_DIR no file on the host is touched at all.
import { execFileSync } from 'node:child_process';
import { mkdir, readFile, readdir, rm, stat, symlink, truncate, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import test from 'ava';
import { pino } from 'pino';
import { createBan } from '../../src/bans/bans.ts';
import { drainSyncRequests } from '../../src/game-files/sync-job.ts';
import { dayzIdOf } from '../../src/identities/id-forms.ts';
import { logCollector } from '../helpers/controller-http.ts';
import { testEnv } from '../helpers/env.ts';
import type { TestEnv } from '../helpers/env.ts';
import { gameFilesDirFor, makeGameFilesDir } from '../helpers/game-files-dir.ts';
import { tenant } from '../helpers/seed.ts';
import type { Tenant } from '../helpers/seed.ts';

let env: TestEnv;
let dir: string;
let removeDir: () => Promise<void>;
test.before(async () => {
  ({ dir, remove: removeDir } = await makeGameFilesDir('host-files-'));
  env = await testEnv({ GAME_FILES_DIR: dir });
});
test.after.always(async () => {
  await env?.close();
  await removeDir?.();
});

const admin = { type: 'user' as const, id: null, name: 'test' };
let n = 0;
const steam = () => String(76561198700000000n + BigInt(++n));
const crlf = (...lines: string[]) => lines.map((l) => `${l}\r\n`).join('');

/**
 * A community whose server has these paths (as accepted earlier), and a ban, so its ban file has
 * something to say. Absolute paths inside the folder are one accepted form (and what a release
 * without GAME_FILES_DIR would have opened, too).
 */
async function serverWithPaths(e: TestEnv, ban: string | null, priority: string | null = null): Promise<Tenant & { banned: string }> {
  const a = await tenant(e.deps);
  await e.deps.db.query('UPDATE servers SET ban_file_path = $2, priority_file_path = $3 WHERE id = $1', [a.serverId, ban, priority]);
  const banned = steam();
  await createBan(e.deps, a.accountId, { platformId: banned }, admin);
  return { ...a, banned };
}

async function folder(): Promise<string> {
  const name = `srv-${++n}`;
  await mkdir(join(dir, name));
  return name;
}

const request = async (serverId: string, kind = 'bans') =>
  (
    await env.deps.db.query<{ failures: number; retry_at: string | null; last_error: string | null }>(
      'SELECT failures, retry_at, last_error FROM file_sync_requests WHERE server_id = $1 AND kind = $2',
      [serverId, kind],
    )
  ).rows[0];
const failedAudits = async (serverId: string) =>
  (
    await env.deps.db.query<{ details: Record<string, unknown> }>(
      "SELECT details FROM audit_log WHERE target_id = $1 AND action = 'files.sync-failed' ORDER BY id",
      [serverId],
    )
  ).rows.map((r) => r.details);
const bansOf = async (accountId: string) =>
  (await env.deps.db.query<{ platform_id: string }>('SELECT platform_id FROM bans WHERE account_id = $1', [accountId])).rows.map(
    (r) => r.platform_id,
  );

/** A file outside GAME_FILES_DIR holding another community's ban, with its modification time. */
async function victimFile(t: Parameters<typeof gameFilesDirFor>[0]) {
  const outside = await gameFilesDirFor(t, 'victim-');
  const path = join(outside, 'ban.txt');
  const cheater = steam();
  await writeFile(path, crlf(cheater, dayzIdOf(cheater)));
  const before = { text: await readFile(path, 'utf8'), mtimeMs: (await stat(path)).mtimeMs };
  return {
    outside,
    path,
    cheater,
    untouched: async () => ({ text: await readFile(path, 'utf8'), mtimeMs: (await stat(path)).mtimeMs, names: await readdir(outside) }),
    before: { ...before, names: ['ban.txt'] },
  };
}

test.serial(
  'a symlink swapped in after the path was accepted: a failed sync, audited once, retried after its wait; the file it points at untouched',
  async (t) => {
    const victim = await victimFile(t);
    const f = await folder();
    const a = await serverWithPaths(env, join(dir, f, 'ban.txt'));
    await symlink(victim.path, join(dir, f, 'ban.txt'));
    const first = await drainSyncRequests(env.deps);
    t.is(first?.failed, 1);
    t.deepEqual(await victim.untouched(), victim.before, 'neither read into bans nor written');
    t.deepEqual(await bansOf(a.accountId), [a.banned], "the other community's cheater was not imported");
    t.like(await request(a.serverId), { failures: 1, retry_at: new Date(env.clock.now() + 1000).toISOString() });
    t.regex((await request(a.serverId))!.last_error!, /is a symlink, not a regular file/);
    const [audit, ...more] = await failedAudits(a.serverId);
    t.like(audit, { file: 'bans', path: join(dir, f, 'ban.txt'), refused: true, timedOut: false });
    t.deepEqual(more, []);

    t.is((await drainSyncRequests(env.deps))?.failed ?? 0, 0, 'not tried again before its wait');
    env.clock.advance(1000);
    t.is((await drainSyncRequests(env.deps))?.failed, 1, 'tried again after it');
    t.like(await request(a.serverId), { failures: 2, retry_at: new Date(env.clock.now() + 2000).toISOString() });
    t.is((await failedAudits(a.serverId)).length, 1, 'audited once, not at every try');
    t.deepEqual(await victim.untouched(), victim.before);

    // The operator removes the link: the next try writes the server's own file.
    await unlink(join(dir, f, 'ban.txt'));
    env.clock.advance(2000);
    t.is((await drainSyncRequests(env.deps))?.failed, 0);
    t.is(await readFile(join(dir, f, 'ban.txt'), 'utf8'), crlf(a.banned, dayzIdOf(a.banned)));
    t.is(await request(a.serverId), undefined);
  },
);

test.serial('a folder swapped for a symlink to a folder outside: a failed sync, nothing read or written there', async (t) => {
  const victim = await victimFile(t);
  const f = await folder();
  const a = await serverWithPaths(env, join(dir, f, 'ban.txt'), join(dir, f, 'priority.txt'));
  await rm(join(dir, f), { recursive: true });
  await symlink(victim.outside, join(dir, f));
  await drainSyncRequests(env.deps);
  t.regex((await request(a.serverId))!.last_error!, new RegExp(`${f} is a symlink, not a folder`));
  t.deepEqual(await victim.untouched(), victim.before, "no file written beside the victim's, no temporary file either");
  t.deepEqual(await bansOf(a.accountId), [a.banned]);
});

test.serial("a FIFO, a folder, a device at the file's place: each a failed sync at once; nothing waits on them", async (t) => {
  const f = await folder();
  execFileSync('mkfifo', [join(dir, f, 'fifo.txt')]);
  await mkdir(join(dir, f, 'folder.txt'));
  await symlink('/dev/zero', join(dir, f, 'zero.txt'));
  const places: [string, RegExp][] = [
    ['fifo.txt', /is a FIFO, not a regular file/],
    ['folder.txt', /is a folder, not a regular file/],
    ['zero.txt', /is a symlink, not a regular file/],
  ];
  if (process.getuid?.() === 0) {
    execFileSync('mknod', [join(dir, f, 'device.txt'), 'c', '1', '5']);
    places.push(['device.txt', /is a device, not a regular file/]);
  }
  const servers = await Promise.all(places.map(([name]) => serverWithPaths(env, join(dir, f, name))));
  const started = Date.now();
  const drained = await Promise.race([drainSyncRequests(env.deps), delay(5000).then(() => 'stalled' as const)]);
  t.not(drained, 'stalled');
  t.true(Date.now() - started < 3000, `${Date.now() - started} ms`);
  for (const [i, [name, reason]] of places.entries()) t.regex((await request(servers[i]!.serverId))?.last_error ?? '', reason, name);
  t.is((await stat(join(dir, f, 'folder.txt'))).isDirectory(), true);
});

test.serial('a file over 8 MiB is a failed sync, never read into memory', async (t) => {
  const f = await folder();
  const big = join(dir, f, 'ban.txt');
  await writeFile(big, '');
  await truncate(big, 256 * 1024 * 1024);
  const a = await serverWithPaths(env, big);
  const used = () => process.memoryUsage().arrayBuffers + process.memoryUsage().heapUsed;
  const base = used();
  let peak = base;
  const sampler = setInterval(() => {
    peak = Math.max(peak, used());
  }, 1);
  try {
    t.is((await drainSyncRequests(env.deps))?.failed, 1);
  } finally {
    clearInterval(sampler);
  }
  peak = Math.max(peak, used());
  t.regex((await request(a.serverId))!.last_error!, /larger than 8 MiB/);
  t.true(peak - base < 64 * 1024 * 1024, `memory grew by ${Math.round((peak - base) / 1e6)} MB`);
  t.is((await stat(big)).size, 256 * 1024 * 1024, 'not replaced');
});

test.serial('two servers naming one file (rows from before the rule, any spelling): neither reads nor writes it', async (t) => {
  const f = await folder();
  const shared = join(dir, f, 'ban.txt');
  const cheater = steam();
  await writeFile(shared, crlf(cheater));
  const a = await serverWithPaths(env, `${f}/ban.txt`);
  const b = await serverWithPaths(env, shared);
  await drainSyncRequests(env.deps);
  for (const s of [a, b]) {
    t.regex((await request(s.serverId))?.last_error ?? '', /named by another server's file path too/);
    t.deepEqual(await bansOf(s.accountId), [s.banned], 'nothing imported');
  }
  t.is(await readFile(shared, 'utf8'), crlf(cheater));
});

test.serial('an absolute path stored before the rule, outside GAME_FILES_DIR: a failed sync, the file never read', async (t) => {
  const victim = await victimFile(t);
  const a = await serverWithPaths(env, victim.path);
  t.is((await drainSyncRequests(env.deps))?.failed, 1);
  t.regex((await request(a.serverId))!.last_error!, /outside GAME_FILES_DIR/);
  t.deepEqual(await victim.untouched(), victim.before);
  t.deepEqual(await bansOf(a.accountId), [a.banned]);
  t.like((await failedAudits(a.serverId))[0], { path: victim.path, refused: true });
});

test('without GAME_FILES_DIR a stored path is neither read nor written: the server syncs for its agent, and the log says so once', async (t) => {
  const off = await testEnv();
  t.teardown(() => off.close());
  const collected = logCollector();
  const deps = { ...off.deps, log: pino({ level: 'info', base: undefined }, collected.stream) };
  const victim = await victimFile(t);
  const a = await serverWithPaths(off, victim.path);
  const first = await drainSyncRequests(deps);
  t.like(first, { failed: 0 });
  t.like(first!.synced, [{ serverId: a.serverId, kind: 'bans', path: null, written: false, imported: 0 }]);
  await createBan(off.deps, a.accountId, { platformId: steam() }, admin);
  t.like(await drainSyncRequests(deps), { failed: 0 });
  t.deepEqual(await victim.untouched(), victim.before);
  const said = collected.lines.filter((l) => l.includes('GAME_FILES_DIR is not set'));
  t.is(said.length, 1, collected.lines.join('\n'));
  t.is(
    (await off.request.get(`/api/servers/${a.serverId}/files/bans`).set('Authorization', `Bearer ${a.token}`)).text.includes(a.banned),
    true,
    'the agent pulls the file',
  );
});
