// Sliding-window rate limiting in Redis (sliding-window.lua), timed by the injected clock.
// Failure policy: if Redis cannot answer, the request is let through and the failure logged;
// a limiter outage must not take the API down with it.
import type { Core } from '../core.ts';
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

export async function takeRateToken(
  deps: Pick<Core, 'redis' | 'clock' | 'log'>,
  scope: string,
  id: string,
  limit: number,
  windowMs = 60_000,
): Promise<RateDecision> {
  const now = deps.clock.now();
  const slot = Math.floor(now / windowMs);
  const elapsed = now - slot * windowMs;
  const resetMs = windowMs - elapsed;
  try {
    const [granted, current, previous, retryAfterMs] = (await deps.redis.slidingWindow(
      rateKey(scope, id, slot),
      rateKey(scope, id, slot - 1),
      limit,
      windowMs,
      elapsed,
      1,
      0,
    )) as [number, number, number, number];
    if (granted === 0) return { allowed: false, limit, remaining: 0, resetMs, retryAfterMs };
    // What the window held before this request, as the script weighed it.
    const used = (previous * (windowMs - elapsed)) / windowMs + (current - 1);
    return { allowed: true, limit, remaining: Math.floor(limit - used - 1), resetMs, retryAfterMs: 0 };
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
