// Rows held in memory by the hundred thousand and rewritten every few seconds (ingestion's present
// players' totals, what the players table holds of each player), kept where rewriting one
// allocates nothing: a row's numbers in one Float64Array, its texts in one array a column, each row
// a slot found through an LRU of keys. A row rebuilt as a new text or object on each write outlives
// the young generation (it is held for minutes) and is copied into the old one: at a fleet's 500
// batches a second that was most of what the web process promoted, and the old generation's full
// collections came every few seconds, each stalling the reads of that moment.
import { LRUCache } from 'lru-cache';

export interface LruSlabOptions {
  /** Numbers a row holds (each a number or null). */
  numbers: number;
  /** Texts a row holds (each a text or null). */
  texts: number;
  max: number;
  /** A row not written for this long is gone. */
  ttlMs: number;
  /** Milliseconds, for the time to live (tests move it by hand). */
  clock?: { now(): number };
}

export class LruSlab {
  readonly #width: number;
  #numbers: Float64Array;
  readonly #texts: (string | null)[][];
  readonly #free: number[] = [];
  #used = 0;
  readonly #slots: LRUCache<string, number>;

  constructor({ numbers, texts, max, ttlMs, clock }: LruSlabOptions) {
    this.#width = numbers;
    this.#numbers = new Float64Array(numbers * 1024).fill(Number.NaN);
    this.#texts = Array.from({ length: texts }, () => []);
    // A row evicted, expired or deleted gives its slot back, emptied.
    this.#slots = new LRUCache<string, number>({ max, ttl: ttlMs, dispose: (slot) => this.#release(slot), ...(clock ? { perf: clock, ttlResolution: 0 } : {}) });
  }

  /** The key's slot, if its row is held. */
  find(key: string): number | undefined {
    return this.#slots.get(key);
  }

  has(key: string): boolean {
    return this.#slots.has(key);
  }

  delete(key: string): void {
    this.#slots.delete(key);
  }

  /** The key's slot, made (every field null) when its row is not held; the row's time to live starts again. */
  hold(key: string): number {
    const slot = this.#slots.get(key) ?? this.#take();
    this.#slots.set(key, slot);
    return slot;
  }

  number(slot: number, column: number): number | null {
    const n = this.#numbers[slot * this.#width + column]!;
    return Number.isNaN(n) ? null : n;
  }

  setNumber(slot: number, column: number, value: number | null): void {
    this.#numbers[slot * this.#width + column] = value ?? Number.NaN;
  }

  text(slot: number, column: number): string | null {
    return this.#texts[column]![slot] ?? null;
  }

  /** An equal text already held stays: the new one, made by the request that brought it, dies young. */
  setText(slot: number, column: number, value: string | null): void {
    const texts = this.#texts[column]!;
    if (texts[slot] !== value) texts[slot] = value;
  }

  #take(): number {
    const slot = this.#free.pop() ?? this.#used++;
    if ((slot + 1) * this.#width > this.#numbers.length) {
      const grown = new Float64Array(this.#numbers.length * 2).fill(Number.NaN);
      grown.set(this.#numbers);
      this.#numbers = grown;
    }
    return slot;
  }

  #release(slot: number): void {
    for (const texts of this.#texts) texts[slot] = null;
    this.#numbers.fill(Number.NaN, slot * this.#width, (slot + 1) * this.#width);
    this.#free.push(slot);
  }
}
