// Bounds what ingestion may hold of this process's PostgreSQL pool (a batch holds its slot for its
// PostgreSQL phase only, not while it is parsed or written to Redis). Batches of one server share
// a lock for their totals, so more than two of them in flight only hold connections while they
// wait; and all batches together leave one connection free, so the Data API and the controller
// are never starved by a server that pushes many batches at once. A batch beyond the bounds
// waits in memory (holding no connection); beyond the queues (per server, and for the process as
// a whole) it is refused with 429, which agents retry after Retry-After.
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

export const perServerInFlight = 2;
/** Batches of one server that may wait in one process before more are refused. */
export const perServerQueued = 8;
/** Batches of all servers that may wait in one process (each holds its parsed body in memory). */
export const allQueued = 64;

const refusal = () => new ApiError('RATE_LIMITED', 'too many batches in flight; retry shortly', { retryAfter: 1 }, { 'Retry-After': '1' });

export class IngestGate {
  private readonly servers = new Map<string, Gate>();
  private readonly all: Gate;

  constructor(poolSize: number) {
    this.all = new Gate(Math.max(1, poolSize - 1));
  }

  /**
   * Refuses a batch that run() would refuse now, before its body is read and parsed: under
   * overload, a refused batch then costs no parsing. Nothing is reserved (a slow upload holds no
   * place), so run() decides again.
   */
  refuseWhenFull(serverId: string): void {
    if (this.full(this.servers.get(serverId)?.busy ?? 0)) throw refusal();
  }

  async run<T>(serverId: string, work: () => Promise<T>): Promise<T> {
    let gate = this.servers.get(serverId);
    if (!gate) this.servers.set(serverId, (gate = new Gate(perServerInFlight)));
    if (this.full(gate.busy)) {
      if (gate.busy === 0) this.servers.delete(serverId);
      throw refusal();
    }
    try {
      return await gate.run(() => this.all.run(work));
    } finally {
      if (gate.busy === 0) this.servers.delete(serverId);
    }
  }

  private full(serverBusy: number): boolean {
    return serverBusy >= perServerInFlight + perServerQueued || this.all.busy >= this.all.limit + allQueued;
  }
}
