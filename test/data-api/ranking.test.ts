// The rankings' scores and members order players exactly as the rule says, for any counts: the
// kills ranking by kills desc, then deaths asc (past its bound, ranked as the bound); the kd ranking
// by kd desc, kills desc, deaths asc, then platform id, in Redis itself (equal scores by member bytes).
import test from 'ava';
import fc from 'fast-check';
import { kdOf, memberPlatformId, rankingMemberOf, rankingScores } from '../../src/stats/ranking.ts';
import { testEnv } from '../helpers/env.ts';
import type { TestEnv } from '../helpers/env.ts';

let env: TestEnv;
test.before(async () => {
  env = await testEnv();
});
test.after.always(async () => {
  await env?.close();
});

const bound = 2 ** 26 - 1;
const count = fc.oneof(
  fc.integer({ min: 0, max: 1000 }),
  fc.integer({ min: 0, max: 2 ** 31 }),
  fc.constantFrom(bound - 1, bound, bound + 1),
);
const clamp = (n: number) => Math.min(n, bound);

test('property: the kills score is exact and orders by kills desc, then deaths asc', (t) => {
  fc.assert(
    fc.property(count, count, count, count, (k1, d1, k2, d2) => {
      const [s1, s2] = [rankingScores({ kills: k1, deaths: d1 }).kills, rankingScores({ kills: k2, deaths: d2 }).kills].map(Number) as [
        number,
        number,
      ];
      t.true(Number.isSafeInteger(s1) && String(s1) === rankingScores({ kills: k1, deaths: d1 }).kills);
      const expected = clamp(k2) - clamp(k1) || clamp(d1) - clamp(d2);
      return Math.sign(s1 - s2) === Math.sign(expected);
    }),
  );
  t.pass();
});

// Counts around every bound of the kd score (32,767 kills or deaths, kd x 100 of 2^22 - 1), small
// ones that tie often, and any a PostgreSQL int holds.
const kdCount = fc.oneof(
  fc.integer({ min: 0, max: 6 }),
  fc.constantFrom(32_765, 32_766, 32_767, 32_768, 41_942, 41_943, 41_944, 65_534, 9_999_999_999),
  fc.integer({ min: 0, max: 2 ** 31 - 1 }),
);
// Any two counts, or multiples of one kd (3:1 at 30,000 and at 60,000 kills): equal kds on both
// sides of a bound, decided by kills, then deaths.
const killsAndDeaths = fc.oneof(
  fc.tuple(kdCount, kdCount),
  fc
    .tuple(
      fc.integer({ min: 1, max: 4 }),
      fc.integer({ min: 1, max: 4 }),
      fc.constantFrom(1, 8_191, 16_383, 16_384, 20_000, 40_000, 1_000_000),
    )
    .map(([k, d, times]): [number, number] => [k * times, d * times]),
);
const maxCount = 10 ** 10 - 1;
const kd100 = (k: number, d: number) => Math.round(kdOf(k, d) * 100);
/** The rule, as written: kd desc, kills desc, deaths asc (past 10^10 - 1, ranked as it), platform id asc. */
const byRule = (a: Ranked, b: Ranked) =>
  kd100(b.kills, b.deaths) - kd100(a.kills, a.deaths) ||
  Math.min(b.kills, maxCount) - Math.min(a.kills, maxCount) ||
  Math.min(a.deaths, maxCount) - Math.min(b.deaths, maxCount) ||
  (a.platformId < b.platformId ? -1 : 1);
interface Ranked {
  platformId: string;
  kills: number;
  deaths: number;
}

test('property: Redis orders the kd ranking as the rule, whichever kind of member each player holds', async (t) => {
  let run = 0;
  await fc.assert(
    fc.asyncProperty(fc.array(killsAndDeaths, { minLength: 1, maxLength: 12 }), async (counts) => {
      const key = `kd-order:${run++}`;
      // Platform ids in an order of their own, so a tie broken by the id is told apart from one kept in insertion order.
      const players: Ranked[] = counts
        .map(([kills, deaths], i) => ({ platformId: `76561198${String((i * 7919) % 1000).padStart(9, '0')}`, kills, deaths }))
        .filter((p) => p.kills + p.deaths > 0);
      if (players.length === 0) return true;
      const args = players.flatMap((p) => [rankingScores(p).kd, rankingMemberOf(p.platformId, p)!]);
      for (const score of args.filter((_, i) => i % 2 === 0)) t.true(Number.isSafeInteger(Number(score)), `score ${score} is exact`);
      await env.deps.redis.zadd(key, ...args);
      const order = (await env.deps.redis.zrange(key, 0, -1)).map(memberPlatformId);
      await env.deps.redis.del(key);
      return JSON.stringify(order) === JSON.stringify([...players].sort(byRule).map((p) => p.platformId));
    }),
    { numRuns: 300 },
  );
});

test('a player of a real server holds the kd ranking by its platform id; past 32,766 kills or deaths, by "#" and its tie-breakers', (t) => {
  const id = '76561198000000001';
  t.is(rankingMemberOf(id, { kills: 32_766, deaths: 32_766 }), id);
  t.is(rankingMemberOf(id, { kills: 0, deaths: 0 }), null, 'unranked');
  const past = rankingMemberOf(id, { kills: 32_767, deaths: 3 })!;
  t.regex(past, /^#[0-9]{33}:76561198000000001$/);
  t.is(memberPlatformId(past), id);
  t.is(memberPlatformId(id), id);
});
