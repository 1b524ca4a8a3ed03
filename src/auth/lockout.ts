// Login lockout (login-attempt.lua), timed by the injected clock. The pair is the client's network
// as the per-IP limits count it (an IPv6 address by its /64, so a client cannot step to the next
// address of its own network) and the canonical username (src/users/username.ts).
// Failure policy: fails closed. If Redis cannot answer, login answers 503 rather than run
// without the lockout.
import { createHash, randomUUID } from 'node:crypto';
import { setTimeout as delay } from 'node:timers/promises';
import type { Core } from '../core.ts';
import { rateLimitIdentity } from '../http/client.ts';
import { lockoutKeys } from '../store/keys.ts';
import { canonicalUsername } from '../users/username.ts';

export const lockoutPolicy = {
  windowMs: 10 * 60_000,
  threshold: 5,
  memoryMs: 24 * 3600_000,
  durationsMs: [60_000, 5 * 60_000, 3600_000],
};

/** How long a sign-in waits, in real time, for attempts of its pair that are in flight. */
const busyWaitMs = 3000;
const busyPollMs = 25;

export interface LockOutcome {
  /** The attempt may not go on (begin), or this failure locked the pair (fail). */
  refused: boolean;
  /** Refused only because other attempts of the pair are being checked right now. */
  busy: boolean;
  retryAfterMs: number;
  /** This failure started a lockout. */
  lockedNow: boolean;
}

/** One sign-in attempt: begin() before the password is checked, then fail() or succeed(). */
export interface LoginAttempt {
  begin(): Promise<LockOutcome>;
  fail(): Promise<LockOutcome>;
  succeed(): Promise<void>;
  /** The password could not be checked (a store failed): the reservation ends, nothing is counted. */
  release(): Promise<void>;
}

export function loginAttempt(deps: Core, ip: string, username: string): LoginAttempt {
  const pair = createHash('sha256')
    .update(`${rateLimitIdentity(ip)}\n${canonicalUsername(username)}`)
    .digest('base64url')
    .slice(0, 22);
  const keys = lockoutKeys(pair);
  const id = randomUUID();
  const { windowMs, threshold, memoryMs, durationsMs } = lockoutPolicy;
  const run = async (mode: 'begin' | 'fail' | 'success' | 'release'): Promise<LockOutcome> => {
    const [refused, ms, lockedNow] = (await deps.redis.loginAttempt(
      keys.failures,
      keys.state,
      keys.pending,
      mode,
      deps.clock.now(),
      windowMs,
      threshold,
      memoryMs,
      ...durationsMs,
      id,
    )) as [number, number, number];
    return { refused: refused !== 0, busy: refused === 2, retryAfterMs: ms, lockedNow: lockedNow === 1 };
  };
  const begin = async () => {
    // Concurrent sign-ins of one pair (a script, a reload storm) wait for the attempts ahead of them
    // rather than fail: a correct password is not refused for arriving at the same moment as others.
    for (let waitedMs = 0; ; waitedMs += busyPollMs) {
      const outcome = await run('begin');
      if (!outcome.busy || waitedMs >= busyWaitMs) return outcome;
      await delay(busyPollMs);
    }
  };
  return {
    begin,
    fail: () => run('fail'),
    succeed: async () => void (await run('success')),
    release: async () => void (await run('release')),
  };
}
