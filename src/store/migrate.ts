// Applies the versioned SQL migrations in migrations/ (node-pg-migrate), then the repeatable SQL
// (functions and triggers, kept beside their capability: repeatable-sql.ts), and creates the
// database itself when it does not exist yet, so a fresh machine needs no manual step.
import { createHash } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import pg from 'pg';
import { runner } from 'node-pg-migrate';
import type { Log } from '../log.ts';
import { adoptBaseline, applyRepeatableSql } from './repeatable-sql.ts';
import { projectPath } from '../project-root.ts';
import type { Queryable } from './db.ts';

const migrationsDir = projectPath('migrations');

export async function ensureDatabase(databaseUrl: string): Promise<void> {
  const url = new URL(databaseUrl);
  const name = decodeURIComponent(url.pathname.slice(1));
  if (!name || name === 'postgres') return;
  url.pathname = '/postgres';
  const client = new pg.Client({ connectionString: url.toString() });
  await client.connect();
  try {
    const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (found.rowCount === 0) {
      await client.query(`CREATE DATABASE ${pg.escapeIdentifier(name)}`).catch((err: { code?: string }) => {
        // Created meanwhile by another process: 42P04, or 23505 when both inserted the catalog row at once.
        if (err.code !== '42P04' && err.code !== '23505') throw err;
      });
    }
  } finally {
    await client.end();
  }
}

/**
 * The advisory lock of one schema's migrations. Processes migrating the same schema take turns; other
 * schemas of the database are other tables and functions, so they never wait (node-pg-migrate's own
 * lock is one for the whole database: every test world queued behind every other one's DDL).
 */
export const migrationLockKey = (schema: string): number =>
  createHash('sha256').update(`gameservice migrations ${schema}`).digest().readIntBE(0, 6);

export async function migrate(databaseUrl: string, schema: string, log: Log): Promise<void> {
  await withClient(databaseUrl, schema, (client) => adoptBaseline(client, schema));
  await runner({
    databaseUrl,
    dir: migrationsDir,
    direction: 'up',
    migrationsTable: 'schema_migrations',
    schema,
    createSchema: true,
    advisoryLockMode: 'wait',
    lockValue: migrationLockKey(schema),
    // Migrations written side by side land in merge order, not in their files' dates: one dated
    // before a migration a database already ran still runs (each is idempotent, IF NOT EXISTS).
    checkOrder: false,
    log: (msg: string) => log.debug({ migration: msg }),
  });
  await withClient(databaseUrl, schema, (client) => applyRepeatableSql(client, schema));
}

async function withClient<T>(databaseUrl: string, schema: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: databaseUrl, options: `-c search_path=${schema}` });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

let migrationNames: Promise<string[]> | undefined;

/** The versioned migrations this build carries (migrations/*.sql by name), read once. */
function knownMigrations(): Promise<string[]> {
  migrationNames ??= readdir(migrationsDir).then((files) =>
    files
      .filter((f) => f.endsWith('.sql'))
      .map((f) => f.slice(0, -'.sql'.length))
      .sort(),
  );
  return migrationNames;
}

/** The migrations of this build the schema has not run yet (every one when it has run none). */
export async function pendingMigrations(db: Queryable): Promise<string[]> {
  const known = await knownMigrations();
  // A schema that has never been migrated has no table of them yet (42P01): none ran.
  const ran = await db.query<{ name: string }>('SELECT name FROM schema_migrations').then(
    ({ rows }) => new Set(rows.map((r) => r.name)),
    (err: { code?: string }) => {
      if (err.code === '42P01') return new Set<string>();
      throw err;
    },
  );
  return known.filter((name) => !ran.has(name));
}
