// Scheduled restarts (what admins use most): the times of day a server shuts down for its restart,
// in the server's own zone, and when the next one is. Pure; the clock is passed in. Daylight
// saving is the zone's: a time that does not exist that day (a spring-forward gap) moves forward
// with the clock, an ambiguous one (the fall-back hour) is taken at its first occurrence.
import { DateTime, Info } from 'luxon';
import type { RestartSchedule as RestartScheduleAnswer } from '../http/schema-types.ts';

/** A server's restart schedule as stored: the answer (schemas/restart-schedule.json) without its next time and when it was set. */
export type RestartSchedule = Omit<RestartScheduleAnswer, 'nextAt' | 'updatedAt'>;

export const isTimeZone = (zone: string) => Info.isValidIANAZone(zone);

/** The first shutdown time strictly after `afterMs` (epoch ms). */
export function nextShutdownAfter(schedule: Pick<RestartSchedule, 'timeZone' | 'times'>, afterMs: number): number {
  const after = DateTime.fromMillis(afterMs, { zone: schedule.timeZone });
  let best = Number.POSITIVE_INFINITY;
  for (const time of schedule.times) {
    const [hour, minute] = time.split(':').map(Number) as [number, number];
    // Today's and the next two days' (a day may skip the time in a gap): the earliest still ahead.
    for (let day = 0; day <= 2; day++) {
      const at = after.startOf('day').plus({ days: day }).set({ hour, minute, second: 0, millisecond: 0 }).toMillis();
      if (at > afterMs) {
        best = Math.min(best, at);
        break;
      }
    }
  }
  return best;
}

/**
 * What the schedule asks for at `nowMs` when its next shutdown is `nextMs`: queue the restart now
 * (from `warningSeconds` before it, with the delay left until it), skip it (the worker was down
 * past it: a restart never fires late), or wait.
 */
export function scheduleStep(nextMs: number, warningSeconds: number, nowMs: number): { queue: { delaySeconds: number } } | 'skip' | 'wait' {
  if (nowMs >= nextMs) return 'skip';
  if (nowMs < nextMs - warningSeconds * 1000) return 'wait';
  return { queue: { delaySeconds: Math.floor((nextMs - nowMs) / 1000) } };
}
