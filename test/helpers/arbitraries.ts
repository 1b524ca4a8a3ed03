// fast-check generators shared by the property tests: game-server events (valid, broken and
// arbitrary), date-time texts, query values and URL pieces.
import fc from 'fast-check';
import { deathCauses, earliestEventMs } from '../../src/ingest/events.ts';

/** Coordinates every generated event may carry: values no other field ever takes. */
export const coords = { x: 48213.0625, y: 271.8125, z: 90417.4375 };

/** The fields a normalised event of each type may carry, besides index, id, tsMs and type. */
export const normalisedFields: Record<string, string[]> = {
  'server.status': ['online', 'map', 'gameVersion', 'players', 'fps', 'uptimeSeconds'],
  'server.started': [],
  'player.connect': ['player'],
  'player.disconnect': ['player'],
  'player.heartbeat': ['player'],
  kill: ['killer', 'victim', 'weapon', 'distance', 'isHeadshot', 'hitZone'],
  shots: ['platformId', 'fired', 'hits'],
  death: ['player', 'cause'],
};

/** Any string: unicode text, ASCII noise, or something that looks like a number or a date. */
export const anyText = fc.oneof(
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.string({ unit: 'binary-ascii', maxLength: 40 }),
  fc.integer({ min: -2_000_000_000, max: 2_000_000_000 }).map(String),
  fc.double().map(String),
  fc.constantFrom(
    '',
    ' ',
    '0',
    '-0',
    '1e3',
    '0x10',
    'NaN',
    'Infinity',
    '-Infinity',
    '1e400',
    '-1e400',
    '1.5',
    'true',
    'false',
    'null',
    '[]',
    '{}',
    '%',
    '%00',
    '\u0000',
    '١٢',
  ),
);

const pad = (n: number, width: number) => String(n).padStart(width, '0');

/** Date-time-shaped text: every year from 0000, seconds up to 60, long fractions, offsets up to ±23:59. */
export const dateTimeText = fc
  .record({
    year: fc.oneof(fc.integer({ min: 0, max: 9999 }), fc.integer({ min: 1995, max: 2030 })),
    month: fc.integer({ min: 0, max: 13 }),
    day: fc.integer({ min: 0, max: 32 }),
    hour: fc.integer({ min: 0, max: 24 }),
    minute: fc.integer({ min: 0, max: 60 }),
    second: fc.integer({ min: 0, max: 61 }),
    fraction: fc.option(fc.stringMatching(/^[0-9]{1,12}$/), { nil: undefined }),
    zone: fc.oneof(
      fc.constantFrom('Z', 'z', '+00:00', '-00:00', ''),
      fc
        .tuple(fc.constantFrom('+', '-'), fc.integer({ min: 0, max: 23 }), fc.integer({ min: 0, max: 59 }))
        .map(([s, h, m]) => `${s}${pad(h, 2)}:${pad(m, 2)}`),
    ),
    separator: fc.constantFrom('T', 't', ' '),
  })
  .map(
    (d) =>
      `${pad(d.year, 4)}-${pad(d.month, 2)}-${pad(d.day, 2)}${d.separator}${pad(d.hour, 2)}:${pad(d.minute, 2)}:${pad(d.second, 2)}${d.fraction === undefined ? '' : `.${d.fraction}`}${d.zone}`,
  );

/** The three stored forms (schemas/platform-id.json): Steam64, DayZ ID, console id. */
const platformId = fc.oneof(
  fc.bigInt({ min: 76561197960265728n, max: 76561202255233023n }).map(String),
  fc.stringMatching(/^[A-Za-z0-9_-]{43}=$/),
  fc.stringMatching(/^[0-9A-F]{40}$/),
);
// Unicode graphemes may take several code points each (the schemas count code points): a few of
// them, or ASCII up to the full length.
const shortText = (maxLength: number, minLength = 0) =>
  fc.oneof(fc.string({ unit: 'grapheme', minLength, maxLength: 6 }), fc.string({ minLength, maxLength }));
const name = shortText(128, 1);

/** Extra fields an agent might send: ignored by the service. Never named like a real field. */
const extras = fc.dictionary(
  fc.string({ maxLength: 10 }).map((k) => `extra_${k}`),
  fc.jsonValue({ maxDepth: 2 }),
  { maxKeys: 3 },
);

