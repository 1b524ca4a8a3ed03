// Redis locks so that several worker replicas run each job once at a time.
import { randomUUID } from 'node:crypto';
import type { AppRedis } from './redis.ts';
import { jobLockKey } from './keys.ts';

/** Runs work if the lock is free; returns undefined when another worker holds it. */
export async function withJobLock<T>(redis: AppRedis, job: string, ttlMs: number, work: () => Promise<T>): Promise<T | undefined> {
  const token = randomUUID();
  const key = jobLockKey(job);
  if ((await redis.set(key, token, 'PX', ttlMs, 'NX')) !== 'OK') return undefined;
  try {
    return await work();
  } finally {
    await redis.releaseLock(key, token);
  }
}
