// Time limits on a server's file work (docs/game-files.md): a read or write of one server's file that does
// not end in time counts as failed, so no other server waits on it. The work itself cannot be
// cancelled (a file system call runs to its end); its late result is dropped.

export class TimedOut extends Error {
  constructor(what: string, ms: number) {
    super(`${what} took longer than ${ms} ms`);
    this.name = 'TimedOut';
  }
}

export function withTimeLimit<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new TimedOut(what, ms)), ms);
  });
  // A late failure of abandoned work is not an unhandled rejection.
  work.catch(() => undefined);
  return Promise.race([work, limit]).finally(() => clearTimeout(timer));
}

/** Runs `work` on every item, at most `limit` at once; resolves when all ended. */
export async function eachBounded<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < items.length) await work(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
}
