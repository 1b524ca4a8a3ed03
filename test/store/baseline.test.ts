// The schema's SQL: one baseline migration and the migrations after it, then the functions and triggers applied on every
// migrate (idempotent, so two migrates leave one of each); a database made before the squash is
// brought onto the baseline with its data, one that stopped short of it is refused with what to do.
import { randomBytes } from 'node:crypto';
import test, { type ExecutionContext } from 'ava';
import pg from 'pg';
import { runner } from 'node-pg-migrate';
import { createLog } from '../../src/log.ts';
import { projectPath } from '../../src/project-root.ts';
import { ensureDatabase, migrate, migrationLockKey } from '../../src/store/migrate.ts';
import { repeatableSqlLockKey } from '../../src/store/repeatable-sql.ts';
import { testDatabaseUrl } from '../helpers/env.ts';

const log = createLog('silent');
const migrationsDir = projectPath('migrations');

async function freshSchema(t: ExecutionContext) {
  const schema = `t_${randomBytes(6).toString('hex')}`;
  await ensureDatabase(testDatabaseUrl);
  await migrate(testDatabaseUrl, schema, log);
  const db = new pg.Client({ connectionString: testDatabaseUrl, options: `-c search_path=${schema}` });
  await db.connect();
  t.teardown(async () => {
    await db.query(`DROP SCHEMA ${schema} CASCADE`);
    await db.end();
  });
  return { schema, db };
}

/** The baseline, then the migrations added since, in order. */
const applied = [
  '1732500000000_baseline',
  '1732600000000_webhooks',
  '1795812144000_account-time-and-audit-syncs',
  '1795812551590_player-profiles',
  '1795825348472_webhook-watch-and-streak',
  '1795900000000_trust-feed-mark-positions',
];

const migrations = async (db: pg.Client) =>
  (await db.query<{ name: string }>('SELECT name FROM schema_migrations ORDER BY name')).rows.map((r) => r.name);
const functions = async (db: pg.Client, schema: string) =>
  (
    await db.query<{ proname: string }>('SELECT proname FROM pg_proc WHERE pronamespace = $1::regnamespace ORDER BY proname', [schema])
  ).rows.map((r) => r.proname);

test('migrating twice runs the baseline once and leaves one of each function; the triggers work', async (t) => {
  const { schema, db } = await freshSchema(t);
  const once = await functions(db, schema);
  await migrate(testDatabaseUrl, schema, log);
  t.deepEqual(await migrations(db), applied);
  t.deepEqual(await functions(db, schema), once);
  for (const name of [
    'ingest_apply_events',
    'ingest_insert_kills',
    'ingest_apply_totals',
    'epoch_ms_json',
    'event_claims_add_day',
    'trust_entries_changed',
    'servers_one_server_a_file',
    'server_players_name_seen',
    'webhook_enqueue_kills',
    'webhook_subscribed_servers',
    'webhook_watch_servers',
    'seen_player_name',
  ]) {
    t.true(once.includes(name), name);
  }
  // One file belongs to one live server, checked by the database too (whatever the case of its name).
  const account = (await db.query<{ id: string }>("INSERT INTO accounts (name) VALUES ('A') RETURNING id")).rows[0]!.id;
  const server = async (ban: string | null) =>
    (
      await db.query<{ id: string }>(
        "INSERT INTO servers (account_id, name, ingest_token_hash, ban_file_path) VALUES ($1, 'server', $2, $3) RETURNING id",
        [account, randomBytes(32), ban],
      )
    ).rows[0]!.id;
  await server('shared.txt');
  const other = await server(null);
  await t.throwsAsync(db.query('UPDATE servers SET ban_file_path = $2 WHERE id = $1', [other, 'SHARED.txt']), {
    message: /another live server uses that file/,
  });
});

test('two processes migrating one schema at once both succeed', async (t) => {
  const { schema, db } = await freshSchema(t);
  await Promise.all([migrate(testDatabaseUrl, schema, log), migrate(testDatabaseUrl, schema, log)]);
  t.deepEqual(await migrations(db), applied);
});

