import test from 'ava';
import type { ExecutionContext } from 'ava';
import { pino } from 'pino';
import { rebuildDerivedState } from '../../src/derived/rebuild.ts';
import { revokeServer } from '../../src/servers/server.ts';
import { appliedVersion } from '../../src/stats/stats.store.ts';
import { jobLockKey, serverKeys } from '../../src/store/keys.ts';
import { jobs } from '../../workers/main.ts';
import { runJob } from '../../src/job.ts';
import { testEnv } from '../helpers/env.ts';
import type { TestEnv } from '../helpers/env.ts';
import { assertSchema, dataGet, ev, ingest, player, tenant } from '../helpers/seed.ts';
import { assertError } from '../helpers/data-api.ts';
import type { Tenant } from '../helpers/seed.ts';
import { deleteAllKeys, prefixedKeys, redisDump } from '../helpers/stores.ts';

// Serial: these tests delete every Redis key of the environment, rebuild for every server of its
// schema, and move the clock, so none may run beside another.
let env: TestEnv;
test.before(async () => {
  env = await testEnv();
});
test.after.always(async () => {
  await env?.close();
});

async function accepted(t: ExecutionContext, a: Tenant, events: unknown[]) {
  const res = await ingest(env, a, events);
  t.is(res.status, 200, JSON.stringify(res.body).slice(0, 300));
  assertSchema(t, 'ingest-result.json', res.body);
  return res.body as { accepted: number; duplicates: number };
}

/** A server with ranked and unranked players, some online, a status and a metrics sample. */
async function seeded(t: ExecutionContext): Promise<Tenant> {
  const a = await tenant(env.deps);
  const now = env.clock.now();
  await accepted(t, a, [
    ev.status(now - 600_000, { map: 'chernarusplus', gameVersion: '1.26', players: 5, fps: 58.5, uptimeSeconds: 7200 }),
    ev.presence('player.connect', now - 500_000, 1),
    ev.presence('player.connect', now - 500_000, 2),
    ev.presence('player.connect', now - 500_000, 3),
    ev.presence('player.heartbeat', now - 430_000, 1), // 70 s of play
    ev.presence('player.heartbeat', now - 420_000, 3), // 80 s of play
    ev.kill(now - 400_000, 1, 2, { distance: 310.5, isHeadshot: true, hitZone: 'head' }),
    ev.kill(now - 300_000, 1, 3, { distance: 12 }),
    ev.kill(now - 200_000, 3, 2, { distance: 55 }),
    ev.kill(now - 150_000, 4, 4, { weapon: 'Grenade' }), // a suicide: a death, no kill
    ev.shots(now - 100_000, 1, 50, 21),
  ]);
  // A second batch: totals carried on, presence kept fresh, one player gone, one never ranked.
  await accepted(t, a, [
    ev.presence('player.heartbeat', now - 60_000, 1),
    ev.presence('player.heartbeat', now - 30_000, 3),
    ev.presence('player.disconnect', now - 20_000, 2),
    ev.presence('player.connect', now - 10_000, 5),
    ev.kill(now - 5000, 2, 1, { distance: 99.25 }),
    ev.status(now - 1000, { players: 4 }),
  ]);
  return a;
}

/** What the Data API answers from Redis-derived state (plus the PostgreSQL-backed routes beside it). */
async function answers(t: ExecutionContext, a: Tenant): Promise<Record<string, unknown>> {
  const paths = [
    ...['points', 'kd', 'kills'].map((sort) => `/servers/${a.serverId}/leaderboard?sort=${sort}&limit=100`),
    `/servers/${a.serverId}/leaderboard?limit=2&offset=1`,
    `/servers/${a.serverId}/players`,
    `/servers/${a.serverId}`,
    '/servers',
    `/servers/${a.serverId}/kills`,
  ];
  const out: Record<string, unknown> = {};
  for (const path of paths) {
    const res = await dataGet(env, a, path);
    t.is(res.status, 200, `${path}: ${JSON.stringify(res.body).slice(0, 200)}`);
    out[path] = res.body;
  }
  return out;
}

