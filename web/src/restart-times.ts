// The times of day of a restart schedule as admins type them: "every N hours from HH:MM" across the
// whole day, and a typed list ("3:00, 09:00 15:30") read into sorted, unique 24-hour HH:MM texts.
import { Problem } from './components.tsx';

const dayMinutes = 24 * 60;
/** The most times a schedule holds (schemas/restart-schedule-set.json). */
export const maxTimes = 48;

const hhmm = (minutes: number) => `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;

/** "3:05" or "03:05" as minutes after midnight; undefined when it is no time of day. */
function minutesOf(text: string): number | undefined {
  const m = /^(\d{1,2}):(\d{2})$/.exec(text);
  if (!m || Number(m[1]) > 23 || Number(m[2]) > 59) return undefined;
  return Number(m[1]) * 60 + Number(m[2]);
}

/**
 * Every `hours` hours through the day, counted from `from`: the schedule repeats daily, so the
 * times before `from` belong to it too (every 8 hours from 10:00 is 02:00, 10:00, 18:00).
 */
export function everyHours(hours: number, from: string): string[] {
  const start = minutesOf(from);
  if (!Number.isInteger(hours) || hours < 1 || hours > 24) throw new Problem('Restart every 1 to 24 hours (a whole number).');
  if (start === undefined) throw new Problem('Give the first time as HH:MM, 24-hour (e.g. 03:00).');
  const step = hours * 60;
  const times = Array.from({ length: Math.ceil(dayMinutes / step) }, (_, i) => (start + i * step) % dayMinutes);
  return times.sort((a, b) => a - b).map(hhmm);
}

/** The typed list, separated by commas, semicolons or spaces, as sorted unique HH:MM texts. */
export function parseTimes(text: string): string[] {
  const parts = text.split(/[\s,;]+/).filter(Boolean);
  const minutes = new Set<number>();
  for (const part of parts) {
    const m = minutesOf(part);
    if (m === undefined) throw new Problem(`"${part}" is no time of day: write the times as HH:MM, 24-hour (e.g. 03:00, 15:30).`);
    minutes.add(m);
  }
  if (minutes.size === 0) throw new Problem('Give at least one time of day.');
  if (minutes.size > maxTimes) throw new Problem(`A schedule holds at most ${maxTimes} times a day; this list has ${minutes.size}.`);
  return [...minutes].sort((a, b) => a - b).map(hhmm);
}

/** Whether the browser knows the zone (the service checks it again with its own list). */
export function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}
