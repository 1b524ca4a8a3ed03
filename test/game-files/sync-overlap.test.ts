// A sync that meets another sync of the same file (the worker's start-up job, a restart command,
// another worker) fails by design in PostgreSQL and is tried again by the sync itself, so every
// caller gets its file; a failure of the file itself (a path that cannot be written) is not.
import { mkdtemp } from 'node:fs/promises';
import { join } from 'node:path';
import test from 'ava';
import { pino } from 'pino';
import { createBan } from '../../src/bans/bans.ts';
import { syncGameFiles } from '../../src/game-files/sync.ts';
import { updateManagedServer } from '../../src/servers/server.repo.ts';
import { testEnv } from '../helpers/env.ts';
import type { TestEnv } from '../helpers/env.ts';
import { makeGameFilesDir } from '../helpers/game-files-dir.ts';
import { logCollector } from '../helpers/controller-http.ts';
import { tenant } from '../helpers/seed.ts';

let env: TestEnv;
let root: string;
let removeRoot: () => Promise<void>;
test.before(async () => {
  ({ dir: root, remove: removeRoot } = await makeGameFilesDir('sync-overlap-'));
  env = await testEnv({ GAME_FILES_DIR: root });
});
test.after.always(async () => {
  await env?.close();
  await removeRoot?.();
});

const admin = { type: 'user', id: null, name: 'test' } as const;

/** The test's deps with a log whose messages are kept. */
function logged() {
  const collected = logCollector();
  const deps = { ...env.deps, log: pino({ level: 'info', base: undefined }, collected.stream) };
  return { deps, messages: () => collected.lines.map((l) => (JSON.parse(l) as { msg: string }).msg) };
}

test('a sync that meets another sync of the file fails on its commit, is tried again and completes', async (t) => {
  const a = await tenant(env.deps);
  await createBan(env.deps, a.accountId, { platformId: '76561198000004242' }, admin);
  t.deepEqual((await syncGameFiles(env.deps, [{ serverId: a.serverId, kind: 'bans' }])).failed, []);
  await createBan(env.deps, a.accountId, { platformId: '76561198000004243' }, admin);

  // Another sync holds the server's sync record; this one reads its snapshot and waits for it.
  const { deps, messages } = logged();
  const other = await env.deps.db.connect();
  try {
    const otherPid = (await other.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid;
    await other.query('BEGIN');
    await other.query(`UPDATE game_file_syncs SET synced_at = synced_at WHERE server_id = $1 AND kind = 'bans'`, [a.serverId]);
    const sync = syncGameFiles(deps, [{ serverId: a.serverId, kind: 'bans' }]);
    for (let waited = 0; ; waited += 20) {
      const { rows } = await env.deps.db.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM pg_stat_activity WHERE $1 = ANY(pg_blocking_pids(pid))',
        [otherPid],
      );
      if (rows[0]!.n > 0) break;
      if (waited > 10_000) t.fail('the sync never waited for the other');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    await other.query('COMMIT');
    // The first try fails on the other's commit (its snapshot is older); the next one syncs.
    const { synced, failed } = await sync;
    t.deepEqual(failed, []);
    t.like(synced, [{ serverId: a.serverId, kind: 'bans', entries: 2 }]);
  } finally {
    other.release();
  }
  t.deepEqual(messages(), ['game file sync met another sync of the file'], 'a warning, not an error');
  const { rows } = await env.deps.db.query<{ entries: number }>(
    `SELECT entries FROM game_file_syncs WHERE server_id = $1 AND kind = 'bans'`,
    [a.serverId],
  );
  t.deepEqual(rows, [{ entries: 2 }]);
});

test('a file that cannot be written fails once, as an error, and is left to its request', async (t) => {
  const a = await tenant(env.deps);
  const dir = await mkdtemp(join(root, 'server-'));
  await updateManagedServer(env.deps.db, a.accountId, a.serverId, { banFilePath: join(dir, 'missing-dir', 'ban.txt') });
  await createBan(env.deps, a.accountId, { platformId: '76561198000004244' }, admin);
  const { deps, messages } = logged();
  const { synced, failed } = await syncGameFiles(deps, [{ serverId: a.serverId, kind: 'bans' }]);
  t.deepEqual(synced, []);
  t.like(failed, [{ serverId: a.serverId, kind: 'bans', overlapped: false }]);
  t.is(failed.length, 1);
  t.deepEqual(messages(), ['game file sync failed'], 'tried once');
});
