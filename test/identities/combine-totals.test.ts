import test from 'ava';
import fc from 'fast-check';
import { combineTotals } from '../../src/identities/combine-totals.ts';
import type { PlayerTotals } from '../../src/stats/totals.ts';

const count = fc.integer({ min: 0, max: 1_000_000 });
const ms = fc.option(fc.integer({ min: 1_700_000_000_000, max: 1_800_000_000_000 }), { nil: null });
const totals: fc.Arbitrary<PlayerTotals> = fc.record({
  name: fc.option(fc.string({ minLength: 1, maxLength: 8 }), { nil: null }),
  kills: count,
  deaths: count,
  headshots: count,
  killDistanceSum: fc.double({ min: 0, max: 1e9, noNaN: true }),
  playSeconds: fc.double({ min: 0, max: 1e9, noNaN: true }),
  shotsFired: count,
  shotsHit: count,
  onlineAtMs: ms,
  presenceAtMs: ms,
  nameAtMs: ms,
});

test('combined totals: counts summed, the name set last, the online window of the newest presence; order does not matter for counts', (t) => {
  fc.assert(
    fc.property(totals, totals, (a, b) => {
      const c = combineTotals(a, b);
      for (const k of ['kills', 'deaths', 'headshots', 'killDistanceSum', 'playSeconds', 'shotsFired', 'shotsHit'] as const) {
        if (c[k] !== a[k] + b[k]) throw new Error(`${k}: ${c[k]} != ${a[k]} + ${b[k]}`);
      }
      const d = combineTotals(b, a);
      if (d.kills !== c.kills || d.playSeconds !== c.playSeconds) throw new Error('counts depend on the order');
      if (a.name !== null && b.name === null && c.name !== a.name) throw new Error('a name is lost');
      if (a.nameAtMs !== null && b.nameAtMs !== null && a.nameAtMs !== b.nameAtMs && b.name !== null && a.name !== null) {
        if (c.name !== (b.nameAtMs > a.nameAtMs ? b.name : a.name)) throw new Error('not the name set last');
      }
      if (a.presenceAtMs !== null && b.presenceAtMs !== null && a.presenceAtMs !== b.presenceAtMs) {
        if (c.onlineAtMs !== (b.presenceAtMs > a.presenceAtMs ? b.onlineAtMs : a.onlineAtMs)) throw new Error('not the newest presence');
      }
      if (
        c.presenceAtMs !==
        (a.presenceAtMs === null ? b.presenceAtMs : b.presenceAtMs === null ? a.presenceAtMs : Math.max(a.presenceAtMs, b.presenceAtMs))
      )
        throw new Error('presenceAt');
    }),
    { numRuns: 500 },
  );
  t.pass();
});
