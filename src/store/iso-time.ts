// ISO texts of epoch times for query parameters, as Date#toISOString writes them. A backfill's
// batch of 500 kills sends about 1,500 (each kill's time, each changed player's), and toISOString
// cost about 0.6 us each; a batch's times fall within seconds of each other, so the text up to
// the second is made once for each second and reused.

/** toISOString writes years 0000-9999 with four digits; outside them, six digits and a sign. */
const fourDigitYears = { fromMs: Date.parse('0000-01-01T00:00:00.000Z'), toMs: Date.parse('9999-12-31T23:59:59.999Z') };

// The texts of 64 seconds, each in the slot of its number modulo 64: a batch spanning up to a
// minute, asked for in any order (players sorted by id), finds every second made once.
const slots = 64;
const slotSecond = new Float64Array(slots).fill(Number.NaN);
const slotPrefix: string[] = new Array<string>(slots).fill('');

/** "2026-11-22T10:00:00." of the second a time falls in (floor). */
function secondPrefix(second: number): string {
  const slot = second & (slots - 1);
  if (slotSecond[slot] !== second) {
    slotPrefix[slot] = new Date(second * 1000).toISOString().slice(0, 20);
    slotSecond[slot] = second;
  }
  return slotPrefix[slot]!;
}

const pad3 = (n: number) => (n < 10 ? `00${n}` : n < 100 ? `0${n}` : String(n));

/** new Date(ms).toISOString(). */
export function isoOfMs(ms: number): string {
  if (!Number.isInteger(ms) || ms < fourDigitYears.fromMs || ms > fourDigitYears.toMs) return new Date(ms).toISOString();
  const second = Math.floor(ms / 1000);
  return `${secondPrefix(second)}${pad3(ms - second * 1000)}Z`;
}

/** ISO text of an integer microsecond timestamp, e.g. 2026-11-22T10:00:00.123456Z. */
export function isoOfMicros(us: number): string {
  const ms = Math.floor(us / 1000);
  if (!Number.isInteger(ms) || ms < fourDigitYears.fromMs || ms > fourDigitYears.toMs)
    return `${new Date(ms).toISOString().slice(0, -1)}${pad3(us - ms * 1000)}Z`;
  const second = Math.floor(ms / 1000);
  return `${secondPrefix(second)}${pad3(ms - second * 1000)}${pad3(us - ms * 1000)}Z`;
}
