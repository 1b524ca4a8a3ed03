// The array literals ingestion sends (src/store/pg-array.ts) read back in PostgreSQL as the arrays
// they were made of: any text (quotes, backslashes, braces, commas, spaces, "NULL", empty), numbers,
// booleans and nulls.
import test from 'ava';
import fc from 'fast-check';
import { pgArray } from '../../src/store/pg-array.ts';
import { testEnv } from '../helpers/env.ts';
import type { TestEnv } from '../helpers/env.ts';

let env: TestEnv;
test.before(async () => {
  env = await testEnv();
});
test.after.always(async () => {
  await env?.close();
});

// PostgreSQL's text holds no NUL; everything else may come in a player's name.
const text = fc
  .oneof(
    fc.string({ unit: 'grapheme', maxLength: 12 }),
    fc.string({ unit: 'binary-ascii', maxLength: 12 }),
    fc.constantFrom('NULL', 'null', '', ' ', '"', '\\', '{}', 'a,b', '\\"', '"\\'),
  )
  .map((s) => s.replaceAll('\u0000', ''));
const backAs = async (literal: string, type: string) =>
  (await env.deps.db.query<{ a: unknown[] }>(`SELECT $1::${type}[] AS a`, [literal])).rows[0]!.a;

test('property: texts and nulls read back as sent', async (t) => {
  await fc.assert(
    fc.asyncProperty(fc.array(fc.option(text, { nil: null }), { maxLength: 8 }), async (values) => {
      t.deepEqual(await backAs(pgArray(values), 'text'), values);
    }),
    { numRuns: 300 },
  );
  t.deepEqual(await backAs(pgArray([]), 'text'), []);
});

test('property: numbers and booleans read back as sent', async (t) => {
  await fc.assert(
    fc.asyncProperty(
      fc.array(fc.option(fc.double({ noNaN: true, noDefaultInfinity: true }), { nil: null }), { maxLength: 8 }),
      fc.array(fc.option(fc.integer(), { nil: null }), { maxLength: 8 }),
      fc.array(fc.option(fc.boolean(), { nil: null }), { maxLength: 8 }),
      async (doubles, ints, bools) => {
        // -0 reads back as 0 in PostgreSQL (as it does through node-pg's serialisation).
        t.deepEqual(
          await backAs(pgArray(doubles), 'float8'),
          doubles.map((d) => (d === null ? null : d + 0)),
        );
        t.deepEqual(await backAs(pgArray(ints), 'int4'), ints);
        t.deepEqual(await backAs(pgArray(bools), 'bool'), bools);
      },
    ),
    { numRuns: 200 },
  );
});
