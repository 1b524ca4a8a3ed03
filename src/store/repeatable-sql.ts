// The SQL that is not a migration: functions and triggers, each in a file beside its capability,
// applied after every migrate with CREATE OR REPLACE, so their text is as they are now and their
// history is git's. Also the step that brings a database made before the migrations were squashed
// into one baseline onto it.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import pg from 'pg';

/** In the order they are applied: a function before what calls it or triggers on it. */
const files = [
  '../ingest/sql/epoch-ms-json.sql',
  '../ingest/sql/event-claims-add-day.sql',
  '../identities/sql/batch-identities.sql',
  '../identities/sql/seen-name.sql',
  '../ingest/sql/insert-kills.sql',
  '../ingest/sql/players.sql',
  '../ingest/sql/player-totals.sql',
  '../players/sql/names-seen.sql',
  '../webhooks/sql/outbox.sql',
  '../ingest/sql/apply-batch.sql',
  '../trust/sql/entries-changed.sql',
  '../game-files/sql/one-server-a-file.sql',
];

const texts = () => files.map((file) => readFileSync(new URL(file, import.meta.url), 'utf8'));

/**
 * One process at a time per schema: two starting at once would replace each other's functions
 * mid-statement. The functions are the schema's own (search_path), so other schemas need not wait.
 */
export const repeatableSqlLockKey = (schema: string): number =>
  createHash('sha256').update(`gameservice repeatable sql ${schema}`).digest().readIntBE(0, 6);

/** Applies the files on a client whose search_path is `schema`. */
export async function applyRepeatableSql(client: pg.Client, schema: string): Promise<void> {
  await client.query('BEGIN');
  try {
    await client.query('SELECT pg_advisory_xact_lock($1)', [repeatableSqlLockKey(schema)]);
    for (const text of texts()) await client.query(text);
    await client.query('COMMIT');
  } catch (err) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw err;
  }
}

/** The migrations the baseline replaced, the last of them last: a database that ran them all holds the baseline's schema. */
const squashedFirst = '1732250000000_foundation';
const squashedLast = '1732440000000_chat-bots';
const baseline = '1732500000000_baseline';

/**
 * A database made before the squash ran every migration up to the last one the baseline replaced:
 * its schema is the baseline's, so the baseline is recorded as run, and what only web processes of
 * that time used goes. One that stopped short of them is refused with what to do.
 */
export async function adoptBaseline(client: pg.Client, schema: string): Promise<void> {
  const found = await client.query<{ table: string | null }>('SELECT to_regclass($1)::text AS table', [
    `${pg.escapeIdentifier(schema)}.schema_migrations`,
  ]);
  if (!found.rows[0]?.table) return;
  const names = (await client.query<{ name: string }>(`SELECT name FROM ${found.rows[0].table}`)).rows.map((r) => r.name);
  if (!names.includes(squashedFirst) || names.includes(baseline)) return;
  if (!names.includes(squashedLast)) {
    throw new Error(
      `the database schema "${schema}" predates the squashed migrations but stopped before ${squashedLast}: migrate it with a checkout of that time first, or drop it (nothing of it was released)`,
    );
  }
  await client.query('BEGIN');
  try {
    await client.query('LOCK TABLE schema_migrations');
    await client.query('DELETE FROM schema_migrations');
    await client.query('INSERT INTO schema_migrations (name, run_on) VALUES ($1, now())', [baseline]);
    await client.query('DROP TABLE IF EXISTS ingest_events');
    for (const fn of ['ingest_apply_batch', 'ingest_apply_batch_text', 'ingest_apply_batches'])
      await client.query(`DROP FUNCTION IF EXISTS ${fn}`);
    await client.query('COMMIT');
  } catch (err) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw err;
  }
}
