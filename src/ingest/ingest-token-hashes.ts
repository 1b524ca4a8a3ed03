// The ingest-token hashes this process checks batches against. Each is at most AUTH_CACHE_MS old,
// as every cached credential is, but the hashes of the servers that posted within AUTH_CACHE_MS
// are read again together, in one query every half AUTH_CACHE_MS: a server posting every 5 s
// otherwise found its hash expired at every batch, one query a batch (2,500 servers, 500 a second).
import { clearInterval, setInterval } from 'node:timers';
import type { Clock } from '../clock.ts';
import type { Queryable } from '../store/db.ts';
import { findIngestTokenHashes } from '../servers/server.repo.ts';

interface Entry {
  /** Empty for a server that is unknown or revoked. */
  hash: Buffer;
  readAtMs: number;
  askedAtMs: number;
}

export class IngestTokenHashes {
  private readonly entries = new Map<string, Entry>();
  /** Counts drops: a read under way while one happened may have read the old hash, and is not kept. */
  private drops = 0;

  constructor(
    private readonly clock: Clock,
    readonly maxAgeMs: number,
    private readonly max = 50_000,
  ) {}

  /** The server's hash as read within maxAgeMs; undefined when it must be read. */
  get(serverId: string): Buffer | undefined {
    const entry = this.entries.get(serverId);
    if (!entry) return undefined;
    const now = this.clock.now();
    if (now - entry.readAtMs >= this.maxAgeMs) {
      this.entries.delete(serverId);
      return undefined;
    }
    entry.askedAtMs = now;
    return entry.hash;
  }

  /** Reads one server's hash and keeps it. */
  async load(db: Queryable, serverId: string): Promise<Buffer> {
    const read = this.beginRead();
    const hash = (await findIngestTokenHashes(db, [serverId])).get(serverId) ?? Buffer.alloc(0);
    this.keep(read, new Map([[serverId, hash]]), [serverId]);
    return hash;
  }

  /** Reads again the hashes asked for within maxAgeMs; the others expire. */
  async refresh(db: Queryable): Promise<void> {
    const now = this.clock.now();
    const ids = [...this.entries].filter(([, e]) => now - e.askedAtMs < this.maxAgeMs).map(([id]) => id);
    if (ids.length === 0) return;
    const read = this.beginRead();
    this.keep(read, await findIngestTokenHashes(db, ids), ids);
  }

  /** Forgets a server's hash (its token was rotated or it was revoked). */
  drop(serverId: string): void {
    this.entries.delete(serverId);
    this.drops += 1;
  }

  private beginRead() {
    return { atMs: this.clock.now(), drops: this.drops };
  }

  private keep(read: { atMs: number; drops: number }, found: Map<string, Buffer>, ids: string[]): void {
    if (this.drops !== read.drops) return;
    for (const id of ids) {
      const askedAtMs = this.entries.get(id)?.askedAtMs ?? read.atMs;
      // Re-inserted, so the map's order is the order of reads and the oldest goes first.
      this.entries.delete(id);
      this.entries.set(id, { hash: found.get(id) ?? Buffer.alloc(0), readAtMs: read.atMs, askedAtMs });
    }
    for (const oldest of this.entries.keys()) {
      if (this.entries.size <= this.max) break;
      this.entries.delete(oldest);
    }
  }
}

/** Refreshes the hashes every half maxAgeMs until the returned function is called. */
export function refreshIngestTokenHashes(hashes: IngestTokenHashes, db: Queryable, onError: (err: unknown) => void): () => void {
  let running = false;
  const timer = setInterval(
    () => {
      if (running) return;
      running = true;
      hashes
        .refresh(db)
        .catch(onError)
        .finally(() => {
          running = false;
        });
    },
    Math.max(500, hashes.maxAgeMs / 2),
  );
  timer.unref();
  return () => clearInterval(timer);
}
