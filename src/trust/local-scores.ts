// The scores a web process read from Redis, kept in process for AUTH_CACHE_MS so a repeated
// lookup costs no Redis read of its own. Every invalidation is broadcast (src/store/invalidation.ts)
// and drops the players here in every process; one that is missed lives at most AUTH_CACHE_MS.
import { LRUCache } from 'lru-cache';
import type { CachedScore, ScoreEntry } from './score.store.ts';

const maxBytes = 32 * 1024 * 1024;

/** A Redis read of a player's score under way; a drop of the player that arrives meanwhile marks it. */
export interface ScoreRead {
  dropped: boolean;
}

export class LocalScores {
  readonly #scores: LRUCache<string, ScoreEntry>;
  /** Reads under way by player: a few at a time, so a drop of a thousand players costs lookups, not writes. */
  readonly #reading = new Map<string, ScoreRead>();

  constructor(ttlMs: number) {
    // Bounded by bytes: a signed score is about 2.4 kB, so 50,000 of them would hold 120 MB.
    this.#scores = new LRUCache({
      max: 50_000,
      maxSize: maxBytes,
      sizeCalculation: (e) => e.score.body.length + e.score.proof.length + 64,
      ttl: ttlMs,
    });
  }

  get(platformId: string, nowMs: number): CachedScore | undefined {
    const local = this.#scores.get(platformId);
    return local && local.staleAtMs > nowMs ? local.score : undefined;
  }

  /** Taken before a Redis read: what that read returns may be remembered only if no drop came since. */
  beginRead(platformId: string): ScoreRead {
    let read = this.#reading.get(platformId);
    if (!read) this.#reading.set(platformId, (read = { dropped: false }));
    return read;
  }

  /**
   * Ends a read begun with beginRead and remembers its score (when it found one), unless the player
   * was dropped since: the read and the broadcast travel on two connections, so a drop can arrive
   * while the older score is in flight.
   */
  endRead(platformId: string, read: ScoreRead, entry: ScoreEntry | undefined): void {
    if (this.#reading.get(platformId) === read) this.#reading.delete(platformId);
    if (entry && !read.dropped) this.#scores.set(platformId, entry);
  }

  drop(platformIds: Iterable<string>): void {
    const held = this.#scores.size > 0;
    for (const id of platformIds) {
      if (held) this.#scores.delete(id);
      const read = this.#reading.get(id);
      if (read) {
        read.dropped = true;
        this.#reading.delete(id);
      }
    }
  }
}
