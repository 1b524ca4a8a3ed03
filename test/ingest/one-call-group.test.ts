// Group calls: the common batches of several servers applied in one call leave the stores as each
// batch's transaction would; a batch whose rows changed is refused alone; a repeated id sends each
// batch on its own; a server's batches never share a call, and only those that read no rows go
// while another of its calls is under way; a group's batches go on each in a turn of the event loop.
import test from 'ava';
import fc from 'fast-check';
import { randomUUID } from 'node:crypto';
import { parseBatch } from '../../src/ingest/events.ts';
import { commitInTransaction, ingestBatch, steam64PlayersOf } from '../../src/ingest/ingest.ts';
import type { IngestSlots } from '../../src/ingest/ingest.ts';
import { killColumns, playerColumns } from '../../src/ingest/ingest.repo.ts';
import type { OneCallBatch } from '../../src/ingest/ingest.repo.ts';
import { applyBatchesInOneCall } from '../../src/ingest/one-call-group.repo.ts';
import { OneCallGroups } from '../../src/ingest/one-call-groups.ts';
import { PresentTotals } from '../../src/ingest/present-totals.ts';
import { sampleColumns } from '../../src/servers/metrics.repo.ts';
import { addedColumns, loadTotalsAsRead, savedColumns } from '../../src/stats/stats.repo.ts';
import { emptyTotals } from '../../src/stats/totals.ts';
import type { Deps } from '../../src/deps.ts';
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

/** Deps whose database calls are recorded by name, with the servers each call carried, and when each began and ended; fresh in-memory rows. */
function recorded() {
  const calls: { name: string; servers: string[] }[] = [];
  const timeline: string[] = [];
  const db = Object.create(env.deps.db) as Deps['db'];
  db.query = ((config: { name?: string; values?: unknown[] }, values?: unknown[]) => {
    const name = config.name ?? '';
    const first = String(config.values?.[0] ?? '');
    if (name === 'ingest-apply-batches') calls.push({ name, servers: first.slice(1, -1).split(',').map((s) => s.replaceAll('"', '')) });
    if (name === 'ingest-apply-batch') calls.push({ name, servers: [first] });
    const call = calls.length;
    if (name.startsWith('ingest-apply-batch')) timeline.push(`${call} began`);
    const done = () => {
      if (name.startsWith('ingest-apply-batch')) timeline.push(`${call} ended`);
    };
    const answer = env.deps.db.query(config as never, values as never) as unknown as Promise<unknown>;
    return answer.finally(done);
  }) as typeof db.query;
  const deps: Deps = { ...env.deps, db, caches: { ...env.deps.caches, presentTotals: new PresentTotals() } };
  return { deps, calls, timeline };
}

/** A connection slot that makes each call wait a moment: the batches that come meanwhile join its group. */
const after = (ms: number): IngestSlots['connection'] => async (work) => {
  await new Promise((resolve) => setTimeout(resolve, ms));
  return work();
};

function groupSlots(deps: Deps) {
  const connection = after(20);
  const groups = new OneCallGroups(deps, connection);
  const slots: IngestSlots = { turn: (work) => work(), connection, applyOneCall: (serverId, batch) => groups.apply(serverId, batch) };
  return slots;
}

const event = ingestEvent(Array.from({ length: 8 }, () => randomUUID()), { aliases: false });