/** The derived keys of a server: totals, rankings, online window, status (not page caches or counters). */
async function derivedKeys(a: Tenant): Promise<Record<string, string>> {
  const k = serverKeys(a.serverId);
  const wanted = new Set([k.players, k.ranking('kills'), k.ranking('kd'), k.online, k.status]);
  return Object.fromEntries([...(await redisDump(env.deps))].filter(([key]) => wanted.has(key)));
}

function spyLog() {
  const lines: { msg?: string; job?: string; result?: unknown; level: number }[] = [];
  const log = pino({ level: 'info', base: undefined }, { write: (line: string) => void lines.push(JSON.parse(line)) });
  return { log, lines };
}

test.serial('after Redis loses everything, rebuildDerivedState answers exactly as before', async (t) => {
  const a = await seeded(t);
  const b = await seeded(t);
  await rebuildDerivedState(env.deps);
  const before = { a: await answers(t, a), b: await answers(t, b) };
  const keysBefore = { a: await derivedKeys(a), b: await derivedKeys(b) };
  t.is(Object.keys(keysBefore.a).length, 5, 'every derived key of the server exists');
  // The seed is what it says: ranked players, online players, a status.
  const board = before.a[`/servers/${a.serverId}/leaderboard?sort=points&limit=100`] as { total: number };
  t.is(board.total, 4);
  t.is((before.a[`/servers/${a.serverId}/players`] as { count: number }).count, 3);
  t.deepEqual(
    (board as unknown as { players: { playMinutes: number }[] }).players.map((p) => p.playMinutes),
    [1, 1, 0, 0],
  );

  t.true((await deleteAllKeys(env.deps)) > 0);
  t.deepEqual(await prefixedKeys(env.deps), []);
  // With Redis empty the derived routes say so: never an empty or partial 200.
  for (const path of [`/servers/${a.serverId}/leaderboard`, `/servers/${a.serverId}/players`]) {
    const res = await dataGet(env, a, path);
    assertError(t, res, 503, 'REBUILDING', path);
    t.is(res.headers['retry-after'], '5');
  }
  await deleteAllKeys(env.deps); // also what those requests cached

  const result = await rebuildDerivedState(env.deps);
  t.is(result.servers, 2);
  t.is(result.players, 10);
  t.deepEqual({ a: await derivedKeys(a), b: await derivedKeys(b) }, keysBefore, 'the rebuilt keys equal the ones ingestion built');
  t.deepEqual({ a: await answers(t, a), b: await answers(t, b) }, before);

  // Ingestion goes on from the rebuilt state.
  await accepted(t, a, [ev.kill(env.clock.now() - 500, 5, 1, { distance: 1 })]);
  const after = await dataGet(env, a, `/servers/${a.serverId}/leaderboard?limit=100`);
  assertSchema(t, 'leaderboard-page.json', after.body);
  t.is(after.body.total, 5);
  const entry = (after.body.players as { platformId: string; kills: number; deaths: number }[]).find((p) => p.platformId.endsWith('0001'));
  t.like(entry, { kills: 2, deaths: 2 });
});

test.serial('a rebuild leaves out revoked servers and keeps the others', async (t) => {
  const kept = await seeded(t);
  const gone = await seeded(t);
  const before = await answers(t, kept);
  t.true(await revokeServer(env.deps, gone.accountId, gone.serverId));
  await deleteAllKeys(env.deps);
  await rebuildDerivedState(env.deps);
  t.deepEqual(await answers(t, kept), before);
  t.false(
    (await prefixedKeys(env.deps)).some((k) => k.includes(gone.serverId)),
    'no key of the revoked server',
  );
});

