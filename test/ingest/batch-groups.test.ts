// Several servers' batches in one call: each leaves its server's stores as it would alone, a
// server's batches never share a call, and a call that fails sends each batch on its own, so only
// the one at fault fails.
import test from 'ava';
import { randomUUID } from 'node:crypto';
import type { Deps } from '../../src/deps.ts';
import { BatchGroups } from '../../src/ingest/batch-groups.ts';
import { ingestBatch } from '../../src/ingest/ingest.ts';
import type { IngestSlots } from '../../src/ingest/ingest.ts';
import { t0, testEnv } from '../helpers/env.ts';
import type { TestEnv } from '../helpers/env.ts';
import { ev, player, tenant } from '../helpers/seed.ts';

let env: TestEnv;
test.before(async () => {
  env = await testEnv();
});
test.after.always(async () => {
  await env?.close();
});

/** Deps whose ingestion calls are recorded with the servers each carried. */
function recorded() {
  const calls: string[][] = [];
  const db = Object.create(env.deps.db) as Deps['db'];
  db.query = ((config: { name?: string; values?: unknown[] }, values?: unknown[]) => {
    if (config.name === 'ingest-apply-events')
      calls.push(
        String(config.values?.[0])
          .slice(1, -1)
          .split(',')
          .map((s) => s.replaceAll('"', '')),
      );
    return env.deps.db.query(config as never, values as never);
  }) as typeof db.query;
  return { deps: { ...env.deps, db } as Deps, calls };
}

/** A connection slot that makes each call wait a moment: the batches that come meanwhile join its group. */
const after =
  (ms: number) =>
  async <T>(work: () => Promise<T>) => {
    await new Promise((resolve) => setTimeout(resolve, ms));
    return work();
  };

const slots = (deps: Deps): IngestSlots => {
  const groups = new BatchGroups(deps, after(20));
  return { turn: (work) => work(), apply: (serverId, columns) => groups.apply(serverId, columns) };
};

/** What a server's batches left: its players' totals, kills, status, samples and claimed ids. */
async function storedStateOf(serverId: string) {
  const q = async (sql: string) => (await env.deps.db.query(sql, [serverId])).rows;
  return {
    players:
      await q(`SELECT platform_id, name, kills, deaths, headshots, kill_distance_sum, play_seconds, shots_fired, shots_hit, online_at, presence_at, name_at
                      FROM server_players WHERE server_id = $1 ORDER BY platform_id`),
    kills: await q('SELECT ts, killer_platform_id, victim_platform_id, is_headshot FROM kills WHERE server_id = $1 ORDER BY ts'),
    status: await q('SELECT online, map, players, status_at, metrics_at, last_seen_at, derived_version FROM servers WHERE id = $1'),
    samples: await q('SELECT at, online, players FROM server_metrics WHERE server_id = $1 ORDER BY at'),
    claimed: await q('SELECT count(*)::int AS n FROM event_claims WHERE server_id = $1'),
  };
}

const round = (k: number) => [
  [
    ev.presence('player.connect', t0 - 90_000 + k, 1),
    ev.kill(t0 - 80_000 + k, 1, 2),
    ev.kill(t0 - 80_000 + k, 2, 1),
    ev.status(t0 - 70_000 + k, { map: 'enoch', players: 3 }),
  ],
  [
    ev.presence('player.heartbeat', t0 - 60_000 + k, 1),
    ev.shots(t0 - 50_000 + k, 1, 10, 4),
    { id: randomUUID(), type: 'server.started', ts: t0 - 40_000 + k },
  ],
  [
    ev.presence('player.disconnect', t0 - 30_000 + k, 1),
    ev.kill(t0 - 20_000 + k, 3, 1, { isHeadshot: true }),
    ev.status(t0 - 10_000 + k, { online: false }),
  ],
];

