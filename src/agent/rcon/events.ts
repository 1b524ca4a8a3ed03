// Typed listeners: `on` returns the function that removes the listener. A listener that throws is
// reported to `onError` and never reaches the caller of `emit` (a socket callback, say).
export type EventMap = Record<string, unknown[]>;
type Listener<A extends unknown[]> = (...args: A) => void;

export class Listeners<E extends EventMap> {
  private readonly sets: { [K in keyof E]?: Set<Listener<E[K]>> } = {};

  constructor(private readonly onError: (event: keyof E, err: unknown) => void) {}

  on<K extends keyof E>(event: K, listener: Listener<E[K]>): () => void {
    const set = (this.sets[event] ??= new Set());
    set.add(listener);
    return () => void set.delete(listener);
  }

  emit<K extends keyof E>(event: K, ...args: E[K]): void {
    for (const listener of [...(this.sets[event] ?? [])]) {
      try {
        listener(...args);
      } catch (err) {
        this.onError(event, err);
      }
    }
  }
}
