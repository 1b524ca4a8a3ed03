// PostgreSQL pool and transactions; the schema comes from configuration so tests can isolate.
import pg from 'pg';

export type Db = pg.Pool;
export type DbClient = pg.PoolClient;
/** Either the pool or a client inside a transaction: store functions accept both. */
export type Queryable = Pick<pg.Pool, 'query'>;

// Sessions run in UTC, so PostgreSQL renders timestamptz as "2026-11-22 10:00:00.1234+00".
// It becomes an ISO string with at least milliseconds and its microseconds intact (a Date
// would drop them): 2026-11-22T10:00:00.123400Z, 2026-11-22T10:00:00.000Z.
export function isoFromPg(text: string): string {
  const [seconds, fraction = ''] = text.slice(0, -3).split('.');
  const digits = fraction.length > 3 ? fraction.padEnd(6, '0') : fraction.padEnd(3, '0');
  return `${seconds!.replace(' ', 'T')}.${digits}Z`;
}
pg.types.setTypeParser(pg.types.builtins.TIMESTAMPTZ, isoFromPg);
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number(v));

export function createDb(databaseUrl: string, schema: string, poolSize: number): Db {
  const pool = new pg.Pool({
    connectionString: databaseUrl,
    max: poolSize,
    options: `-c search_path=${schema} -c TimeZone=UTC`,
    connectionTimeoutMillis: 3000,
    statement_timeout: 30_000,
  });
  // An idle client that loses its connection emits here; the pool replaces it.
  pool.on('error', () => undefined);
  return pool;
}

export async function inTransaction<T>(db: Db, work: (client: DbClient) => Promise<T>): Promise<T> {
  const client = await db.connect();
  try {
    await client.query('BEGIN');
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (err) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw err;
  } finally {
    client.release();
  }
}
