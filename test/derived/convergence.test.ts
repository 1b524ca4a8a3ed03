// Derived Redis state against faults: a Redis that stalls mid-write, a write that never arrives, a
// batch that rolls back, writes that land out of order. Redis never shows an uncommitted batch,
// never lists a player twice, and converges to PostgreSQL by itself (the reconcile job).
import test from 'ava';
import type { ExecutionContext } from 'ava';
import fc from 'fast-check';
import supertest from 'supertest';
import { createApp } from '../../src/app.ts';
import { createDeps } from '../../src/deps.ts';
import { lagGraceMs, reconcileDerivedState } from '../../src/derived/reconcile.ts';
import { rebuildDerivedState } from '../../src/derived/rebuild.ts';
import { memberPlatformId } from '../../src/stats/ranking.ts';
import { emptyTotals } from '../../src/stats/totals.ts';
import { beginServerRebuild, decodeTotals, writeServerState } from '../../src/stats/stats.store.ts';
import { serverKeys } from '../../src/store/keys.ts';
import { testEnv } from '../helpers/env.ts';
import type { TestEnv } from '../helpers/env.ts';
import { dataGet, ev, ingest, player, tenant } from '../helpers/seed.ts';
import type { Tenant } from '../helpers/seed.ts';
import { privateRedis } from '../helpers/private-redis.ts';
import type { PrivateRedis } from '../helpers/private-redis.ts';
import { assertError } from '../helpers/data-api.ts';

interface Row {
  platformId: string;
  kills: number;
  deaths: number;
}

/** The full leaderboard as the Data API shows it, and PostgreSQL's ranked players. */
async function leaderboardAndTruth(env: TestEnv, a: Tenant) {
  const res = await dataGet(env, a, `/servers/${a.serverId}/leaderboard?limit=100`);
  const { rows } = await env.deps.db.query<Row>(
    `SELECT platform_id AS "platformId", kills, deaths FROM server_players
     WHERE server_id = $1 AND kills + deaths > 0 ORDER BY kills DESC, deaths, platform_id`,
    [a.serverId],
  );
  return { res, truth: rows };
}

function assertConverged(t: ExecutionContext, res: supertest.Response, truth: Row[]) {
  t.is(res.status, 200, JSON.stringify(res.body));
  const shown = (res.body.players as Row[]).map(({ platformId, kills, deaths }) => ({ platformId, kills, deaths }));
  t.deepEqual(shown, truth, 'the leaderboard equals PostgreSQL');
  t.is(res.body.total, truth.length, 'total = ranked players in PostgreSQL');
  t.is(new Set(shown.map((p) => p.platformId)).size, shown.length, 'nobody listed twice');
}

let redis: PrivateRedis;
let env: TestEnv;
test.before(async () => {
  redis = await privateRedis();
  env = await testEnv({ REDIS_URL: redis.url });
});
test.after.always(async () => {
  await env?.close();
  await redis?.stop();
});

test.serial(
  'a Redis stall mid-batch: the batch is acknowledged once committed, and the late write leaves no trace of a double',
  async (t) => {
    const a = await tenant(env.deps);
    const now = env.clock.now();
    // Every command of the service waits; its 2 s command timeout passes before Redis resumes.
    await redis.admin.call('CLIENT', 'PAUSE', '4500', 'ALL');
    const started = Date.now();
    const first = await ingest(
      env,
      a,
      Array.from({ length: 5 }, (_, i) => ev.kill(now - 10_000 + i, 1, 2)),
    );
    t.true(Date.now() - started >= 2000, 'the write waited for Redis');
    t.is(first.status, 200, JSON.stringify(first.body));
    t.is(first.body.accepted, 5);
    // Redis resumes and runs what it was sent; then another batch of the same killer.
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, 4700 - (Date.now() - started))));
    t.is((await ingest(env, a, [ev.kill(now - 1000, 1, 3)])).status, 200);
    const { res, truth } = await leaderboardAndTruth(env, a);
    assertConverged(t, res, truth);
    t.deepEqual(
      truth.map((r) => [r.kills, r.deaths]),
      [
        [6, 0],
        [0, 1],
        [0, 5],
      ],
    );
  },
);

