// The ISO texts of query parameters (src/store/iso-time.ts) are Date#toISOString's, whatever the
// order of the times asked for (its cache of the last second must never leak into another).
import test from 'ava';
import fc from 'fast-check';
import { isoOfMicros, isoOfMs } from '../../src/store/iso-time.ts';

const yearZero = Date.parse('0000-01-01T00:00:00.000Z');
const afterYear9999 = Date.UTC(10000, 0, 1);
const near = (base: number) => fc.integer({ min: -5000, max: 5000 }).map((d) => base + d);
// Any time a Date holds (within 8.64e15 ms of 1970), and the edges where the text changes form.
const anyMs = fc.oneof(
  fc.maxSafeInteger().map((n) => n % 8.64e15),
  near(yearZero),
  near(afterYear9999),
  near(0),
  near(Date.parse('2026-11-22T10:00:00.000Z')),
);
// Times close together, as a batch's are: the same second asked for again, its neighbours, then another.
const batchOfMs = fc
  .tuple(anyMs, fc.array(fc.integer({ min: -2500, max: 2500 }), { maxLength: 20 }))
  .map(([base, offsets]) => [base, ...offsets.map((o) => base + o)]);

test('property: isoOfMs is toISOString, for times asked for in any order', (t) => {
  fc.assert(
    fc.property(fc.array(batchOfMs, { maxLength: 4 }), (batches) => {
      for (const ms of batches.flat()) {
        if (Math.abs(ms) > 8.64e15) continue; // no Date
        if (isoOfMs(ms) !== new Date(ms).toISOString()) return false;
      }
      return true;
    }),
    { numRuns: 2000 },
  );
  t.is(isoOfMs(Date.parse('2026-11-22T10:00:00.007Z')), '2026-11-22T10:00:00.007Z');
  t.is(isoOfMs(Date.parse('2026-11-22T10:00:00.070Z')), '2026-11-22T10:00:00.070Z');
  t.is(isoOfMs(-1), '1969-12-31T23:59:59.999Z');
  t.is(isoOfMs(afterYear9999), '+010000-01-01T00:00:00.000Z');
});

test('property: isoOfMicros is toISOString with three more digits', (t) => {
  fc.assert(
    fc.property(fc.array(batchOfMs, { maxLength: 4 }), fc.integer({ min: 0, max: 999 }), (batches, micro) => {
      for (const ms of batches.flat()) {
        if (Math.abs(ms) > 9e12) continue; // beyond, a number of microseconds is not exact
        const iso = new Date(ms).toISOString();
        if (isoOfMicros(ms * 1000 + micro) !== `${iso.slice(0, -1)}${String(micro).padStart(3, '0')}Z`) return false;
      }
      return true;
    }),
    { numRuns: 2000 },
  );
  t.is(isoOfMicros(Date.parse('2026-11-22T10:00:00.123Z') * 1000 + 45), '2026-11-22T10:00:00.123045Z');
});
