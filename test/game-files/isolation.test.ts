// One server's file sync never delays another's: a FIFO beside normal files, a read that
// never ends, a server another worker holds. Every wait here is bounded, so no test can hang.
import { execFileSync } from 'node:child_process';
import { constants } from 'node:fs';
import { mkdir, open, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import test from 'ava';
import { createBan } from '../../src/bans/bans.ts';
import { BanBatches } from '../../src/game-files/ban-batches.ts';
import { syncTargets } from '../../src/game-files/game-files.repo.ts';
import { drainSyncRequests } from '../../src/game-files/sync-job.ts';
import { TimedOut, withTimeLimit } from '../../src/game-files/time-limit.ts';
import { dayzIdOf } from '../../src/identities/id-forms.ts';
import { registerServer } from '../../src/servers/server.ts';
import { jobLockKey } from '../../src/store/keys.ts';
import { testEnv } from '../helpers/env.ts';
import type { TestEnv } from '../helpers/env.ts';
import { makeGameFilesDir } from '../helpers/game-files-dir.ts';
import { tenant } from '../helpers/seed.ts';

let env: TestEnv;
let dir: string;
let removeDir: () => Promise<void>;
test.before(async () => {
  ({ dir, remove: removeDir } = await makeGameFilesDir('isolation-'));
  env = await testEnv({ GAME_FILES_DIR: dir });
});
test.after.always(async () => {
  await env?.close();
  await removeDir?.();
});

const admin = { type: 'user' as const, id: null, name: 'test' };
let n = 0;
const steam = () => String(76561198800000000n + BigInt(++n));
const crlf = (...lines: string[]) => lines.map((l) => `${l}\r\n`).join('');
const setPaths = (serverId: string, ban: string | null, priority: string | null = null) =>
  env.deps.db.query('UPDATE servers SET ban_file_path = $2, priority_file_path = $3 WHERE id = $1', [serverId, ban, priority]);

/** Waits for `work`, at most `ms`: a stalled sync fails the test instead of hanging it. */
const within = <T>(work: Promise<T>, ms: number) => Promise.race([work, delay(ms).then(() => 'stalled' as const)]);

test.serial('a FIFO server beside normal ones: the normal ones are synced within a second or two', async (t) => {
  const f = `srv-${++n}`;
  await mkdir(join(dir, f));
  const fifo = join(dir, f, 'fifo.txt');
  execFileSync('mkfifo', [fifo]);
  // A reader blocked on the FIFO (what the sync did before) is released when the test ends.
  t.teardown(async () => {
    const writer = await open(fifo, constants.O_WRONLY | constants.O_NONBLOCK).catch(() => undefined);
    await writer?.close();
  });
  const a = await tenant(env.deps);
  await setPaths(a.serverId, fifo, join(dir, f, 'a-priority.txt'));
  await registerServer(env.deps, a.accountId, { name: 'sibling', banFilePath: join(dir, f, 'sibling-ban.txt') });
  const other = await tenant(env.deps);
  await setPaths(other.serverId, join(dir, f, 'other-ban.txt'));
  const [p, q] = [steam(), steam()];
  await createBan(env.deps, a.accountId, { platformId: p }, admin);
  await createBan(env.deps, other.accountId, { platformId: q }, admin);

  const started = Date.now();
  const drained = await within(drainSyncRequests(env.deps), 4000);
  const tookMs = Date.now() - started;
  t.not(drained, 'stalled', 'the FIFO held up the sync of every server');
  t.true(tookMs < 2000, `${tookMs} ms`);
  t.is(await readFile(join(dir, f, 'sibling-ban.txt'), 'utf8'), crlf(p, dayzIdOf(p)), "the same community's other server");
  t.is(await readFile(join(dir, f, 'other-ban.txt'), 'utf8'), crlf(q, dayzIdOf(q)), "another community's server");
  const failed = await env.deps.db.query('SELECT server_id, kind FROM file_sync_requests WHERE failures > 0');
  t.deepEqual(failed.rows, [{ server_id: a.serverId, kind: 'bans' }]);
});

test.serial('a ban file whose read never ends holds up no other server of its community', async (t) => {
  const a = await tenant(env.deps);
  const second = await registerServer(env.deps, a.accountId, { name: 'second' });
  await createBan(env.deps, a.accountId, { platformId: steam() }, admin);
  const targets = await syncTargets(env.deps.db, [a.serverId, second.server.id]);
  const batches = new BanBatches(
    env.deps,
    targets.map((x) => x.accountId),
    200,
  );
  const ready = targets.find((x) => x.id === second.server.id)!;
  // The other server's read never ends: this one syncs after the grace, alone.
  const started = Date.now();
  const outcome = await within(batches.sync({ target: ready, disk: { file: null, off: false, content: undefined, eol: '\r\n' } }), 3000);
  t.not(outcome, 'stalled');
  t.like(outcome, { serverId: second.server.id, kind: 'bans', entries: 1 });
  t.true(Date.now() - started < 1500, `${Date.now() - started} ms`);
});

test('a time limit turns work that never ends into a failure of its own, and drops its late result', async (t) => {
  const started = Date.now();
  await t.throwsAsync(withTimeLimit(new Promise(() => undefined), 50, 'reading ban.txt'), {
    instanceOf: TimedOut,
    message: 'reading ban.txt took longer than 50 ms',
  });
  t.true(Date.now() - started < 1000);
  const late = delay(20).then(() => {
    throw new Error('late');
  });
  await t.throwsAsync(
    withTimeLimit(
      late.then(() => 1),
      5,
      'writing',
    ),
    { instanceOf: TimedOut },
  );
  await delay(40);
  t.is(await withTimeLimit(Promise.resolve(7), 50, 'quick'), 7);
});

test.serial('each server under its own lock: a server another worker holds is left to it, the others sync', async (t) => {
  const f = `srv-${++n}`;
  await mkdir(join(dir, f));
  const [held, free] = [await tenant(env.deps), await tenant(env.deps)];
  await setPaths(held.serverId, join(dir, f, 'held.txt'));
  await setPaths(free.serverId, join(dir, f, 'free.txt'));
  await createBan(env.deps, held.accountId, { platformId: steam() }, admin);
  await createBan(env.deps, free.accountId, { platformId: steam() }, admin);
  await env.deps.redis.set(jobLockKey(`game-files:${held.serverId}`), 'another worker', 'PX', 60_000);
  const result = await within(drainSyncRequests(env.deps), 4000);
  t.not(result, 'stalled');
  t.like(result, { failed: 0 });
  t.true((await readFile(join(dir, f, 'free.txt'), 'utf8')).length > 0);
  await t.throwsAsync(readFile(join(dir, f, 'held.txt')), { code: 'ENOENT' });
  const pending = await env.deps.db.query<{ failures: number }>('SELECT failures FROM file_sync_requests WHERE server_id = $1', [
    held.serverId,
  ]);
  t.deepEqual(pending.rows, [{ failures: 0 }], 'left to its worker, not counted as a failure');
  await env.deps.redis.del(jobLockKey(`game-files:${held.serverId}`));
  await drainSyncRequests(env.deps);
  t.true((await readFile(join(dir, f, 'held.txt'), 'utf8')).length > 0);
  t.is(
    await env.deps.redis.exists(jobLockKey(`game-files:${held.serverId}`), jobLockKey(`game-files:${free.serverId}`)),
    0,
    'locks released',
  );
});