test.serial('a batch that rolls back in PostgreSQL never reaches Redis', async (t) => {
  const a = await tenant(env.deps);
  const now = env.clock.now();
  t.is((await ingest(env, a, [ev.kill(now - 5000, 1, 2)])).status, 200);
  // A trigger that fails the totals of one player: the whole batch rolls back at its end.
  await env.deps.db.query(`CREATE FUNCTION refuse_player() RETURNS trigger LANGUAGE plpgsql AS
    $$ BEGIN IF NEW.platform_id = '${player(9).platformId}' THEN RAISE EXCEPTION 'refused'; END IF; RETURN NEW; END $$`);
  await env.deps.db.query(
    'CREATE TRIGGER refuse_player BEFORE INSERT OR UPDATE ON server_players FOR EACH ROW EXECUTE FUNCTION refuse_player()',
  );
  t.teardown(() => env.deps.db.query('DROP TRIGGER refuse_player ON server_players; DROP FUNCTION refuse_player()'));
  const failed = await ingest(env, a, [ev.kill(now - 4000, 1, 3), ev.kill(now - 3000, 9, 1)]);
  t.is(failed.status, 500);
  const { res, truth } = await leaderboardAndTruth(env, a);
  assertConverged(t, res, truth);
  t.deepEqual(
    truth.map((r) => [r.platformId, r.kills, r.deaths]),
    [
      [player(1).platformId, 1, 0],
      [player(2).platformId, 0, 1],
    ],
  );
});

test.serial(
  'a write that never arrives: readers see the last good state, and the reconcile job rebuilds after the grace period',
  async (t) => {
    const a = await tenant(env.deps);
    const now = env.clock.now();
    t.is((await ingest(env, a, [ev.kill(now - 5000, 1, 2)])).status, 200);
    // The same service with its Redis unreachable: PostgreSQL commits, the write is lost.
    const cut = createDeps(
      { ...env.deps.config, redisUrl: 'redis://127.0.0.1:1', redisClusterNodes: undefined },
      { clock: env.clock, log: env.deps.log },
    );
    t.teardown(async () => {
      cut.redis.disconnect();
      await cut.db.end();
    });
    const lost = await supertest(createApp(cut).callback())
      .post(`/api/servers/${a.serverId}/events`)
      .set('Authorization', `Bearer ${a.token}`)
      .send({ events: [ev.kill(now - 4000, 3, 1), ev.kill(now - 3000, 3, 2)] });
    t.is(lost.status, 200, 'PostgreSQL has it: acknowledged');

    const stale = await leaderboardAndTruth(env, a);
    t.is(stale.res.body.total, 2, 'Redis still shows the state before the lost write');
    t.deepEqual((await reconcileDerivedState(env.deps)).rebuilt, [], 'within the grace period nothing is rebuilt');
    env.clock.advance(lagGraceMs - 1);
    t.deepEqual((await reconcileDerivedState(env.deps)).rebuilt, [], 'still within it');
    env.clock.advance(1);
    t.deepEqual((await reconcileDerivedState(env.deps)).rebuilt, [a.serverId]);
    const { res, truth } = await leaderboardAndTruth(env, a);
    assertConverged(t, res, truth);
    t.is(truth.length, 3);
    t.deepEqual((await reconcileDerivedState(env.deps)).rebuilt, [], 'converged: nothing more to do');
  },
);

test.serial('Redis restarted empty: 503 REBUILDING until the reconcile job rebuilds, at its first run', async (t) => {
  const a = await tenant(env.deps);
  const now = env.clock.now();
  t.is((await ingest(env, a, [ev.kill(now - 5000, 1, 2), ev.presence('player.connect', now - 1000, 1)])).status, 200);
  const before = await dataGet(env, a, `/servers/${a.serverId}/players`);
  await redis.admin.flushall();
  assertError(t, await dataGet(env, a, `/servers/${a.serverId}/leaderboard`), 503, 'REBUILDING');
  assertError(t, await dataGet(env, a, `/servers/${a.serverId}/players`), 503, 'REBUILDING');
  t.true((await reconcileDerivedState(env.deps)).rebuilt.includes(a.serverId));
  const { res, truth } = await leaderboardAndTruth(env, a);
  assertConverged(t, res, truth);
  t.deepEqual((await dataGet(env, a, `/servers/${a.serverId}/players`)).body, before.body);
  // A server that has never ingested anything is empty, not rebuilding.
  const fresh = await tenant(env.deps);
  t.deepEqual((await dataGet(env, fresh, `/servers/${fresh.serverId}/leaderboard`)).body, { total: 0, sort: 'points', players: [] });
});