test('a database made before the squash keeps its data, records the baseline and loses what only old web processes used', async (t) => {
  const { schema, db } = await freshSchema(t);
  // As the last release before the squash left it: the migrations after the baseline taken down,
  // every squashed migration recorded, the old event ledger and the old ingest function beside the current ones.
  await runner({
    databaseUrl: testDatabaseUrl,
    dir: migrationsDir,
    direction: 'down',
    count: applied.length - 1,
    advisoryLockMode: 'wait',
    migrationsTable: 'schema_migrations',
    schema,
    log: () => undefined,
  });
  await db.query('DELETE FROM schema_migrations');
  await db.query(
    "INSERT INTO schema_migrations (name, run_on) VALUES ('1732250000000_foundation', now()), ('1732410000000_event-claims-by-time', now()), ('1732440000000_chat-bots', now())",
  );
  // Nor had it what the migrations after the baseline add (their down steps removed it).
  await db.query('CREATE TABLE ingest_events (server_id uuid, event_id uuid)');
  await db.query('CREATE FUNCTION ingest_apply_batches(a int) RETURNS int LANGUAGE sql AS $$ SELECT a $$');
  await db.query("INSERT INTO accounts (name) VALUES ('Kept')");

  await migrate(testDatabaseUrl, schema, log);

  t.deepEqual(await migrations(db), applied);
  t.is((await db.query("SELECT to_regclass('ingest_events') AS t")).rows[0].t, null);
  t.false((await functions(db, schema)).includes('ingest_apply_batches'));
  t.is((await db.query("SELECT count(*)::int AS n FROM accounts WHERE name = 'Kept'")).rows[0].n, 1);
});

test('a database that stopped before the last squashed migration is refused with what to do, untouched', async (t) => {
  const { schema, db } = await freshSchema(t);
  await db.query('DELETE FROM schema_migrations');
  await db.query("INSERT INTO schema_migrations (name, run_on) VALUES ('1732250000000_foundation', now())");
  await t.throwsAsync(migrate(testDatabaseUrl, schema, log), {
    message: /stopped before 1732440000000_chat-bots: migrate it with a checkout of that time first/,
  });
  t.deepEqual(await migrations(db), ['1732250000000_foundation']);
});

test("a schema's migration waits only for the same schema's: another schema of the database migrates meanwhile", async (t) => {
  const blocked = `t_${randomBytes(6).toString('hex')}`;
  const free = `t_${randomBytes(6).toString('hex')}`;
  // Another process in the middle of migrating `blocked`: it holds that schema's locks.
  const holder = new pg.Client({ connectionString: testDatabaseUrl });
  await holder.connect();
  t.teardown(async () => {
    await holder.query(`DROP SCHEMA IF EXISTS ${blocked} CASCADE; DROP SCHEMA IF EXISTS ${free} CASCADE`);
    await holder.end();
  });
  await holder.query('SELECT pg_advisory_lock($1), pg_advisory_lock($2)', [migrationLockKey(blocked), repeatableSqlLockKey(blocked)]);
  let blockedDone = false;
  const waiting = migrate(testDatabaseUrl, blocked, log).then(() => (blockedDone = true));
  const stalled = new Promise<'stalled'>((resolve) => setTimeout(resolve, 30_000, 'stalled').unref());
  t.not(await Promise.race([migrate(testDatabaseUrl, free, log), stalled]), 'stalled', 'another schema does not wait');
  const db = new pg.Client({ connectionString: testDatabaseUrl, options: `-c search_path=${free}` });
  await db.connect();
  t.deepEqual(await migrations(db), applied);
  await db.end();
  t.false(blockedDone, 'the same schema still waits for the holder');
  await holder.query('SELECT pg_advisory_unlock_all()');
  await waiting;
  t.true(blockedDone);
});
