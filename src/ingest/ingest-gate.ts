// Bounds what ingestion may hold of this process. A server's batches take turns: four in their
// PostgreSQL phase at most (they share a lock for their totals, but what precedes it in their call,
// inserting the event ids and kills, runs side by side), eight more
// waiting; all servers' batches admitted together are bounded too, by the bytes of their bodies,
// which they hold parsed in memory (a fleet's batches of 20 events are a few kB, a backfill's of
// 500 kills about 150 kB, the largest allowed 2 MB by default), and by their number. Beyond a
// bound a batch is refused with 429, which agents retry after Retry-After: a refusal costs the
// agent a second and the service the batch again, so small batches wait rather than be refused
// while memory allows.
// The connections ingestion holds are bounded apart from the batches (a group call carries many
// batches on one): all of the pool but one, so the Data API and the controller are never starved
// by servers that push many batches at once.
import { ApiError } from '../http/errors.ts';

class Gate {
  private active = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(readonly limit: number) {}

  get busy(): number {
    return this.active + this.waiting.length;
  }

  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.active >= this.limit) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.active += 1;
    try {
      return await work();
    } finally {
      const next = this.waiting.shift();
      // The slot passes straight to the next waiter; otherwise it is freed.
      if (next) next();
      else this.active -= 1;
    }
  }
}

export const perServerInFlight = 4;
/** Batches of one server that may wait in one process before more are refused. */
export const perServerQueued = 8;
/** Bytes of the bodies of all servers' batches one process may hold at once (in their PostgreSQL phase or waiting for it). */
export const admittedBodyBytes = 64 * 1024 * 1024;
/** Batches of all servers that one process may hold at once, however small. */
export const allAdmitted = 2048;

/** What a batch's body counts against the gate: its declared length, or the limit when it has none (chunked). */
export const countedBodyBytes = (declaredLength: number | undefined, bodyLimitBytes: number): number => declaredLength ?? bodyLimitBytes;

const refusal = () => new ApiError('RATE_LIMITED', 'too many batches in flight; retry shortly', { retryAfter: 1 }, { 'Retry-After': '1' });

export class IngestGate {
  private readonly servers = new Map<string, Gate>();
  private admitted = 0;
  private admittedBytes = 0;
  private readonly connections: Gate;

  constructor(poolSize: number) {
    this.connections = new Gate(Math.max(1, poolSize - 1));
  }

  /**
   * Refuses a batch that run() would refuse now, before its body is read and parsed: under
   * overload, a refused batch then costs no parsing. Nothing is reserved (a slow upload holds no
   * place), so run() decides again. `bodyBytes`: its declared length.
   */
  refuseWhenFull(serverId: string, bodyBytes: number): void {
    if (this.full(this.servers.get(serverId)?.busy ?? 0, bodyBytes)) throw refusal();
  }

  /** Runs the PostgreSQL phase of a batch of `bodyBytes` in its server's turn. */
  async run<T>(serverId: string, bodyBytes: number, work: () => Promise<T>): Promise<T> {
    let gate = this.servers.get(serverId);
    if (!gate) this.servers.set(serverId, (gate = new Gate(perServerInFlight)));
    if (this.full(gate.busy, bodyBytes)) {
      if (gate.busy === 0) this.servers.delete(serverId);
      throw refusal();
    }
    this.admitted += 1;
    this.admittedBytes += bodyBytes;
    try {
      return await gate.run(work);
    } finally {
      this.admitted -= 1;
      this.admittedBytes -= bodyBytes;
      if (gate.busy === 0) this.servers.delete(serverId);
    }
  }

  /** Runs work that holds one of ingestion's connections. */
  connection<T>(work: () => Promise<T>): Promise<T> {
    return this.connections.run(work);
  }

  /** A batch is always admitted into an empty process, however large (the body limit bounds it). */
  private full(serverBusy: number, bodyBytes: number): boolean {
    return (
      serverBusy >= perServerInFlight + perServerQueued ||
      this.admitted >= allAdmitted ||
      (this.admitted > 0 && this.admittedBytes + bodyBytes > admittedBodyBytes)
    );
  }
}
