// Kill timestamps stay unique per server at microsecond precision, and placing a batch costs one
// call however many kills already share its millisecond.
import test from 'ava';
import { randomUUID } from 'node:crypto';
import type { Deps } from '../../src/deps.ts';
import { commitBatch } from '../../src/ingest/ingest.ts';
import {
  admittedBodyBytes,
  allAdmitted,
  countedBodyBytes,
  IngestGate,
  perServerInFlight,
  perServerQueued,
} from '../../src/ingest/ingest-gate.ts';
import type { IngestEvent } from '../../src/ingest/events.ts';
import { testEnv } from '../helpers/env.ts';
import type { TestEnv } from '../helpers/env.ts';
import { player, tenant } from '../helpers/seed.ts';

type KillEvent = Extract<IngestEvent, { type: 'kill' }>;

let env: TestEnv;
test.before(async () => {
  env = await testEnv();
});
test.after.always(async () => {
  await env?.close();
});

const kill = (tsMs: number, i: number): KillEvent => ({
  index: i,
  id: randomUUID(),
  tsMs,
  sentMs: tsMs,
  type: 'kill',
  killer: player(1),
  victim: player(2 + (i % 50)),
  weapon: 'M4A1',
  distance: 10,
  isHeadshot: false,
  hitZone: null,
});

/** Deps whose pool counts the statements sent through it. */
function counting(deps: Deps): { deps: Deps; count: () => number } {
  let n = 0;
  const db = Object.create(deps.db) as Deps['db'];
  db.query = ((config: unknown, values?: unknown[]) => {
    n++;
    return deps.db.query(config as never, values as never);
  }) as typeof db.query;
  return { deps: { ...deps, db }, count: () => n };
}

/** Stores kills through ingestion's one call. */
const insertKills = async (deps: Deps, serverId: string, kills: KillEvent[]) => {
  const { result } = await commitBatch(deps, serverId, kills, kills[0]!.tsMs + 60_000);
  if (result.accepted !== kills.length) throw new Error(`accepted ${result.accepted} of ${kills.length}`);
};

test('batch after batch of kills at one millisecond: one statement per batch, every kill stored once', async (t) => {
  const a = await tenant(env.deps);
  const X = env.clock.now() - 60_000;
  const statements: number[] = [];
  for (let batch = 0; batch < 12; batch++) {
    const spy = counting(env.deps);
    await insertKills(
      spy.deps,
      a.serverId,
      Array.from({ length: 1000 }, (_, i) => kill(X, i)),
    );
    statements.push(spy.count());
  }
  t.true(
    statements.every((n) => n === 1),
    `statements per batch: ${statements.join(',')}`,
  );
  const { rows } = await env.deps.db.query<{ n: number; distinct: number; first: string }>(
    'SELECT count(*)::int AS n, count(DISTINCT ts)::int AS distinct, min(ts) AS first FROM kills WHERE server_id = $1',
    [a.serverId],
  );
  t.deepEqual(rows[0], { n: 12_000, distinct: 12_000, first: new Date(X).toISOString() });
});

test('a collision takes the next free microsecond of its millisecond, and a batch keeps its order', async (t) => {
  const a = await tenant(env.deps);
  const X = env.clock.now() - 60_000;
  await insertKills(env.deps, a.serverId, [kill(X, 0), kill(X, 1), kill(X + 1, 2)]);
  await insertKills(env.deps, a.serverId, [kill(X, 3), kill(X, 4)]);
  const { rows } = await env.deps.db.query<{ us: number }>(
    'SELECT (extract(epoch FROM ts) * 1000000)::int8 AS us FROM kills WHERE server_id = $1 ORDER BY ts',
    [a.serverId],
  );
  t.deepEqual(
    rows.map((r) => r.us - X * 1000),
    [0, 1, 2, 3, 1000],
  );
});

test('concurrent batches of one server at the same millisecond all land, each kill once', async (t) => {
  const a = await tenant(env.deps);
  const X = env.clock.now() - 60_000;
  await Promise.all(
    Array.from({ length: 4 }, (_, b) =>
      insertKills(
        env.deps,
        a.serverId,
        Array.from({ length: 300 }, (_, i) => kill(X, b * 1000 + i)),
      ),
    ),
  );
  const { rows } = await env.deps.db.query<{ n: number; distinct: number }>(
    'SELECT count(*)::int AS n, count(DISTINCT ts)::int AS distinct FROM kills WHERE server_id = $1',
    [a.serverId],
  );
  t.deepEqual(rows[0], { n: 1200, distinct: 1200 });
});

