// The demo's ban file sync when the worker syncs the same file at that moment (the worker starts
// before the demo loads): the overlapping sync fails, as it does by design, and the demo tries it
// again instead of stopping.
import test from 'ava';
import { createBan } from '../../src/bans/bans.ts';
import { syncDemoBanFiles } from '../../src/demo/load-demo.ts';
import { syncGameFiles } from '../../src/game-files/sync.ts';
import { testEnv } from '../helpers/env.ts';
import type { TestEnv } from '../helpers/env.ts';
import { tenant } from '../helpers/seed.ts';

let env: TestEnv;
test.before(async () => {
  env = await testEnv();
});
test.after.always(async () => {
  await env?.close();
});

test('a demo ban file sync that meets another sync of the file is tried again and completes', async (t) => {
  const a = await tenant(env.deps);
  await createBan(env.deps, a.accountId, { platformId: '76561198000004242' }, { type: 'user', id: null, name: 'test' });
  t.deepEqual((await syncGameFiles(env.deps, [{ serverId: a.serverId, kind: 'bans' }])).failed, []);

  // Another sync holds the server's sync record; the demo's sync reads its snapshot and waits for it.
  const other = await env.deps.db.connect();
  try {
    const otherPid = (await other.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid;
    await other.query('BEGIN');
    await other.query(`UPDATE game_file_syncs SET synced_at = synced_at WHERE server_id = $1 AND kind = 'bans'`, [a.serverId]);
    const demoSync = syncDemoBanFiles(env.deps, [a.serverId]);
    for (let waited = 0; ; waited += 20) {
      const { rows } = await env.deps.db.query<{ n: number }>('SELECT count(*)::int AS n FROM pg_stat_activity WHERE $1 = ANY(pg_blocking_pids(pid))', [otherPid]);
      if (rows[0]!.n > 0) break;
      if (waited > 10_000) t.fail('the demo sync never waited for the other');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    await other.query('COMMIT');
    // The first try fails on the other's commit (its snapshot is older); the next one syncs.
    await t.notThrowsAsync(demoSync);
  } finally {
    other.release();
  }
  const { rows } = await env.deps.db.query<{ entries: number }>(`SELECT entries FROM game_file_syncs WHERE server_id = $1 AND kind = 'bans'`, [a.serverId]);
  t.deepEqual(rows, [{ entries: 1 }]);
});
