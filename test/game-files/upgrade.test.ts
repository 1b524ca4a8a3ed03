// The upgrade to files confined to GAME_FILES_DIR (migration 1732430000000), run on a database as
// the release before left it: the paths communities set for themselves are cleared and audited with
// their old values; the operator's stay as they were (absolute, outside any folder, even shared),
// to be checked at every sync; from then on one file belongs to one live server.
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import test from 'ava';
import { runner } from 'node-pg-migrate';
import pg from 'pg';
import { createLog } from '../../src/log.ts';
import { ensureDatabase, migrate } from '../../src/store/migrate.ts';
import { testDatabaseUrl } from '../helpers/env.ts';

const migrationsDir = fileURLToPath(new URL('../../migrations/', import.meta.url));
/** The last migration of the release before. */
const before = 1732420000000;

test('the upgrade clears the file paths communities chose (audited with the old paths) and keeps the operator\'s', async (t) => {
  const schema = `t_${randomBytes(6).toString('hex')}`;
  await ensureDatabase(testDatabaseUrl);
  await runner({
    databaseUrl: testDatabaseUrl, dir: migrationsDir, direction: 'up', count: before, timestamp: true,
    migrationsTable: 'schema_migrations', schema, createSchema: true, advisoryLockMode: 'wait', log: () => undefined,
  });
  const db = new pg.Client({ connectionString: testDatabaseUrl, options: `-c search_path=${schema}` });
  await db.connect();
  t.teardown(async () => {
    await db.query(`DROP SCHEMA ${schema} CASCADE`);
    await db.end();
  });
  const account = async (name: string, operator: boolean) => (await db.query<{ id: string }>(
    'INSERT INTO accounts (name, is_operator) VALUES ($1, $2) RETURNING id', [name, operator])).rows[0]!.id;
  const server = async (accountId: string, ban: string | null, priority: string | null, revoked = false) => (await db.query<{ id: string }>(
    `INSERT INTO servers (account_id, name, ingest_token_hash, ban_file_path, priority_file_path, revoked_at)
     VALUES ($1, 'server', $2, $3, $4, CASE WHEN $5 THEN now() END) RETURNING id`, [accountId, randomBytes(32), ban, priority, revoked])).rows[0]!.id;
  const operator = await account('Operator', true);
  const [victim, attacker] = [await account('Victim', false), await account('Attacker', false)];
  // The operator's: absolute outside any folder, and two servers sharing one file.
  const kept = [await server(operator, '/srv/outside/ban.txt', '/srv/outside/priority.txt'), await server(operator, 'shared.txt', null), await server(operator, null, 'shared.txt')];
  // The attacks: the dashboard, another community's ban file.
  const victimServer = await server(victim, '/srv/victim/ban.txt', null);
  const attackerServer = await server(attacker, '/srv/victim/ban.txt', '/work/main/web/dist/index.html');
  const withoutPaths = await server(attacker, null, null);

  await migrate(testDatabaseUrl, schema, createLog('silent'));

  const paths = async (id: string) => (await db.query<{ ban: string | null; priority: string | null }>(
    'SELECT ban_file_path AS ban, priority_file_path AS priority FROM servers WHERE id = $1', [id])).rows[0];
  t.deepEqual(await paths(kept[0]!), { ban: '/srv/outside/ban.txt', priority: '/srv/outside/priority.txt' });
  t.deepEqual(await paths(kept[1]!), { ban: 'shared.txt', priority: null });
  t.deepEqual(await paths(kept[2]!), { ban: null, priority: 'shared.txt' });
  for (const id of [victimServer, attackerServer, withoutPaths]) t.deepEqual(await paths(id), { ban: null, priority: null });
  const { rows } = await db.query<{ account_id: string; target_id: string; actor_type: string; details: Record<string, unknown> }>(
    "SELECT account_id, target_id, actor_type, details FROM audit_log WHERE action = 'server.file-paths-cleared' ORDER BY account_id = $1 DESC", [victim]);
  t.like(rows, [
    { account_id: victim, target_id: victimServer, actor_type: 'system', details: { banFilePath: '/srv/victim/ban.txt', priorityFilePath: null } },
    { account_id: attacker, target_id: attackerServer, details: { banFilePath: '/srv/victim/ban.txt', priorityFilePath: '/work/main/web/dist/index.html' } },
  ]);
  t.is(rows.length, 2, 'a server without paths is not mentioned');
  // From now on a file another live server uses is refused by the database too.
  await t.throwsAsync(db.query('UPDATE servers SET ban_file_path = $2 WHERE id = $1', [withoutPaths, 'SHARED.txt']), { message: /another live server uses that file/ });
  const { rows: [request] } = await db.query(
    "INSERT INTO file_sync_requests (server_id, kind, requested_at) VALUES ($1, 'bans', now()) RETURNING failures, retry_at, last_error", [withoutPaths]);
  t.deepEqual(request, { failures: 0, retry_at: null, last_error: null });
});