test('one server pushing many batches at once does not take the pool from other tenants', async (t) => {
  // A pool of 3 connections: ingestion may hold at most 2 of them. The ingest token hashes are read
  // again every half AUTH_CACHE_MS (real time) outside ingestion's bound, as their lookup is: at
  // its longest, 30 s, no read again falls in the seconds measured here (with 1 s this test fails).
  const small = await testEnv({ PG_POOL_SIZE: '3', AUTH_CACHE_MS: '60000' });
  t.teardown(small.close);
  const busy = await tenant(small.deps);
  const other = await tenant(small.deps);
  const X = small.clock.now() - 60_000;
  const batch = (b: number) =>
    Array.from({ length: 1000 }, (_, i) => ({
      id: randomUUID(),
      type: 'kill',
      ts: X,
      killer: player(1),
      victim: player(2 + ((b * 1000 + i) % 500)),
      weapon: 'M4A1',
      distance: 10,
      isHeadshot: false,
    }));
  // One batch first, so the ingest token's hash is cached (its lookup is not ingestion's to bound).
  t.is(
    (
      await small.request
        .post(`/api/servers/${busy.serverId}/events`)
        .set('Authorization', `Bearer ${busy.token}`)
        .send({ events: [{ id: randomUUID(), type: 'server.status', ts: X, online: true }] })
    ).status,
    200,
  );
  // What ingestion holds of the pool while the six batches run (nothing else uses it meanwhile).
  const pool = small.deps.db;
  let most = 0;
  let sampling = true;
  const sample = (async () => {
    while (sampling) {
      most = Math.max(most, pool.totalCount - pool.idleCount);
      await new Promise((resolve) => setImmediate(resolve));
    }
  })();
  const pushed = await Promise.all(
    Array.from({ length: 6 }, (_, b) =>
      small.request
        .post(`/api/servers/${busy.serverId}/events`)
        .set('Authorization', `Bearer ${busy.token}`)
        .send({ events: batch(b) }),
    ),
  );
  sampling = false;
  await sample;
  t.deepEqual(
    pushed.map((r) => r.status),
    [200, 200, 200, 200, 200, 200],
  );
  t.true(most >= 1, 'the batches did use the pool');
  t.true(most <= 2, `ingestion held ${most} of the 3 connections; one stays free for everyone else`);
  // And with a burst running, another tenant's PostgreSQL-backed reads all answer.
  const again = Array.from({ length: 6 }, (_, b) =>
    small.request
      .post(`/api/servers/${busy.serverId}/events`)
      .set('Authorization', `Bearer ${busy.token}`)
      .send({ events: batch(b + 6) }),
  );
  const reads = Array.from({ length: 10 }, () =>
    small.request.get(`/api/v1/data/servers/${other.serverId}/kills`).set('X-Service-Api-Key', other.key),
  );
  const [pushedAgain, read] = await Promise.all([Promise.all(again), Promise.all(reads)]);
  t.deepEqual(
    pushedAgain.map((r) => r.status),
    [200, 200, 200, 200, 200, 200],
  );
  t.deepEqual(
    read.map((r) => r.status),
    Array(10).fill(200),
  );
  const { rows } = await small.deps.db.query<{ n: number }>('SELECT count(*)::int AS n FROM kills WHERE server_id = $1', [busy.serverId]);
  t.is(rows[0]!.n, 12_000);
});

/** The body of a fleet server's batch of about 20 events. */
const small = 3_000;

test('batches of one server beyond the in-process queue are refused with 429 and Retry-After', async (t) => {
  const gate = new IngestGate(4);
  let release!: () => void;
  const hold = new Promise<void>((resolve) => (release = resolve));
  const held = Array.from({ length: perServerInFlight + perServerQueued }, () => gate.run('s1', small, () => hold));
  const refused = await gate.run('s1', small, async () => 'ran').catch((err: { status: number; headers: Record<string, string> }) => err);
  t.like(refused, { status: 429, headers: { 'Retry-After': '1' } });
  t.throws(
    () => gate.refuseWhenFull('s1', small),
    { message: 'too many batches in flight; retry shortly' },
    'refused before its body is read, too',
  );
  t.notThrows(() => gate.refuseWhenFull('s2', small));
  t.is(await gate.run('s2', small, async () => 'ran'), 'ran', 'another server is not held up by it');
  release();
  await Promise.all(held);
  t.notThrows(() => gate.refuseWhenFull('s1', small));
  t.is(await gate.run('s1', small, async () => 'ran'), 'ran', 'the queue drains');
});

