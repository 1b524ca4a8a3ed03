import test from 'ava';
import fc from 'fast-check';
import { randomUUID } from 'node:crypto';
import { decodeTotals, writeServerState } from '../../src/stats/stats.store.ts';
import { serverKeys } from '../../src/store/keys.ts';
import { emptyTotals } from '../../src/stats/totals.ts';
import { testEnv } from '../helpers/env.ts';
import type { TestEnv } from '../helpers/env.ts';
import { player } from '../helpers/seed.ts';

let env: TestEnv;
test.before(async () => {
  env = await testEnv();
});
test.after.always(async () => {
  await env?.close();
});

const counted = fc.record({
  name: fc.option(fc.string({ maxLength: 40 }), { nil: null }),
  kills: fc.nat(1_000_000),
  deaths: fc.nat(1_000_000),
  headshots: fc.nat(1_000_000),
  killDistanceSum: fc.double({ min: 0, max: 1e9, noNaN: true }),
  playSeconds: fc.double({ min: 0, max: 1e9, noNaN: true }),
  shotsFired: fc.nat(),
  shotsHit: fc.nat(),
});

test("a player's totals read back from Redis are the totals written, names of any text included", async (t) => {
  const serverId = randomUUID();
  let version = 0;
  await fc.assert(
    fc.asyncProperty(counted, async (c) => {
      const written = { ...emptyTotals(), ...c };
      t.true(await writeServerState(env.deps.redis, serverId, ++version, 'batch', new Map([[player(1).platformId, written]]), 0));
      const stored = decodeTotals((await env.deps.redis.hget(serverKeys(serverId).players, player(1).platformId))!);
      t.deepEqual(stored, { ...written, onlineAtMs: null, presenceAtMs: null, nameAtMs: null });
    }),
    { numRuns: 100 },
  );
});

test('a value stored in the earlier object form reads as the same totals', (t) => {
  const earlier = '7|00000000090000000001:76561198000000001|{"n":"Anna","k":9,"d":1,"h":2,"ds":120.5,"ps":60,"sf":30,"sh":12}';
  const now = '8|00000000090000000001:76561198000000001|["Anna",9,1,2,120.5,60,30,12]';
  t.deepEqual(decodeTotals(earlier), decodeTotals(now));
  t.like(decodeTotals(now), {
    name: 'Anna',
    kills: 9,
    deaths: 1,
    headshots: 2,
    killDistanceSum: 120.5,
    playSeconds: 60,
    shotsFired: 30,
    shotsHit: 12,
  });
});