test.serial('the worker job rebuilds a server whose Redis state is gone, and nothing while it is complete', async (t) => {
  const a = await seeded(t);
  const job = jobs.find((j) => j.name === 'reconcile-derived-state')!;
  t.deepEqual(jobs.map((j) => j.name).sort(), [
    'deliver-webhooks',
    'expire-server-commands',
    'expire-trust-entries',
    'game-files',
    'game-files-expiry',
    'keep-event-claims',
    'prune-metrics-samples',
    'queue-scheduled-restarts',
    'reconcile-derived-state',
  ]);
  await rebuildDerivedState(env.deps);
  const before = await answers(t, a);

  // Everything gone: the job rebuilds at once, and says so.
  await deleteAllKeys(env.deps);
  const missing = spyLog();
  await runJob({ ...env.deps, log: missing.log }, job);
  t.deepEqual(
    missing.lines.filter((l) => l.level >= 50),
    [],
    'no job failure',
  );
  const done = missing.lines.find((l) => l.msg === 'job done');
  t.is(done?.job, 'reconcile-derived-state');
  t.true((done?.result as { rebuilt: string[] }).rebuilt.includes(a.serverId));
  t.deepEqual(await answers(t, a), before);
  t.false((await prefixedKeys(env.deps)).includes(jobLockKey(job.name)), 'the job lock is released');

  // Complete: the job leaves Redis alone and logs nothing.
  const dump = await derivedKeys(a);
  const present = spyLog();
  await runJob({ ...env.deps, log: present.log }, job);
  t.deepEqual(present.lines, [], 'nothing done, nothing logged');
  t.deepEqual(await derivedKeys(a), dump);

  // Another worker holding the job lock: this one does nothing, even with the state gone.
  const k = serverKeys(a.serverId);
  await env.deps.redis.del(k.players, k.meta, k.ranking('kills'));
  await env.deps.redis.set(jobLockKey(job.name), 'other-worker', 'PX', 60_000);
  await runJob(env.deps, job);
  t.is(await env.deps.redis.exists(k.players), 0, 'nothing rebuilt while the lock is held');
  await env.deps.redis.del(jobLockKey(job.name));
  await runJob(env.deps, job);
  t.deepEqual(await answers(t, a), before);
});

/**
 * A seeded server's derived state, complete, then turned by `toEarlierLayout` into what an earlier
 * layout left: it reads as missing, and the reconcile job rebuilds it answering as before.
 */
async function rebuiltFromEarlierLayout(t: ExecutionContext, toEarlierLayout: (k: ReturnType<typeof serverKeys>) => Promise<void>) {
  const a = await seeded(t);
  await rebuildDerivedState(env.deps);
  const before = await answers(t, a);
  const k = serverKeys(a.serverId);
  await toEarlierLayout(k);
  t.is(await appliedVersion(env.deps.redis, a.serverId), null, 'read as missing');
  await runJob(
    env.deps,
    jobs.find((j) => j.name === 'reconcile-derived-state')!,
  );
  t.deepEqual(await answers(t, a), before);
  return k;
}

test.serial(
  'a server whose derived state is of the earlier layout reads as missing, and the job rebuilds it and removes the retired keys',
  async (t) => {
    // Its state hash under the old name, and a points ranking of its own.
    const k = await rebuiltFromEarlierLayout(t, async (k) => {
      await env.deps.redis.rename(k.meta, k.retired[0]!);
      await env.deps.redis.zadd(k.retired[1]!, -2, `0000000001:${player(1).platformId}`);
    });
    t.is(await env.deps.redis.exists(k.retired[0]!, k.retired[1]!), 0, 'the retired keys are gone');
  },
);

test.serial(
  'a server whose kd ranking held the tie-breakers in every member reads as missing, and the job rebuilds it in the new layout',
  async (t) => {
    // Its state hash under the name it had then, and members "<kills><deaths>:<id>" scored -kd x 100.
    let ids: string[] = [];
    const k = await rebuiltFromEarlierLayout(t, async (k) => {
      await env.deps.redis.rename(k.meta, k.retired[2]!);
      ids = await env.deps.redis.zrange(k.ranking('kd'), 0, -1);
      await env.deps.redis.del(k.ranking('kd'));
      for (const id of ids) await env.deps.redis.zadd(k.ranking('kd'), -100, `99999999990000000001:${id}`);
    });
    t.is(await env.deps.redis.exists(k.retired[2]!), 0, 'the retired state hash is gone');
    t.deepEqual(
      (await env.deps.redis.zrange(k.ranking('kd'), 0, -1)).sort(),
      ids.sort(),
      'the kd ranking holds each player once, by platform id',
    );
  },
);
