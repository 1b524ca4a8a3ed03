// The scores a web process read from Redis, kept in process for AUTH_CACHE_MS so a repeated
// lookup costs no Redis read of its own. Every invalidation is broadcast (src/store/invalidation.ts)
// and drops the players here in every process; one that is missed lives at most AUTH_CACHE_MS.
import { LRUCache } from 'lru-cache';
import type { CachedScore, ScoreEntry } from './score.store.ts';

const maxTracked = 100_000;
const maxBytes = 32 * 1024 * 1024;

export class LocalScores {
  readonly #scores: LRUCache<string, ScoreEntry>;
  /** The invalidation each player was last dropped by, counted in this process (a plain Map: ingestion drops a thousand players a batch). */
  #dropped = new Map<string, number>();
  #drops = 0;
  /** The newest drop #dropped no longer holds: a player not found there may have been dropped as late. */
  #forgotten = 0;

  constructor(ttlMs: number) {
    // Bounded by bytes: a signed score is about 2.4 kB, so 50,000 of them would hold 120 MB.
    this.#scores = new LRUCache({ max: 50_000, maxSize: maxBytes, sizeCalculation: (e) => e.score.body.length + e.score.proof.length + 64, ttl: ttlMs });
  }

  /** Taken before a Redis read: what that read returns may be remembered only if no drop came since. */
  get mark(): number {
    return this.#drops;
  }

  get(platformId: string, nowMs: number): CachedScore | undefined {
    const local = this.#scores.get(platformId);
    return local && local.staleAtMs > nowMs ? local.score : undefined;
  }

  /**
   * Remembers a score read from Redis at `mark`, unless the player was dropped since: the read and
   * the broadcast travel on two connections, so a drop can arrive while the older score is in flight.
   */
  remember(platformId: string, entry: ScoreEntry, mark: number): void {
    if ((this.#dropped.get(platformId) ?? this.#forgotten) > mark) return;
    this.#scores.set(platformId, entry);
  }

  drop(platformIds: Iterable<string>): void {
    if (this.#dropped.size > maxTracked) {
      this.#dropped = new Map();
      this.#forgotten = this.#drops;
    }
    const drop = ++this.#drops;
    for (const id of platformIds) {
      this.#scores.delete(id);
      this.#dropped.set(id, drop);
    }
  }
}
