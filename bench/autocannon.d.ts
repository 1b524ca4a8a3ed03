// The part of autocannon's programmatic API the bench uses (the package ships no types).
declare module 'autocannon' {
  import type { EventEmitter } from 'node:events';

  interface Options {
    url: string;
    connections?: number;
    /** Seconds. */
    duration?: number;
    method?: string;
    headers?: Record<string, string>;
    body?: string | Buffer;
    /** Requests taken in turn; setupRequest may change each one (its path, say) before it is sent. */
    /** Requests per second across all connections. */
    overallRate?: number;
    requests?: { setupRequest?: (req: Record<string, unknown>) => Record<string, unknown> }[];
  }

  interface Histogram {
    average: number;
    mean: number;
    stddev: number;
    min: number;
    max: number;
    total: number;
    p50: number;
    p90: number;
    p99: number;
  }

  interface Result {
    /** Seconds. */
    duration: number;
    errors: number;
    timeouts: number;
    non2xx: number;
    '2xx': number;
    statusCodeStats: Record<string, { count: number }>;
    /** Milliseconds, 2xx answers only. */
    latency: Histogram;
    /** Requests per second, sampled once a second. */
    requests: Histogram & { sent: number };
    throughput: Histogram;
  }

  /** Without a callback, the run is also a promise of its result. */
  interface Instance extends EventEmitter, PromiseLike<Result> {
    stop(): void;
  }

  function autocannon(options: Options): Instance;
  export default autocannon;
  export type { Options, Result, Instance };
}
