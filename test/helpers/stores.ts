// Direct looks into the stores of a test environment: every key of its Redis prefix, every row of
// its PostgreSQL schema. For tests that check what is (or is not) kept, beneath the API.
import type { Deps } from '../../src/deps.ts';
import { prefixedKeys } from './redis-keys.ts';

export { deleteAllKeys, prefixedKeys } from './redis-keys.ts';

/** Every Redis key of the prefix with its whole value as text (members, fields, scores included; hash fields sorted). */
export async function redisDump(deps: Deps): Promise<Map<string, string>> {
  const dump = new Map<string, string>();
  for (const key of await prefixedKeys(deps)) {
    const type = await deps.redis.type(key);
    let value: unknown;
    if (type === 'string') value = await deps.redis.get(key);
    else if (type === 'hash') value = Object.entries(await deps.redis.hgetall(key)).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    else if (type === 'zset') value = await deps.redis.zrange(key, 0, -1, 'WITHSCORES');
    else if (type === 'set') value = await deps.redis.smembers(key);
    else if (type === 'list') value = await deps.redis.lrange(key, 0, -1);
    else if (type === 'none')
      continue; // expired between SCAN and TYPE
    else value = `<${type}>`;
    dump.set(key, `${type} ${JSON.stringify(value)}`);
  }
  return dump;
}

/** Every row of every table of the environment's schema, as JSON text, by table name. */
export async function pgDump(deps: Deps): Promise<Map<string, string[]>> {
  const { rows: tables } = await deps.db.query<{ name: string }>(
    `SELECT table_name AS name FROM information_schema.tables
     WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' ORDER BY table_name`,
  );
  const dump = new Map<string, string[]>();
  for (const { name } of tables) {
    const { rows } = await deps.db.query<{ row: string }>(`SELECT row_to_json(t)::text AS row FROM "${name.replaceAll('"', '""')}" t`);
    dump.set(
      name,
      rows.map((r) => r.row),
    );
  }
  return dump;
}
