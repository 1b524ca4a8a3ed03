// Times, numbers and durations as the pages show them. Every time is shown in the community's zone
// and clock (its settings, UTC and 24-hour until changed) with the zone named, never in whatever
// zone the browser happens to be in; the browser's locale only chooses the words ("Nov" or "nov.").
import type { AccountSettings } from '../../src/http/schema-types.ts';

export type TimeSettings = AccountSettings;
export const utc24: TimeSettings = { timeZone: 'UTC', clock: '24h' };

const formatters = new Map<string, Intl.DateTimeFormat>();
/** Formatters are slow to make and a page shows hundreds of times: one per kind, settings and locale. */
function formatter(kind: 'dateTime' | 'time' | 'zone', s: TimeSettings, locale: string | undefined): Intl.DateTimeFormat {
  const key = `${kind} ${s.timeZone} ${s.clock} ${locale ?? ''}`;
  let found = formatters.get(key);
  if (!found) {
    const clock: Intl.DateTimeFormatOptions =
      s.clock === '12h'
        ? { hour: 'numeric', minute: '2-digit', hourCycle: 'h12' }
        : { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' };
    const options: Intl.DateTimeFormatOptions =
      kind === 'dateTime'
        ? { year: 'numeric', month: 'short', day: 'numeric', ...clock, timeZoneName: 'short' }
        : kind === 'time'
          ? clock
          : { timeZoneName: 'short' };
    found = new Intl.DateTimeFormat(locale, { ...options, timeZone: s.timeZone });
    formatters.set(key, found);
  }
  return found;
}

/** "Nov 27, 2026, 14:05 UTC", "Nov 27, 2026, 2:05 PM EST": the date and time in the settings' zone and clock, zone named. */
export const formatDateTime = (iso: string, s: TimeSettings = utc24, locale?: string) =>
  formatter('dateTime', s, locale).format(new Date(iso));
/** "14:05" or "2:05 PM" in the settings' zone, without the zone (a chart's axis, whose legend names it). */
export const formatTime = (ms: number, s: TimeSettings = utc24, locale?: string) => formatter('time', s, locale).format(new Date(ms));
/** The zone's short name at an instant: "UTC", "GMT+5:30", "EST" (in the locale's words). */
export const zoneName = (ms: number, s: TimeSettings = utc24, locale?: string) =>
  formatter('zone', s, locale)
    .formatToParts(new Date(ms))
    .find((p) => p.type === 'timeZoneName')?.value ?? s.timeZone;

const offsetParts = new Map<string, Intl.DateTimeFormat>();
/** How far the zone's clock is ahead of UTC at an instant, in ms (negative west of Greenwich). */
export function zoneOffsetMs(ms: number, timeZone: string): number {
  let f = offsetParts.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    offsetParts.set(timeZone, f);
  }
  const part = Object.fromEntries(f.formatToParts(new Date(ms)).map((p) => [p.type, Number(p.value)]));
  const wall = Date.UTC(part.year!, part.month! - 1, part.day!, part.hour!, part.minute!, part.second!);
  return wall - (ms - (((ms % 1000) + 1000) % 1000));
}

/**
 * Instants from `fromMs` to `toMs` where the zone's clock shows a whole multiple of `stepMs` (every
 * 6 hours: 00:00, 06:00, ...), for a chart's axis: ticks at the hours the reader's clock shows.
 */
export function zoneTicks(fromMs: number, toMs: number, stepMs: number, timeZone: string): number[] {
  const offset = zoneOffsetMs(fromMs, timeZone);
  const ticks: number[] = [];
  for (let t = Math.ceil((fromMs + offset) / stepMs) * stepMs - offset; t <= toMs; t += stepMs) ticks.push(t);
  return ticks;
}

/** "Sun 15:00": an instant as a clock in another zone (a server's) reads it, 24-hour like the schedule's times. */
export const formatInZone = (iso: string, timeZone: string) =>
  new Intl.DateTimeFormat(undefined, { timeZone, weekday: 'short', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(
    new Date(iso),
  );

/** "just now", "5 minutes ago", "in 3 days". */
export function relative(iso: string, nowMs = Date.now()): string {
  const diffS = Math.round((Date.parse(iso) - nowMs) / 1000);
  const abs = Math.abs(diffS);
  if (abs < 45) return diffS <= 0 ? 'just now' : 'in a moment';
  const [n, unit] =
    abs < 3600 ? [Math.round(abs / 60), 'minute'] : abs < 86_400 ? [Math.round(abs / 3600), 'hour'] : [Math.round(abs / 86_400), 'day'];
  const text = `${n} ${unit}${n === 1 ? '' : 's'}`;
  return diffS < 0 ? `${text} ago` : `in ${text}`;
}

export const formatFps = (fps: number | null) => (fps === null ? '–' : fps.toFixed(1));
export const formatCount = (n: number | null) => (n === null ? '–' : String(n));

export function playTime(minutes: number): string {
  if (minutes < 60) return `${minutes} min`;
  const h = Math.floor(minutes / 60);
  return `${h} h ${minutes % 60} min`;
}

/** A table caption for a page of a list: "Bans 26 to 50 of 73", or "Bans: none" for an empty list. */
export const pageCaption = (what: string, offset: number, shown: number, total: number) =>
  total === 0 ? `${what}: none` : `${what} ${offset + 1} to ${offset + shown} of ${total}`;
