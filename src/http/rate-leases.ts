// The sliding-window rate limit taken in leases (sliding-window.lua): a process reserves
// several requests' tokens of a key in one Redis call and spends them without a round trip each.
// It never admits more than the exact limiter (rate-limit.ts) would: tokens are counted in Redis
// when reserved. In one process its decisions and headers are the exact limiter's; across
// processes, tokens one holds unspent are refused to the others until it spends them or gives
// them back, at most a lease each (32 tokens, and an eighth of what the window has left).
// Failure policy as the exact limiter's: if Redis cannot answer, the request is let through.
import { LRUCache } from 'lru-cache';
import type { Core } from '../core.ts';
import { rateKey } from '../store/keys.ts';
import type { RateDecision } from './rate-limit.ts';

/** Most tokens one lease reserves. */
const maxLease = 32;

interface Lease {
  slot: number;
  /** Tokens reserved and not spent yet. */
  tokens: number;
  /** The window's count after the grant (every process's tokens, spent or not), and the previous window's. */
  current: number;
  previous: number;
  /** Tokens this lease asked for: the next one of the window asks for twice as many, of a later window half. */
  size: number;
  /** The Redis call under way: requests of the key that find no token wait for it. */
  pending?: Promise<void>;
}

/** This process's leases, by scope and key. */
export class RateLeases {
  readonly held = new LRUCache<string, Lease>({ max: 100_000 });
}

export const rateLeaseCaches = () => ({ rateLeases: new RateLeases() });

export type LeaseDeps = Pick<Core, 'redis' | 'clock' | 'log'> & { caches: ReturnType<typeof rateLeaseCaches> };

export async function takeLeasedToken(deps: LeaseDeps, scope: string, id: string, limit: number, windowMs = 60_000): Promise<RateDecision> {
  const name = `${scope}\n${id}`;
  for (;;) {
    const lease = deps.caches.rateLeases.held.get(name);
    if (lease?.pending) {
      await lease.pending;
      continue;
    }
    const now = deps.clock.now();
    const slot = Math.floor(now / windowMs);
    if (lease && lease.slot === slot && lease.tokens > 0) return spend(lease, limit, windowMs, now);
    return renew(deps, scope, id, name, lease, limit, windowMs, now);
  }
}

/** Admits a request with a token of the lease; the headers say what the exact limiter's would. */
function spend(lease: Lease, limit: number, windowMs: number, now: number): RateDecision {
  lease.tokens -= 1;
  const elapsed = now - lease.slot * windowMs;
  // The requests counted so far are the window's count less the tokens nobody has spent yet.
  const used = (lease.previous * (windowMs - elapsed)) / windowMs + lease.current - lease.tokens;
  return { allowed: true, limit, remaining: Math.max(0, Math.floor(limit - used)), resetMs: windowMs - elapsed, retryAfterMs: 0 };
}

/** Takes a new lease of the key (giving back the previous window's unspent tokens) and spends its first token. */
async function renew(
  deps: LeaseDeps,
  scope: string,
  id: string,
  name: string,
  old: Lease | undefined,
  limit: number,
  windowMs: number,
  now: number,
): Promise<RateDecision> {
  const slot = Math.floor(now / windowMs);
  const elapsed = now - slot * windowMs;
  const size = !old ? 1 : old.slot === slot ? Math.min(maxLease, old.size * 2) : Math.max(1, Math.floor(old.size / 2));
  const giveBack = old?.slot === slot - 1 ? old.tokens : 0;
  let settle = () => {};
  const lease: Lease = { slot, tokens: 0, current: 0, previous: 0, size, pending: new Promise<void>((resolve) => (settle = resolve)) };
  deps.caches.rateLeases.held.set(name, lease);
  try {
    const [granted, current, previous, retryAfterMs] = (await deps.redis.slidingWindow(
      rateKey(scope, id, slot),
      rateKey(scope, id, slot - 1),
      limit,
      windowMs,
      elapsed,
      size,
      giveBack,
    )) as [number, number, number, number];
    Object.assign(lease, { tokens: granted, current, previous });
    if (granted === 0) return { allowed: false, limit, remaining: 0, resetMs: windowMs - elapsed, retryAfterMs };
    return spend(lease, limit, windowMs, now);
  } catch (err) {
    // Whether the tokens given back arrived is unknown: they stay counted, which admits less, never more.
    deps.caches.rateLeases.held.delete(name);
    deps.log.warn({ err, scope }, 'rate limiter unavailable, request let through');
    return { allowed: true, limit, remaining: limit, resetMs: windowMs - elapsed, retryAfterMs: 0 };
  } finally {
    lease.pending = undefined;
    settle();
  }
}
