// The kills ranking's score orders players exactly as the rule says (kills desc, then deaths asc),
// for any counts, including past the bound where they are ranked as the bound.
import test from 'ava';
import fc from 'fast-check';
import { rankingScores } from '../../src/stats/ranking.ts';

const bound = 2 ** 26 - 1;
const count = fc.oneof(fc.integer({ min: 0, max: 1000 }), fc.integer({ min: 0, max: 2 ** 31 }), fc.constantFrom(bound - 1, bound, bound + 1));
const clamp = (n: number) => Math.min(n, bound);

test('property: the kills score is exact and orders by kills desc, then deaths asc', (t) => {
  fc.assert(fc.property(count, count, count, count, (k1, d1, k2, d2) => {
    const [s1, s2] = [rankingScores({ kills: k1, deaths: d1 }).kills, rankingScores({ kills: k2, deaths: d2 }).kills].map(Number) as [number, number];
    t.true(Number.isSafeInteger(s1) && String(s1) === rankingScores({ kills: k1, deaths: d1 }).kills);
    const expected = clamp(k2) - clamp(k1) || clamp(d1) - clamp(d2);
    return Math.sign(s1 - s2) === Math.sign(expected);
  }));
  t.pass();
});
