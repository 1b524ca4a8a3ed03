// The one-call path stores exactly what the transactional path stores, batch after batch (retried
// ids, kills sharing a millisecond, presence in and out of order, statuses, aliases), and a call
// whose read rows changed meanwhile changes nothing and asks for the transactional path.
import test from 'ava';
import fc from 'fast-check';
import { randomUUID } from 'node:crypto';
import { parseBatch } from '../../src/ingest/events.ts';
import { commitInTransaction, eachAsItComes, ingestBatch, steam64PlayersOf } from '../../src/ingest/ingest.ts';
import { PresentTotals } from '../../src/ingest/present-totals.ts';
import { applyBatchInOneCall, killColumns, playerColumns, upsertPlayers } from '../../src/ingest/ingest.repo.ts';
import { sampleColumns } from '../../src/servers/metrics.repo.ts';
import { commitInOneCall } from '../../src/ingest/one-call.ts';
import { addedColumns, loadTotals, loadTotalsAsRead, savedColumns } from '../../src/stats/stats.repo.ts';
import { emptyTotals } from '../../src/stats/totals.ts';
import { t0, testEnv } from '../helpers/env.ts';
import { ingestEvent, storedStateOf } from '../helpers/ingest-batches.ts';
import type { TestEnv } from '../helpers/env.ts';
import { player, tenant } from '../helpers/seed.ts';

let env: TestEnv;
test.before(async () => {
  env = await testEnv();
});
test.after.always(async () => {
  await env?.close();
});

const event = ingestEvent(Array.from({ length: 12 }, () => randomUUID()), { aliases: true });

test('property: batch after batch, the one-call path leaves the stores as the transactional path does', async (t) => {
  const paths = { oneCall: 0, transaction: 0 };
  await fc.assert(fc.asyncProperty(fc.array(fc.array(event, { minLength: 1, maxLength: 8 }), { minLength: 1, maxLength: 5 }), async (batches) => {
    const [a, b] = [await tenant(env.deps), await tenant(env.deps)];
    for (const [i, batch] of batches.entries()) {
      const arrivalMs = t0 + i;
      const body = { events: batch };
      const viaOneCall = parseBatch(structuredClone(body), arrivalMs).events;
      if (viaOneCall.length === 0) throw new Error('every generated event is valid');
      const steam64s = steam64PlayersOf(viaOneCall);
      const done = await commitInOneCall(env.deps, a.serverId, viaOneCall, arrivalMs, steam64s, eachAsItComes(env.deps));
      paths[done ? 'oneCall' : 'transaction'] += 1;
      if (!done) await upsertPlayers(env.deps.db, steam64s);
      const first = done ?? (await commitInTransaction(env.deps, a.serverId, viaOneCall, arrivalMs, steam64s));
      const viaTransaction = parseBatch(structuredClone(body), arrivalMs).events;
      const second = await commitInTransaction(env.deps, b.serverId, viaTransaction, arrivalMs, steam64PlayersOf(viaTransaction));
      t.deepEqual(first.result, second.result);
      t.deepEqual([...(first.change?.totals ?? [])].sort(), [...(second.change?.totals ?? [])].sort());
    }
    t.deepEqual(await storedStateOf(env.deps.db, a.serverId), await storedStateOf(env.deps.db, b.serverId));
  }), { numRuns: 25 });
  t.true(paths.oneCall > 10, `batches applied in one call: ${paths.oneCall}`);
  t.true(paths.transaction > 10, `batches that needed the transaction: ${paths.transaction}`);
});

