// What a bench scenario gets and gives back. A scenario measures one shape of work against the
// running service (and the Koa baseline of the same run) and returns rows for bench/README.md's table,
// each with its target and PASS/FAIL.
import type { Deps } from '../../src/deps.ts';
import type { Credentials } from '../fixture.ts';
import type { Measurement } from '../load.ts';
import type { Child } from '../processes.ts';

export interface BenchContext {
  deps: Deps;
  say: (line: string) => void;
  /** The service under test (role web, limits raised so the limiters count but never refuse). */
  service: Child;
  creds: Credentials;
  settings: { seconds: number; warmupSeconds: number; connections: number; rounds: number };
  /** Measures one URL with autocannon (warm-up, then the measured run); `paths`: each request the next of them. */
  measure: (
    url: string,
    headers: Record<string, string>,
    options?: { paths?: string[]; connections?: number; cpuPid?: number },
  ) => Promise<Measurement>;
  /** Measures the bare Koa hello-world now; scenarios compare against runs next to their own. */
  measureKoa: () => Promise<Measurement>;
  /** The bare Koa hello-world's URL, for scenarios that read it in their own way. */
  koaUrl: string;
}

export interface ScenarioRow {
  /** route or work | measured | p99 ms | x Koa | target | result */
  cells: [string, string, string, string, string, string];
  pass: boolean;
}

export interface Scenario {
  /** Selects it with BENCH_ONLY=<name>[,<name>...]. */
  name: string;
  run: (ctx: BenchContext) => Promise<ScenarioRow[]>;
}

export const fmt = (n: number, digits = 0) => n.toLocaleString('en', { minimumFractionDigits: digits, maximumFractionDigits: digits });
export const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};
export const clean = (m: Measurement) => m.non2xx === 0 && m.errors === 0 && m.timeouts === 0;
