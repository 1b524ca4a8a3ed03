// The one call that applies a batch: it answers every player's totals as it stored them (what Redis
// is written with), a call PostgreSQL rolls back to end a deadlock is made again, and a player's
// play time runs on whichever process wrote the player's row last.
import test from 'ava';
import { randomUUID } from 'node:crypto';
import { parseBatch } from '../../src/ingest/events.ts';
import { commitBatch, ingestBatch } from '../../src/ingest/ingest.ts';
import { createDeps } from '../../src/deps.ts';
import { loadTotals } from '../../src/stats/stats.repo.ts';
import { t0, testEnv } from '../helpers/env.ts';
import type { TestEnv } from '../helpers/env.ts';
import { player, tenant } from '../helpers/seed.ts';

let env: TestEnv;
test.before(async () => {
  env = await testEnv();
});
test.after.always(async () => {
  await env?.close();
});

const commit = (serverId: string, events: object[], arrivalMs = t0) =>
  commitBatch(env.deps, serverId, parseBatch({ events }, arrivalMs).events, arrivalMs);

test('a call answers the totals of every player it touched as stored, whatever the name holds, with timestamps to the millisecond or none', async (t) => {
  const a = await tenant(env.deps);
  const [p1, p2] = [player(1).platformId, player(2).platformId];
  const onlineAt = new Date(t0 - 61_123).toISOString();
  await env.deps.db.query(
    `INSERT INTO server_players (server_id, platform_id, name, kills, kill_distance_sum, online_at, presence_at, name_at)
     VALUES ($1, $2, 'old', 2, 10.25, $3, $3, $3)`,
    [a.serverId, p1, onlineAt],
  );
  await env.deps.db.query('INSERT INTO server_players (server_id, platform_id, shots_fired) VALUES ($1, $2, $3)', [
    a.serverId,
    p2,
    2 ** 40,
  ]);
  const name = 'tab\there\nnew "line" \\ é 🎮';
  const { change } = await commit(a.serverId, [
    {
      id: randomUUID(),
      type: 'kill',
      ts: t0 - 5_001,
      killer: { platformId: p1, name },
      victim: player(3),
      weapon: 'AKM',
      distance: 0.5,
      isHeadshot: false,
    },
    { id: randomUUID(), type: 'shots', ts: t0 - 5_000, platformId: p2, fired: 7, hits: 1 },
  ]);
  const stored = await loadTotals(env.deps.db, a.serverId, [p1, p2, player(3).platformId]);
  t.deepEqual(change?.totals, stored);
  t.like(change?.totals.get(p1), {
    name,
    kills: 3,
    killDistanceSum: 10.75,
    onlineAtMs: t0 - 61_123,
    presenceAtMs: t0 - 61_123,
    nameAtMs: t0 - 5_001,
  });
  t.like(change?.totals.get(p2), { name: null, shotsFired: 2 ** 40 + 7, onlineAtMs: null, presenceAtMs: null, nameAtMs: null });
});

test("a call chosen as a deadlock's victim changed nothing and is made again: the batch lands once", async (t) => {
  const a = await tenant(env.deps);
  // A player of this test alone: the other writer holds its row, which no other test may wait for.
  const platformId = `7656119900${String(Math.floor(Math.random() * 1e7)).padStart(7, '0')}`;
  const at = t0 - 1000;
  await commit(a.serverId, [{ id: randomUUID(), type: 'player.connect', ts: at - 1000, platformId, name: 'before' }]);
  const eventId = randomUUID();
  const other = await env.deps.db.connect();
  try {
    // The other writer holds the player's row, and waits long enough that the call detects the cycle.
    await other.query("BEGIN; SET LOCAL deadlock_timeout = '60s'");
    const otherPid = (await other.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid;
    await other.query('UPDATE players SET name = name WHERE platform_id = $1', [platformId]);
    const call = commit(a.serverId, [{ id: eventId, type: 'player.heartbeat', ts: at, platformId, name: 'renamed' }]);
    // The call claimed its event id and waits for the player's row; the other writer now waits for the id.
    const waiting = async () =>
      (await env.deps.db.query('SELECT 1 FROM pg_stat_activity WHERE $1 = ANY(pg_blocking_pids(pid))', [otherPid])).rowCount! > 0;
    while (!(await waiting())) await new Promise((resolve) => setImmediate(resolve));
    const claim = other.query(
      'INSERT INTO event_claims (sent_at, server_id, event_id, received_at) VALUES ($3, $1, $2, $3) ON CONFLICT DO NOTHING',
      [a.serverId, eventId, new Date(at).toISOString()],
    );
    // The victim rolled back: the other writer's claim goes in, and the call made again waits for it.
    await claim;
    await other.query('ROLLBACK');
    const { result } = await call;
    t.deepEqual(result, { accepted: 1, duplicates: 0, started: false }, 'made again once the other writer was gone');
  } finally {
    other.release();
  }
  t.is((await env.deps.db.query('SELECT count(*)::int AS n FROM event_claims WHERE server_id = $1', [a.serverId])).rows[0].n, 2);
  t.is(
    (await env.deps.db.query('SELECT derived_version AS v FROM servers WHERE id = $1', [a.serverId])).rows[0].v,
    2,
    'each batch counted once',
  );
  t.is((await env.deps.db.query('SELECT name FROM players WHERE platform_id = $1', [platformId])).rows[0].name, 'renamed');
});

test('heartbeats sent to two processes in turn: the play time runs on from the row as the other wrote it', async (t) => {
  const a = await tenant(env.deps);
  const elsewhere = createDeps(env.deps.config, { clock: env.clock, log: env.deps.log });
  t.teardown(async () => {
    elsewhere.redis.disconnect();
    await elsewhere.db.end();
  });
  for (let k = 1; k <= 5; k++) {
    const deps = k % 2 === 0 ? elsewhere : env.deps;
    const result = await ingestBatch(deps, a.serverId, {
      events: [{ id: randomUUID(), type: 'player.heartbeat', ts: t0 - 120_000 + k * 10_000, ...player(1) }],
    });
    t.is(result.accepted, 1);
  }
  const { rows } = await env.deps.db.query('SELECT play_seconds::float8 AS s FROM server_players WHERE server_id = $1', [a.serverId]);
  t.deepEqual(rows, [{ s: 40 }], 'five heartbeats 10 s apart: 40 s of play, whichever process wrote each');
});
