// Time as the agent's live parts see it (restart countdowns, presence, refreshes): the real clock,
// or in tests a faster one, so a five-minute restart runs its whole sequence in seconds.
import { setTimeout as delay } from 'node:timers/promises';

export interface AgentClock {
  now(): number;
  /** Resolves after `ms` of this clock's time, or at once when `signal` aborts (never rejects). */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

export const realClock: AgentClock = {
  now: () => Date.now(),
  sleep: (ms, signal) => delay(Math.max(0, ms), undefined, { signal }).catch(() => undefined),
};

/** A clock running `factor` times faster than the real one, from now on. */
export function fastClock(factor: number): AgentClock {
  const startedReal = Date.now();
  return {
    now: () => startedReal + (Date.now() - startedReal) * factor,
    sleep: (ms, signal) => realClock.sleep(ms / factor, signal),
  };
}
