// Sliding-window rate limiting in Redis (sliding-window.lua), timed by the injected clock.
// Failure policy: if Redis cannot answer, the request is let through and the failure logged;
// a limiter outage must not take the API down with it.
import type { Deps } from '../deps.ts';
import { rateKey } from '../store/keys.ts';

export interface RateDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** ms until the current window ends. */
  resetMs: number;
  /** When refused: ms until a request would be admitted (the Retry-After). */
  retryAfterMs: number;
}

export async function takeRateToken(deps: Pick<Deps, 'redis' | 'clock' | 'log'>, scope: string, id: string, limit: number, windowMs = 60_000): Promise<RateDecision> {
  const now = deps.clock.now();
  const slot = Math.floor(now / windowMs);
  const elapsed = now - slot * windowMs;
  const resetMs = windowMs - elapsed;
  try {
    const [allowed, remaining, retryAfterMs] = (await deps.redis.slidingWindow(rateKey(scope, id, slot), rateKey(scope, id, slot - 1), limit, windowMs, elapsed)) as [number, number, number];
    return { allowed: allowed === 1, limit, remaining, resetMs, retryAfterMs };
  } catch (err) {
    deps.log.warn({ err, scope }, 'rate limiter unavailable, request let through');
    return { allowed: true, limit, remaining: limit, resetMs, retryAfterMs: 0 };
  }
}

/** Whole seconds a refused client waits: rounded up, so a client that waits them is admitted. */
export const retryAfterSeconds = (d: RateDecision) => Math.max(1, Math.ceil(d.retryAfterMs / 1000));

export const rateLimitHeaders = (d: RateDecision) => ({
  'RateLimit-Limit': String(d.limit),
  'RateLimit-Remaining': String(d.remaining),
  'RateLimit-Reset': String(Math.ceil(d.resetMs / 1000)),
});
