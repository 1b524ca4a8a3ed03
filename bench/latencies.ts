// Latencies of a load run, kept exactly (to the microsecond a timer gives) and read as percentiles.

/** Milliseconds to a tenth, as the bench reports them. */
export const tenths = (ms: number) => Math.round(ms * 10) / 10;

/** The latency at percentile p of ascending latencies (nearest rank), to a tenth of a millisecond. */
export const percentile = (sorted: ArrayLike<number>, p: number) =>
  sorted.length === 0 ? 0 : tenths(sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!);

/** Latencies in milliseconds, kept in a growing Float64Array (millions of them cost no GC). */
export class Latencies {
  private values = new Float64Array(1 << 16);
  private n = 0;

  add(ms: number): void {
    if (this.n === this.values.length) {
      const grown = new Float64Array(this.values.length * 2);
      grown.set(this.values);
      this.values = grown;
    }
    this.values[this.n++] = ms;
  }

  get count(): number {
    return this.n;
  }

  sorted(): Float64Array {
    return this.values.slice(0, this.n).sort();
  }
}
