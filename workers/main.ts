// The worker: schedules every capability's background jobs (node-schedule), declared in their
// descriptions (src/capabilities.ts). Each run takes a Redis lock so replicas never run one twice
// (src/job.ts).
import schedule from 'node-schedule';
import type { Deps } from '../src/deps.ts';
import { capabilities } from '../src/capabilities.ts';
import { runJob } from '../src/job.ts';
import type { Job } from '../src/job.ts';

export const jobs = capabilities.flatMap((c): Job<Deps>[] => c.jobs ?? []);

/** Schedules the jobs, each under its name; returns a function that stops them. */
export function scheduleJobs(deps: Deps, list: Job<Deps>[]): () => Promise<void> {
  const scheduled = list.map((job) => schedule.scheduleJob(job.name, job.rule, () => void runJob(deps, job)));
  return async () => {
    for (const s of scheduled) s.cancel();
    await schedule.gracefulShutdown();
  };
}

/** Starts every job (and runs each once now); returns a function that stops them. */
export function startWorker(deps: Deps): () => Promise<void> {
  const stop = scheduleJobs(deps, jobs);
  for (const job of jobs) void runJob(deps, job);
  return stop;
}
