// Liveness and readiness. Liveness is the process answering at all: a supervisor restarts one that
// does not. Readiness is whether a balancer should send it requests: the primary PostgreSQL and
// Redis answer, the schema has run every migration of this build, and the process is not draining
// for shutdown (src/health/draining.ts). The read replica is reported, never a reason to be unready:
// while it is down its reads go to the primary.
import type { Core } from '../core.ts';
import type { Readiness } from '../http/schema-types.ts';
import { pendingMigrations } from '../store/migrate.ts';
import { isDraining } from './draining.ts';

const probeTimeoutMs = 1000;

/** What a probe found: its value, or undefined when it failed or took longer than a second. */
export async function probe<T>(work: () => Promise<T>): Promise<T | undefined> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), probeTimeoutMs);
  });
  try {
    return await Promise.race([work(), timeout]);
  } catch {
    return undefined; // the answer itself reports it
  } finally {
    clearTimeout(timer);
  }
}

/** Once every migration has run it stays so for this process: the check then costs nothing. */
const migrated = new WeakSet<Core['db']>();

async function migrationsState(deps: Core): Promise<Readiness['migrations']> {
  if (migrated.has(deps.db)) return 'applied';
  const pending = await probe(() => pendingMigrations(deps.db));
  if (pending === undefined) return 'unknown';
  if (pending.length > 0) return 'pending';
  migrated.add(deps.db);
  return 'applied';
}

export async function readiness(deps: Core): Promise<Readiness> {
  const [postgres, redis, migrations, replica] = await Promise.all([
    probe(() => deps.db.query('SELECT 1')),
    probe(() => deps.redis.ping()),
    migrationsState(deps),
    deps.readDb === deps.db ? Promise.resolve(null) : probe(() => deps.readDb.query('SELECT 1')),
  ]);
  const draining = isDraining();
  const ready = postgres !== undefined && redis !== undefined && migrations === 'applied' && !draining;
  return {
    status: ready ? 'ready' : 'not_ready',
    postgres: postgres === undefined ? 'down' : 'up',
    redis: redis === undefined ? 'down' : 'up',
    migrations,
    draining,
    readReplica: replica === null ? 'none' : replica === undefined ? 'down' : 'up',
  };
}