test("all servers' batches held at once are bounded in number too, and ingestion holds all of the pool but one connection", async (t) => {
  const gate = new IngestGate(4);
  let release!: () => void;
  const hold = new Promise<void>((resolve) => (release = resolve));
  const held = Array.from({ length: allAdmitted }, (_, i) => gate.run(`s${i}`, small, () => hold));
  await t.throwsAsync(
    gate.run('another', small, async () => 'ran'),
    { message: 'too many batches in flight; retry shortly' },
  );
  t.throws(() => gate.refuseWhenFull('another', small), { message: 'too many batches in flight; retry shortly' });
  release();
  await Promise.all(held);
  t.is(await gate.run('another', small, async () => 'ran'), 'ran', 'room again once they are done');

  let holding = 0;
  let most = 0;
  let free!: () => void;
  const busy = new Promise<void>((resolve) => (free = resolve));
  const works = Array.from({ length: 10 }, () =>
    gate.connection(async () => {
      most = Math.max(most, (holding += 1));
      await busy;
      holding -= 1;
    }),
  );
  await new Promise((resolve) => setImmediate(resolve));
  t.is(most, 3, 'a pool of 4: 3 for ingestion');
  free();
  await Promise.all(works);
  t.is(most, 3);
});

test("all servers' batches held at once are bounded by their bodies' bytes: small ones wait where large ones are refused", async (t) => {
  const gate = new IngestGate(4);
  let release!: () => void;
  const hold = new Promise<void>((resolve) => (release = resolve));
  const large = 2 * 1024 * 1024;
  const fit = admittedBodyBytes / large;
  const held = Array.from({ length: fit }, (_, i) => gate.run(`large${i}`, large, () => hold));
  await t.throwsAsync(
    gate.run('one more', large, async () => 'ran'),
    { message: 'too many batches in flight; retry shortly' },
  );
  t.throws(() => gate.refuseWhenFull('one more', 1), { message: 'too many batches in flight; retry shortly' }, 'not even a byte more');
  release();
  await Promise.all(held);
  // A fleet's batches of a few kB: far more than 128 are held at once (the bound before).
  let free!: () => void;
  const busy = new Promise<void>((resolve) => (free = resolve));
  const many = Array.from({ length: 1000 }, (_, i) => gate.run(`fleet${i}`, small, () => busy));
  t.notThrows(() => gate.refuseWhenFull('fleet-next', small));
  free();
  await Promise.all(many);
  // A body sent without its length (chunked) counts as the body limit: as many as the largest fit.
  t.is(countedBodyBytes(undefined, large), large);
  t.is(countedBodyBytes(0, large), 0);
  t.is(countedBodyBytes(3_000, large), 3_000);
  // One batch larger than the whole budget still goes when nothing else is held.
  t.is(await gate.run('huge', admittedBodyBytes + 1, async () => 'ran'), 'ran');
});

test('a batch beyond the queue is refused before its body is parsed; the batches held all land once released', async (t) => {
  const a = await tenant(env.deps);
  const post = () => env.request.post(`/api/servers/${a.serverId}/events`).set('Authorization', `Bearer ${a.token}`).type('json');
  // The server's batches wait for its lock, held here, each holding its place in the gate.
  const lock = await env.deps.db.connect();
  const unlock = () => lock.query('SELECT pg_advisory_unlock_all()');
  t.teardown(async () => {
    await unlock();
    lock.release();
  });
  await lock.query('SELECT pg_advisory_lock(hashtextextended($1, 0))', [a.serverId]);
  const X = env.clock.now() - 60_000;
  const held = Array.from({ length: perServerInFlight + perServerQueued }, (_, b) =>
    post()
      .send({
        events: [
          {
            id: randomUUID(),
            type: 'kill',
            ts: X + b,
            killer: player(1),
            victim: player(2),
            weapon: 'M4A1',
            distance: 10,
            isHeadshot: false,
          },
        ],
      })
      .then((r) => r),
  );
  // A body that is not JSON: 400 while there is room, 429 (and not parsed) once the gate is full.
  let answer = await post().send('{');
  for (let tries = 0; answer.status === 400 && tries < 100; tries++) answer = await post().send('{');
  await unlock();
  const landed = await Promise.all(held);
  t.is(answer.status, 429);
  t.like(answer.body, { error: 'RATE_LIMITED', message: 'too many batches in flight; retry shortly', retryAfter: 1 });
  t.is(answer.headers['retry-after'], '1');
  t.deepEqual(
    landed.map((r) => r.status),
    Array(perServerInFlight + perServerQueued).fill(200),
  );
  const { rows } = await env.deps.db.query<{ n: number }>('SELECT count(*)::int AS n FROM kills WHERE server_id = $1', [a.serverId]);
  t.is(rows[0]!.n, perServerInFlight + perServerQueued);
});
