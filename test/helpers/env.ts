// A private world per test: its own PostgreSQL schema (migrated), its own Redis key prefix,
// a manual clock and a supertest client. Tests run in parallel without seeing each other.
// With TEST_DATABASE_READ_URL the world reads through that replica (test/helpers/replica.ts), and
// each request waits until the replica has replayed what the test wrote before it.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { randomBytes } from 'node:crypto';
import supertest from 'supertest';
import type TestAgent from 'supertest/lib/agent.js';
import { createApp } from '../../src/app.ts';
import { ManualClock } from '../../src/clock.ts';
import { loadConfig } from '../../src/config.ts';
import { closeDeps, connectDeps, createDeps } from '../../src/deps.ts';
import type { Deps } from '../../src/deps.ts';
import { createLog } from '../../src/log.ts';
import { ensureDatabase, migrate } from '../../src/store/migrate.ts';
import { deleteAllKeys } from './redis-keys.ts';
import { replicaCaughtUp, testDatabaseReadUrl } from './replica.ts';

export const testDatabaseUrl = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/gameservice_test';
/**
 * TEST_REDIS_CLUSTER_NODES (host:port,...): the worlds use that Redis Cluster (scripts/ci/redis-cluster.sh)
 * instead of REDIS_URL, unless a test names its own Redis.
 */
export const testRedisClusterNodes = process.env.TEST_REDIS_CLUSTER_NODES || undefined;

/** The Redis of the worlds (for a test that loads a configuration of its own): the cluster under test, else REDIS_URL. */
export const testRedisEnv = (): Record<string, string | undefined> =>
  testRedisClusterNodes ? { REDIS_CLUSTER_NODES: testRedisClusterNodes } : { REDIS_URL: process.env.REDIS_URL };

/** The Redis a world uses: the test's own if it names one, else the worlds' one. */
function redisOf(env: Record<string, string>): Record<string, string | undefined> {
  return env.REDIS_URL !== undefined || env.REDIS_CLUSTER_NODES !== undefined ? {} : testRedisEnv();
}

export const t0 = Date.parse('2026-11-22T12:00:00.000Z');
/** scrypt's cost in test worlds: a sixteenth of production's, as the tests make users and sign them in by the hundred. */
export const testScryptN = 1024;

export interface TestEnv {
  deps: Deps;
  clock: ManualClock;
  request: TestAgent;
  close: () => Promise<void>;
}

let databaseReady: Promise<void> | undefined;

export interface TestEnvOptions {
  /**
   * Requests wait for the replica to replay what was written before them (the default): tests of
   * what the service answers, not of replication. Tests of a lagging replica turn it off.
   */
  awaitReplica?: boolean;
}

export async function testEnv(env: Record<string, string> = {}, options: TestEnvOptions = {}): Promise<TestEnv> {
  const schema = `t_${randomBytes(6).toString('hex')}`;
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    DATABASE_URL: testDatabaseUrl,
    DATABASE_SCHEMA: schema,
    ...redisOf(env),
    REDIS_PREFIX: `${schema}:`,
    PG_POOL_SIZE: '3',
    PASSWORD_SCRYPT_N: String(testScryptN),
    ...(testDatabaseReadUrl ? { DATABASE_READ_URL: testDatabaseReadUrl } : {}),
    ...env,
  });
  const log = createLog('silent');
  databaseReady ??= ensureDatabase(testDatabaseUrl);
  await databaseReady;
  await migrate(testDatabaseUrl, schema, log);
  const clock = new ManualClock(t0);
  const deps = createDeps(config, { clock, log });
  const close = async () => {
    await deps.db.query(`DROP SCHEMA ${schema} CASCADE`);
    await deleteAllKeys(deps);
    await closeDeps(deps);
  };
  // A world that fails to connect is removed, and its connections closed: none may hold the test process open.
  await connectDeps(deps).catch(async (err: unknown) => {
    await close().catch(() => closeDeps(deps));
    throw err;
  });
  // The schema reaches the replica before anything reads it there.
  await replicaCaughtUp(deps);
  const handle = createApp(deps).callback();
  const awaitReplica = options.awaitReplica !== false && deps.readDb !== deps.db;
  const listener = awaitReplica
    ? (req: IncomingMessage, res: ServerResponse) =>
        void replicaCaughtUp(deps).then(
          () => handle(req, res),
          (err: unknown) => res.writeHead(599).end(String(err)),
        )
    : handle;
  const request = supertest(listener);
  return { deps, clock, request, close };
}
