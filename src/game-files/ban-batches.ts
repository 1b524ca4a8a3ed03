// The ban files of one account's servers are rendered and recorded once for all that are ready
// together (sync-write.ts), yet no server waits long on another: a server whose file was read waits
// for its account's other files at most `graceMs`, then syncs with those read by then. A file read
// late, or refused, joins or leaves later; a stalled read holds up nobody.
import type { Core } from '../core.ts';
import { syncAccountBans } from './sync-write.ts';
import type { ReadFile, SyncOutcome } from './sync-write.ts';

interface Waiting {
  read: ReadFile;
  resolve: (outcome: SyncOutcome) => void;
  reject: (err: unknown) => void;
}

interface Account {
  /** Files of the account not yet read (nor refused). */
  unread: number;
  waiting: Waiting[];
  running: boolean;
  timer: NodeJS.Timeout | undefined;
}

export class BanBatches {
  private readonly accounts = new Map<string, Account>();

  /** `accountIds`: the account of each ban file this round syncs (one entry per file). */
  constructor(
    private readonly deps: Core,
    accountIds: string[],
    private readonly graceMs = 200,
  ) {
    for (const id of accountIds) {
      const account = this.accounts.get(id) ?? { unread: 0, waiting: [], running: false, timer: undefined };
      account.unread += 1;
      this.accounts.set(id, account);
    }
  }

  /** A server's ban file was read: it syncs with the account's others ready by then. */
  sync(read: ReadFile): Promise<SyncOutcome> {
    const account = this.accounts.get(read.target.accountId)!;
    account.unread -= 1;
    const outcome = new Promise<SyncOutcome>((resolve, reject) => account.waiting.push({ read, resolve, reject }));
    this.consider(account);
    return outcome;
  }

  /** A server's ban file will not be read (refused, failed, too slow): the others stop waiting for it. */
  skip(accountId: string): void {
    const account = this.accounts.get(accountId)!;
    account.unread -= 1;
    this.consider(account);
  }

  private consider(account: Account): void {
    if (account.running || account.waiting.length === 0) return;
    if (account.unread <= 0) {
      void this.run(account);
      return;
    }
    account.timer ??= setTimeout(() => void this.run(account), this.graceMs);
  }

  private async run(account: Account): Promise<void> {
    clearTimeout(account.timer);
    account.timer = undefined;
    if (account.running || account.waiting.length === 0) return;
    account.running = true;
    const batch = account.waiting.splice(0);
    try {
      const results = await syncAccountBans(
        this.deps,
        batch.map((w) => w.read),
      );
      batch.forEach((w, i) => {
        const result = results[i]!;
        if (result instanceof Error) w.reject(result);
        else w.resolve(result);
      });
    } catch (err) {
      for (const w of batch) w.reject(err);
    } finally {
      account.running = false;
    }
    // Files read while this batch ran waited already: they go now.
    if (account.waiting.length > 0) void this.run(account);
  }
}
