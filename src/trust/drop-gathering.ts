// Gathers the players named by every drop of trust scores asked in one turn of the event loop into
// one drop. A group call commits up to 64 ingested batches at once, each naming a dozen players
// spread over the 8 buckets: dropped batch by batch, that was some 7 script calls a batch, three
// quarters of the calls a busy fleet made to Redis.

/**
 * Calls `drop` once per turn of the event loop with the players every add() of that turn named;
 * each add() resolves when the drop that carries its players has finished (drop never rejects).
 */
export class DropGathering {
  private pending: { ids: Set<string>; done: Promise<void> } | undefined;

  constructor(private readonly drop: (ids: string[]) => Promise<void>) {}

  add(ids: Iterable<string>): Promise<void> {
    if (!this.pending) {
      const gathered = new Set<string>();
      // setImmediate runs after the microtasks of this turn: every batch a group call settled joins.
      const done = new Promise<void>((resolve) => setImmediate(() => {
        this.pending = undefined;
        resolve(this.drop([...gathered]));
      }));
      this.pending = { ids: gathered, done };
    }
    for (const id of ids) this.pending.ids.add(id);
    return this.pending.done;
  }
}
