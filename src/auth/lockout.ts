// Login lockout (login-attempt.lua), timed by the injected clock.
// Failure policy: fails closed. If Redis cannot answer, login answers 503 rather than run
// without the lockout.
import { createHash } from 'node:crypto';
import type { Deps } from '../deps.ts';
import { lockoutKeys } from '../store/keys.ts';

export const lockoutPolicy = {
  windowMs: 10 * 60_000,
  threshold: 5,
  memoryMs: 24 * 3600_000,
  durationsMs: [60_000, 5 * 60_000, 3600_000],
};

export interface LockState {
  locked: boolean;
  retryAfterMs: number;
}

async function attempt(deps: Deps, ip: string, username: string, mode: 'check' | 'fail' | 'success'): Promise<LockState> {
  const pair = createHash('sha256').update(`${ip}\n${username.toLowerCase()}`).digest('base64url').slice(0, 22);
  const keys = lockoutKeys(pair);
  const { windowMs, threshold, memoryMs, durationsMs } = lockoutPolicy;
  const [locked, ms] = (await deps.redis.loginAttempt(keys.failures, keys.state, mode, deps.clock.now(), windowMs, threshold, memoryMs, ...durationsMs)) as [number, number];
  return { locked: locked === 1, retryAfterMs: ms };
}

export const lockState = (deps: Deps, ip: string, username: string) => attempt(deps, ip, username, 'check');
export const recordFailure = (deps: Deps, ip: string, username: string) => attempt(deps, ip, username, 'fail');
export const recordSuccess = (deps: Deps, ip: string, username: string) => attempt(deps, ip, username, 'success');
