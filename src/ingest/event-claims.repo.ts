// SQL of the event claims' upkeep: the partitions of days (event_claims_add_day, src/ingest/sql/event-claims-add-day.sql)
// added ahead and dropped whole once every claim in them is past the retention, the rest deleted.
import pg from 'pg';
import type { Db } from '../store/db.ts';
import { inTransaction } from '../store/db.ts';

/** A partition of one UTC day's claims: its table and the day, as YYYY-MM-DD. */
export interface ClaimDay {
  table: string;
  day: string;
}

const dayTable = /^event_claims_(\d{4})(\d{2})(\d{2})$/;
/** The default partition's table: the claims of days without a partition of their own. */
export const otherDaysTable = 'event_claims_other';

// A partition's upkeep waits this long for the locks it takes, then gives up until the next run
// rather than queue the claims of every batch behind it.
const upkeepLockTimeout = "SET LOCAL lock_timeout = '2s'";

/** Adds the partition of a day (YYYY-MM-DD) unless it exists; true when it added it. */
export function addClaimDay(db: Db, day: string): Promise<boolean> {
  return inTransaction(db, async (tx) => {
    await tx.query(upkeepLockTimeout);
    const { rows } = await tx.query<{ added: boolean }>('SELECT event_claims_add_day($1::date) AS added', [day]);
    return rows[0]!.added;
  });
}

export async function claimDays(db: Db): Promise<ClaimDay[]> {
  const { rows } = await db.query<{ table: string }>(
    `SELECT c.relname AS table FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
     WHERE i.inhparent = 'event_claims'::regclass ORDER BY c.relname`,
  );
  return rows.flatMap(({ table }) => {
    const m = dayTable.exec(table);
    return m ? [{ table, day: `${m[1]}-${m[2]}-${m[3]}` }] : [];
  });
}

/**
 * Summarises the block ranges a table's claims filled since the last run, so its range index on
 * the receipt time answers for them (autosummarize does it only where autovacuum runs). Run every
 * hour, it reads each block once, soon after it was written, and never a whole day at once.
 */
export async function summariseReceipts(db: Db, table: string): Promise<void> {
  await db.query(
    `SELECT brin_summarize_new_values(i.indexrelid) FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid JOIN pg_am a ON a.oid = c.relam
     WHERE i.indrelid = $1::regclass AND a.amname = 'brin'`,
    [table],
  );
}

// Reads by the receipt time through the range index alone: no block of a day received long ago is read.
const byReceiptIndex = 'SET LOCAL enable_seqscan = off';

/**
 * Drops a day's partition when no claim in it was received at or after `sinceIso`; true when it
 * dropped it. Checked once without a lock (a day kept for a late claim costs the batches nothing),
 * then again holding the lock the drop needs, which waits for the claims being made: one that
 * arrived between the two keeps its day.
 */
export function dropClaimDayIfExpired(db: Db, { table }: ClaimDay, sinceIso: string): Promise<boolean> {
  return inTransaction(db, async (tx) => {
    await tx.query(upkeepLockTimeout);
    await tx.query(byReceiptIndex);
    const name = pg.escapeIdentifier(table);
    const live = async () =>
      (await tx.query<{ live: boolean }>(`SELECT EXISTS (SELECT 1 FROM ${name} WHERE received_at >= $1::timestamptz) AS live`, [sinceIso]))
        .rows[0]!.live;
    if (await live()) return false;
    await tx.query('LOCK TABLE event_claims IN ACCESS EXCLUSIVE MODE');
    if (await live()) return false;
    await tx.query(`DROP TABLE ${name}`);
    return true;
  });
}

/** Deletes the claims of the default partition received before `beforeIso`. */
export function deleteOtherClaimsBefore(db: Db, beforeIso: string): Promise<number> {
  return inTransaction(db, async (tx) => {
    await tx.query(upkeepLockTimeout);
    await tx.query(byReceiptIndex);
    const other = await tx.query(`DELETE FROM ${otherDaysTable} WHERE received_at < $1::timestamptz`, [beforeIso]);
    return other.rowCount ?? 0;
  });
}
