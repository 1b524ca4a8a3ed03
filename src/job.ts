// A background job as a capability declares it, and how the worker runs one: under a Redis lock
// (so replicas never run it twice at once), retried within the run, its failures logged and never
// thrown (the schedule goes on). Job bodies live in their capabilities' folders and are plain,
// idempotent functions.
import { setTimeout as delay } from 'node:timers/promises';
import type { Core } from './core.ts';
import { withJobLock } from './store/job-lock.ts';
import { jobRuns, jobsRunning } from './meters.ts';

export interface Job<D = Core> {
  name: string;
  /** When it runs: a cron rule with seconds (node-schedule). */
  rule: string;
  lockMs: number;
  /** false: no job-wide lock (the job locks finer itself, as the file syncs lock each server). */
  lock?: boolean;
  run: (deps: D) => Promise<unknown>;
  /** Retries within the same run after a failure (default 0), waiting retryMs between tries. */
  retries?: number;
  retryMs?: number;
}

/** One run of a job, timed; what it returns (undefined: nothing worth saying) is logged. */
export async function runJob<D extends Pick<Core, 'redis' | 'log'>>(deps: D, job: Job<D>): Promise<void> {
  const stop = jobRuns.startTimer({ job: job.name });
  jobsRunning.inc();
  try {
    stop({ outcome: (await tryJob(deps, job)) ? 'done' : 'failed' });
  } finally {
    jobsRunning.dec();
  }
}

/** Runs the job with its retries; false when its last try failed. */
async function tryJob<D extends Pick<Core, 'redis' | 'log'>>(deps: D, job: Job<D>): Promise<boolean> {
  for (let attempt = 0; ; attempt++) {
    try {
      const result = job.lock === false ? await job.run(deps) : await withJobLock(deps.redis, job.name, job.lockMs, () => job.run(deps));
      if (result !== undefined) deps.log.info({ job: job.name, result }, 'job done');
      return true;
    } catch (err) {
      const retrying = attempt < (job.retries ?? 0);
      deps.log.error({ job: job.name, err, attempt }, retrying ? 'job failed; retrying' : 'job failed; it runs again at its next time');
      if (!retrying) return false;
      await delay(job.retryMs ?? 1000);
    }
  }
}