test('property: round after round, servers whose batches went in group calls hold what each batch\'s transaction leaves', async (t) => {
  const sizes: number[] = [];
  await fc.assert(fc.asyncProperty(fc.array(fc.array(fc.array(event, { minLength: 1, maxLength: 6 }), { minLength: 3, maxLength: 3 }), { minLength: 1, maxLength: 4 }), async (rounds) => {
    const { deps, calls } = recorded();
    const slots = groupSlots(deps);
    const grouped = [await tenant(env.deps), await tenant(env.deps), await tenant(env.deps)];
    const alone = [await tenant(env.deps), await tenant(env.deps), await tenant(env.deps)];
    for (const [i, round] of rounds.entries()) {
      const arrivalMs = t0 + i;
      env.clock.set(arrivalMs);
      const results = await Promise.all(round.map((events, s) => ingestBatch(deps, grouped[s]!.serverId, { events: structuredClone(events) }, slots)));
      for (const [s, events] of round.entries()) {
        const parsed = parseBatch({ events: structuredClone(events) }, arrivalMs).events;
        const { result } = await commitInTransaction(env.deps, alone[s]!.serverId, parsed, arrivalMs, steam64PlayersOf(parsed));
        t.like(results[s], { accepted: result.accepted, duplicates: result.duplicates });
      }
    }
    for (const [s, { serverId }] of grouped.entries()) t.deepEqual(await storedStateOf(env.deps.db, serverId), await storedStateOf(env.deps.db, alone[s]!.serverId));
    sizes.push(...calls.filter((c) => c.name === 'ingest-apply-batches').map((c) => c.servers.length));
  }), { numRuns: 20 });
  t.true(sizes.length > 10, `group calls: ${sizes.length}`);
  t.true(sizes.includes(3), 'the three servers\' batches went in one call');
});

const noChange = (): Pick<OneCallBatch, 'kills' | 'save' | 'add' | 'samples' | 'dayzIds' | 'players'> => ({
  kills: killColumns([], []), save: savedColumns(new Map()), add: addedColumns(new Map()), samples: sampleColumns([]), dayzIds: [], players: playerColumns(new Map()),
});

/** A batch that adds a kill to player 1 and expects its row as `tag` says. */
const killBatch = (eventIds: string[], tag: string | null): OneCallBatch => ({
  ...noChange(), receivedAt: new Date(t0).toISOString(), newestAt: new Date(t0).toISOString(), status: null, eventIds, eventsSentAt: eventIds.map(() => new Date(t0).toISOString()),
  expected: { ids: [player(1).platformId], tags: [tag] }, add: addedColumns(new Map([[player(1).platformId, { ...emptyTotals(), kills: 1 }]])),
});

const version = async (serverId: string) => (await env.deps.db.query('SELECT derived_version AS v FROM servers WHERE id = $1', [serverId])).rows[0].v as number;
const claimed = async (serverId: string) => (await env.deps.db.query('SELECT count(*)::int AS n FROM event_claims WHERE server_id = $1', [serverId])).rows[0].n as number;

test('a batch whose rows changed since read is refused alone: nothing of it is stored, the others are', async (t) => {
  const [a, b, c] = [await tenant(env.deps), await tenant(env.deps), await tenant(env.deps)];
  // b's player got a row after it was read as having none.
  await env.deps.db.query('INSERT INTO server_players (server_id, platform_id, kills) VALUES ($1, $2, 5)', [b.serverId, player(1).platformId]);
  const tagOfC = async () => (await loadTotalsAsRead(env.deps.db, c.serverId, [player(1).platformId])).get(player(1).platformId)?.tag ?? null;
  await env.deps.db.query('INSERT INTO server_players (server_id, platform_id, kills) VALUES ($1, $2, 2)', [c.serverId, player(1).platformId]);
  const applied = await applyBatchesInOneCall(env.deps.db, [
    { serverId: a.serverId, batch: killBatch([randomUUID()], null) },
    { serverId: b.serverId, batch: killBatch([randomUUID()], null) },
    { serverId: c.serverId, batch: killBatch([randomUUID(), randomUUID()], await tagOfC()) },
  ], env.deps.caches.playersStored);
  t.is(applied.length, 3);
  t.like(applied[0], { server: { id: a.serverId, version: 1 } });
  t.deepEqual(applied[0]!.added.get(player(1).platformId)?.kills, 1);
  t.is(applied[1], undefined, 'b is refused');
  t.like(applied[2], { server: { id: c.serverId, version: 1 } });
  t.deepEqual(applied[2]!.added.get(player(1).platformId)?.kills, 3, 'c adds to its row as stored');
  t.is(applied[0]!.tag, applied[2]!.tag, 'one transaction');
  t.deepEqual([await version(b.serverId), await claimed(b.serverId), await claimed(c.serverId)], [0, 0, 2]);
  const { rows } = await env.deps.db.query('SELECT kills FROM server_players WHERE server_id = $1', [b.serverId]);
  t.deepEqual(rows, [{ kills: 5 }], 'b\'s counters untouched');
});

