// The environment of every service process the bench starts (and of the bench's own Deps): the
// bench database and Redis prefix, and every limit raised far above what the bench can send, so
// the limiters run their scripts on every request and allow it. BENCH_WEB_PROCESSES=N starts each
// service with N web processes (WEB_CONCURRENCY); a Redis Cluster (REDIS_CLUSTER_NODES) and a read
// replica (DATABASE_READ_URL) set in the bench's environment are passed on.
import { randomBytes } from 'node:crypto';
import process from 'node:process';

/** Far above anything the bench can send: the limiter runs its script on every request, and allows it. */
export const unlimited = '1000000000';
export const serviceEnv: Record<string, string> = {
  NODE_ENV: 'production',
  HOST: '127.0.0.1',
  DATABASE_URL: process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/gameservice_bench',
  DATABASE_SCHEMA: 'bench',
  REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
  REDIS_PREFIX: 'bench:',
  LOG_LEVEL: 'warn',
  RATE_DATA_STANDARD: unlimited,
  RATE_DATA_PARTNER: unlimited,
  RATE_INGEST: unlimited,
  RATE_CONTROLLER: unlimited,
  RATE_TRUST_LOOKUP: unlimited,
  RATE_EXPORT_BASIC: unlimited,
  RATE_EXPORT_PREMIUM: unlimited,
  CONTROLLER_RATE_LIMIT: 'true',
  // The session secret, fresh per run: the bench process signs the owner's session with it (its
  // config is loaded from this same environment), the children check it.
  JWT_SECRET: randomBytes(32).toString('base64url'),
  WEB_CONCURRENCY: webProcesses(process.env.BENCH_WEB_PROCESSES),
  ...passedOn(['REDIS_CLUSTER_NODES', 'DATABASE_READ_URL']),
};

/** BENCH_WEB_PROCESSES: how many web processes each service runs (1 unless set). */
function webProcesses(value: string | undefined): string {
  if (value === undefined || value === '') return '1';
  if (!/^[1-9][0-9]?$/.test(value)) throw new Error(`BENCH_WEB_PROCESSES=${JSON.stringify(value)}: a whole number from 1 to 99`);
  return value;
}

/** The engines the bench was pointed at, for the service too. */
function passedOn(names: string[]): Record<string, string> {
  return Object.fromEntries(names.flatMap((name) => (process.env[name] ? [[name, process.env[name]]] : [])));
}
