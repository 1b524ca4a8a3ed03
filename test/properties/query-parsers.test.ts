import test from 'ava';
import fc from 'fast-check';
import { queryParser } from '../../src/http/schemas.ts';
import { ApiError } from '../../src/http/errors.ts';
import type { SchemaTypes } from '../../src/http/schema-types.ts';
import { anyText, dateTimeText, queryValue } from '../helpers/arbitraries.ts';

const numRuns = 200;

interface Spec {
  schema: Extract<keyof SchemaTypes, `query-${string}`>;
  keys: string[];
  /** Throws when a parsed query is outside the schema's declared ranges. */
  check: (q: Record<string, unknown>) => void;
}

const isInt = (v: unknown, min: number, max: number) => typeof v === 'number' && Number.isInteger(v) && v >= min && v <= max;
const dateTime = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;

const specs: Spec[] = [
  {
    schema: 'query-leaderboard.json',
    keys: ['sort', 'limit', 'offset'],
    check: (q) => {
      if (!['points', 'kd', 'kills'].includes(q.sort as string)) throw new Error(`sort ${String(q.sort)}`);
      if (!isInt(q.limit, 1, 1000)) throw new Error(`limit ${String(q.limit)}`);
      if (!isInt(q.offset, 0, 100_000_000)) throw new Error(`offset ${String(q.offset)}`);
    },
  },
  {
    schema: 'query-kills.json',
    keys: ['before', 'limit'],
    check: (q) => {
      if (q.before !== undefined && !(typeof q.before === 'string' && dateTime.test(q.before)))
        throw new Error(`before ${String(q.before)}`);
      if (!isInt(q.limit, 1, 1000)) throw new Error(`limit ${String(q.limit)}`);
    },
  },
  {
    schema: 'query-bans.json',
    keys: ['active', 'limit', 'offset'],
    check: (q) => {
      if (q.active !== undefined && q.active !== 'true' && q.active !== 'false') throw new Error(`active ${String(q.active)}`);
      if (!isInt(q.limit, 1, 1000)) throw new Error(`limit ${String(q.limit)}`);
      if (!isInt(q.offset, 0, 100_000_000)) throw new Error(`offset ${String(q.offset)}`);
    },
  },
];

for (const spec of specs) {
  const parse: (query: Record<string, unknown>) => Record<string, unknown> = queryParser(spec.schema);
  const key = fc.oneof(fc.constantFrom(...spec.keys), fc.constantFrom(...spec.keys), anyText);

  test(`${spec.schema}: arbitrary values parse into the declared ranges or fail with a 400 ApiError`, (t) => {
    fc.assert(
      fc.property(fc.dictionary(key, queryValue, { maxKeys: 5 }), (query) => {
        const before = JSON.stringify(query);
        let parsed: Record<string, unknown>;
        try {
          parsed = parse(query);
        } catch (err) {
          if (err instanceof ApiError && err.status === 400 && err.code === 'BAD_REQUEST') return;
          throw err;
        }
        spec.check(parsed);
        if (JSON.stringify(query) !== before) throw new Error('the parser changed its input');
      }),
      { numRuns },
    );
    t.pass();
  });

  test(`${spec.schema}: values inside the ranges are read as they are`, (t) => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 1000 }),
        fc.integer({ min: 0, max: 100_000_000 }),
        fc.constantFrom('points', 'kd', 'kills'),
        fc.constantFrom('true', 'false'),
        dateTimeText,
        (limit, offset, sort, active, before) => {
          const query: Record<string, string> = { limit: String(limit) };
          if (spec.keys.includes('offset')) query.offset = String(offset);
          if (spec.keys.includes('sort')) query.sort = sort;
          if (spec.keys.includes('active')) query.active = active;
          if (spec.keys.includes('before')) query.before = before;
          let parsed: Record<string, unknown>;
          try {
            parsed = parse(query);
          } catch (err) {
            // Only a date-time that is not one (month 13, second 61, ...) may be refused.
            if (err instanceof ApiError && err.status === 400 && spec.keys.includes('before') && /before/.test(err.message)) return;
            throw err;
          }
          spec.check(parsed);
          if (parsed.limit !== limit) throw new Error('limit changed');
          if (spec.keys.includes('offset') && parsed.offset !== offset) throw new Error('offset changed');
        },
      ),
      { numRuns },
    );
    t.pass();
  });
}
