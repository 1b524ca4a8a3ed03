// Gathers the players named by every drop of trust scores asked in one task (an I/O callback and
// the microtasks it starts) into one drop. Under a fleet's load many ingested batches settle in one
// task, each naming a dozen players spread over the 8 buckets: dropped batch by batch, that was
// some 7 script calls a batch, three quarters of the calls a busy fleet made to Redis.
import { nextTick } from 'node:process';

/**
 * Calls `drop` once per task with the players every add() of that task named; each add()
 * resolves when the drop that carries its players has finished (drop never rejects).
 */
export class DropGathering {
  private pending: { ids: Set<string>; done: Promise<void> } | undefined;

  constructor(private readonly drop: (ids: string[]) => Promise<void>) {}

  add(ids: Iterable<string>): Promise<void> {
    if (!this.pending) {
      const gathered = new Set<string>();
      // nextTick runs once the task's microtasks are done (every batch settled in the task has
      // asked by then) and before the task's Redis commands leave: ioredis writes them in one
      // pipeline from a setImmediate, which the batch's derived state scheduled first. From a
      // setImmediate of its own the drop came after that write, in a pipeline of its own, which
      // ioredis sends only once the one under way has all its replies.
      const done = new Promise<void>((resolve) =>
        nextTick(() => {
          this.pending = undefined;
          resolve(this.drop([...gathered]));
        }),
      );
      this.pending = { ids: gathered, done };
    }
    for (const id of ids) this.pending.ids.add(id);
    return this.pending.done;
  }
}
