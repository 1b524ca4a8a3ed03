// Rows held in place: what is written comes back, a row that goes (deleted, evicted, expired)
// gives its slot back empty, and the slab grows past its first size without losing a row.
import test from 'ava';
import fc from 'fast-check';
import { LruSlab } from '../../src/store/lru-slab.ts';

const number = fc.option(fc.double({ noNaN: true }), { nil: null });
const text = fc.option(fc.string(), { nil: null });
const key = fc.string({ maxLength: 6 });

type Row = { numbers: (number | null)[]; texts: (string | null)[] };

function write(slab: LruSlab, slot: number, row: Row): void {
  row.numbers.forEach((n, i) => slab.setNumber(slot, i, n));
  row.texts.forEach((s, i) => slab.setText(slot, i, s));
}

function read(slab: LruSlab, slot: number): Row {
  return { numbers: [0, 1, 2].map((i) => slab.number(slot, i)), texts: [0, 1].map((i) => slab.text(slot, i)) };
}

test('property: rows written, rewritten and deleted read back as a map of them would', (t) => {
  const row = fc.record({ numbers: fc.array(number, { minLength: 3, maxLength: 3 }), texts: fc.array(text, { minLength: 2, maxLength: 2 }) });
  const op = fc.oneof(fc.tuple(fc.constant('write' as const), key, row), fc.tuple(fc.constant('delete' as const), key, fc.constant(undefined)));
  fc.assert(fc.property(fc.array(op, { maxLength: 200 }), (ops) => {
    const slab = new LruSlab({ numbers: 3, texts: 2, max: 1000, ttlMs: 60_000 });
    const model = new Map<string, Row>();
    for (const [kind, k, r] of ops) {
      if (kind === 'write') {
        write(slab, slab.hold(k), r!);
        model.set(k, r!);
      } else {
        slab.delete(k);
        model.delete(k);
      }
    }
    for (const [k, r] of model) t.deepEqual(read(slab, slab.find(k)!), r);
    for (const [kind, k] of ops) if (kind === 'delete' && !model.has(k)) t.false(slab.has(k));
  }));
});

test('a new row reads empty, even in the slot a deleted or evicted row left', (t) => {
  const slab = new LruSlab({ numbers: 3, texts: 2, max: 2, ttlMs: 60_000 });
  const full: Row = { numbers: [1, 2, 3], texts: ['a', 'b'] };
  const empty: Row = { numbers: [null, null, null], texts: [null, null] };
  write(slab, slab.hold('a'), full);
  write(slab, slab.hold('b'), full);
  slab.delete('a');
  t.deepEqual(read(slab, slab.hold('c')), empty, 'in the slot of a deleted row');
  write(slab, slab.hold('c'), full);
  t.deepEqual(read(slab, slab.hold('d')), empty, 'in the slot of the row evicted for it (b, the least recently used)');
  t.false(slab.has('b'));
  t.deepEqual(read(slab, slab.find('c')!), full);
});

test('a row not written for the time to live is gone; writing it again starts its time again', (t) => {
  let now = 1_000_000;
  const slab = new LruSlab({ numbers: 1, texts: 0, max: 10, ttlMs: 60_000, clock: { now: () => now } });
  slab.setNumber(slab.hold('a'), 0, 7);
  slab.setNumber(slab.hold('b'), 0, 8);
  now += 59_000;
  slab.hold('a');
  now += 1_001;
  t.is(slab.find('b'), undefined, 'b was written 60.001 s ago');
  t.is(slab.number(slab.find('a')!, 0), 7, 'a was written again 1.001 s ago');
  t.is(slab.number(slab.hold('b'), 0), null, 'b written again is a new row');
});

test('the slab grows past its first 1,024 rows and keeps every row', (t) => {
  const slab = new LruSlab({ numbers: 2, texts: 1, max: 10_000, ttlMs: 60_000 });
  for (let i = 0; i < 5000; i++) {
    const slot = slab.hold(`p${i}`);
    slab.setNumber(slot, 0, i);
    slab.setNumber(slot, 1, -i);
    slab.setText(slot, 0, `name ${i}`);
  }
  for (let i = 0; i < 5000; i++) {
    const slot = slab.find(`p${i}`)!;
    t.deepEqual([slab.number(slot, 0), slab.number(slot, 1), slab.text(slot, 0)], [i, -i, `name ${i}`]);
  }
});
