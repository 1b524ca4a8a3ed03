// The worker's game-file work: two replicas never run the job at once; a failing job is retried and
// logged and the schedule goes on; the expiry (controllable clock) removes exactly the expired entries
// and rewrites only the affected files; server.started and a new file path ask for syncs.
import { randomUUID } from 'node:crypto';
import { mkdtemp, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import test from 'ava';
import { pino } from 'pino';
import { createBan } from '../../src/bans/bans.ts';
import { createDeps, connectDeps, closeDeps } from '../../src/deps.ts';
import { expireGameFileEntries } from '../../src/game-files/expiry-job.ts';
import { drainSyncRequests } from '../../src/game-files/sync-job.ts';
import { dayzIdOf } from '../../src/identities/id-forms.ts';
import { queuePlayer } from '../../src/queue/queue.ts';
import { registerServer } from '../../src/servers/server.ts';
import { runJob } from '../../src/job.ts';
import { logCollector } from '../helpers/controller-http.ts';
import { testEnv } from '../helpers/env.ts';
import type { TestEnv } from '../helpers/env.ts';
import { makeGameFilesDir } from '../helpers/game-files-dir.ts';
import { ingest, tenant } from '../helpers/seed.ts';

let env: TestEnv;
let root: string;
let removeRoot: () => Promise<void>;
test.before(async () => {
  ({ dir: root, remove: removeRoot } = await makeGameFilesDir('worker-'));
  env = await testEnv({ GAME_FILES_DIR: root });
});
test.after.always(async () => {
  await env?.close();
  await removeRoot?.();
});

const actor = { type: 'user' as const, id: null, name: 'test' };
let n = 0;
const steam = () => String(76561198600000000n + BigInt(++n));

test('two workers at once never both run the job: the second finds the lock taken and skips', async (t) => {
  const other = createDeps(env.deps.config, { clock: env.clock, log: env.deps.log });
  t.teardown(() => closeDeps(other));
  await connectDeps(other);
  let running = 0;
  let most = 0;
  let runs = 0;
  const job = {
    name: `game-files-${randomUUID()}`,
    rule: '* * * * * *',
    lockMs: 10_000,
    run: async () => {
      running += 1;
      runs += 1;
      most = Math.max(most, running);
      await delay(30);
      running -= 1;
    },
  };
  for (let round = 0; round < 10; round++) await Promise.all([runJob(env.deps, job), runJob(other, job), runJob(env.deps, job)]);
  t.is(most, 1, 'never two runs at once');
  t.true(runs >= 10 && runs < 30, `${runs} runs of 30 attempts`);
});

test('a failing job is retried and logged; the next run still happens', async (t) => {
  const collected = logCollector();
  const log = pino({ level: 'info', base: undefined }, collected.stream);
  const deps = { ...env.deps, log };
  let calls = 0;
  const job = {
    name: `flaky-${randomUUID()}`,
    rule: '* * * * * *',
    lockMs: 10_000,
    retries: 2,
    retryMs: 5,
    run: async () => {
      calls += 1;
      if (calls <= 2) throw new Error(`disk full ${calls}`);
      return { ok: true };
    },
  };
  await runJob(deps, job);
  t.is(calls, 3);
  const messages = collected.lines.map((l) => JSON.parse(l) as { msg: string; job: string });
  t.deepEqual(
    messages.map((m) => m.msg),
    ['job failed; retrying', 'job failed; retrying', 'job done'],
  );
  const failing = {
    ...job,
    name: `broken-${randomUUID()}`,
    retries: 0,
    run: async () => {
      throw new Error('always');
    },
  };
  await t.notThrowsAsync(runJob(deps, failing));
  await t.notThrowsAsync(runJob(deps, failing));
  t.is(collected.lines.filter((l) => l.includes('job failed; it runs again at its next time')).length, 2);
});

test.serial('expiry removes exactly the expired bans and entries and rewrites only the files concerned', async (t) => {
  const [a, b] = [await tenant(env.deps), await tenant(env.deps)];
  const dir = await mkdtemp(join(root, 'expiry-'));
  const path = (name: string) => join(dir, name);
  await env.deps.db.query('UPDATE servers SET ban_file_path = $2, priority_file_path = $3 WHERE id = $1', [
    a.serverId,
    path('a1-ban.txt'),
    path('a1-prio.txt'),
  ]);
  const a2 = await registerServer(env.deps, a.accountId, {
    name: 'a2',
    banFilePath: path('a2-ban.txt'),
    priorityFilePath: path('a2-prio.txt'),
  });
  await env.deps.db.query('UPDATE servers SET ban_file_path = $2, priority_file_path = $3 WHERE id = $1', [
    b.serverId,
    path('b-ban.txt'),
    path('b-prio.txt'),
  ]);
  const [keep, expire, other] = [steam(), steam(), steam()];
  await createBan(env.deps, a.accountId, { platformId: keep }, actor);
  await createBan(env.deps, a.accountId, { platformId: expire, durationMinutes: 1 }, actor);
  await createBan(env.deps, b.accountId, { platformId: other, durationMinutes: 5 }, actor);
  const [vipA, vipScoped, vipB] = [steam(), steam(), steam()];
  await queuePlayer(env.deps, a.accountId, { platformId: vipA }, actor);
  await queuePlayer(env.deps, a.accountId, { platformId: vipScoped, serverIds: [a2.server.id], durationDays: 1 }, actor);
  await queuePlayer(env.deps, b.accountId, { platformId: vipB, durationDays: 2 }, actor);
  await drainSyncRequests(env.deps);
  const inodes = async () =>
    Object.fromEntries(
      await Promise.all(
        ['a1-ban.txt', 'a2-ban.txt', 'b-ban.txt', 'a1-prio.txt', 'a2-prio.txt', 'b-prio.txt'].map(
          async (f) => [f, (await stat(path(f))).ino] as const,
        ),
      ),
    );
  const before = await inodes();
  t.is(await expireGameFileEntries(env.deps), undefined, 'nothing expired yet: nothing done');
  t.deepEqual(await inodes(), before);
  env.clock.advance(60_000);
  t.like(await expireGameFileEntries(env.deps), { expiredEntries: 0, banFiles: 2 });
  const afterBans = await inodes();
  t.deepEqual(
    ['a1-ban.txt', 'a2-ban.txt', 'b-ban.txt', 'a1-prio.txt', 'a2-prio.txt', 'b-prio.txt'].filter((f) => afterBans[f] !== before[f]),
    ['a1-ban.txt', 'a2-ban.txt'],
  );
  t.is(await readFile(path('a1-ban.txt'), 'utf8'), `${keep}\r\n${dayzIdOf(keep)}\r\n`);
  t.true((await readFile(path('b-ban.txt'), 'utf8')).includes(other));
  env.clock.advance(86_400_000);
  t.like(await expireGameFileEntries(env.deps), { expiredEntries: 1, banFiles: 1 });
  const afterDay = await inodes();
  t.deepEqual(
    ['a1-ban.txt', 'a2-ban.txt', 'b-ban.txt', 'a1-prio.txt', 'a2-prio.txt', 'b-prio.txt'].filter((f) => afterDay[f] !== afterBans[f]),
    ['b-ban.txt', 'a2-prio.txt'],
  );
  t.is(await readFile(path('a2-prio.txt'), 'utf8'), `${vipA};`);
  t.is(await readFile(path('b-prio.txt'), 'utf8'), `${vipB};`);
  t.is(await readFile(path('b-ban.txt'), 'utf8'), '');
  const expiredAudit = await env.deps.db.query("SELECT details FROM audit_log WHERE account_id = $1 AND action = 'queue.expire'", [
    a.accountId,
  ]);
  t.deepEqual(
    expiredAudit.rows.map((r) => r.details.platformIds),
    [[vipScoped]],
  );
});

test.serial('server.started asks for both files of that server (a new file path: server-file-paths.test.ts)', async (t) => {
  const a = await tenant(env.deps);
  await env.deps.db.query('DELETE FROM file_sync_requests');
  const pending = async () =>
    (await env.deps.db.query('SELECT server_id, kind FROM file_sync_requests ORDER BY kind')).rows.map(
      (r) => `${r.server_id === a.serverId ? 'a' : 'other'}:${r.kind}`,
    );
  await ingest(env, a, [{ id: randomUUID(), type: 'server.status', ts: env.clock.now(), online: true }]).expect(200);
  t.deepEqual(await pending(), []);
  const id = randomUUID();
  await ingest(env, a, [{ id, type: 'server.started', ts: env.clock.now() }]).expect(200);
  t.deepEqual(await pending(), ['a:bans', 'a:priority']);
  await env.deps.db.query('DELETE FROM file_sync_requests');
  await ingest(env, a, [{ id, type: 'server.started', ts: env.clock.now() }]).expect(200);
  t.deepEqual(await pending(), [], 'a re-sent event asks for nothing again');
});

test.serial('an expired ban leaves every file holding it, also after another server of the community synced without it', async (t) => {
  const a = await tenant(env.deps);
  const dir = await mkdtemp(join(root, 'expiry-shared-'));
  const path = (name: string) => join(dir, name);
  await env.deps.db.query('UPDATE servers SET ban_file_path = $2 WHERE id = $1', [a.serverId, path('a1-ban.txt')]);
  await registerServer(env.deps, a.accountId, { name: 'a2', banFilePath: path('a2-ban.txt') });
  const [keep, expire] = [steam(), steam()];
  await createBan(env.deps, a.accountId, { platformId: keep }, actor);
  await createBan(env.deps, a.accountId, { platformId: expire, durationMinutes: 1 }, actor);
  await drainSyncRequests(env.deps);
  t.true((await readFile(path('a2-ban.txt'), 'utf8')).includes(expire));
  env.clock.advance(61_000);
  // a1 restarts before the expiry job runs: its sync takes the ban out of the community's file.
  await ingest(env, a, [{ id: randomUUID(), type: 'server.started', ts: env.clock.now() }]).expect(200);
  await drainSyncRequests(env.deps);
  t.false((await readFile(path('a1-ban.txt'), 'utf8')).includes(expire));
  t.true((await readFile(path('a2-ban.txt'), 'utf8')).includes(expire), 'a2 not synced since');
  t.like(await expireGameFileEntries(env.deps), { banFiles: 1 });
  t.is(await readFile(path('a2-ban.txt'), 'utf8'), `${keep}\r\n${dayzIdOf(keep)}\r\n`);
  t.is(await expireGameFileEntries(env.deps), undefined, 'no file holds it any more');
});
