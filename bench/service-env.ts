// The environment of every service process the bench starts (and of the bench's own Deps): the
// bench database and Redis prefix, and every limit raised far above what the bench can send, so
// the limiters run their scripts on every request and allow it.
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
};