test('a call whose read rows changed meanwhile, or with an id seen before, changes nothing and asks for the transaction', async (t) => {
  const a = await tenant(env.deps);
  const newestAt = new Date(t0).toISOString();
  const call = (tag: string | null, eventIds: string[]) => applyBatchInOneCall(env.deps.db, a.serverId, {
    receivedAt: newestAt, eventIds, eventsSentAt: eventIds.map(() => newestAt), kills: killColumns([], []), expected: { ids: [player(1).platformId], tags: [tag] },
    save: savedColumns(new Map()), add: addedColumns(new Map()), samples: sampleColumns([]), newestAt, status: null, dayzIds: [],
    players: playerColumns(new Map()),
  }, env.deps.caches.playersStored);
  const version = async () => (await env.deps.db.query('SELECT derived_version AS v FROM servers WHERE id = $1', [a.serverId])).rows[0].v as number;
  const claimed = async (id: string) => (await env.deps.db.query('SELECT 1 FROM event_claims WHERE server_id = $1 AND event_id = $2', [a.serverId, id])).rowCount;
  const first = randomUUID();
  t.truthy(await call(null, [first]), 'the player has no row, as read');
  t.is(await version(), 1);
  // Another batch stored the player meanwhile.
  await env.deps.db.query('INSERT INTO server_players (server_id, platform_id, kills) VALUES ($1, $2, 1)', [a.serverId, player(1).platformId]);
  const late = randomUUID();
  t.is(await call(null, [late]), undefined, 'the row exists now');
  t.is(await claimed(late), 0, 'the id was not claimed');
  t.is(await version(), 1, 'the server was not touched');
  const tag = (await loadTotalsAsRead(env.deps.db, a.serverId, [player(1).platformId])).get(player(1).platformId)!.tag;
  t.is(await call(tag, [first]), undefined, 'an id seen before');
  t.is(await version(), 1);
  t.truthy(await call(tag, [randomUUID()]), 'the row as read, a new id');
  t.is(await version(), 2);
});