const claim = (serverId: string, id: string) =>
  env.deps.db.query('INSERT INTO event_claims (sent_at, server_id, event_id, received_at) VALUES ($1, $2, $3, now())', [new Date(t0).toISOString(), serverId, id]);

test('a group with an id seen before stores nothing of it; each batch then goes on its own and only the repeat is refused', async (t) => {
  const [a, b] = [await tenant(env.deps), await tenant(env.deps)];
  const seen = randomUUID();
  await claim(b.serverId, seen);
  await t.throwsAsync(applyBatchesInOneCall(env.deps.db, [
    { serverId: a.serverId, batch: killBatch([randomUUID()], null) },
    { serverId: b.serverId, batch: killBatch([seen], null) },
  ], env.deps.caches.playersStored), { code: '23505' } as never);
  t.deepEqual([await version(a.serverId), await claimed(a.serverId)], [0, 0], 'the call stored nothing');

  const { deps, calls } = recorded();
  const groups = new OneCallGroups(deps, after(20));
  const [first, second] = await Promise.all([groups.apply(a.serverId, killBatch([randomUUID()], null)), groups.apply(b.serverId, killBatch([seen], null))]);
  t.like(first, { server: { id: a.serverId, version: 1 } });
  t.is(second, undefined, 'the repeat asks for the transactional path');
  t.deepEqual(calls.map((c) => `${c.name} ${c.servers.length}`), ['ingest-apply-batches 2', 'ingest-apply-batch 1', 'ingest-apply-batch 1']);
});

test('a server\'s batches never share a call, nor go while one of them that read rows is in a call; a batch goes at once when none waits', async (t) => {
  const [a, b] = [await tenant(env.deps), await tenant(env.deps)];
  const { deps, calls, timeline } = recorded();
  const groups = new OneCallGroups(deps, after(20));
  const alone = await groups.apply(a.serverId, killBatch([randomUUID()], null));
  t.like(alone, { server: { id: a.serverId, version: 1 } });
  const tag = alone!.tag;
  const results = await Promise.all([
    groups.apply(a.serverId, killBatch([randomUUID()], tag)),
    groups.apply(a.serverId, killBatch([randomUUID()], tag)),
    groups.apply(b.serverId, killBatch([randomUUID()], null)),
  ]);
  t.deepEqual(calls.map((c) => c.servers.map((s) => (s === a.serverId ? 'a' : 'b')).join('+')), ['a', 'a+b', 'a']);
  t.deepEqual(timeline, ['1 began', '1 ended', '2 began', '2 ended', '3 began', '3 ended'], 'a\'s second batch waited for the call of its first');
  t.like(results[0], { server: { version: 2 } });
  t.is(results[1], undefined, 'the second of a read the row before the first wrote it: refused, as it would be alone');
  t.like(results[2], { server: { id: b.serverId, version: 1 } });
});