/** A valid ts for an arrival time: epoch ms or ISO text, from 2000 up to an hour ahead. */
export const validTs = (arrivalMs: number) =>
  fc.oneof(
    fc.integer({ min: earliestEventMs, max: arrivalMs + 3600_000 }),
    fc.integer({ min: earliestEventMs, max: arrivalMs + 3600_000 }).map((ms) => new Date(ms).toISOString()),
  );

const person = fc.record({ platformId, name }).map((p) => ({ ...p, ...coords }));

/** A valid raw event of any type, carrying coordinates and extra fields the service must drop. */
export const validEvent = (arrivalMs: number) => {
  const base = fc.record({
    id: fc.oneof(
      fc.mixedCase(fc.uuid()),
      fc.uuid().map((u) => `urn:uuid:${u}`),
    ),
    ts: validTs(arrivalMs),
    extra: extras,
  });
  const typed = fc.oneof(
    fc.record(
      {
        type: fc.constant('server.status'),
        online: fc.boolean(),
        map: shortText(128),
        gameVersion: shortText(64),
        players: fc.integer({ min: 0, max: 100_000 }),
        fps: fc.double({ min: 0, max: 100_000, noNaN: true }),
        uptimeSeconds: fc.integer({ min: 0, max: 3_153_600_000 }),
      },
      { requiredKeys: ['type', 'online'] },
    ),
    fc.record({ type: fc.constant('server.started') }),
    fc.record({ type: fc.constantFrom('player.connect', 'player.disconnect', 'player.heartbeat'), platformId, name }),
    fc.record(
      {
        type: fc.constant('kill'),
        killer: person,
        victim: person,
        weapon: shortText(128, 1),
        distance: fc.double({ min: 0, max: 100_000, noNaN: true }),
        isHeadshot: fc.boolean(),
        hitZone: shortText(64),
      },
      { requiredKeys: ['type', 'killer', 'victim', 'weapon', 'distance', 'isHeadshot'] },
    ),
    fc
      .integer({ min: 0, max: 1_000_000 })
      .chain((fired) =>
        fc.record({ type: fc.constant('shots'), platformId, fired: fc.constant(fired), hits: fc.integer({ min: 0, max: fired }) }),
      ),
    fc.record({ type: fc.constant('death'), platformId, name, cause: fc.constantFrom(...deathCauses) }),
  );
  return fc.tuple(base, typed).map(([b, t]) => ({ ...b.extra, ...coords, ...t, id: b.id, ts: b.ts }) as Record<string, unknown>);
};

/** A valid event with one field broken, dropped or replaced by an arbitrary value. */
export const brokenEvent = (arrivalMs: number) =>
  fc
    .tuple(
      validEvent(arrivalMs),
      fc.constantFrom(
        'id',
        'ts',
        'type',
        'online',
        'platformId',
        'name',
        'killer',
        'victim',
        'weapon',
        'distance',
        'fired',
        'hits',
        'players',
        'cause',
      ),
      fc.option(fc.oneof(fc.jsonValue({ maxDepth: 2 }), anyText, dateTimeText)),
    )
    .map(([event, field, value]) => {
      const copy: Record<string, unknown> = { ...event };
      if (value === null) delete copy[field];
      else copy[field] = value;
      return copy;
    });

/** Any item an events array might hold: valid, broken or arbitrary objects. */
export const eventLike = (arrivalMs: number) => fc.oneof(validEvent(arrivalMs), brokenEvent(arrivalMs), fc.object({ maxDepth: 2 }));

/** A query-string value as Koa hands it over: text, or an array when the key repeats. */
export const queryValue = fc.oneof(
  anyText,
  dateTimeText,
  fc.integer({ min: -5, max: 1_000_000_000 }).map(String),
  fc.array(anyText, { minLength: 2, maxLength: 3 }),
);

/** Characters a raw (unencoded) URL may carry as they are, with % for broken escapes. */
const rawUrlChar = fc.constantFrom(
  ..."abcXYZ019-._~!$&'()*+,;=:@%".split(''),
  '%2e',
  '%2E%2e',
  '%zz',
  '%E0%A4%A',
  '%c0%ae',
  '%ff',
  '%00',
  '%2F',
  '%5C',
  '%25',
);
export const rawUrlText = fc.array(rawUrlChar, { minLength: 1, maxLength: 20 }).map((parts) => parts.join(''));
