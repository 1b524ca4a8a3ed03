// How the dashboard writes times (web/src/format.ts): in the community's zone, not the machine's,
// the zone named, on a 24-hour or 12-hour clock; a chart's ticks fall on the zone's whole hours.
import test from 'ava';
import fc from 'fast-check';
import { formatDateTime, formatTime, zoneName, zoneOffsetMs, zoneTicks } from '../../web/src/format.ts';

const at = '2026-11-27T14:05:00.000Z';

test('a date and time in the zone chosen, with the zone named; UTC and 24 hours unless told', (t) => {
  t.is(formatDateTime(at, undefined, 'en-US'), 'Nov 27, 2026, 14:05 UTC');
  t.is(formatDateTime(at, { timeZone: 'Asia/Kolkata', clock: '24h' }, 'en-US'), 'Nov 27, 2026, 19:35 GMT+5:30');
  t.is(formatDateTime(at, { timeZone: 'America/New_York', clock: '24h' }, 'en-US'), 'Nov 27, 2026, 09:05 EST');
  t.is(formatDateTime('2026-07-01T14:05:00.000Z', { timeZone: 'America/New_York', clock: '24h' }, 'en-US'), 'Jul 1, 2026, 10:05 EDT');
  t.is(formatDateTime(at, { timeZone: 'Europe/Berlin', clock: '24h' }, 'en-GB'), '27 Nov 2026, 15:05 CET');
});

test('a 12-hour clock says AM and PM; a 24-hour clock never does, and midnight is 00', (t) => {
  const twelve = { timeZone: 'UTC', clock: '12h' } as const;
  t.regex(formatDateTime(at, twelve, 'en-US'), /^Nov 27, 2026, 2:05\sPM UTC$/);
  t.regex(formatDateTime('2026-11-27T00:30:00.000Z', twelve, 'en-US'), /12:30\sAM UTC$/);
  t.is(formatDateTime('2026-11-27T00:30:00.000Z', undefined, 'en-US'), 'Nov 27, 2026, 00:30 UTC');
  t.regex(formatTime(Date.parse(at), twelve, 'en-US'), /^2:05\sPM$/);
  t.is(formatTime(Date.parse(at), { timeZone: 'Asia/Tokyo', clock: '24h' }, 'en-US'), '23:05');
});

test("the zone's short name and offset at an instant follow its daylight saving", (t) => {
  const berlin = { timeZone: 'Europe/Berlin', clock: '24h' } as const;
  t.is(zoneName(Date.parse(at), berlin, 'en-US'), 'GMT+1');
  t.is(zoneName(Date.parse('2026-07-01T00:00:00Z'), berlin, 'en-US'), 'GMT+2');
  t.is(zoneOffsetMs(Date.parse(at), 'Europe/Berlin'), 3600_000);
  t.is(zoneOffsetMs(Date.parse(at), 'America/St_Johns'), -3.5 * 3600_000);
  t.is(zoneOffsetMs(Date.parse(at), 'UTC'), 0);
});

test("a chart's ticks are on the zone's whole hours", (t) => {
  const from = Date.parse('2026-11-27T00:10:00Z');
  const ticks = zoneTicks(from, from + 24 * 3600_000, 6 * 3600_000, 'Asia/Kolkata');
  t.deepEqual(
    ticks.map((ms) => formatTime(ms, { timeZone: 'Asia/Kolkata', clock: '24h' }, 'en-US')),
    ['06:00', '12:00', '18:00', '00:00'],
  );
});

test('property: every instant reads back as itself from its zone wall clock and offset', (t) => {
  const zones = ['UTC', 'Europe/Berlin', 'America/New_York', 'Asia/Kolkata', 'Australia/Lord_Howe', 'Pacific/Chatham'];
  fc.assert(
    fc.property(fc.integer({ min: 0, max: 4_102_444_800_000 }), fc.constantFrom(...zones), (ms, zone) => {
      const offset = zoneOffsetMs(ms, zone);
      const wall = new Date(ms - (ms % 1000) + offset);
      const hhmm = `${String(wall.getUTCHours()).padStart(2, '0')}:${String(wall.getUTCMinutes()).padStart(2, '0')}`;
      return formatTime(ms, { timeZone: zone, clock: '24h' }, 'en-US') === hhmm;
    }),
    { numRuns: 300 },
  );
  t.pass();
});
