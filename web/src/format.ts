// Times, numbers and durations as the pages show them (the browser's locale and time zone).

const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
const timeOnly = new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit' });

export const formatDateTime = (iso: string) => dateTime.format(new Date(iso));
export const formatTime = (ms: number) => timeOnly.format(new Date(ms));
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

/** A datetime-local input's value as an ISO instant (the browser's zone), or undefined when empty. */
export const isoFromLocal = (value: string) => (value ? new Date(value).toISOString() : undefined);

/** A table caption for a page of a list: "Bans 26 to 50 of 73", or "Bans: none" for an empty list. */
export const pageCaption = (what: string, offset: number, shown: number, total: number) =>
  total === 0 ? `${what}: none` : `${what} ${offset + 1} to ${offset + shown} of ${total}`;