test('a call chosen as a deadlock\'s victim changed nothing and asks for the transaction', async (t) => {
  // Two calls of one server may be under way together (src/ingest/one-call-groups.ts): a cycle of
  // waits between a call and another writer ends with one of them rolled back by PostgreSQL.
  const a = await tenant(env.deps);
  // A player of this test alone: the other writer holds its row, which no other test may wait for.
  const platformId = `7656119900${String(Math.floor(Math.random() * 1e7)).padStart(7, '0')}`;
  await upsertPlayers(env.deps.db, new Map([[platformId, { name: 'before', firstMs: t0, lastMs: t0 }]]));
  const eventId = randomUUID();
  const newestAt = new Date(t0).toISOString();
  const other = await env.deps.db.connect();
  try {
    // The other writer holds the player's row, and waits long enough that the call detects the cycle.
    await other.query("BEGIN; SET LOCAL deadlock_timeout = '60s'");
    const otherPid = (await other.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid;
    await other.query('UPDATE players SET name = name WHERE platform_id = $1', [platformId]);
    const call = applyBatchInOneCall(env.deps.db, a.serverId, {
      receivedAt: newestAt, eventIds: [eventId], eventsSentAt: [newestAt], kills: killColumns([], []), expected: { ids: [], tags: [] },
      save: savedColumns(new Map()), add: addedColumns(new Map()), samples: sampleColumns([]), newestAt, status: null, dayzIds: [],
      players: playerColumns(new Map([[platformId, { name: 'renamed', firstMs: t0, lastMs: t0 }]])),
    }, env.deps.caches.playersStored);
    // The call claimed its event id and waits for the player's row; the other writer now waits for the id.
    const waiting = async () => (await env.deps.db.query('SELECT 1 FROM pg_stat_activity WHERE $1 = ANY(pg_blocking_pids(pid))', [otherPid])).rowCount! > 0;
    while (!(await waiting())) await new Promise((resolve) => setImmediate(resolve));
    const claim = other.query('INSERT INTO event_claims (sent_at, server_id, event_id, received_at) VALUES ($3, $1, $2, $3)', [a.serverId, eventId, newestAt]);
    t.is(await call, undefined, 'the victim asks for the transactional path');
    await claim;
    await other.query('ROLLBACK');
  } finally {
    other.release();
  }
  t.is((await env.deps.db.query('SELECT count(*)::int AS n FROM event_claims WHERE server_id = $1', [a.serverId])).rows[0].n, 0, 'nothing of the call was kept');
  t.is((await env.deps.db.query('SELECT derived_version AS v FROM servers WHERE id = $1', [a.serverId])).rows[0].v, 0);
});

test('a call answers the totals it added to as stored, whatever the name holds, with timestamps to the millisecond or none', async (t) => {
  const a = await tenant(env.deps);
  const [p1, p2] = [player(1).platformId, player(2).platformId];
  const onlineAt = new Date(t0 - 61_123).toISOString();
  await env.deps.db.query(
    `INSERT INTO server_players (server_id, platform_id, name, kills, kill_distance_sum, online_at, presence_at, name_at)
     VALUES ($1, $2, 'old', 2, 10.25, $3, $3, $3)`, [a.serverId, p1, onlineAt]);
  const name = 'tab\there\nnew "line" \\ é 🎮 \u0001';
  const delta = (kills: number, nameAtMs: number | null) => ({ ...emptyTotals(), name: nameAtMs === null ? null : name, kills, killDistanceSum: 0.5, shotsFired: 2 ** 40, nameAtMs });
  const newestAt = new Date(t0).toISOString();
  const applied = await applyBatchInOneCall(env.deps.db, a.serverId, {
    receivedAt: newestAt, eventIds: [randomUUID()], eventsSentAt: [newestAt], kills: killColumns([], []), expected: { ids: [], tags: [] },
    save: savedColumns(new Map()), add: addedColumns(new Map([[p1, delta(1, t0 - 5_001)], [p2, delta(3, null)]])),
    samples: sampleColumns([]), newestAt, status: null, dayzIds: [], players: playerColumns(new Map()),
  }, env.deps.caches.playersStored);
  const stored = await loadTotals(env.deps.db, a.serverId, [p1, p2]);
  t.deepEqual(applied?.added, stored);
  t.like(applied?.added.get(p1), { name, kills: 3, killDistanceSum: 10.75, shotsFired: 2 ** 40, onlineAtMs: t0 - 61_123, presenceAtMs: t0 - 61_123, nameAtMs: t0 - 5_001 });
  t.like(applied?.added.get(p2), { name: null, kills: 3, onlineAtMs: null, presenceAtMs: null, nameAtMs: null });
});

test('a batch whose present players this process wrote last is applied without reading them first; a row written elsewhere since is read again', async (t) => {
  const a = await tenant(env.deps);
  const named: string[] = [];
  // This process's view, counting its queries by name; another process's view, with caches of its own.
  const db = Object.create(env.deps.db) as typeof env.deps.db;
  db.query = ((config: { name?: string }, values?: unknown[]) => {
    named.push(config.name ?? '');
    return env.deps.db.query(config as never, values as never);
  }) as typeof db.query;
  db.connect = (() => {
    named.push('transaction');
    return env.deps.db.connect();
  }) as typeof db.connect;
  const here = { ...env.deps, db, caches: { ...env.deps.caches, presentTotals: new PresentTotals() } };
  const elsewhere = { ...env.deps, caches: { ...env.deps.caches, presentTotals: new PresentTotals() } };
  let k = 0;
  const count = (name: string) => named.filter((n) => n === name).length;
  const heartbeat = async (deps: typeof env.deps) => {
    k += 1;
    const [reads, calls, transactions] = [count('totals-as-read'), count('ingest-apply-batch'), count('transaction')];
    const result = await ingestBatch(deps, a.serverId, { events: [{ id: randomUUID(), type: 'player.heartbeat', ts: t0 - 120_000 + k * 10_000, ...player(1) }] });
    t.is(result.accepted, 1);
    t.is(count('transaction'), transactions, 'never the transactional path');
    return { reads: count('totals-as-read') - reads, calls: count('ingest-apply-batch') - calls };
  };
  t.deepEqual(await heartbeat(here), { reads: 1, calls: 1 }, 'first batch: the row is read');
  t.deepEqual(await heartbeat(here), { reads: 0, calls: 1 }, 'this process wrote the row last: no read');
  await heartbeat(elsewhere);
  t.deepEqual(await heartbeat(here), { reads: 1, calls: 2 }, 'what it holds is stale: the call is refused, and made again with the row read');
  t.deepEqual(await heartbeat(here), { reads: 0, calls: 1 });
  const { rows } = await env.deps.db.query('SELECT play_seconds::float8 AS s FROM server_players WHERE server_id = $1', [a.serverId]);
  t.deepEqual(rows, [{ s: 40 }], 'five heartbeats 10 s apart: 40 s of play, whichever process wrote each');
});