test('round after round, servers whose batches went in one call hold what each batch alone leaves', async (t) => {
  const { deps, calls } = recorded();
  const grouped = [await tenant(env.deps), await tenant(env.deps), await tenant(env.deps)];
  const alone = [await tenant(env.deps), await tenant(env.deps), await tenant(env.deps)];
  const through = slots(deps);
  for (let k = 0; k < 3; k++) {
    const batches = round(k);
    // The second round again: every event a duplicate.
    const sent = k === 2 ? round(1) : batches;
    const results = await Promise.all(
      sent.map((events, s) => ingestBatch(deps, grouped[s]!.serverId, { events: structuredClone(events) }, through)),
    );
    for (const [s, events] of sent.entries())
      t.deepEqual(results[s], await ingestBatch(env.deps, alone[s]!.serverId, { events: structuredClone(events) }));
  }
  for (const [s, { serverId }] of grouped.entries()) t.deepEqual(await storedStateOf(serverId), await storedStateOf(alone[s]!.serverId));
  t.true(
    calls.some((servers) => servers.length === 3),
    `the three servers' batches went in one call: ${calls.map((c) => c.length).join(',')}`,
  );
});

test("a server's batches never share a call; a batch goes at once, alone, when none waits", async (t) => {
  const [a, b] = [await tenant(env.deps), await tenant(env.deps)];
  const { deps, calls } = recorded();
  const through = slots(deps);
  t.is((await ingestBatch(deps, a.serverId, { events: [ev.kill(t0 - 5000, 1, 2)] }, through)).accepted, 1);
  t.deepEqual(calls, [[a.serverId]]);
  calls.length = 0;
  const results = await Promise.all([
    ingestBatch(deps, a.serverId, { events: [ev.kill(t0 - 4000, 1, 2)] }, through),
    ingestBatch(deps, a.serverId, { events: [ev.kill(t0 - 3000, 1, 2)] }, through),
    ingestBatch(deps, b.serverId, { events: [ev.kill(t0 - 3000, 1, 2)] }, through),
  ]);
  t.deepEqual(
    results.map((r) => r.accepted),
    [1, 1, 1],
  );
  for (const servers of calls) t.is(new Set(servers).size, servers.length, 'one batch a server a call');
  t.is(
    (
      await env.deps.db.query('SELECT kills FROM server_players WHERE server_id = $1 AND platform_id = $2', [
        a.serverId,
        player(1).platformId,
      ])
    ).rows[0].kills,
    3,
  );
});

test.serial('a call that fails stored nothing: each of its batches goes on its own, and only the one at fault fails', async (t) => {
  const [a, b] = [await tenant(env.deps), await tenant(env.deps)];
  const { deps, calls } = recorded();
  // A trigger that fails the totals of one player: the call rolls back at its end.
  await env.deps.db.query(`CREATE FUNCTION refuse_player_g() RETURNS trigger LANGUAGE plpgsql AS
    $$ BEGIN IF NEW.platform_id = '${player(9).platformId}' THEN RAISE EXCEPTION 'refused'; END IF; RETURN NEW; END $$`);
  await env.deps.db.query(
    'CREATE TRIGGER refuse_player_g BEFORE INSERT OR UPDATE ON server_players FOR EACH ROW EXECUTE FUNCTION refuse_player_g()',
  );
  t.teardown(() => env.deps.db.query('DROP TRIGGER refuse_player_g ON server_players; DROP FUNCTION refuse_player_g()'));
  const through = slots(deps);
  const [good, bad] = await Promise.allSettled([
    ingestBatch(deps, a.serverId, { events: [ev.kill(t0 - 5000, 1, 2)] }, through),
    ingestBatch(deps, b.serverId, { events: [ev.kill(t0 - 5000, 9, 2)] }, through),
  ]);
  t.like(good, { status: 'fulfilled', value: { accepted: 1 } });
  t.like(bad, { status: 'rejected' });
  t.deepEqual(
    calls.map((servers) => servers.length),
    [2, 1, 1],
    'the group, then each on its own',
  );
  t.is((await env.deps.db.query('SELECT count(*)::int AS n FROM event_claims WHERE server_id = $1', [b.serverId])).rows[0].n, 0);
});
