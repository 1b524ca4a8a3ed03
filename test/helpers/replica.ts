// The read replica in tests: TEST_DATABASE_READ_URL (the test database on a streaming replica, as
// scripts/ci/pg-replica.sh makes one) has test worlds read through it; without it they read the
// primary as before. A test that writes and then reads through the replica waits until the replica
// has replayed the write, comparing WAL positions; never a fixed sleep.
import { setTimeout as delay } from 'node:timers/promises';
import type { Core } from '../../src/core.ts';

export const testDatabaseReadUrl = process.env.TEST_DATABASE_READ_URL || undefined;

/** How long a replica may take to replay what the primary has flushed before the wait fails the test. */
const catchUpTimeoutMs = 45_000;

/** The primary's flushed WAL position now. */
export async function primaryPosition(deps: Pick<Core, 'db'>): Promise<string> {
  const { rows } = await deps.db.query<{ lsn: string }>('SELECT pg_current_wal_flush_lsn()::text AS lsn');
  return rows[0]!.lsn;
}

/** What the replica has replayed (null when readDb is the primary). */
export async function replicaPosition(deps: Pick<Core, 'readDb'>): Promise<string | null> {
  const { rows } = await deps.readDb.query<{ lsn: string | null }>('SELECT pg_last_wal_replay_lsn()::text AS lsn');
  return rows[0]!.lsn;
}

/**
 * Resolves once the world's replica has replayed everything the primary had flushed when this was
 * called (at once without a replica). Fails after 45 s: a paused or broken replica fails the test.
 */
export async function replicaCaughtUp(deps: Pick<Core, 'db' | 'readDb'>): Promise<void> {
  if (deps.readDb === deps.db) return;
  const target = await primaryPosition(deps);
  const deadline = Date.now() + catchUpTimeoutMs;
  for (let wait = 1; ; wait = Math.min(wait * 2, 20)) {
    const { rows } = await deps.readDb.query<{ caught: boolean | null }>('SELECT pg_last_wal_replay_lsn() >= $1::pg_lsn AS caught', [
      target,
    ]);
    if (rows[0]!.caught) return;
    if (Date.now() > deadline) throw new Error(`the read replica has not replayed ${target} within ${catchUpTimeoutMs / 1000} s`);
    // The next look at the replay position, not a guess at how long replay takes.
    await delay(wait);
  }
}
