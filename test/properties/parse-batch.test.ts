import test from 'ava';
import fc from 'fast-check';
import { earliestEventMs, latestSentMs, maxFutureSkewMs, parseBatch } from '../../src/ingest/events.ts';
import type { IngestEvent } from '../../src/ingest/events.ts';
import { ApiError } from '../../src/http/errors.ts';
import { isUuid } from '../../src/http/uuid.ts';
import { coords, eventLike, normalisedFields, validEvent } from '../helpers/arbitraries.ts';

const numRuns = 200;
const arrivalMs = Date.parse('2026-11-22T12:00:00.000Z');

/** parseBatch either answers or throws a 400 ApiError; anything else is a bug. */
function parseOr400(body: unknown): ReturnType<typeof parseBatch> | ApiError {
  try {
    return parseBatch(body, arrivalMs);
  } catch (err) {
    if (err instanceof ApiError && err.status === 400 && err.code === 'BAD_REQUEST') return err;
    throw err;
  }
}

test('for any JSON or JS value, parseBatch answers or throws a 400 ApiError, nothing else', (t) => {
  fc.assert(
    fc.property(
      fc.oneof(
        fc.anything(),
        fc.jsonValue(),
        fc.json().map((text) => JSON.parse(text) as unknown),
        fc.record({ events: fc.anything() }),
        fc.record({ events: fc.array(fc.anything(), { maxLength: 20 }) }),
      ),
      (body) => {
        parseOr400(body);
      },
    ),
    { numRuns },
  );
  t.pass();
});

test('every event of an array of objects is either accepted or rejected, once, by its index', (t) => {
  fc.assert(
    fc.property(fc.array(eventLike(arrivalMs), { minLength: 1, maxLength: 40 }), (items) => {
      const parsed = parseOr400({ events: items });
      if (parsed instanceof ApiError) throw new Error(`a batch of objects was refused: ${parsed.message}`);
      const { events, rejected } = parsed;
      if (events.length + rejected.length !== items.length) throw new Error('accepted + rejected != input length');
      const indexes = [...events.map((e) => e.index), ...rejected.map((r) => r.index)].sort((a, b) => a - b);
      if (indexes.some((index, i) => index !== i)) throw new Error(`indexes ${JSON.stringify(indexes)}`);
      for (const r of rejected) if (typeof r.error !== 'string' || r.error.length === 0) throw new Error('a rejection without a message');
      if (rejected.some((r, i) => i > 0 && r.index <= rejected[i - 1]!.index)) throw new Error('rejections not in index order');
    }),
    { numRuns },
  );
  t.pass();
});

function checkNormalised(event: IngestEvent): void {
  const allowed = new Set(['index', 'id', 'tsMs', 'sentMs', 'type', ...(normalisedFields[event.type] ?? [])]);
  const extra = Object.keys(event).filter((k) => !allowed.has(k));
  if (!(event.type in normalisedFields)) throw new Error(`unknown type ${event.type}`);
  if (extra.length > 0) throw new Error(`${event.type} carries ${extra.join(', ')}`);
  for (const key of ['player', 'killer', 'victim'] as const) {
    if (!(key in event)) continue;
    const p = (event as unknown as Record<string, Record<string, unknown>>)[key]!;
    const keys = Object.keys(p).sort().join(',');
    if (keys !== 'name,platformId') throw new Error(`${key} carries ${keys}`);
    if (typeof p.platformId !== 'string' || typeof p.name !== 'string') throw new Error(`${key} is not a player`);
  }
  const text = JSON.stringify(event);
  for (const value of Object.values(coords)) if (text.includes(String(value))) throw new Error(`coordinate ${value} survived`);
  if (!isUuid(event.id) || event.id !== event.id.toLowerCase()) throw new Error(`id ${event.id}`);
  if (!Number.isFinite(event.tsMs) || event.tsMs < earliestEventMs || event.tsMs > arrivalMs + maxFutureSkewMs)
    throw new Error(`tsMs ${event.tsMs}`);
  // PostgreSQL reads the claim's time as ISO text, which it takes up to the year 9999.
  if (!Number.isFinite(event.sentMs) || event.sentMs < event.tsMs || event.sentMs > latestSentMs) throw new Error(`sentMs ${event.sentMs}`);
  if (event.type === 'shots' && event.hits > event.fired) throw new Error('hits > fired');
}

test('normalised events carry only the fields of their schema: never x, y, z or extras', (t) => {
  fc.assert(
    fc.property(fc.array(eventLike(arrivalMs), { minLength: 1, maxLength: 40 }), (items) => {
      const parsed = parseOr400({ events: items });
      if (parsed instanceof ApiError) throw parsed;
      parsed.events.forEach(checkNormalised);
    }),
    { numRuns },
  );
  t.pass();
});

test('valid events are all accepted, with the ts they carry or the arrival time when too far ahead', (t) => {
  fc.assert(
    fc.property(fc.array(validEvent(arrivalMs), { minLength: 1, maxLength: 40 }), (items) => {
      const parsed = parseOr400({ events: items });
      if (parsed instanceof ApiError) throw parsed;
      if (parsed.rejected.length > 0) throw new Error(`rejected valid events: ${JSON.stringify(parsed.rejected)}`);
      for (const event of parsed.events) {
        checkNormalised(event);
        const raw = items[event.index]!;
        const sent = typeof raw.ts === 'number' ? raw.ts : Date.parse(raw.ts as string);
        const expected = sent > arrivalMs + maxFutureSkewMs ? arrivalMs : sent;
        if (event.tsMs !== expected) throw new Error(`tsMs ${event.tsMs}, expected ${expected}`);
        if (event.sentMs !== Math.min(sent, latestSentMs)) throw new Error(`sentMs ${event.sentMs}, sent ${sent}`);
        if (event.type !== raw.type) throw new Error('type changed');
      }
    }),
    { numRuns },
  );
  t.pass();
});

test('a batch that is not { events: [1..1000 objects] } is a 400, whatever else it holds', (t) => {
  fc.assert(
    fc.property(
      fc.oneof(
        fc.jsonValue().filter((v) => typeof v !== 'object' || v === null || Array.isArray(v)),
        fc.record({ events: fc.oneof(fc.string(), fc.integer(), fc.boolean(), fc.constant(null), fc.object(), fc.constant([])) }),
        fc
          .array(fc.oneof(fc.string(), fc.integer(), fc.constant(null), fc.array(fc.object())), { minLength: 1, maxLength: 5 })
          .map((bad) => ({ events: [{ type: 'server.started' }, ...bad] })),
      ),
      (body) => {
        if (!(parseOr400(body) instanceof ApiError)) throw new Error('accepted');
      },
    ),
    { numRuns },
  );
  t.pass();
});