test('a group\'s batches go on each in a turn of the event loop of its own, so requests waiting behind them are not held for the whole group', async (t) => {
  const servers = [await tenant(env.deps), await tenant(env.deps), await tenant(env.deps), await tenant(env.deps)];
  const { deps, calls } = recorded();
  const groups = new OneCallGroups(deps, after(20));
  let turn = 0;
  let counting = true;
  const count = () => {
    turn += 1;
    if (counting) setImmediate(count);
  };
  setImmediate(count);
  const turns = await Promise.all(servers.map((s) => groups.apply(s.serverId, killBatch([randomUUID()], null)).then((applied) => {
    t.like(applied, { server: { id: s.serverId, version: 1 } });
    return turn;
  })));
  counting = false;
  t.deepEqual(calls.map((c) => c.servers.length), [4], 'one call carried the four');
  t.is(new Set(turns).size, 4, `each settled in a turn of its own (turns ${turns.join(', ')})`);
});

/** A batch of kills only: it reads no rows (no present players), its counters are added to what is stored. */
const addOnlyBatch = (eventIds: string[]): OneCallBatch => ({ ...killBatch(eventIds, null), expected: { ids: [], tags: [] } });

test('a server\'s batches that read no rows go while another of its calls is under way; a batch that read rows waits for them', async (t) => {
  const [a, b] = [await tenant(env.deps), await tenant(env.deps)];
  const { deps, calls, timeline } = recorded();
  const groups = new OneCallGroups(deps, after(20));
  const backfill = await Promise.all([1, 2, 3].map(() => groups.apply(a.serverId, addOnlyBatch([randomUUID()]))));
  t.deepEqual(calls.map((c) => c.servers.length), [1, 1, 1], 'never two of a server in one call');
  t.deepEqual(timeline.slice(0, 2), ['1 began', '2 began'], 'the second went while the first was in its call');
  t.deepEqual(backfill.map((applied) => applied?.server.version).sort(), [1, 2, 3], 'each applied, in a version of its own');
  t.is((await loadTotalsAsRead(env.deps.db, a.serverId, [player(1).platformId])).get(player(1).platformId)?.totals.kills, 3, 'every kill counted once');

  const first = await groups.apply(b.serverId, killBatch([randomUUID()], null));
  timeline.length = 0;
  const [added, read] = await Promise.all([groups.apply(b.serverId, addOnlyBatch([randomUUID()])), groups.apply(b.serverId, killBatch([randomUUID()], first!.tag))]);
  t.deepEqual(timeline, ['5 began', '5 ended', '6 began', '6 ended'], 'the batch that read rows waited for the call under way');
  t.like(added, { server: { version: 2 } });
  t.is(read, undefined, 'it read the row before the other wrote it: refused, and sent again with the row read');
});

test('a player named by two batches of a call is stored once, widened: first seen the earlier, last seen and name the later', async (t) => {
  const [a, b] = [await tenant(env.deps), await tenant(env.deps)];
  const id = `7656119801${String(Date.now()).slice(-7)}`;
  const seen = (name: string, firstMs: number, lastMs: number) => playerColumns(new Map([[id, { name, firstMs, lastMs }]]));
  const batch = (players: OneCallBatch['players']): OneCallBatch => ({ ...killBatch([randomUUID()], null), expected: { ids: [], tags: [] }, add: addedColumns(new Map()), players });
  await applyBatchesInOneCall(env.deps.db, [
    { serverId: a.serverId, batch: batch(seen('later', t0 - 50_000, t0 - 1_000)) },
    { serverId: b.serverId, batch: batch(seen('earlier', t0 - 90_000, t0 - 40_000)) },
  ], env.deps.caches.playersStored);
  const { rows } = await env.deps.db.query(`SELECT name, (extract(epoch FROM first_seen_at) * 1000)::float8 AS "firstMs",
    (extract(epoch FROM last_seen_at) * 1000)::float8 AS "lastMs" FROM players WHERE platform_id = $1`, [id]);
  t.deepEqual(rows, [{ name: 'later', firstMs: t0 - 90_000, lastMs: t0 - 1_000 }]);
  t.deepEqual(env.deps.caches.playersStored.get(id), { name: 'later', firstMs: t0 - 90_000, lastMs: t0 - 1_000 }, 'remembered as stored');
});