test.serial('property: writes applied in any order leave each player at its newest version, in each ranking once', async (t) => {
  const a = await tenant(env.deps);
  await rebuildDerivedState(env.deps);
  const ids = [1, 2, 3].map((n) => player(n).platformId);
  const write = fc.record({ player: fc.integer({ min: 0, max: 2 }), kills: fc.nat(5), deaths: fc.nat(5) });
  await fc.assert(
    fc.asyncProperty(fc.array(write, { minLength: 1, maxLength: 8 }), fc.func(fc.integer()), async (writes, order) => {
      await rebuildDerivedState(env.deps);
      const base = Number((await env.deps.redis.hget(serverKeys(a.serverId).meta, 'w')) ?? 0);
      // Write i carries version base + i + 1; they arrive shuffled.
      const sent = writes.map((w, i) => ({ ...w, version: base + i + 1 }));
      const arrival = [...sent].sort((x, y) => order(x.version) - order(y.version) || x.version - y.version);
      for (const w of arrival) {
        const totals = { ...emptyTotals(), kills: w.kills, deaths: w.deaths };
        await writeServerState(env.deps.redis, a.serverId, w.version, 'batch', new Map([[ids[w.player]!, totals]]), 0);
      }
      const k = serverKeys(a.serverId);
      for (const [index, id] of ids.entries()) {
        const newest = sent.filter((w) => w.player === index).at(-1);
        const value = await env.deps.redis.hget(k.players, id);
        if (!newest) continue;
        const stored = decodeTotals(value!);
        if (stored.kills !== newest.kills || stored.deaths !== newest.deaths) return false;
      }
      const kdOwners = (await env.deps.redis.zrange(k.ranking('kd'), 0, -1)).map(memberPlatformId);
      if (new Set(kdOwners).size !== kdOwners.length) return false;
      return Number(await env.deps.redis.hget(k.meta, 'w')) === base + writes.length;
    }),
    { numRuns: 40 },
  );
  t.pass();
});

test.serial(
  'a rebuild whose state was flushed meanwhile, or that another rebuild took over, writes nothing more and completes nothing',
  async (t) => {
    const a = await tenant(env.deps);
    const k = serverKeys(a.serverId);
    const one = (kills: number) => new Map([[player(1).platformId, { ...emptyTotals(), kills }]]);
    // Flushed mid-rebuild: the next page and the end are refused, the state stays missing.
    const flushed = await beginServerRebuild(env.deps.redis, a.serverId);
    t.true(await writeServerState(env.deps.redis, a.serverId, 3, 'rebuild', one(1), 0, '', flushed));
    await redis.admin.flushall();
    t.false(await writeServerState(env.deps.redis, a.serverId, 3, 'rebuild', one(2), 0, '', flushed));
    t.false(await writeServerState(env.deps.redis, a.serverId, 3, 'rebuilt', new Map(), 0, '', flushed));
    t.is(await env.deps.redis.hget(k.meta, 'w'), null, 'never marked complete');
    // Two rebuilds: the later one completes, a batch follows, a late page of the first is refused.
    const first = await beginServerRebuild(env.deps.redis, a.serverId);
    const second = await beginServerRebuild(env.deps.redis, a.serverId);
    t.true(await writeServerState(env.deps.redis, a.serverId, 5, 'rebuild', one(5), 0, '', second));
    t.true(await writeServerState(env.deps.redis, a.serverId, 5, 'rebuilt', new Map(), 0, '', second));
    t.true(await writeServerState(env.deps.redis, a.serverId, 6, 'batch', one(6), 0));
    t.false(await writeServerState(env.deps.redis, a.serverId, 3, 'rebuild', one(3), 0, '', first));
    t.is(decodeTotals((await env.deps.redis.hget(k.players, player(1).platformId))!).kills, 6);
    t.is(await env.deps.redis.hget(k.meta, 'w'), '6');
  },
);

test.serial('Redis ahead of PostgreSQL (a restored database) is rebuilt, not taken as converged', async (t) => {
  const a = await tenant(env.deps);
  t.is((await ingest(env, a, [ev.kill(env.clock.now() - 5000, 1, 2)])).status, 200);
  await env.deps.db.query('UPDATE servers SET derived_version = 0 WHERE id = $1', [a.serverId]);
  t.true((await reconcileDerivedState(env.deps)).rebuilt.includes(a.serverId));
  t.is(await env.deps.redis.hget(serverKeys(a.serverId).meta, 'w'), '0');
});
