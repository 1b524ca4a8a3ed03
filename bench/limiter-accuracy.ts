// The controller limiter's accuracy: how many requests it admits in the worst 60 s when a burst
// straddles a window boundary. Measured in the bench process against the limiter function itself
// (takeRateToken and its Lua script, in the real Redis under the bench prefix), timed by a
// ManualClock so that every request lands exactly where the schedule puts it. A fixed-window
// counter (one counter per 60 s slot, nothing carried over) gets the same schedule for comparison.
import { randomUUID } from 'node:crypto';
import type { Deps } from '../src/deps.ts';
import { ManualClock } from '../src/clock.ts';
import { takeRateToken } from '../src/http/rate-limit.ts';
import { rateKey } from '../src/store/keys.ts';

export const accuracyLimit = 600;
export const accuracyWindowMs = 60_000;

interface Send {
  /** ms from the window boundary (negative: before it). */
  atMs: number;
  requests: number;
}

export interface Schedule {
  name: string;
  detail: string;
  sends: Send[];
}

const L = accuracyLimit;
const W = accuracyWindowMs;

export const schedules: Schedule[] = [
  {
    name: 'burst across the window boundary',
    detail: `bursts of ${L} at −1 ms, +1 ms, +6 s, +15 s, +30 s, +45 s, +59.999 s from the boundary`,
    sends: [-1, 1, 6_000, 15_000, 30_000, 45_000, 59_999].map((atMs) => ({ atMs, requests: L })),
  },
  {
    name: 'burst, then a steady client',
    detail: `${L} at −1 ms, then 1 request every 100 ms for the next 60 s`,
    sends: [{ atMs: -1, requests: L }, ...Array.from({ length: W / 100 }, (_, i) => ({ atMs: i * 100, requests: 1 }))],
  },
];

interface Admitted {
  atMs: number;
  n: number;
}

export interface Worst {
  admitted: number;
  fromMs: number;
  /** The last send counted in the interval. */
  toMs: number;
}

export interface AccuracyOutcome {
  schedule: Schedule;
  /** Sliding window (the service's limiter): requests admitted at each send. */
  admitted: Admitted[];
  worst: Worst;
  /** Fixed window, same schedule. */
  fixedWorst: Worst;
}

/** The most requests admitted within any half-open 60 s interval [t, t + 60 s). */
export function worstWindow(admitted: Admitted[]): Worst {
  const sorted = admitted.filter((a) => a.n > 0).sort((a, b) => a.atMs - b.atMs);
  let worst: Worst = { admitted: 0, fromMs: 0, toMs: 0 };
  for (let i = 0; i < sorted.length; i += 1) {
    let sum = 0;
    let last = sorted[i]!.atMs;
    for (let j = i; j < sorted.length && sorted[j]!.atMs < sorted[i]!.atMs + W; j += 1) {
      sum += sorted[j]!.n;
      last = sorted[j]!.atMs;
    }
    if (sum > worst.admitted) worst = { admitted: sum, fromMs: sorted[i]!.atMs, toMs: last };
  }
  return worst;
}

function fixedWindow(schedule: Schedule): Admitted[] {
  const counts = new Map<number, number>();
  return schedule.sends.map(({ atMs, requests }) => {
    const slot = Math.floor(atMs / W);
    const used = counts.get(slot) ?? 0;
    const n = Math.max(0, Math.min(requests, L - used));
    counts.set(slot, used + n);
    return { atMs, n };
  });
}

/**
 * Runs every schedule against takeRateToken with its own fresh limiter key. The requests of a
 * send are issued at once (one pipeline, executed one after the other by Redis, as a burst from
 * many connections would be). The limiter lets requests through when Redis fails: the counters
 * left in Redis must equal what it admitted, or the figures would be those of an outage.
 */
export async function measureAccuracy(deps: Pick<Deps, 'redis' | 'log'>): Promise<AccuracyOutcome[]> {
  const outcomes: AccuracyOutcome[] = [];
  // A real boundary a little ahead (the counters expire after two windows of real time).
  const boundary = (Math.floor(Date.now() / W) + 1) * W;
  for (const schedule of schedules) {
    const clock = new ManualClock(boundary);
    const limiter = { redis: deps.redis, log: deps.log, clock };
    const id = `bench-accuracy-${randomUUID()}`;
    const admitted: Admitted[] = [];
    for (const { atMs, requests } of schedule.sends) {
      clock.set(boundary + atMs);
      const decisions = await Promise.all(Array.from({ length: requests }, () => takeRateToken(limiter, 'ctl', id, L, W)));
      admitted.push({ atMs, n: decisions.filter((d) => d.allowed).length });
    }
    const slots = [...new Set(schedule.sends.map((s) => Math.floor((boundary + s.atMs) / W)))];
    const keys = slots.map((slot) => rateKey('ctl', id, slot));
    const counted = (await deps.redis.mget(...keys)).reduce((sum, v) => sum + Number(v ?? 0), 0);
    await deps.redis.del(...keys);
    const total = admitted.reduce((sum, a) => sum + a.n, 0);
    if (counted !== total)
      throw new Error(`limiter accuracy: ${total} admitted but ${counted} counted in Redis (did the limiter fail open?)`);
    outcomes.push({ schedule, admitted, worst: worstWindow(admitted), fixedWorst: worstWindow(fixedWindow(schedule)) });
  }
  return outcomes;
}

/** "−1 ms", "+1 ms", "+59.999 s". */
export const offset = (ms: number) => {
  const sign = ms < 0 ? '−' : '+';
  const abs = Math.abs(ms);
  return abs < 1000 ? `${sign}${abs} ms` : `${sign}${abs / 1000} s`;
};

export const overAdmission = (admitted: number) => (admitted / L - 1) * 100;
